import { afterAll, beforeAll, expect, it } from 'vitest';
import { setupLocalCarrier, shipmentBody, startTestServer, type TestServer } from '../testing/harness';
import { closedPort } from '../testing/printing';
import { DELIVERY_RETENTION_DAYS, OUTBOX_RETENTION_DAYS, pruneDeliveredEvents, pruneOldDeliveries } from './outboxRetention';
import { dispatchOutbox, sendDueDeliveries } from './webhooks/delivery';

const DAY = 24 * 60 * 60 * 1000;
let now = new Date('2026-01-01T08:00:00.000Z');
let t: TestServer;
let carrierId: string;

beforeAll(async () => {
  t = await startTestServer({ now: () => now });
  ({ carrierId } = await setupLocalCarrier(t));
});
afterAll(() => t.close());

const eventsOf = (shipmentId: string) =>
  (
    t.app.db.$client.prepare("SELECT type FROM outbox_events WHERE json_extract(payload, '$.data.id') = ? ORDER BY created_at, id").all(shipmentId) as {
      type: string;
    }[]
  ).map((row) => row.type);
const createShipment = async () => (await t.request('POST', `/orgs/${t.org.orgId}/shipments`, { body: shipmentBody(carrierId) })).body as { id: string };

it(`keeps events ${OUTBOX_RETENTION_DAYS} days after dispatch, and longer while a delivery retry waits for one or while not dispatched`, async () => {
  // A webhook for shipment.updated whose receiver is down: its delivery waits for a retry.
  const down = await t.request('POST', `/orgs/${t.org.orgId}/webhooks`, {
    body: { name: 'Down', url: `http://127.0.0.1:${await closedPort()}/hook`, events: ['shipment.updated'] },
  });
  expect(down.status).toBe(201);
  const old = await createShipment();
  const retried = await createShipment();
  expect((await t.request('PATCH', `/orgs/${t.org.orgId}/shipments/${retried.id}`, { body: { reference: 'RETRIED' } })).status).toBe(200);
  dispatchOutbox(t.app);
  await sendDueDeliveries(t.app);
  const pending = t.app.db.$client.prepare('SELECT count(*) AS n FROM webhook_deliveries WHERE next_attempt_at IS NOT NULL').get() as { n: number };
  expect(pending.n).toBe(1);

  now = new Date(now.getTime() + 2 * DAY);
  const recent = await createShipment();
  dispatchOutbox(t.app);
  now = new Date(now.getTime() + (OUTBOX_RETENTION_DAYS - 1) * DAY); // `old` is now past the retention, `recent` is not
  const undispatched = await createShipment();
  t.app.db.$client
    .prepare("UPDATE outbox_events SET created_at = '2025-01-01T00:00:00.000Z' WHERE json_extract(payload, '$.data.id') = ?")
    .run(undispatched.id);

  expect(await pruneDeliveredEvents(t.app)).toBe(2);
  expect(eventsOf(old.id)).toEqual([]);
  // Its created event went; the updated one waits for the retry.
  expect(eventsOf(retried.id)).toEqual(['shipment.updated']);
  expect(eventsOf(recent.id)).toEqual(['shipment.created']);
  expect(eventsOf(undispatched.id)).toEqual(['shipment.created']);
  // The delivery history stays, naming the event.
  const deliveries = await t.request('GET', `/orgs/${t.org.orgId}/webhooks/${down.body.id}/deliveries`);
  expect(deliveries.body.data).toEqual([expect.objectContaining({ event: 'shipment.updated', success: false, attempt: 1 })]);
  expect(await pruneDeliveredEvents(t.app)).toBe(0);
});

it('deletes in batches, every expired event', async () => {
  const before = (t.app.db.$client.prepare('SELECT count(*) AS n FROM outbox_events').get() as { n: number }).n;
  const insert = t.app.db.$client.prepare(
    "INSERT INTO outbox_events (id, org_id, type, payload, created_at, dispatched_at) VALUES (?, ?, 'shipment.created', '{}', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:01.000Z')",
  );
  t.app.db.$client.transaction(() => {
    for (let i = 0; i < 1234; i++) insert.run(`evt_old${i}`, t.org.orgId);
  })();
  expect(await pruneDeliveredEvents(t.app)).toBe(1234);
  expect((t.app.db.$client.prepare('SELECT count(*) AS n FROM outbox_events').get() as { n: number }).n).toBe(before);
});

it(`keeps webhook delivery records ${DELIVERY_RETENTION_DAYS} days, and while a retry waits`, async () => {
  const hook = await t.request('POST', `/orgs/${t.org.orgId}/webhooks`, {
    body: { name: 'History', url: 'http://127.0.0.1:9/hook', events: ['shipment.created'] },
  });
  expect(hook.status).toBe(201);
  const insert = t.app.db.$client.prepare(
    "INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, success, attempt, next_attempt_at, created_at) VALUES (?, ?, ?, 'shipment.created', 1, 1, ?, ?)",
  );
  const old = new Date(now.getTime() - (DELIVERY_RETENTION_DAYS + 1) * DAY).toISOString();
  const young = new Date(now.getTime() - (DELIVERY_RETENTION_DAYS - 1) * DAY).toISOString();
  t.app.db.$client.transaction(() => {
    for (let i = 0; i < 1203; i++) insert.run(`whd_old${i}`, hook.body.id, `evt_x${i}`, null, old);
    insert.run('whd_retry', hook.body.id, 'evt_retry', now.toISOString(), old);
    insert.run('whd_young', hook.body.id, 'evt_young', null, young);
  })();
  expect(await pruneOldDeliveries(t.app)).toBe(1203);
  const left = (t.app.db.$client.prepare('SELECT id FROM webhook_deliveries WHERE webhook_id = ? ORDER BY id').all(hook.body.id) as { id: string }[]).map(
    (row) => row.id,
  );
  expect(left).toEqual(['whd_retry', 'whd_young']);
  expect(await pruneOldDeliveries(t.app)).toBe(0);
});
