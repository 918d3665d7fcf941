import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupLocalCarrier, shipmentBody, startTestServer, type TestOrg, type TestServer } from '../../testing/harness';
import { RETRY_DELAYS_MS, runOnce } from './delivery';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
}

let t: TestServer;
let clock = new Date('2030-03-01T09:00:00.000Z');
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];

beforeAll(async () => {
  t = await startTestServer({ now: () => clock });
  // A real webhook receiver: paths starting /fail answer 500, everything else 204.
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(req.url?.startsWith('/fail') ? 500 : 204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await t.close();
});

const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
const receivedAt = (path: string) => received.filter((request) => request.path === path);

async function addWebhook(org: TestOrg, path: string, overrides: Record<string, unknown> = {}) {
  const res = await t.request('POST', `/orgs/${org.orgId}/webhooks`, {
    token: org.token,
    body: { name: `Hook ${path}`, url: receiverUrl + path, events: ['shipment.created'], ...overrides },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string };
}

async function createShipment(org: TestOrg) {
  const { carrierId } = await setupLocalCarrier(t, org);
  const res = await t.request('POST', `/orgs/${org.orgId}/shipments`, { token: org.token, body: shipmentBody(carrierId) });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

/** What a receiver should do with the header: recompute the HMAC over "<t>.<raw body>". */
function verifySignature(header: string, secret: string, rawBody: string) {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return null;
  const [, timestamp, v1] = match as unknown as [string, string, string];
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex')) ? Number(timestamp) : null;
}

const deliveryRows = (webhookId: string) =>
  t.app.db.$client.prepare('SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY attempt, created_at').all(webhookId) as Record<string, unknown>[];

describe('webhook delivery', () => {
  it('POSTs a new shipment event, signed, to active subscribed webhooks only', async () => {
    const org = await t.createOrg();
    const hook = await addWebhook(org, '/ok/created');
    const inactive = await addWebhook(org, '/ok/inactive', { isActive: false });
    const elsewhere = await addWebhook(org, '/ok/orders', { events: ['order.created'] });
    const shipment = await createShipment(org);

    await runOnce(t.app);

    const [request, ...more] = receivedAt('/ok/created');
    expect(more).toEqual([]);
    expect(receivedAt('/ok/inactive')).toEqual([]);
    expect(receivedAt('/ok/orders')).toEqual([]);
    const envelope = JSON.parse(request!.rawBody);
    expect(envelope).toMatchObject({ type: 'shipment.created', orgId: org.orgId, data: { id: shipment.id } });
    expect(envelope.id).toMatch(/^evt_/);
    const outbox = t.app.db.$client.prepare('SELECT payload, dispatched_at FROM outbox_events WHERE id = ?').get(envelope.id) as {
      payload: string;
      dispatched_at: string | null;
    };
    expect(JSON.parse(outbox.payload)).toEqual(envelope);
    expect(outbox.dispatched_at).not.toBeNull();

    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['shipdesk-event-id']).toBe(envelope.id);
    expect(request!.headers['shipdesk-event-type']).toBe('shipment.created');
    expect(verifySignature(String(request!.headers['shipdesk-signature']), hook.secret, request!.rawBody)).toBe(Math.floor(clock.getTime() / 1000));
    expect(verifySignature(String(request!.headers['shipdesk-signature']), 'whsec_wrong', request!.rawBody)).toBeNull();
    expect(JSON.stringify(request!.headers)).not.toContain(hook.secret);

    const list = await t.request('GET', `/orgs/${org.orgId}/webhooks/${hook.id}/deliveries`, { token: org.token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 1, page: 1, totalPages: 1 });
    expect(list.body.data[0]).toMatchObject({ event: 'shipment.created', statusCode: 204, success: true, attempt: 1, error: null });
    expect(list.body.data[0].id).toMatch(/^whd_/);
    expect(list.body.data[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(deliveryRows(hook.id)[0]?.next_attempt_at).toBeNull();
    expect(deliveryRows(inactive.id)).toEqual([]);
    expect(deliveryRows(elsewhere.id)).toEqual([]);

    // Nothing is sent twice.
    await runOnce(t.app);
    expect(receivedAt('/ok/created')).toHaveLength(1);
  });

  it('does not send a new webhook the events from before it was made; a burst is worked off in one run', async () => {
    const org = await t.createOrg();
    const { carrierId } = await setupLocalCarrier(t, org);
    const early = await t.request('POST', `/orgs/${org.orgId}/shipments`, { token: org.token, body: shipmentBody(carrierId, { reference: 'BEFORE-HOOK' }) });
    expect(early.status).toBe(201);
    advance(1);
    const hook = await addWebhook(org, '/ok/late');

    // More events than one round queues (200) or sends (100).
    const burst = 250;
    for (let i = 0; i < burst; i++) {
      const res = await t.request('POST', `/orgs/${org.orgId}/shipments`, { token: org.token, body: shipmentBody(carrierId, { reference: `BURST-${i}` }) });
      expect(res.status).toBe(201);
    }
    await runOnce(t.app);

    const references = receivedAt('/ok/late').map((request) => JSON.parse(request.rawBody).data.reference as string);
    expect(references).not.toContain('BEFORE-HOOK');
    expect(references).toHaveLength(burst);
    expect(new Set(references).size).toBe(burst);
    expect(deliveryRows(hook.id).every((row) => row.success === 1)).toBe(true);
  });

  it('retries a 500 after 30 s, 2 min, 10 min, 1 h and 6 h, each attempt a new record, then stops', async () => {
    const org = await t.createOrg();
    const hook = await addWebhook(org, '/fail/retry');
    await createShipment(org);

    await runOnce(t.app);
    let rows = deliveryRows(hook.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ attempt: 1, status_code: 500, success: 0, error: 'Answered HTTP 500' });
    expect(rows[0]?.next_attempt_at).toBe(new Date(clock.getTime() + 30_000).toISOString());

    // Not due yet: nothing happens.
    advance(29_000);
    await runOnce(t.app);
    expect(receivedAt('/fail/retry')).toHaveLength(1);

    advance(1_000);
    await runOnce(t.app);
    rows = deliveryRows(hook.id);
    expect(rows.map((row) => row.attempt)).toEqual([1, 2]);
    expect(rows[0]?.next_attempt_at).toBeNull();
    expect(rows[1]).toMatchObject({ status_code: 500, success: 0, next_attempt_at: new Date(clock.getTime() + 2 * 60_000).toISOString() });
    // The retry carries the same event, freshly signed.
    const [first, second] = receivedAt('/fail/retry');
    expect(second!.rawBody).toBe(first!.rawBody);
    expect(second!.headers['shipdesk-event-id']).toBe(first!.headers['shipdesk-event-id']);
    expect(verifySignature(String(second!.headers['shipdesk-signature']), hook.secret, second!.rawBody)).toBe(Math.floor(clock.getTime() / 1000));

    for (const delay of RETRY_DELAYS_MS.slice(1)) {
      advance(delay);
      await runOnce(t.app);
    }
    rows = deliveryRows(hook.id);
    expect(rows.map((row) => row.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rows.every((row) => row.next_attempt_at === null && row.success === 0)).toBe(true);

    advance(24 * 60 * 60_000);
    await runOnce(t.app);
    expect(receivedAt('/fail/retry')).toHaveLength(6);

    const list = await t.request('GET', `/orgs/${org.orgId}/webhooks/${hook.id}/deliveries?limit=4`, { token: org.token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 6, limit: 4, totalPages: 2 });
    expect(list.body.data.map((delivery: { attempt: number }) => delivery.attempt)).toEqual([6, 5, 4, 3]);
    expect(list.body.data[0]).toMatchObject({ event: 'shipment.created', statusCode: 500, success: false });
  });

  it('gives a failing receiver one attempt per run, so it never holds up the other webhooks, and keeps its events in order', async () => {
    // Runs never overlap: a receiver that times out (10 s) on each of its waiting events would hold
    // every other webhook's deliveries back for all of them. It gets one attempt per run instead.
    const org = await t.createOrg();
    const failing = await addWebhook(org, '/fail/backlog');
    const healthy = await addWebhook(org, '/ok/beside-failing');
    const { carrierId } = await setupLocalCarrier(t, org);
    const create = async (reference: string) => {
      const res = await t.request('POST', `/orgs/${org.orgId}/shipments`, { token: org.token, body: shipmentBody(carrierId, { reference }) });
      expect(res.status).toBe(201);
    };
    const referencesAt = (path: string) => receivedAt(path).map((request) => JSON.parse(request.rawBody).data.reference as string);
    for (const reference of ['BACKLOG-1', 'BACKLOG-2', 'BACKLOG-3']) await create(reference);

    await runOnce(t.app);
    expect(referencesAt('/ok/beside-failing')).toEqual(['BACKLOG-1', 'BACKLOG-2', 'BACKLOG-3']);
    expect(referencesAt('/fail/backlog')).toEqual(['BACKLOG-1']);

    await create('BACKLOG-4');
    await runOnce(t.app);
    expect(referencesAt('/ok/beside-failing')).toHaveLength(4);
    expect(referencesAt('/fail/backlog')).toEqual(['BACKLOG-1', 'BACKLOG-2']);

    // Each event still gets its first attempt, in order, and then its own retries.
    await runOnce(t.app);
    await runOnce(t.app);
    expect(referencesAt('/fail/backlog')).toEqual(['BACKLOG-1', 'BACKLOG-2', 'BACKLOG-3', 'BACKLOG-4']);
    expect(deliveryRows(failing.id).map((row) => row.attempt)).toEqual([1, 1, 1, 1]);
    expect(deliveryRows(failing.id).every((row) => row.next_attempt_at !== null)).toBe(true);
    expect(deliveryRows(healthy.id).every((row) => row.success === 1)).toBe(true);
    // Switched off, so its retries do not reach the later tests' runs.
    await t.request('PATCH', `/orgs/${org.orgId}/webhooks/${failing.id}`, { token: org.token, body: { isActive: false } });
  });

  it('records a refused connection without a status code, and stops retrying once the webhook is switched off', async () => {
    const org = await t.createOrg();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/gone`;
    await new Promise((resolve) => closed.close(resolve));
    const hook = await addWebhook(org, '/unused');
    await t.request('PATCH', `/orgs/${org.orgId}/webhooks/${hook.id}`, { token: org.token, body: { url: deadUrl } });
    await createShipment(org);

    await runOnce(t.app);
    const [row] = deliveryRows(hook.id);
    expect(row).toMatchObject({ attempt: 1, status_code: null, success: 0 });
    expect(row?.error).toMatch(/^Request failed: /);
    expect(row?.next_attempt_at).not.toBeNull();

    await t.request('PATCH', `/orgs/${org.orgId}/webhooks/${hook.id}`, { token: org.token, body: { isActive: false } });
    advance(30_000);
    await runOnce(t.app);
    const rows = deliveryRows(hook.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.next_attempt_at).toBeNull();
  });

  it('sends a ping on POST …/test, whatever the webhook subscribes to, and lists it', async () => {
    const org = await t.createOrg();
    const hook = await addWebhook(org, '/ok/ping', { events: ['order.cancelled'], isActive: false });
    const res = await t.request('POST', `/orgs/${org.orgId}/webhooks/${hook.id}/test`, { token: org.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ event: 'ping', statusCode: 204, success: true, attempt: 1, error: null });

    const [request] = receivedAt('/ok/ping');
    const envelope = JSON.parse(request!.rawBody);
    expect(envelope).toMatchObject({ type: 'ping', orgId: org.orgId, data: { webhookId: hook.id } });
    expect(request!.headers['shipdesk-event-type']).toBe('ping');
    expect(request!.headers['shipdesk-event-id']).toBe(envelope.id);
    expect(verifySignature(String(request!.headers['shipdesk-signature']), hook.secret, request!.rawBody)).not.toBeNull();

    const list = await t.request('GET', `/orgs/${org.orgId}/webhooks/${hook.id}/deliveries`, { token: org.token });
    expect(list.body.data).toEqual([res.body]);

    // A failing ping answers the failure and is not retried.
    const failing = await addWebhook(org, '/fail/ping');
    const failed = await t.request('POST', `/orgs/${org.orgId}/webhooks/${failing.id}/test`, { token: org.token, body: {} });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ event: 'ping', statusCode: 500, success: false, error: 'Answered HTTP 500' });
    expect(deliveryRows(failing.id)[0]?.next_attempt_at).toBeNull();
  });

  it("answers 404 for another organization's webhook", async () => {
    const org = await t.createOrg();
    const other = await t.createOrg();
    const hook = await addWebhook(org, '/ok/private');
    for (const [method, path] of [
      ['GET', `/orgs/${other.orgId}/webhooks/${hook.id}/deliveries`],
      ['POST', `/orgs/${other.orgId}/webhooks/${hook.id}/test`],
    ] as const) {
      const res = await t.request(method, path, { token: other.token });
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe('ORG_WEBHOOK_NOT_FOUND');
    }
    expect(receivedAt('/ok/private')).toEqual([]);
  });
});
