import { CarrierFailure } from '../errors';
import { DEFAULT_CALLS_AT_A_TIME, inCallSlot, pauseCarrier } from './callSlots';

/**
 * The one way an adapter reaches its carrier (decisions §13). Every call gets a time limit, runs in
 * one of the carrier's call slots, and is recorded for the shipment's `logs[]`. Only idempotent calls
 * (reads, token requests) are tried again; a 429 waits for its Retry-After (the carrier did not act
 * on it, so any call may be sent again). What the adapter sees is a 2xx or a 4xx to read in the
 * carrier's own words; the rest becomes a CarrierFailure:
 *  - a timeout, a dropped connection or a 5xx of a call that changes something: `outcome_unknown`,
 *    since the carrier may have acted on it;
 *  - the same for an idempotent call, after its retries, or a connection that never opened: `unavailable`.
 */

/** One call made to the carrier, kept in the shipment's `logs[]` (secrets masked when written). */
export interface CarrierCallLog {
  request: unknown;
  response: unknown;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface CarrierRequest {
  /** What the call does, in the logs: book, void, track, token, servicePoints … */
  operation: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** Lower-case names; a `content-type` given here is kept (a carrier's own JSON media type). */
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded (OAuth token requests). */
  form?: Record<string, string>;
  /** Safe to send twice; only these are retried after a failure. */
  idempotent: boolean;
  timeoutMs?: number;
}

export interface CarrierResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: unknown;
}

export interface CarrierHttp {
  request: (request: CarrierRequest) => Promise<CarrierResponse>;
  /** Every attempt so far, for the shipment's logs[] (masked when written). */
  readonly calls: CarrierCallLog[];
}

export interface CarrierHttpOptions {
  /** The call slots' key: the configured carrier's id (or the org's unsaved form). */
  slotKey: string;
  callsAtATime?: number;
  timeoutMs?: number;
  /** Attempts of an idempotent call before it fails (the first included). */
  attempts?: number;
  /** The longest a 429's Retry-After is waited for; a longer one fails the call. */
  maxRetryAfterMs?: number;
  /** Backoff base between retries of idempotent calls. */
  backoffMs?: number;
}

export const CALL_TIME_LIMIT_MS = 30_000;
const LOGGED_TEXT_LIMIT = 2000;
/** Header names whose values never reach a log, whatever the carrier calls its key. */
const SECRET_HEADER = /authorization|api-?key|token|secret|password/i;
/** Fields of a token answer that are themselves secrets. */
const SECRET_FIELDS = new Set(['access_token', 'refresh_token', 'id_token', 'token', 'client_secret', 'password']);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createCarrierHttp(options: CarrierHttpOptions): CarrierHttp {
  const calls: CarrierCallLog[] = [];
  const limit = options.callsAtATime ?? DEFAULT_CALLS_AT_A_TIME;
  const attempts = options.attempts ?? 3;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const backoffMs = options.backoffMs ?? 250;

  async function attempt(request: CarrierRequest): Promise<CarrierResponse> {
    const url = withQuery(request.url, request.query);
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    let body: string | undefined;
    if (request.json !== undefined) {
      // A carrier with a JSON media type of its own (GLS ShipIT: application/glsVersion1+json) names it in `headers`.
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(request.json);
    } else if (request.form) {
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
      body = new URLSearchParams(request.form).toString();
    }
    const started = performance.now();
    const logged = {
      operation: request.operation,
      method: request.method,
      url: loggedUrl(url),
      headers: loggedHeaders(headers),
      body: loggable(request.json ?? request.form),
    };
    try {
      const response = await fetch(url, {
        method: request.method,
        headers,
        body,
        signal: AbortSignal.timeout(request.timeoutMs ?? options.timeoutMs ?? CALL_TIME_LIMIT_MS),
      });
      const text = await response.text();
      const json = parseJson(text);
      calls.push({
        request: logged,
        response: json === undefined ? clip(text) : loggable(json),
        statusCode: response.status,
        error: response.ok ? null : `HTTP ${response.status}`,
        durationMs: performance.now() - started,
      });
      return { status: response.status, headers: response.headers, text, json };
    } catch (error) {
      const failure = describeFailure(error);
      calls.push({ request: logged, response: null, statusCode: null, error: failure.message, durationMs: performance.now() - started });
      throw failure;
    }
  }

  async function request(request: CarrierRequest): Promise<CarrierResponse> {
    let rateLimitWaits = 0;
    for (let tried = 1; ; tried++) {
      let response: CarrierResponse;
      try {
        response = await inCallSlot(options.slotKey, limit, () => attempt(request));
      } catch (error) {
        const failure = error as NetworkFailure;
        if (request.idempotent && tried < attempts) {
          await sleep(backoffMs * 2 ** (tried - 1));
          continue;
        }
        // A connection that never opened carried nothing: the carrier cannot have acted on it.
        const unknown = !request.idempotent && !failure.neverSent;
        throw new CarrierFailure(unknown ? 'outcome_unknown' : 'unavailable', failure.message);
      }
      if (response.status === 429) {
        const waitMs = retryAfterMs(response.headers.get('retry-after'));
        if (waitMs > maxRetryAfterMs || rateLimitWaits >= attempts) {
          throw new CarrierFailure(
            'unavailable',
            `The carrier is rate limiting calls (HTTP 429, retry after ${Math.ceil(waitMs / 1000)} s)`,
            [{ code: 'CARRIER_RATE_LIMITED', message: `The carrier asked to wait ${Math.ceil(waitMs / 1000)} s before calling again` }],
            waitMs,
          );
        }
        rateLimitWaits++;
        tried--;
        pauseCarrier(options.slotKey, Date.now() + waitMs);
        continue;
      }
      if (response.status >= 500) {
        if (request.idempotent && tried < attempts) {
          await sleep(backoffMs * 2 ** (tried - 1));
          continue;
        }
        const message = `The carrier answered HTTP ${response.status}${response.text ? `: ${response.text.slice(0, 300)}` : ''}`;
        throw new CarrierFailure(request.idempotent ? 'unavailable' : 'outcome_unknown', message);
      }
      return response;
    }
  }

  return { request, calls };
}

interface NetworkFailure extends Error {
  neverSent: boolean;
}

function describeFailure(error: unknown): NetworkFailure {
  const name = error instanceof Error ? error.name : '';
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  const code = cause?.code ?? '';
  let message: string;
  if (name === 'TimeoutError' || name === 'AbortError') message = 'The carrier did not answer within the time limit';
  else if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') message = `The carrier could not be reached (${code})`;
  else message = `The connection to the carrier was lost${cause?.message ? ` (${cause.message})` : ''}`;
  const failure = new Error(message) as NetworkFailure;
  failure.neverSent = code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
  return failure;
}

/** Retry-After in seconds or as an HTTP date; 1 s when the carrier names none. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (!header) return 1000;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - now) : 1000;
}

function withQuery(url: string, query: CarrierRequest['query']): string {
  if (!query) return url;
  const parsed = new URL(url);
  for (const [key, value] of Object.entries(query)) if (value !== undefined) parsed.searchParams.append(key, String(value));
  return parsed.toString();
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Query parameters named like secrets (PostNord's `apikey`) are masked: percent-encoded, masking by value would miss them. */
function loggedUrl(url: string): string {
  const parsed = new URL(url);
  const isSecret = (name: string) => SECRET_HEADER.test(name) || SECRET_FIELDS.has(name);
  if (![...parsed.searchParams.keys()].some(isSecret)) return url;
  const query = [...parsed.searchParams].map(
    ([name, value]) => `${encodeURIComponent(name)}=${isSecret(name) ? '••••' : encodeURIComponent(value).replace(/%20/g, '+')}`,
  );
  return `${parsed.origin}${parsed.pathname}?${query.join('&')}${parsed.hash}`;
}

function loggedHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, SECRET_HEADER.test(name) ? '••••' : value]));
}

const clip = (text: string) => (text.length > LOGGED_TEXT_LIMIT ? `${text.slice(0, LOGGED_TEXT_LIMIT)}… (${text.length} characters)` : text);

/** A body as it is kept in logs: token fields masked, long strings (base64 labels) shortened. */
function loggable(value: unknown): unknown {
  if (typeof value === 'string') return clip(value);
  if (Array.isArray(value)) return value.map(loggable);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, SECRET_FIELDS.has(key) ? '••••' : loggable(item)]));
  }
  return value;
}
