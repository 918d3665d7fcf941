import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setupLocalCarrier, startTestServer, type TestServer } from '../../testing/harness';
import { fakeWoo } from '../../testing/fakeStorefronts';
import { startFakeWooWrites, type FakeWooWrites } from '../../testing/fakeWooCommerceWrites';
import { queueShopWriteBack, resumeInterruptedWriteBacks, SHOP_WRITE_MAX_ATTEMPTS, writeDueFulfillments } from './outbox';
import { inWriteTransaction } from '../../db/tx';
import { RETRY_DELAYS_MS } from '../webhooks/delivery';

let clock = new Date('2026-03-02T09:00:00.000Z');
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

let t: TestServer;
let woo: FakeWooWrites;
let carrierId: string;
let senderAddressId: string;
let channelId: string;
let nextWooId = 700;
const org = () => `/orgs/${t.org.orgId}`;

async function wooChannel(server: TestServer) {
  const res = await server.request('POST', `/orgs/${server.org.orgId}/order-channels`, {
    body: { name: 'Web shop', type: 'woocommerce', config: { ...fakeWoo, syncIntervalMinutes: 0 } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

/** A WooCommerce order in Shipdesk (as the sync makes it) and in the fake shop; answers both ids. */
async function wooOrder(
  server: TestServer = t,
  lines: Record<string, unknown>[] = [{ name: 'Tea tin', sku: 'TEA-02', quantity: 3, weight: 0.2, weightUnit: 'kg' }],
) {
  const wooId = nextWooId++;
  woo.addOrder(wooId);
  const res = await server.request('POST', `/orgs/${server.org.orgId}/orders`, {
    body: {
      orderNumber: `W-${wooId}`,
      externalId: String(wooId),
      orderChannelId: channelId,
      customerEmail: 'hans@example.de',
      shippingAddress: { name: 'Hans Meier', address1: 'Hauptstr. 1', city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
      orderLines: lines,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { orderId: res.body.id as string, wooId };
}

async function dispatch(server: TestServer, orderId: string, body: Record<string, unknown> = {}) {
  const created = await server.request('POST', `/orgs/${server.org.orgId}/orders/${orderId}/shipments`, {
    body: { carrierId, productId: 'local_parcel', ...body },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const sent = await server.request('POST', `/orgs/${server.org.orgId}/shipments/${created.body.id}/send`);
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return sent.body;
}

const rowsOf = (server: TestServer, shipmentId: string) =>
  server.app.db.$client
    .prepare(
      'SELECT status, attempts, remote_id AS remoteId, last_error AS lastError, sent_tracking_number AS sent FROM shop_fulfillments WHERE shipment_id = ?',
    )
    .all(shipmentId) as { status: string; attempts: number; remoteId: string | null; lastError: string | null; sent: string | null }[];

const posts = (wooId: number) => woo.requests.filter((r) => r.method === 'POST' && r.path === `/wp-json/wc/v3/orders/${wooId}/notes`);

beforeAll(async () => {
  t = await startTestServer({ now: () => clock });
  t.app.db.$client.prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(t.org.orgId);
  woo = await startFakeWooWrites();
  ({ carrierId, senderAddressId } = await setupLocalCarrier(t, t.org, { trackingUrlTemplate: 'https://track.acme.example/{trackingNumber}' }));
  channelId = await wooChannel(t);
});
afterAll(async () => {
  await t.close();
  await woo.close();
});
beforeEach(async () => {
  woo.faults = [];
  woo.permission = 'read_write';
  t.app.storefront = { origin: woo.origin };
  // Nothing left over from an earlier test.
  advance(24 * 3600_000);
  while ((await writeDueFulfillments(t.app)) > 0);
});

describe('write-back to WooCommerce', () => {
  it('queues the write-back with the dispatch, completes the order and adds one customer note with the tracking link', async () => {
    const { orderId, wooId } = await wooOrder();
    const shipment = await dispatch(t, orderId);
    // In the dispatch's own transaction: there before any background run.
    expect(rowsOf(t, shipment.id)).toMatchObject([{ status: 'queued', attempts: 0 }]);
    expect(await writeDueFulfillments(t.app)).toBe(1);

    const order = woo.orders.get(wooId)!;
    expect(order.status).toBe('completed');
    expect(order.notes).toHaveLength(1);
    expect(order.notes[0]!.note).toContain(`Own trucks`);
    expect(order.notes[0]!.note).toContain(shipment.tracking.number);
    expect(order.notes[0]!.note).toContain(shipment.tracking.url);
    // Shipdesk sends no e-mail here, so WooCommerce tells the customer.
    expect(order.notes[0]!.customer_note).toBe(true);
    expect(rowsOf(t, shipment.id)).toEqual([
      { status: 'sent', attempts: 1, remoteId: String(order.notes[0]!.id), lastError: null, sent: shipment.tracking.number },
    ]);

    const read = await t.request('GET', `${org()}/orders/${orderId}/shop-fulfillments`);
    expect(read.status).toBe(200);
    expect(read.body.items).toEqual([
      expect.objectContaining({
        shipmentId: shipment.id,
        shipmentReference: shipment.reference,
        platform: 'woocommerce',
        status: 'sent',
        sentAt: clock.toISOString(),
        sentTrackingNumber: shipment.tracking.number,
        lastError: null,
        maxAttempts: SHOP_WRITE_MAX_ATTEMPTS,
      }),
    ]);
    // Never twice.
    advance(3600_000);
    expect(await writeDueFulfillments(t.app)).toBe(0);
    expect(order.notes).toHaveLength(1);
  });

  it('leaves the order open while lines are still to ship', async () => {
    const { orderId, wooId } = await wooOrder(t, [
      { name: 'Tea tin', sku: 'TEA-02', quantity: 3, weight: 0.2, weightUnit: 'kg' },
      { name: 'Mug', sku: 'MUG-01', quantity: 1, weight: 0.4, weightUnit: 'kg' },
    ]);
    const created = await t.request('POST', `${org()}/orders/${orderId}/shipments`, { body: { carrierId, productId: 'local_parcel' } });
    // Only the tea leaves now: the mug line is taken off the parcel.
    const parcel = created.body.parcels[0];
    const patched = await t.request('PATCH', `${org()}/shipments/${created.body.id}`, {
      body: { parcels: [{ ...parcel, orderLines: parcel.orderLines.filter((line: { sku: string }) => line.sku === 'TEA-02') }] },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect((await t.request('POST', `${org()}/shipments/${created.body.id}/send`)).status).toBe(200);
    expect(await writeDueFulfillments(t.app)).toBe(1);
    const order = woo.orders.get(wooId)!;
    expect(order.status).toBe('processing');
    expect(order.notes).toHaveLength(1);
    expect(woo.requests.some((r) => r.method === 'PUT' && r.path === `/wp-json/wc/v3/orders/${wooId}`)).toBe(false);
  });

  it('asks WooCommerce not to notify the customer when Shipdesk e-mails the customer itself', async () => {
    const saved = await t.request('PUT', `${org()}/email-settings`, {
      body: { host: 'smtp.example.com', port: 587, secure: false, username: 'u', password: 'p', fromAddress: 'shop@example.com' },
    });
    expect(saved.status).toBe(200);
    const rule = await t.request('POST', `${org()}/shipping-rules`, {
      body: {
        name: 'E-mail the customer',
        services: [],
        senderAddressId,
        receivingCountries: ['*'],
        conditions: [],
        carrierId,
        productId: 'local_parcel',
        emailNotification: true,
      },
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    try {
      const { orderId, wooId } = await wooOrder();
      const created = await t.request('POST', `${org()}/orders/${orderId}/shipments`, { body: { carrierId, productId: 'local_parcel' } });
      expect((await t.request('PATCH', `${org()}/shipments/${created.body.id}`, { body: { shippingRuleId: rule.body.id } })).status).toBe(200);
      expect((await t.request('POST', `${org()}/shipments/${created.body.id}/send`)).status).toBe(200);
      expect(t.app.db.$client.prepare('SELECT count(*) AS n FROM email_messages WHERE shipment_id = ?').get(created.body.id)).toEqual({ n: 1 });
      expect(await writeDueFulfillments(t.app)).toBe(1);
      expect(woo.orders.get(wooId)!.notes).toMatchObject([{ customer_note: false }]);
    } finally {
      await t.request('DELETE', `${org()}/email-settings`);
    }
  });

  it('retries a shop error on the schedule, reading the shop back before writing again', async () => {
    const { orderId, wooId } = await wooOrder();
    const shipment = await dispatch(t, orderId);
    // The status is set, then the note answers 500.
    woo.faults = [null, { status: 500 }];
    expect(await writeDueFulfillments(t.app)).toBe(1);
    expect(rowsOf(t, shipment.id)).toMatchObject([{ status: 'queued', attempts: 1, lastError: expect.stringMatching(/WooCommerce answered 500/) }]);
    const listed = (await t.request('GET', `${org()}/orders/${orderId}/shop-fulfillments`)).body.items[0];
    expect(listed).toMatchObject({ status: 'queued', nextAttemptAt: new Date(clock.getTime() + RETRY_DELAYS_MS[0]).toISOString() });
    // Not due yet.
    expect(await writeDueFulfillments(t.app)).toBe(0);
    advance(RETRY_DELAYS_MS[0]);
    const before = woo.requests.length;
    expect(await writeDueFulfillments(t.app)).toBe(1);
    expect(woo.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /wp-json/wc/v3/orders/${wooId}/notes?type=any`,
      `PUT /wp-json/wc/v3/orders/${wooId}`,
      `POST /wp-json/wc/v3/orders/${wooId}/notes`,
    ]);
    expect(woo.orders.get(wooId)!.notes).toHaveLength(1);
    expect(rowsOf(t, shipment.id)).toMatchObject([{ status: 'sent', attempts: 2, lastError: null }]);
  });

  it('marks the write-back failed after the last attempt, with the error on the shipment; the retry button queues it again', async () => {
    const { orderId, wooId } = await wooOrder();
    const shipment = await dispatch(t, orderId);
    const tooMany = { status: 429, headers: { 'retry-after': '60' }, body: { code: 'rate_limited', message: 'Too many requests.', data: { status: 429 } } };
    for (let attempt = 1; attempt <= SHOP_WRITE_MAX_ATTEMPTS; attempt++) {
      // Each attempt stops at its first call, refused (after the first attempt that is the read-back).
      woo.faults = [tooMany];
      expect(await writeDueFulfillments(t.app)).toBe(1);
      if (attempt < SHOP_WRITE_MAX_ATTEMPTS) advance(RETRY_DELAYS_MS[attempt - 1]!);
    }
    expect(rowsOf(t, shipment.id)).toMatchObject([
      { status: 'failed', attempts: SHOP_WRITE_MAX_ATTEMPTS, lastError: expect.stringMatching(/429.*slow down.*Too many requests/) },
    ]);
    advance(24 * 3600_000);
    expect(await writeDueFulfillments(t.app)).toBe(0);
    expect(woo.faults).toEqual([]);
    const shipmentRead = (await t.request('GET', `${org()}/shipments/${shipment.id}`)).body;
    expect(shipmentRead.errors).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'SHOP_WRITE_BACK_FAILED' })]));

    const listed = (await t.request('GET', `${org()}/orders/${orderId}/shop-fulfillments`)).body.items[0];
    expect(listed).toMatchObject({ status: 'failed', attempts: SHOP_WRITE_MAX_ATTEMPTS, nextAttemptAt: null });
    const retried = await t.request('POST', `${org()}/orders/${orderId}/shop-fulfillments/${listed.id}/retry`);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body).toMatchObject({ status: 'queued', attempts: 0 });
    expect(await writeDueFulfillments(t.app)).toBe(1);
    expect(woo.orders.get(wooId)!.notes).toHaveLength(1);
    expect(rowsOf(t, shipment.id)).toMatchObject([{ status: 'sent' }]);

    // Only a failed one can be retried; unknown ids and other orders are 404.
    const again = await t.request('POST', `${org()}/orders/${orderId}/shop-fulfillments/${listed.id}/retry`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CONFLICT');
    expect((await t.request('POST', `${org()}/orders/${orderId}/shop-fulfillments/sff_unknown/retry`)).status).toBe(404);
    expect((await t.request('GET', `${org()}/orders/ord_unknown/shop-fulfillments`)).status).toBe(404);
  });

  it('after a timeout, reads the notes back, finds the note the slow answer made and does not write it twice', async () => {
    const { orderId, wooId } = await wooOrder();
    const shipment = await dispatch(t, orderId);
    t.app.storefront = { origin: woo.origin, timeoutMs: 300 };
    woo.faults = [null, 'slow'];
    expect(await writeDueFulfillments(t.app)).toBe(1);
    woo.release();
    expect(rowsOf(t, shipment.id)).toMatchObject([{ status: 'queued', lastError: expect.stringMatching(/did not answer within/) }]);
    const note = woo.orders.get(wooId)!.notes[0]!;
    expect(note.note).toContain(shipment.tracking.number);
    advance(RETRY_DELAYS_MS[0]);
    expect(await writeDueFulfillments(t.app)).toBe(1);
    expect(posts(wooId)).toHaveLength(1);
    expect(woo.orders.get(wooId)!.notes).toHaveLength(1);
    expect(rowsOf(t, shipment.id)).toMatchObject([{ status: 'sent', remoteId: String(note.id), lastError: null }]);
  });

  it('adds a note with the new number when the tracking number changes, on the same row', async () => {
    const { orderId, wooId } = await wooOrder();
    const shipment = await dispatch(t, orderId);
    expect(await writeDueFulfillments(t.app)).toBe(1);
    // A new tracking number from the carrier (queueShopWriteBack is what the path that changes it calls).
    t.app.db.$client.prepare("UPDATE shipments SET tracking_number = 'NEW-123' WHERE id = ?").run(shipment.id);
    inWriteTransaction(t.app.db, (tx) => queueShopWriteBack(tx, clock, shipment.id));
    expect(rowsOf(t, shipment.id)).toMatchObject([{ status: 'queued', attempts: 0 }]);
    expect(await writeDueFulfillments(t.app)).toBe(1);
    const notes = woo.orders.get(wooId)!.notes;
    expect(notes).toHaveLength(2);
    expect(notes[1]!.note).toMatch(/changed: it is now NEW-123/);
    expect(rowsOf(t, shipment.id)).toMatchObject([{ status: 'sent', sent: 'NEW-123', remoteId: String(notes[1]!.id) }]);
    // The same number again changes nothing.
    inWriteTransaction(t.app.db, (tx) => queueShopWriteBack(tx, clock, shipment.id));
    expect(await writeDueFulfillments(t.app)).toBe(0);
  });

  it('checks what WooCommerce checks: a read-only key is refused, in plain words', async () => {
    const { orderId, wooId } = await wooOrder();
    const shipment = await dispatch(t, orderId);
    woo.permission = 'read';
    expect(await writeDueFulfillments(t.app)).toBe(1);
    expect(rowsOf(t, shipment.id)).toMatchObject([
      { status: 'queued', lastError: expect.stringMatching(/401: the shop refused the credentials or their access/) },
    ]);
    expect(woo.orders.get(wooId)!.notes).toHaveLength(0);
  });
});

describe('a restart in the middle of the retries', () => {
  it('resumes from the database file: a row left sending is read back first, and the note is written once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'shipdesk-writeback-'));
    try {
      const first = await startTestServer({ now: () => clock, dataDir });
      first.app.storefront = { origin: woo.origin };
      first.app.db.$client.prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(first.org.orgId);
      const saved = { t, carrierId, channelId };
      t = first;
      ({ carrierId } = await setupLocalCarrier(first, first.org, { trackingUrlTemplate: 'https://track.acme.example/{trackingNumber}' }));
      channelId = await wooChannel(first);
      const a = await wooOrder(first);
      const b = await wooOrder(first);
      const shipmentA = await dispatch(first, a.orderId);
      const shipmentB = await dispatch(first, b.orderId);
      // A: its first attempt fails (a retry is due in 30 s). B: the shop makes the note, then the process dies before the answer is written down.
      woo.faults = [null, { status: 503 }, null, null];
      expect(await writeDueFulfillments(first.app)).toBe(2);
      expect(rowsOf(first, shipmentA.id)).toMatchObject([{ status: 'queued', attempts: 1 }]);
      first.app.db.$client
        .prepare("UPDATE shop_fulfillments SET status = 'sending', remote_id = NULL, sent_at = NULL, sent_tracking_number = NULL WHERE shipment_id = ?")
        .run(shipmentB.id);
      await first.close();

      const reopened = await startTestServer({ now: () => clock, dataDir });
      reopened.app.storefront = { origin: woo.origin };
      try {
        expect(resumeInterruptedWriteBacks(reopened.app)).toBe(1);
        expect(rowsOf(reopened, shipmentB.id)).toMatchObject([{ status: 'queued', lastError: expect.stringMatching(/Shipdesk stopped/) }]);
        // B is due at once; A when its retry time comes.
        expect(await writeDueFulfillments(reopened.app)).toBe(1);
        expect(posts(b.wooId)).toHaveLength(1);
        expect(rowsOf(reopened, shipmentB.id)).toMatchObject([{ status: 'sent', remoteId: String(woo.orders.get(b.wooId)!.notes[0]!.id) }]);
        advance(RETRY_DELAYS_MS[0]);
        expect(await writeDueFulfillments(reopened.app)).toBe(1);
        expect(rowsOf(reopened, shipmentA.id)).toMatchObject([{ status: 'sent', attempts: 2 }]);
        expect(woo.orders.get(a.wooId)!.notes).toHaveLength(1);
        expect(woo.orders.get(b.wooId)!.notes).toHaveLength(1);
      } finally {
        await reopened.close();
        ({ t, carrierId, channelId } = saved);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
