import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CarrierFailure } from '../errors';
import { activeCalls } from './callSlots';
import { createCarrierHttp, retryAfterMs, type CarrierHttpOptions } from './carrierHttp';

/**
 * The carrier HTTP client against a real node:http server on 127.0.0.1, scripted per test: what the
 * carrier answers, how often it was hit and how many calls it had open at once are read server-side.
 */

type Script = (hit: Hit, res: ServerResponse, req: IncomingMessage) => void | Promise<void>;

interface Hit {
  n: number;
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

interface ScriptedCarrier {
  url: string;
  hits: Hit[];
  /** The most requests the server had open at the same moment, of all or of those under one first path segment. */
  maxOpen: (segment?: string) => number;
  close: () => Promise<void>;
}

const running: ScriptedCarrier[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((carrier) => carrier.close()));
});

async function scriptedCarrier(script: Script): Promise<ScriptedCarrier> {
  const hits: Hit[] = [];
  const open = new Map<string, number>();
  const maxOpen = new Map<string, number>();
  const count = (segment: string, by: number) => {
    const now = (open.get(segment) ?? 0) + by;
    open.set(segment, now);
    maxOpen.set(segment, Math.max(maxOpen.get(segment) ?? 0, now));
  };
  const server = createServer((req, res) => {
    const segment = (req.url ?? '/').split('/')[1] ?? '';
    count('', 1);
    count(segment, 1);
    // Counted closed whichever way the exchange ends: answered, timed out by the client, or destroyed.
    res.once('close', () => {
      count('', -1);
      count(segment, -1);
    });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const hit = { n: hits.length + 1, method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      hits.push(hit);
      void script(hit, res, req);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const carrier = {
    url: `http://127.0.0.1:${port}`,
    hits,
    maxOpen: (segment = '') => maxOpen.get(segment) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  running.push(carrier);
  return carrier;
}

function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

let slotCounter = 0;
/** Call slots are kept per key for the whole process: each test takes keys of its own. */
const freshKey = (name = 'carrier') => `test:${name}:${++slotCounter}:${Date.now()}`;

function client(options: Partial<CarrierHttpOptions> = {}) {
  return createCarrierHttp({ slotKey: freshKey(), backoffMs: 10, timeoutMs: 5_000, ...options });
}

function nth<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`No item ${index} among ${items.length}`);
  return item;
}

async function failureOf(promise: Promise<unknown>): Promise<CarrierFailure> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CarrierFailure);
  return error as CarrierFailure;
}

const book = (url: string) => ({ operation: 'book', method: 'POST' as const, url: `${url}/v1/shipments`, json: { reference: 'R-1' }, idempotent: false });
const track = (url: string) => ({ operation: 'track', method: 'GET' as const, url: `${url}/v1/tracking`, query: { id: 'ABC' }, idempotent: true });

describe('a 2xx answer', () => {
  it('is returned parsed, and the call is recorded with secrets masked and long strings clipped', async () => {
    const label = 'J'.repeat(5000);
    const carrier = await scriptedCarrier((hit, res) => answer(res, 201, { id: 'SHP-1', label, access_token: 'tok-123', nested: [{ refresh_token: 'r-9' }] }));
    const http = client();
    const response = await http.request({
      operation: 'book',
      method: 'POST',
      url: `${carrier.url}/v1/shipments`,
      query: { lang: 'en', skip: undefined },
      headers: { Authorization: 'Bearer sekret', 'api-key': 'k-1', 'X-Api-Key': 'k-2', 'X-Client': 'shipdesk' },
      json: { reference: 'R-1', client_secret: 'cs-1', password: 'pw', note: 'n'.repeat(3000) },
      idempotent: false,
    });

    expect(response.status).toBe(201);
    expect(response.json).toMatchObject({ id: 'SHP-1', label });
    expect(response.text).toContain('"id":"SHP-1"');
    expect(carrier.hits).toHaveLength(1);
    // The carrier got everything unmasked: masking is for the log only.
    expect(nth(carrier.hits, 0)).toMatchObject({ method: 'POST', url: '/v1/shipments?lang=en' });
    expect(nth(carrier.hits, 0).headers).toMatchObject({
      authorization: 'Bearer sekret',
      'api-key': 'k-1',
      'x-api-key': 'k-2',
      'content-type': 'application/json',
    });
    expect(JSON.parse(nth(carrier.hits, 0).body)).toMatchObject({ reference: 'R-1', client_secret: 'cs-1', password: 'pw' });

    expect(http.calls).toHaveLength(1);
    const call = nth(http.calls, 0);
    expect(call).toMatchObject({ statusCode: 201, error: null });
    expect(call.durationMs).toBeGreaterThan(0);
    expect(call.durationMs).toBeLessThan(5_000);
    const request = call.request as { operation: string; method: string; url: string; headers: Record<string, string>; body: Record<string, unknown> };
    expect(request).toMatchObject({ operation: 'book', method: 'POST', url: `${carrier.url}/v1/shipments?lang=en` });
    expect(request.headers).toMatchObject({
      Authorization: '••••',
      'api-key': '••••',
      'X-Api-Key': '••••',
      'X-Client': 'shipdesk',
      accept: 'application/json',
    });
    expect(request.body).toMatchObject({ reference: 'R-1', client_secret: '••••', password: '••••' });
    expect(request.body.note).toBe(`${'n'.repeat(2000)}… (3000 characters)`);
    const logged = call.response as Record<string, unknown>;
    expect(logged).toMatchObject({ id: 'SHP-1', access_token: '••••', nested: [{ refresh_token: '••••' }] });
    expect(logged.label).toBe(`${'J'.repeat(2000)}… (5000 characters)`);
    expect(JSON.stringify(http.calls)).not.toMatch(/sekret|k-1|k-2|tok-123|r-9|cs-1|"pw"/);
  });

  it('sends a form as x-www-form-urlencoded with its secrets masked in the log; a text answer is kept as text, clipped', async () => {
    const carrier = await scriptedCarrier((hit, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(2500));
    });
    const http = client();
    const response = await http.request({
      operation: 'token',
      method: 'POST',
      url: `${carrier.url}/oauth/token`,
      form: { grant_type: 'client_credentials', client_secret: 'cs-2' },
      idempotent: true,
    });
    expect(response).toMatchObject({ status: 200, json: undefined });
    expect(response.text).toHaveLength(2500);
    expect(nth(carrier.hits, 0).headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(nth(carrier.hits, 0).body).toBe('grant_type=client_credentials&client_secret=cs-2');
    expect((nth(http.calls, 0).request as { body: unknown }).body).toEqual({ grant_type: 'client_credentials', client_secret: '••••' });
    expect(nth(http.calls, 0).response).toBe(`${'x'.repeat(2000)}… (2500 characters)`);
  });
  it('masks secrets sent in the query string, which masking by value cannot find once they are percent-encoded', async () => {
    const carrier = await scriptedCarrier((hit, res) => answer(res, 200, {}));
    const http = client();
    const apiKey = 'a+b/c=d';
    await http.request({
      operation: 'servicePoints',
      method: 'GET',
      url: `${carrier.url}/rest/points?returnType=json`,
      query: { apikey: apiKey, postalCode: '111 22' },
      idempotent: true,
    });
    // The carrier got the key.
    expect(new URL(nth(carrier.hits, 0).url, carrier.url).searchParams.get('apikey')).toBe(apiKey);
    const loggedUrl = (nth(http.calls, 0).request as { url: string }).url;
    expect(loggedUrl).toBe(`${carrier.url}/rest/points?returnType=json&apikey=••••&postalCode=111+22`);
    expect(loggedUrl).not.toContain(encodeURIComponent(apiKey));
  });
});

describe('a 4xx answer', () => {
  it('is returned to the adapter to read in the carrier’s words, not thrown, and not retried', async () => {
    const carrier = await scriptedCarrier((hit, res) => answer(res, 400, { errors: [{ code: 'E_POSTCODE', message: 'Unknown postal code' }] }));
    const http = client();
    const response = await http.request(track(carrier.url));
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ errors: [{ code: 'E_POSTCODE', message: 'Unknown postal code' }] });
    expect(carrier.hits).toHaveLength(1);
    expect(nth(http.calls, 0)).toMatchObject({ statusCode: 400, error: 'HTTP 400' });
  });
});

describe('a 5xx answer', () => {
  it('of an idempotent call is tried again (3 attempts), then fails as unavailable', async () => {
    const carrier = await scriptedCarrier((hit, res) => answer(res, 503, { message: 'down for maintenance' }));
    const http = client({ attempts: 3 });
    const failure = await failureOf(http.request(track(carrier.url)));
    expect(failure.kind).toBe('unavailable');
    expect(failure.message).toContain('HTTP 503');
    expect(failure.errors).toEqual([{ code: 'CARRIER_UNAVAILABLE', message: failure.message }]);
    expect(carrier.hits).toHaveLength(3);
    expect(http.calls.map((call) => call.statusCode)).toEqual([503, 503, 503]);
  });

  it('of an idempotent call that then succeeds returns the success', async () => {
    const carrier = await scriptedCarrier((hit, res) => (hit.n < 3 ? answer(res, 502, {}) : answer(res, 200, { events: [] })));
    const http = client({ attempts: 3 });
    const response = await http.request(track(carrier.url));
    expect(response.status).toBe(200);
    expect(carrier.hits).toHaveLength(3);
  });

  it('of a non-idempotent call is not tried again: the outcome is unknown', async () => {
    const carrier = await scriptedCarrier((hit, res) => answer(res, 500, { message: 'internal error' }));
    const http = client({ attempts: 3 });
    const failure = await failureOf(http.request(book(carrier.url)));
    expect(failure.kind).toBe('outcome_unknown');
    expect(nth(failure.errors, 0).code).toBe('CARRIER_OUTCOME_UNKNOWN');
    expect(carrier.hits).toHaveLength(1);
    expect(http.calls).toHaveLength(1);
    expect(nth(http.calls, 0)).toMatchObject({ statusCode: 500, error: 'HTTP 500' });
  });
});

describe('network failures', () => {
  it('a timeout of a non-idempotent call is outcome_unknown after exactly one hit', async () => {
    const carrier = await scriptedCarrier(() => {
      // Never answers.
    });
    const http = client({ timeoutMs: 300 });
    const started = performance.now();
    const failure = await failureOf(http.request(book(carrier.url)));
    const tookMs = performance.now() - started;
    expect(failure.kind).toBe('outcome_unknown');
    expect(failure.message).toBe('The carrier did not answer within the time limit');
    expect(tookMs).toBeGreaterThanOrEqual(290);
    expect(tookMs).toBeLessThan(3_000);
    // Give a second attempt, if there were one, time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(carrier.hits).toHaveLength(1);
    expect(http.calls).toHaveLength(1);
    expect(nth(http.calls, 0)).toMatchObject({ statusCode: null, response: null, error: 'The carrier did not answer within the time limit' });
  });

  it('a timeout of an idempotent call is tried again, then unavailable', async () => {
    const carrier = await scriptedCarrier(() => {});
    const http = client({ timeoutMs: 200, attempts: 2 });
    const failure = await failureOf(http.request(track(carrier.url)));
    expect(failure.kind).toBe('unavailable');
    expect(carrier.hits).toHaveLength(2);
  });

  it('a request’s own timeoutMs wins over the client’s', async () => {
    const carrier = await scriptedCarrier(() => {});
    const http = client({ timeoutMs: 10_000 });
    const started = performance.now();
    const failure = await failureOf(http.request({ ...book(carrier.url), timeoutMs: 200 }));
    expect(failure.kind).toBe('outcome_unknown');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('a connection refused is unavailable even for a non-idempotent call: nothing was sent', async () => {
    const closed = await scriptedCarrier(() => {});
    await closed.close();
    running.splice(running.indexOf(closed), 1);
    const http = client({ attempts: 3 });
    const failure = await failureOf(http.request(book(closed.url)));
    expect(failure.kind).toBe('unavailable');
    expect(failure.message).toBe('The carrier could not be reached (ECONNREFUSED)');
    expect(http.calls).toHaveLength(1);
    expect(nth(http.calls, 0)).toMatchObject({ statusCode: null, error: 'The carrier could not be reached (ECONNREFUSED)' });

    // An idempotent one is tried again each time, then unavailable.
    const again = client({ attempts: 3 });
    expect((await failureOf(again.request(track(closed.url)))).kind).toBe('unavailable');
    expect(again.calls).toHaveLength(3);
  });

  it('a connection dropped after the carrier read the request is outcome_unknown for a non-idempotent call', async () => {
    const carrier = await scriptedCarrier((hit, res, req) => {
      req.socket.destroy();
    });
    const http = client({ attempts: 3 });
    const failure = await failureOf(http.request(book(carrier.url)));
    expect(failure.kind).toBe('outcome_unknown');
    expect(failure.message).toMatch(/^The connection to the carrier was lost/);
    expect(carrier.hits).toHaveLength(1);
    expect(JSON.parse(nth(carrier.hits, 0).body)).toEqual({ reference: 'R-1' });
    expect(http.calls).toHaveLength(1);
  });

  it('a dropped connection of an idempotent call is tried again', async () => {
    const carrier = await scriptedCarrier((hit, res, req) => {
      if (hit.n === 1) req.socket.destroy();
      else answer(res, 200, { ok: true });
    });
    const http = client({ attempts: 3 });
    const response = await http.request(track(carrier.url));
    expect(response.status).toBe(200);
    expect(carrier.hits).toHaveLength(2);
    expect(http.calls.map((call) => call.statusCode)).toEqual([null, 200]);
  });
});

describe('429 Too Many Requests', () => {
  it('waits for Retry-After in seconds, then the call succeeds, even a non-idempotent one (the carrier did not act on it)', async () => {
    const carrier = await scriptedCarrier((hit, res) =>
      hit.n === 1 ? answer(res, 429, { message: 'slow down' }, { 'retry-after': '1' }) : answer(res, 201, { id: 'SHP-2' }),
    );
    const http = client();
    const started = performance.now();
    const response = await http.request(book(carrier.url));
    const tookMs = performance.now() - started;
    expect(response.status).toBe(201);
    expect(response.json).toEqual({ id: 'SHP-2' });
    expect(carrier.hits).toHaveLength(2);
    expect(tookMs).toBeGreaterThanOrEqual(950);
    expect(tookMs).toBeLessThan(3_000);
    expect(http.calls.map((call) => call.statusCode)).toEqual([429, 201]);
  });

  it('honours a Retry-After given as an HTTP date', async () => {
    let askedAt = 0;
    const carrier = await scriptedCarrier((hit, res) => {
      if (hit.n > 1) return answer(res, 200, { ok: true });
      // HTTP dates have whole seconds: 2 s ahead is between 1 and 2 s from now.
      askedAt = Date.now();
      answer(res, 429, {}, { 'retry-after': new Date(askedAt + 2_000).toUTCString() });
    });
    const http = client();
    const response = await http.request(track(carrier.url));
    expect(response.status).toBe(200);
    const waitedMs = Date.now() - askedAt;
    const retryAt = Math.floor((askedAt + 2_000) / 1000) * 1000;
    expect(Date.now()).toBeGreaterThanOrEqual(retryAt - 20);
    expect(waitedMs).toBeGreaterThanOrEqual(900);
    expect(waitedMs).toBeLessThan(3_500);
    expect(carrier.hits).toHaveLength(2);
  });

  it('a Retry-After longer than maxRetryAfterMs fails at once as unavailable with CARRIER_RATE_LIMITED', async () => {
    const carrier = await scriptedCarrier((hit, res) => answer(res, 429, {}, { 'retry-after': '120' }));
    const http = client({ maxRetryAfterMs: 5_000 });
    const started = performance.now();
    const failure = await failureOf(http.request(book(carrier.url)));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(failure.kind).toBe('unavailable');
    expect(failure.errors).toEqual([{ code: 'CARRIER_RATE_LIMITED', message: 'The carrier asked to wait 120 s before calling again' }]);
    expect(carrier.hits).toHaveLength(1);
  });

  it('a carrier that keeps answering 429 fails as rate limited after its attempts', async () => {
    const carrier = await scriptedCarrier((hit, res) => answer(res, 429, {}, { 'retry-after': '0' }));
    const http = client({ attempts: 2 });
    const failure = await failureOf(http.request(track(carrier.url)));
    expect(failure.kind).toBe('unavailable');
    expect(nth(failure.errors, 0).code).toBe('CARRIER_RATE_LIMITED');
    expect(carrier.hits).toHaveLength(3);
  });

  it('retryAfterMs reads seconds and HTTP dates, and waits 1 s when none or nonsense is named', () => {
    const now = Date.parse('2026-03-02T10:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('0', now)).toBe(0);
    expect(retryAfterMs('Mon, 02 Mar 2026 10:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Mon, 02 Mar 2026 09:59:00 GMT', now)).toBe(0);
    expect(retryAfterMs(null, now)).toBe(1000);
    expect(retryAfterMs('soon', now)).toBe(1000);
  });
});

describe('call slots', () => {
  it(`run at most callsAtATime calls at once per carrier, while another carrier is not held up`, async () => {
    const slowMs = 250;
    const carrier = await scriptedCarrier((hit, res) => {
      if (hit.url.startsWith('/other')) return answer(res, 200, { other: true });
      setTimeout(() => answer(res, 200, { n: hit.n }), slowMs);
    });
    const key = freshKey('busy');
    const busy = createCarrierHttp({ slotKey: key, callsAtATime: 4 });
    const started = performance.now();
    const batch = Array.from({ length: 10 }, (_, i) => busy.request({ ...book(carrier.url), json: { reference: `R-${i}` } }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(activeCalls(key)).toBe(4);

    // A different configured carrier has slots of its own: it is answered while the batch queues.
    const other = createCarrierHttp({ slotKey: freshKey('other'), callsAtATime: 4 });
    const otherStarted = performance.now();
    const otherResponse = await other.request({ operation: 'track', method: 'GET', url: `${carrier.url}/other`, idempotent: true });
    expect(otherResponse.status).toBe(200);
    expect(performance.now() - otherStarted).toBeLessThan(2 * slowMs);
    // Answered while the busy carrier's batch still runs (it takes three waves of slowMs).
    expect(activeCalls(key)).toBeGreaterThan(0);

    const responses = await Promise.all(batch);
    const tookMs = performance.now() - started;
    expect(responses.every((response) => response.status === 200)).toBe(true);
    expect(carrier.hits.filter((hit) => hit.url === '/v1/shipments')).toHaveLength(10);
    expect(carrier.maxOpen('v1')).toBe(4);
    expect(carrier.maxOpen()).toBe(5);
    // Three waves of 4, 4 and 2.
    expect(tookMs).toBeGreaterThanOrEqual(3 * slowMs - 20);
    expect(activeCalls(key)).toBe(0);
  });

  it('the server never sees more than callsAtATime of one carrier’s calls at once', async () => {
    const carrier = await scriptedCarrier((hit, res) => {
      setTimeout(() => answer(res, 200, {}), 150);
    });
    const http = createCarrierHttp({ slotKey: freshKey(), callsAtATime: 4 });
    await Promise.all(Array.from({ length: 10 }, () => http.request(track(carrier.url))));
    expect(carrier.hits).toHaveLength(10);
    expect(carrier.maxOpen()).toBe(4);
  });

  it('a 429 pauses only that carrier: its other calls wait for the Retry-After, another carrier’s do not', async () => {
    const carrier = await scriptedCarrier((hit, res) => {
      if (hit.url.startsWith('/limited') && hit.n === 1) return answer(res, 429, {}, { 'retry-after': '1' });
      answer(res, 200, { n: hit.n });
    });
    const limited = createCarrierHttp({ slotKey: freshKey('limited') });
    const free = createCarrierHttp({ slotKey: freshKey('free') });
    const get = (http: typeof limited, path: string) => http.request({ operation: 'track', method: 'GET', url: `${carrier.url}${path}`, idempotent: true });

    const started = performance.now();
    const refused = get(limited, '/limited/1');
    // Let the 429 arrive and pause the carrier before the next calls start.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const sameCarrier = get(limited, '/limited/2').then(() => performance.now() - started);
    const otherCarrier = get(free, '/free/1').then(() => performance.now() - started);

    const [otherMs, sameMs] = await Promise.all([otherCarrier, sameCarrier]);
    expect(sameMs).toBeGreaterThanOrEqual(950);
    expect(otherMs).toBeLessThan(sameMs - 300);
    expect((await refused).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
  });
});
