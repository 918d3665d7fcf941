import { ApiError } from '../../../src-shared/errors';

/**
 * Counts failed authentications per client over a sliding minute (decisions §2: more than 10 → 429).
 * Only failures are limited: a script on the same machine that presents a valid credential is never
 * locked out by another one's typo, while guessing stays bounded. A request without any credential
 * is not an attempt and is not counted.
 */
export class FailedAuthLimiter {
  private readonly failures = new Map<string, number[]>();
  private sweepAt = 500;

  constructor(
    private readonly now: () => Date,
    readonly maxPerWindow = 10,
    readonly windowMs = 60_000,
  ) {}

  private recent(client: string): number[] {
    const cutoff = this.now().getTime() - this.windowMs;
    const kept = (this.failures.get(client) ?? []).filter((at) => at > cutoff);
    if (kept.length === 0) this.failures.delete(client);
    else this.failures.set(client, kept);
    return kept;
  }

  /** How many clients have failures on record. */
  get trackedClients(): number {
    return this.failures.size;
  }

  /** Records a failure; true when the client is now over the limit. */
  fail(client: string): boolean {
    // A client that failed once and never came back would stay here for the life of the process (a
    // hub on a LAN meets many): past a few hundred clients, those with nothing left in the window go,
    // and the next sweep waits until the clients on record have doubled.
    if (this.failures.size >= this.sweepAt) {
      for (const other of [...this.failures.keys()]) this.recent(other);
      this.sweepAt = Math.max(500, 2 * this.failures.size);
    }
    const kept = this.recent(client);
    kept.push(this.now().getTime());
    this.failures.set(client, kept);
    return kept.length > this.maxPerWindow;
  }

  isOverLimit(client: string): boolean {
    return this.recent(client).length >= this.maxPerWindow;
  }

  /**
   * Seconds until the client is let through again, i.e. until fewer than `maxPerWindow` failures are
   * left in the window: with n counted failures the (n − max + 1)-th oldest has to leave, not the oldest.
   */
  retryAfterSeconds(client: string): number {
    const kept = this.recent(client);
    const blocking = kept[Math.max(0, kept.length - this.maxPerWindow)];
    if (blocking === undefined) return 0;
    return Math.max(1, Math.ceil((blocking + this.windowMs - this.now().getTime()) / 1000));
  }

  /** Records a failed authentication; once the client is over the limit the answer is 429 instead. */
  failure(client: string, error: ApiError): ApiError {
    if (this.fail(client)) {
      return new ApiError('RATE_LIMITED', 'Too many failed authentications from this client; wait a minute and try again');
    }
    return error;
  }
}
