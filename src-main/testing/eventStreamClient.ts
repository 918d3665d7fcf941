import { EventStreamParser, type ServerSentEvent } from '../../src-shared/eventStream';

/** A test's reader of `GET /orgs/{orgId}/events`: fetch with the bearer header, as the app reads it. */
export interface EventStreamReader {
  status: number;
  headers: Headers;
  events: ServerSentEvent[];
  /** Resolves with the first event (seen or coming) that fits, or rejects after `timeoutMs`. */
  next(fits: (event: ServerSentEvent) => boolean, timeoutMs?: number): Promise<ServerSentEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openEventStream(url: string, headers: Record<string, string>): Promise<EventStreamReader> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const events: ServerSentEvent[] = [];
  const waiters = new Set<() => void>();
  const parser = new EventStreamParser();
  const ended = (async () => {
    if (!response.body) return;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        events.push(...parser.push(decoder.decode(value, { stream: true })));
        for (const wake of waiters) wake();
      }
    } catch {
      // Aborted by close().
    }
  })();
  return {
    status: response.status,
    headers: response.headers,
    events,
    ended,
    close: () => controller.abort(),
    next: (fits, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        const look = () => {
          const found = events.find(fits);
          if (!found) return false;
          waiters.delete(look);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(new Error(`No fitting event in ${timeoutMs} ms; got ${JSON.stringify(events)}`));
        }, timeoutMs);
        if (!look()) waiters.add(look);
      }),
  };
}
