import { afterEach, beforeEach, expect, it } from 'vitest';
import { execute } from '../app/dispatcher/execute';
import { login } from './auth/login';
import { createOrgWithOwner } from './orgs/orgs';
import { senderAddressBody, shipmentBody } from '../testing/harness';
import { queryPlan, recordingApp, type RecordingApp } from '../testing/queryPlans';
import { JsonText } from '../app/kernel/jsonText';

/**
 * `reference=` on shipments and `orderNumber=` on orders: what a scanned label or packing slip
 * gives the pack screen. Exact (case and all, no "contains"), and found on an index: the plans are
 * SQLite's own, for the statements the lists really ran.
 */
let recording: RecordingApp;
beforeEach(() => {
  recording = recordingApp();
});
afterEach(() => recording.close());

async function orgWithDoor(name: string) {
  const { app } = recording;
  const email = `${name.toLowerCase()}@example.com`;
  const { orgId } = await createOrgWithOwner(app, { orgName: name, email, password: 'long enough password' });
  const door = { authorization: `Bearer ${(await login(app, 'test', email, 'long enough password')).accessToken}`, client: 'test' };
  const call = async (operationId: string, raw: Record<string, unknown>) => {
    const result = await execute(app, operationId, { ...raw, params: { orgId, ...(raw.params as object) } }, door);
    expect(result.status, `${operationId}: ${JSON.stringify(result.body)}`).toBeLessThan(300);
    // A shipment's create answers with its full read as JSON text (as a get does): the doors send it as it is.
    return (result.body instanceof JsonText ? result.body.parse() : result.body) as any;
  };
  return { orgId, call };
}

/** The plan steps of the lookups run since the last call, one string per statement. */
function plansOfLookups(table: string): string[] {
  return recording
    .takeLookups()
    .filter((sql) => new RegExp(`from "${table}"`, 'i').test(sql) && !/count\(/i.test(sql))
    .map((sql) => queryPlan(recording.app, sql).join(' | '));
}

it('reference= finds exactly that reference on the (organization, reference) index, and a search its few matches by id', async () => {
  const { call } = await orgWithDoor('Refs');
  const address = await call('senderAddresses.create', { body: senderAddressBody() });
  const carrier = await call('carriers.create', { body: { name: 'Own trucks', carrierSlug: 'local', config: {}, senderAddressId: address.id } });
  for (const reference of ['R-100', 'R-1000', 'r-100', 'XR-100']) await call('shipments.create', { body: shipmentBody(carrier.id, { reference }) });

  recording.takeLookups();
  const found = await call('shipments.list', { query: { reference: 'R-100' } });
  expect(found.data.map((item: { reference: string }) => item.reference)).toEqual(['R-100']);
  expect(found.total).toBe(1);
  const plans = plansOfLookups('shipments');
  expect(plans.length).toBeGreaterThan(0);
  expect(plans[0]).toContain('shipments_org_reference (org_id=? AND reference=?)');
  expect((await call('shipments.list', { query: { reference: 'R-10' } })).data).toEqual([]);

  // A search's few matches come from the trigram index (migration 0011) and are read by id, then sorted.
  recording.takeLookups();
  const searched = await call('shipments.list', { query: { search: 'r-100' } });
  expect(searched.data.map((item: { reference: string }) => item.reference)).toEqual(['XR-100', 'r-100', 'R-1000', 'R-100']);
  expect(plansOfLookups('shipments')[0]).toContain('USING INDEX sqlite_autoindex_shipments_1 (id=?)');
});

it('orderNumber= finds that number in every channel of the organization and nowhere else, on the (channel, number) index', async () => {
  const shop = await orgWithDoor('Shop');
  const other = await orgWithDoor('Other');
  const order = (channelId: string, orderNumber: string) => ({
    body: {
      orderNumber,
      orderChannelId: channelId,
      shippingAddress: { name: 'Kim', address1: 'Vestergade 3', city: 'Odense', postalCode: '5000', countryCode: 'DK' },
      orderLines: [{ name: 'Mug', quantity: 1 }],
    },
  });
  const web = await shop.call('orderChannels.create', { body: { name: 'Web', type: 'manual' } });
  const phone = await shop.call('orderChannels.create', { body: { name: 'Phone', type: 'manual' } });
  const theirs = await other.call('orderChannels.create', { body: { name: 'Theirs', type: 'manual' } });
  const inWeb = await shop.call('orders.create', order(web.id, '1001'));
  const inPhone = await shop.call('orders.create', order(phone.id, '1001'));
  await shop.call('orders.create', order(web.id, '10010'));
  await shop.call('orders.create', order(web.id, 'a-1001'));
  await other.call('orders.create', order(theirs.id, '1001'));

  recording.takeLookups();
  const found = await shop.call('orders.list', { query: { orderNumber: '1001' } });
  expect(found.data.map((item: { id: string }) => item.id).sort()).toEqual([inWeb.id, inPhone.id].sort());
  expect(found.total).toBe(2);
  const plans = plansOfLookups('orders');
  expect(plans.length).toBeGreaterThan(0);
  for (const plan of plans) {
    expect(plan).toContain('orders_channel_number (order_channel_id=? AND order_number=?)');
    expect(plan).not.toContain('orders_org_created');
  }
});

it('code= finds the shipment whose label prints that barcode: its tracking number or a parcel number, on indexes', async () => {
  const { call } = await orgWithDoor('Codes');
  const address = await call('senderAddresses.create', { body: senderAddressBody() });
  const carrier = await call('carriers.create', { body: { name: 'Own trucks', carrierSlug: 'local', config: {}, senderAddressId: address.id } });
  const sent = [];
  for (const reference of ['C-1', 'C-2']) {
    const shipment = await call('shipments.create', { body: shipmentBody(carrier.id, { reference }) });
    await call('shipments.send', { params: { shipmentId: shipment.id } });
    // The detail comes as its stored JSON text (the read cache); the list as an object.
    const read = await call('shipments.get', { params: { shipmentId: shipment.id } });
    sent.push(typeof read.text === 'string' ? JSON.parse(read.text) : read);
  }
  const [first, second] = sent;
  expect(first.tracking?.number).toBeTruthy();

  recording.takeLookups();
  const byTracking = await call('shipments.list', { query: { code: first.tracking.number } });
  expect(byTracking.data.map((item: { id: string }) => item.id)).toEqual([first.id]);
  const plan = plansOfLookups('shipments').join(' ');
  expect(plan).toContain('shipments_org_tracking_number');
  expect(plan).not.toContain('shipments_org_created');

  const parcelNumber = second.parcels[0].trackingNumber;
  expect(parcelNumber).toBeTruthy();
  const byParcel = await call('shipments.list', { query: { code: parcelNumber } });
  expect(byParcel.data.map((item: { id: string }) => item.id)).toEqual([second.id]);
  expect(plansOfLookups('parcels').join(' ') + plansOfLookups('shipments').join(' ')).toContain('parcels_tracking_number');
  // Exact: a part of a code, or another case, finds nothing.
  expect((await call('shipments.list', { query: { code: first.tracking.number.slice(0, -1) } })).data).toEqual([]);
  expect((await call('shipments.list', { query: { code: first.tracking.number.toLowerCase() + 'x' } })).data).toEqual([]);
});
