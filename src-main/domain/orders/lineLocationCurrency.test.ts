import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupLocalCarrier, startTestServer, type TestServer } from '../../testing/harness';

let t: TestServer;
let carrierId: string;
let channelId: string;
let counter = 0;

const orders = () => `/orgs/${t.org.orgId}/orders`;
const address = { name: 'Jens Hansen', address1: 'Nørregade 1', city: 'København K', postalCode: '1165', countryCode: 'DK' };
const storedCurrencies = (orderId: string) =>
  (t.app.db.$client.prepare('SELECT currency FROM order_lines WHERE order_id = ? ORDER BY position').all(orderId) as { currency: string | null }[]).map(
    (row) => row.currency,
  );

async function createOrder(body: Record<string, unknown>) {
  const res = await t.request('POST', orders(), { body: { orderNumber: `LC-${++counter}`, orderChannelId: channelId, shippingAddress: address, ...body } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body;
}

beforeAll(async () => {
  t = await startTestServer();
  ({ carrierId } = await setupLocalCarrier(t));
  channelId = (await t.request('POST', `/orgs/${t.org.orgId}/order-channels`, { body: { name: 'Manual', type: 'manual' } })).body.id;
  const org = await t.request('PUT', `/orgs/${t.org.orgId}`, { body: { currency: 'SEK' } });
  if (org.status !== 200) throw new Error(JSON.stringify(org.body));
});
afterAll(() => t.close());

describe('order line location (the bin)', () => {
  it('is kept on create and PATCH, null when not given, and copied to the parcel lines of a shipment made from the order', async () => {
    const order = await createOrder({
      orderLines: [
        { name: 'Mug', sku: 'MUG', quantity: 2, location: 'A-03-2' },
        { name: 'Tea', sku: 'TEA', quantity: 1 },
      ],
    });
    expect(order.orderLines.map((line: { location: string | null }) => line.location)).toEqual(['A-03-2', null]);

    const patched = await t.request('PATCH', `${orders()}/${order.id}`, {
      body: {
        orderLines: [
          { id: order.orderLines[0].id, name: 'Mug', sku: 'MUG', quantity: 2, location: 'B-01' },
          { id: order.orderLines[1].id, name: 'Tea', sku: 'TEA', quantity: 1, location: 'C-7' },
        ],
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.orderLines.map((line: { location: string | null }) => line.location)).toEqual(['B-01', 'C-7']);

    const shipment = await t.request('POST', `${orders()}/${order.id}/shipments`, { body: { carrierId, productId: 'local_parcel' } });
    expect(shipment.status).toBe(201);
    expect(shipment.body.parcels[0].orderLines.map((line: { sku: string; location: string }) => [line.sku, line.location])).toEqual([
      ['MUG', 'B-01'],
      ['TEA', 'C-7'],
    ]);
  });

  it('refuses a location longer than a text field may be', async () => {
    const res = await t.request('POST', orders(), {
      body: { orderNumber: 'LC-long', orderChannelId: channelId, orderLines: [{ name: 'Mug', quantity: 1, location: 'x'.repeat(1001) }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.details.map((detail: { path: string }) => detail.path)).toEqual(['body.orderLines.0.location']);
  });
});

describe('order lines without a currency', () => {
  it("take the order's currency on create, and keep their own", async () => {
    const order = await createOrder({
      currency: 'EUR',
      orderLines: [
        { name: 'Mug', quantity: 1, unitPrice: 10 },
        { name: 'Tea', quantity: 1, unitPrice: 5, currency: 'DKK' },
      ],
    });
    expect(order.orderLines.map((line: { currency: string }) => line.currency)).toEqual(['EUR', 'DKK']);
    expect(storedCurrencies(order.id)).toEqual(['EUR', 'DKK']);
  });

  it("take the organization's when the order has none, on create and on PATCH", async () => {
    const order = await createOrder({ orderLines: [{ name: 'Mug', quantity: 1, unitPrice: 10 }] });
    expect(order.orderLines[0].currency).toBe('SEK');
    const patched = await t.request('PATCH', `${orders()}/${order.id}`, {
      body: {
        currency: 'NOK',
        orderLines: [
          { id: order.orderLines[0].id, name: 'Mug', quantity: 1 },
          { name: 'Cup', quantity: 1 },
        ],
      },
    });
    expect(patched.body.orderLines.map((line: { currency: string }) => line.currency)).toEqual(['NOK', 'NOK']);
    expect(storedCurrencies(order.id)).toEqual(['NOK', 'NOK']);
  });

  it('take it when imported from CSV', async () => {
    const csv = [
      'orderNumber,orderChannelId,currency,lineName,lineQuantity,lineUnitPrice',
      `LC-csv,${channelId},EUR,Mug,1,10`,
      `LC-csv2,${channelId},,Mug,1,10`,
    ].join('\n');
    const res = await t.request('POST', `${orders()}/import`, { rawBody: csv, headers: { 'content-type': 'text/csv' } });
    expect(res.body).toEqual({ created: 2, skipped: 0, errors: [] });
    const list = await t.request('GET', `${orders()}?search=LC-csv`);
    const currencies: Record<string, string> = {};
    for (const summary of list.body.data) currencies[summary.orderNumber] = (await t.request('GET', `${orders()}/${summary.id}`)).body.orderLines[0].currency;
    expect(currencies).toEqual({ 'LC-csv': 'EUR', 'LC-csv2': 'SEK' });
  });

  it('are read with the order’s (else the organization’s) currency when stored without one, and priced in it on the parcel line', async () => {
    const order = await createOrder({ currency: 'EUR', orderLines: [{ name: 'Mug', sku: 'MUG', quantity: 1, unitPrice: 10 }] });
    const bare = await createOrder({ orderLines: [{ name: 'Mug', sku: 'MUG', quantity: 1, unitPrice: 10 }] });
    // Lines written before the rule have no currency stored.
    t.app.db.$client.prepare('UPDATE order_lines SET currency = NULL WHERE order_id IN (?, ?)').run(order.id, bare.id);
    expect((await t.request('GET', `${orders()}/${order.id}`)).body.orderLines[0].currency).toBe('EUR');
    expect((await t.request('GET', `${orders()}/${bare.id}`)).body.orderLines[0].currency).toBe('SEK');
    const shipment = await t.request('POST', `${orders()}/${bare.id}/shipments`, { body: { carrierId, productId: 'local_parcel' } });
    expect(shipment.body.parcels[0].orderLines[0].currency).toBe('SEK');
  });
});
