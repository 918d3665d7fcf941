import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src-shared/errors';
import { createAppContext } from '../../app/runtime/createApp';
import type * as registry from '../../carriers/registry';
import type { CarrierAdapter, TrackingResult } from '../../carriers/adapter';
import { carrierRefused } from '../../carriers/errors';
import { durable } from '../../db/tx';
import { senderAddressBody, setupLocalCarrier, shipmentBody, startTestServer, type TestServer } from '../../testing/harness';
import { FAILURE_BACKOFF_MS, runTrackingCycle } from './poller';
import { TRACKING_INTERVAL_MS } from './schedule';

// A carrier that can be asked: it books like `local` and answers `track` from a small HTTP server
// (the fake below), two shipments per call so batching shows.
vi.mock('../../carriers/registry', async (importOriginal) => {
  const original = await importOriginal<typeof registry>();
  const local = original.carrierAdapters[0] as CarrierAdapter;
  const tracker: CarrierAdapter & { trackBatchSize: number } = {
    ...local,
    slug: 'test-tracker',
    checkConfig: undefined,
    trackBatchSize: 2,
    describe: {
      ...local.describe,
      name: 'Tracking courier',
      fields: [
        { name: 'Address', key: 'url', type: 'string', description: '', options: [], required: true },
        { name: 'API key', key: 'apiKey', type: 'password', description: '', options: [], required: true },
      ],
    },
    track: async (context, booked) => {
      const response = await context.http.request({
        operation: 'track',
        method: 'POST',
        url: `${String(context.config.url)}/track`,
        headers: { 'x-api-key': String(context.config.apiKey) },
        json: { numbers: booked.map((shipment) => shipment.trackingNumber), key: String(context.config.apiKey) },
        idempotent: true,
      });
      const body = response.json as { errors?: { code: string; message: string }[]; shipments?: ({ number: string } & TrackingResult)[] };
      if (response.status >= 400) throw carrierRefused(body.errors ?? [{ code: String(response.status), message: response.text }]);
      const byNumber = new Map((body.shipments ?? []).map((item) => [item.number, item]));
      const answers = new Map<string, TrackingResult>();
      for (const shipment of booked) {
        const found = byNumber.get(shipment.trackingNumber);
        if (found) answers.set(shipment.shipmentId, { status: found.status, events: found.events });
      }
      return answers;
    },
  };
  return { carrierAdapters: [...original.carrierAdapters, tracker] };
});

const API_KEY = 'sk_live_tracking_secret';

/** The fake carrier: answers per tracking number, fails per path prefix (one per configured carrier). */
interface FakeTracking {
  url: string;
  answers: Map<string, TrackingResult>;
  failures: Map<string, { status: number; retryAfter?: string; body?: unknown }>;
  requests: { prefix: string; numbers: string[] }[];
  close: () => Promise<void>;
}

async function startFakeTracking(): Promise<FakeTracking> {
  const fake: Omit<FakeTracking, 'url' | 'close'> = { answers: new Map(), failures: new Map(), requests: [] };
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const prefix = (req.url ?? '').split('/')[1] ?? '';
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      if (req.headers['x-api-key'] !== API_KEY) return send(401, { errors: [{ code: 'UNAUTHORIZED', message: 'Unknown API key' }] });
      const { numbers } = JSON.parse(text) as { numbers: string[] };
      fake.requests.push({ prefix, numbers });
      const failure = fake.failures.get(prefix);
      if (failure) return send(failure.status, failure.body ?? { message: 'try later' }, failure.retryAfter ? { 'retry-after': failure.retryAfter } : {});
      send(200, {
        shipments: numbers.flatMap((number) => {
          const answer = fake.answers.get(number);
          return answer ? [{ number, ...answer }] : [];
        }),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    ...fake,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let t: TestServer;
let fake: FakeTracking;
let localCarrierId: string;
let carrierA: string;
let carrierB: string;
/** Moved forward to make shipments due; every context of the test reads the same clock. */
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

const sql = () => t.app.db.$client;
const shipmentsPath = () => `/orgs/${t.org.orgId}/shipments`;

beforeAll(async () => {
  fake = await startFakeTracking();
  // No retries and no waiting for a Retry-After: a 429 or 5xx fails the call at once.
  t = await startTestServer({ now: clock, carrierHttp: { attempts: 1, backoffMs: 1, maxRetryAfterMs: 0 } });
  sql().prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(t.org.orgId);
  ({ carrierId: localCarrierId } = await setupLocalCarrier(t));
  const address = await t.request('POST', `/orgs/${t.org.orgId}/sender-addresses`, { body: senderAddressBody({ name: 'Second warehouse' }) });
  const carrier = async (name: string, prefix: string) => {
    const res = await t.request('POST', `/orgs/${t.org.orgId}/carriers`, {
      body: { name, carrierSlug: 'test-tracker', config: { url: `${fake.url}/${prefix}`, apiKey: API_KEY }, senderAddressId: address.body.id },
    });
    if (res.status !== 201) throw new Error(`carrier: ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  };
  carrierA = await carrier('Courier A', 'a');
  carrierB = await carrier('Courier B', 'b');
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  fake.failures.clear();
  fake.requests.length = 0;
});

async function sentShipment(carrierId: string) {
  const created = await t.client().call('shipments.create', { params: { orgId: t.org.orgId }, body: shipmentBody(carrierId) as never });
  const sent = await t.client().call('shipments.send', { params: { orgId: t.org.orgId, shipmentId: created.id } });
  expect(sent.status).toBe('dispatched');
  return sent;
}

const refresh = (shipmentId: string) => t.request('POST', `${shipmentsPath()}/${shipmentId}/tracking/refresh`);
const dueAt = (shipmentId: string) =>
  (sql().prepare('SELECT tracking_due_at AS due FROM shipments WHERE id = ?').get(shipmentId) as { due: string | null }).due;
const trackingEvents = (shipmentId: string) =>
  (
    sql().prepare("SELECT payload FROM outbox_events WHERE org_id = ? AND type = 'tracking.updated' ORDER BY created_at, id").all(t.org.orgId) as {
      payload: string;
    }[]
  )
    .map((row) => JSON.parse(row.payload))
    .filter((event) => event.data.shipmentId === shipmentId);
const storedEventCount = (shipmentId: string) =>
  (sql().prepare('SELECT count(*) AS n FROM tracking_events WHERE shipment_id = ?').get(shipmentId) as { n: number }).n;

const inTransit = (): TrackingResult => ({
  status: 'in_transit',
  events: [
    { at: '2026-11-27T08:00:00.000Z', code: 'PICKED_UP', description: 'Picked up at the sender', location: 'Aarhus' },
    // Another zone and no milliseconds: stored in the API's form, so a repeat is the same row.
    { at: '2026-11-27T11:30:00+01:00', code: 'HUB', description: 'Sorted at the hub', location: 'Vejle' },
  ],
});

describe('tracking refresh', () => {
  it('turns the carrier events into status and stores the same events once, with one tracking.updated', async () => {
    const shipment = await sentShipment(carrierA);
    expect(shipment.tracking).toMatchObject({ status: 'pending', events: [], lastCheckedAt: null });
    const number = shipment.tracking?.number as string;
    fake.answers.set(number, inTransit());

    const first = await refresh(shipment.id);
    expect(first.status).toBe(200);
    expect(first.body.tracking).toMatchObject({ number, status: 'in_transit', lastCheckedAt: expect.any(String) });
    // Newest first.
    expect(first.body.tracking.events).toEqual([
      { at: '2026-11-27T10:30:00.000Z', code: 'HUB', description: 'Sorted at the hub', location: 'Vejle' },
      { at: '2026-11-27T08:00:00.000Z', code: 'PICKED_UP', description: 'Picked up at the sender', location: 'Aarhus' },
    ]);
    expect(fake.requests).toEqual([{ prefix: 'a', numbers: [number] }]);
    // The call is in logs[], its key masked wherever it was echoed.
    const trackLog = first.body.logs.find((log: { request: { operation?: string } }) => log.request?.operation === 'track');
    expect(trackLog).toMatchObject({ direction: 'carrier', statusCode: 200, error: null });
    expect(JSON.stringify(first.body.logs)).not.toContain(API_KEY);
    expect(trackingEvents(shipment.id)).toHaveLength(2); // the booking's, and this change
    expect(trackingEvents(shipment.id)[1].data).toMatchObject({ shipmentId: shipment.id, status: 'dispatched', tracking: { status: 'in_transit' } });
    // Asked again in about 30 minutes.
    expect(Date.parse(dueAt(shipment.id) as string) - clock().getTime()).toBeGreaterThan(TRACKING_INTERVAL_MS - 60_000);

    const again = await refresh(shipment.id);
    expect(again.body.tracking.events).toHaveLength(2);
    expect(storedEventCount(shipment.id)).toBe(2);
    expect(trackingEvents(shipment.id)).toHaveLength(2);

    const answer = inTransit();
    answer.status = 'delivered';
    answer.events.push({ at: '2026-11-28T09:12:00.000Z', code: 'DELIVERED', description: 'Delivered to the receiver', location: 'København K' });
    fake.answers.set(number, answer);
    const delivered = await refresh(shipment.id);
    expect(delivered.body.tracking.status).toBe('delivered');
    expect(delivered.body.tracking.events[0]).toMatchObject({ code: 'DELIVERED' });
    expect(trackingEvents(shipment.id)).toHaveLength(3);
    // Delivered: nobody asks again.
    expect(dueAt(shipment.id)).toBeNull();
  });

  it('refuses a shipment that is not dispatched with 409 SHIPMENT_INVALID_STATE', async () => {
    const created = await t.client().call('shipments.create', { params: { orgId: t.org.orgId }, body: shipmentBody(carrierA) as never });
    const res = await refresh(created.id);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('SHIPMENT_INVALID_STATE');
    expect((await t.request('POST', `${shipmentsPath()}/shp_nope/tracking/refresh`)).status).toBe(404);
  });

  it('answers a carrier failure with 422 CARRIER_ERROR in its words, keeping what was known and logging the call', async () => {
    const shipment = await sentShipment(carrierA);
    fake.answers.set(shipment.tracking?.number as string, inTransit());
    await refresh(shipment.id);
    fake.failures.set('a', { status: 400, body: { errors: [{ code: 'E_NUMBER', message: 'Tracking number not valid for this account' }] } });
    const before = await t.client().call('shipments.get', { params: { orgId: t.org.orgId, shipmentId: shipment.id } });

    const res = await refresh(shipment.id);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CARRIER_ERROR');
    expect(res.body.errors).toEqual([{ code: 'E_NUMBER', message: 'Tracking number not valid for this account' }]);
    expect(res.body.message).toContain('Courier A');
    const after = await t.client().call('shipments.get', { params: { orgId: t.org.orgId, shipmentId: shipment.id } });
    expect(after.tracking).toEqual(before.tracking);
    expect(after.logs.length).toBe(before.logs.length + 1);
    expect(after.logs.at(-1)).toMatchObject({ statusCode: 400, error: 'HTTP 400' });

    fake.failures.set('a', { status: 503 });
    const unavailable = await refresh(shipment.id);
    expect(unavailable.status).toBe(422);
    expect(unavailable.body.code).toBe('CARRIER_ERROR');
    expect(unavailable.body.errors[0].message).toContain('503');
  });

  it('through the typed client too', async () => {
    const shipment = await sentShipment(carrierA);
    fake.answers.set(shipment.tracking?.number as string, inTransit());
    const read = await t.client().call('shipments.refreshTracking', { params: { orgId: t.org.orgId, shipmentId: shipment.id } });
    expect(read.tracking?.status).toBe('in_transit');
  });
});

describe('tracking set by hand', () => {
  it('sets the status of a local-carrier shipment, with an event, an activity and tracking.updated', async () => {
    const shipment = await sentShipment(localCarrierId);
    // Nobody asks the local carrier.
    expect(dueAt(shipment.id)).toBeNull();
    const res = await t.request('POST', `${shipmentsPath()}/${shipment.id}/tracking/events`, {
      body: { status: 'delivered', description: 'Delivered by our own van' },
    });
    expect(res.status).toBe(200);
    expect(res.body.tracking).toMatchObject({ status: 'delivered', lastCheckedAt: expect.any(String) });
    expect(res.body.tracking.events).toEqual([
      { at: res.body.tracking.lastCheckedAt, code: 'delivered', description: 'Delivered by our own van', location: null },
    ]);
    expect(res.body.activities.at(-1)).toMatchObject({ action: 'updated', description: expect.stringContaining('Delivered by our own van') });
    expect(trackingEvents(shipment.id).map((event) => event.data.tracking.status)).toEqual(['pending', 'delivered']);
    expect(dueAt(shipment.id)).toBeNull();

    // Asking the local carrier is refused with a sentence saying what to do instead.
    const asked = await refresh(shipment.id);
    expect(asked.status).toBe(409);
    expect(asked.body.message).toContain('by hand');
  });

  it('refuses a carrier that reports tracking itself, a shipment not sent, and a wrong body', async () => {
    const tracked = await sentShipment(carrierA);
    const res = await t.request('POST', `${shipmentsPath()}/${tracked.id}/tracking/events`, { body: { status: 'delivered', description: 'Van' } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CONFLICT');
    expect(res.body.message).toContain('Courier A');

    const created = await t.client().call('shipments.create', { params: { orgId: t.org.orgId }, body: shipmentBody(localCarrierId) as never });
    const notSent = await t.request('POST', `${shipmentsPath()}/${created.id}/tracking/events`, { body: { status: 'delivered', description: 'Van' } });
    expect(notSent.status).toBe(409);
    expect(notSent.body.code).toBe('SHIPMENT_INVALID_STATE');

    const wrong = await t.request('POST', `${shipmentsPath()}/${created.id}/tracking/events`, { body: { status: 'teleported', description: '' } });
    expect(wrong.status).toBe(400);
    await expect(
      t.client().call('shipments.addTrackingEvent', {
        params: { orgId: t.org.orgId, shipmentId: tracked.id },
        body: { status: 'exception', description: 'Damaged' },
      }),
    ).rejects.toBeInstanceOf(ApiError);
  });
});

describe('shipments list', () => {
  it('shows each shipment’s tracking status and filters on one or several', async () => {
    const exception = await sentShipment(localCarrierId);
    await t.client().call('shipments.addTrackingEvent', {
      params: { orgId: t.org.orgId, shipmentId: exception.id },
      body: { status: 'exception', description: 'Receiver not at home' },
    });
    const unsent = await t.client().call('shipments.create', { params: { orgId: t.org.orgId }, body: shipmentBody(localCarrierId) as never });

    const all = await t.client().call('shipments.list', { params: { orgId: t.org.orgId }, query: { limit: 100 } });
    const item = (id: string) => all.data.find((candidate) => candidate.id === id);
    expect(item(exception.id)?.trackingStatus).toBe('exception');
    expect(item(unsent.id)).toBeDefined();
    expect(item(unsent.id)).not.toHaveProperty('trackingStatus');

    const onlyExceptions = await t.request('GET', `${shipmentsPath()}?trackingStatus=exception`);
    expect(onlyExceptions.body.data.map((row: { id: string }) => row.id)).toEqual([exception.id]);
    expect(onlyExceptions.body.total).toBe(1);

    const several = await t
      .client()
      .call('shipments.list', { params: { orgId: t.org.orgId }, query: { trackingStatus: ['exception', 'delivered'], limit: 100 } });
    expect(several.data.every((row) => row.trackingStatus === 'exception' || row.trackingStatus === 'delivered')).toBe(true);
    expect(several.data.length).toBeGreaterThanOrEqual(2);
    expect(several.total).toBe(several.data.length);

    expect((await t.request('GET', `${shipmentsPath()}?trackingStatus=lost`)).status).toBe(400);
  });
});

describe('tracking poller', () => {
  it('asks only about due shipments, batched per carrier; a failing carrier pushes back only its own; a restart continues', async () => {
    // What earlier tests left due is out of the way: they are delivered in this story.
    sql().prepare('UPDATE shipments SET tracking_due_at = NULL').run();
    const a = [await sentShipment(carrierA), await sentShipment(carrierA), await sentShipment(carrierA)];
    const b = [await sentShipment(carrierB), await sentShipment(carrierB)];
    const delivered = await sentShipment(carrierA);
    fake.answers.set(delivered.tracking?.number as string, { status: 'delivered', events: [] });
    await refresh(delivered.id);
    fake.requests.length = 0;
    for (const shipment of [...a, ...b]) fake.answers.set(shipment.tracking?.number as string, inTransit());

    // Not due yet: nobody is asked.
    const early = await runTrackingCycle(t.app);
    expect(early).toMatchObject({ asked: 0, deferred: 0 });
    expect(fake.requests).toEqual([]);

    offsetMs += TRACKING_INTERVAL_MS + 60_000;
    const later = await sentShipment(carrierA); // due 30 minutes after now: not in this cycle
    fake.failures.set('b', { status: 429, retryAfter: '120' });
    const cycleAt = clock().getTime();
    const summary = await runTrackingCycle(t.app);
    expect(summary).toMatchObject({ asked: 3, changed: 3, deferred: 2, failedCarriers: [carrierB] });
    // Courier A: two calls (its batch size is 2), only the three due shipments; Courier B: one call, refused.
    const asked = fake.requests.filter((request) => request.prefix === 'a');
    expect(asked.map((request) => request.numbers.length)).toEqual([2, 1]);
    expect(asked.flatMap((request) => request.numbers).sort()).toEqual(a.map((shipment) => shipment.tracking?.number).sort());
    expect(fake.requests.filter((request) => request.prefix === 'b')).toHaveLength(1);
    expect(asked.flat().some((request) => request.numbers.includes(later.tracking?.number as string))).toBe(false);

    for (const shipment of a) {
      const read = await t.client().call('shipments.get', { params: { orgId: t.org.orgId, shipmentId: shipment.id } });
      expect(read.tracking?.status).toBe('in_transit');
      expect(Date.parse(dueAt(shipment.id) as string) - cycleAt).toBeGreaterThanOrEqual(TRACKING_INTERVAL_MS - 1000);
    }
    for (const shipment of b) {
      const read = await t.client().call('shipments.get', { params: { orgId: t.org.orgId, shipmentId: shipment.id } });
      expect(read.tracking?.status).toBe('pending');
      // Pushed back by the backoff only, and the refused call is in its logs[].
      const wait = Date.parse(dueAt(shipment.id) as string) - cycleAt;
      expect(wait).toBeGreaterThanOrEqual(FAILURE_BACKOFF_MS - 1000);
      expect(wait).toBeLessThan(FAILURE_BACKOFF_MS + 60_000);
      expect(read.logs.at(-1)).toMatchObject({ statusCode: 429 });
    }
    expect(dueAt(delivered.id)).toBeNull();

    // A 5xx the next time: pushed back again, for twice as long.
    offsetMs += FAILURE_BACKOFF_MS + 1000;
    fake.requests.length = 0;
    fake.failures.set('b', { status: 503 });
    const second = await runTrackingCycle(t.app);
    expect(second).toMatchObject({ asked: 0, deferred: 2, failedCarriers: [carrierB] });
    expect(Date.parse(dueAt(b[0]?.id as string) as string) - clock().getTime()).toBeGreaterThanOrEqual(2 * FAILURE_BACKOFF_MS - 1000);

    // A restart: a new context on the same data folder continues from the due column.
    await durable(t.app.db);
    offsetMs += 2 * FAILURE_BACKOFF_MS + 1000;
    fake.failures.clear();
    fake.requests.length = 0;
    const restarted = createAppContext({ dataDir: t.dir, now: clock });
    try {
      const resumed = await runTrackingCycle(restarted);
      expect(resumed).toMatchObject({ asked: 2, changed: 2, deferred: 0, failedCarriers: [] });
      expect(fake.requests.flatMap((request) => request.numbers).sort()).toEqual(b.map((shipment) => shipment.tracking?.number).sort());
      await durable(restarted.db);
    } finally {
      restarted.close();
    }
    const read = await t.client().call('shipments.get', { params: { orgId: t.org.orgId, shipmentId: b[0]?.id as string } });
    expect(read.tracking?.status).toBe('in_transit');
  });

  it('stops asking about shipments past 30 days, and never runs two cycles at once', async () => {
    sql().prepare('UPDATE shipments SET tracking_due_at = NULL').run();
    const old = await sentShipment(carrierA);
    fake.answers.set(old.tracking?.number as string, inTransit());
    offsetMs += 31 * 24 * 60 * 60_000;
    fake.requests.length = 0;
    const [one, two] = await Promise.all([runTrackingCycle(t.app), runTrackingCycle(t.app)]);
    expect(one).toBe(two);
    expect(one).toMatchObject({ asked: 0, retired: 1 });
    expect(fake.requests).toEqual([]);
    expect(dueAt(old.id)).toBeNull();
  });
});
