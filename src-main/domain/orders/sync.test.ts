import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestOrg, type TestServer } from '../../testing/harness';
import {
  fakeShopify,
  fakeWoo,
  shopifyOrder,
  startFakeShopify,
  startFakeWooCommerce,
  wooOrder,
  type FakeShop,
  type FakeShopify,
} from '../../testing/fakeStorefronts';

let t: TestServer;
let shopify: FakeShopify;
let woo: FakeShop;
beforeAll(async () => {
  [t, shopify, woo] = await Promise.all([startTestServer(), startFakeShopify(), startFakeWooCommerce()]);
});
afterAll(async () => {
  await Promise.all([t.close(), shopify.close(), woo.close()]);
});
beforeEach(() => {
  for (const shop of [shopify, woo]) {
    shop.failWith = null;
    shop.requests = [];
  }
});

/** The starter plan allows two channels, so each test gets an organization of its own. */
async function channelIn(type: string, config: Record<string, unknown>, org?: TestOrg) {
  const owner = org ?? (await t.createOrg());
  const res = await t.request('POST', `/orgs/${owner.orgId}/order-channels`, { token: owner.token, body: { name: `${type} shop`, type, config } });
  expect(res.status).toBe(201);
  const channelId = res.body.id as string;
  const sync = (token = owner.token) => t.request('POST', `/orgs/${owner.orgId}/order-channels/${channelId}/sync`, { token });
  return { org: owner, channelId, sync };
}

const ordersOf = (channelId: string) =>
  t.app.db.$client
    .prepare('SELECT id, order_number, external_id, customer_name, shipping_address, external_data FROM orders WHERE order_channel_id = ? ORDER BY external_id')
    .all(channelId) as { id: string; order_number: string; external_id: string; customer_name: string; shipping_address: string; external_data: string }[];
const linesOf = (orderId: string) =>
  t.app.db.$client.prepare('SELECT name, sku, quantity, weight, requires_shipping FROM order_lines WHERE order_id = ? ORDER BY position').all(orderId);

describe('POST /order-channels/{id}/sync', () => {
  it('imports every Shopify order once: a second sync skips them, a new one is created', async () => {
    t.app.storefront = { origin: shopify.origin };
    shopify.orders = [5001, 5002, 5003].map((id) => shopifyOrder(id));
    const { channelId, sync } = await channelIn('shopify', fakeShopify);

    const first = await sync();
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ created: 3, updated: 0, held: 0, skipped: 0, errors: [] });
    expect(shopify.requests.every((request) => request.authorized)).toBe(true);
    expect(shopify.requests).toHaveLength(1);

    const rows = ordersOf(channelId);
    expect(rows.map((row) => [row.external_id, row.order_number])).toEqual([
      ['5001', '#1'],
      ['5002', '#2'],
      ['5003', '#3'],
    ]);
    expect(JSON.parse(rows[0]!.shipping_address)).toMatchObject({ name: 'Jane Doe', address1: 'Storgade 5', postalCode: '2100', countryCode: 'DK' });
    expect(JSON.parse(rows[0]!.external_data)).toMatchObject({ platform: 'shopify', financialStatus: 'paid' });
    expect(linesOf(rows[0]!.id)).toEqual([
      { name: 'Stoneware mug - Blue', sku: 'MUG-01', quantity: 2, weight: 0.4, requires_shipping: 1 },
      { name: 'Gift card', sku: null, quantity: 1, weight: null, requires_shipping: 0 },
    ]);

    const again = await sync();
    expect(again.body).toEqual({ created: 0, updated: 0, held: 0, skipped: 3, errors: [] });
    expect(ordersOf(channelId)).toHaveLength(3);

    shopify.orders.unshift(shopifyOrder(5004));
    const third = await sync();
    expect(third.body).toEqual({ created: 1, updated: 0, held: 0, skipped: 3, errors: [] });
    expect(ordersOf(channelId).map((row) => row.external_id)).toEqual(['5001', '5002', '5003', '5004']);
  });

  it('imports WooCommerce orders over two pages, idempotently', async () => {
    t.app.storefront = { origin: woo.origin };
    woo.orders = [801, 802, 803].map((id) => wooOrder(id));
    const { channelId, sync } = await channelIn('woocommerce', fakeWoo);

    expect((await sync()).body).toEqual({ created: 3, updated: 0, held: 0, skipped: 0, errors: [] });
    expect(woo.requests.map((request) => request.authorized)).toEqual([true, true]);
    const [first] = ordersOf(channelId);
    expect(first).toMatchObject({ external_id: '801', order_number: '801', customer_name: 'Hans Meier' });
    expect(linesOf(first!.id)).toEqual([{ name: 'Tea tin', sku: 'TEA-02', quantity: 3, weight: null, requires_shipping: 1 }]);
    expect((await sync()).body).toEqual({ created: 0, updated: 0, held: 0, skipped: 3, errors: [] });
  });

  it('imports only orders waiting to be shipped, even from a shop that ignores the filter', async () => {
    t.app.storefront = { origin: shopify.origin };
    shopify.orders = [
      shopifyOrder(5101),
      shopifyOrder(5102, { displayFulfillmentStatus: 'FULFILLED' }),
      shopifyOrder(5103, { displayFulfillmentStatus: 'PARTIALLY_FULFILLED' }),
      shopifyOrder(5104, { cancelledAt: '2024-11-03T08:00:00Z' }),
      shopifyOrder(5105, { closedAt: '2024-11-04T08:00:00Z', closed: true, displayFulfillmentStatus: 'FULFILLED' }),
    ];
    const { channelId, sync } = await channelIn('shopify', fakeShopify);
    expect((await sync()).body).toEqual({ created: 2, updated: 0, held: 0, skipped: 0, errors: [] });
    expect(shopify.requests[0]?.variables).toMatchObject({ query: 'status:open' });
    expect(ordersOf(channelId).map((row) => row.external_id)).toEqual(['5101', '5103']);

    t.app.storefront = { origin: woo.origin };
    woo.orders = [wooOrder(811), wooOrder(812, { status: 'completed' }), wooOrder(813, { status: 'on-hold' }), wooOrder(814, { status: 'cancelled' })];
    const wooChannel = await channelIn('woocommerce', fakeWoo);
    expect((await wooChannel.sync()).body).toEqual({ created: 1, updated: 0, held: 0, skipped: 0, errors: [] });
    expect(woo.requests.every((request) => request.path.includes('status=processing'))).toBe(true);
    expect(ordersOf(wooChannel.channelId).map((row) => row.external_id)).toEqual(['811']);
  });

  it('WooCommerce: a later sync reads what was modified since, cancels an order cancelled in the shop and imports a new one', async () => {
    t.app.storefront = { origin: woo.origin };
    woo.orders = [wooOrder(821, { date_modified_gmt: '2026-11-20T08:00:00' }), wooOrder(822, { date_modified_gmt: '2026-11-20T09:00:00' })];
    const { org, channelId, sync } = await channelIn('woocommerce', fakeWoo);
    expect((await sync()).body).toEqual({ created: 2, updated: 0, held: 0, skipped: 0, errors: [] });
    const cursor = () =>
      (t.app.db.$client.prepare('SELECT sync_cursor FROM order_channels WHERE id = ?').get(channelId) as { sync_cursor: string }).sync_cursor;
    expect(cursor()).toBe('2026-11-20T09:00:00.000Z');
    expect(t.app.db.$client.prepare('SELECT external_line_id FROM order_lines WHERE order_id = ?').all(ordersOf(channelId)[0]!.id)).toEqual([
      { external_line_id: '8211' },
    ]);

    woo.orders[0] = { ...woo.orders[0]!, status: 'cancelled', date_modified_gmt: '2026-11-21T10:00:00' };
    woo.orders.push(wooOrder(823, { date_modified_gmt: '2026-11-21T11:00:00' }));
    woo.requests = [];
    // 822 was modified within the read-back overlap: read again, unchanged.
    expect((await sync()).body).toEqual({ created: 1, updated: 1, held: 0, skipped: 1, errors: [] });
    expect(woo.requests[0]?.path).toContain('modified_after=2026-11-20T08%3A50%3A00.000Z');
    const cancelled = await t.request('GET', `/orgs/${org.orgId}/orders/${ordersOf(channelId)[0]!.id}`, { token: org.token });
    expect(cancelled.body).toMatchObject({ externalId: '821', status: 'cancelled', shopChange: null });
    expect(ordersOf(channelId).map((row) => row.external_id)).toEqual(['821', '822', '823']);
    expect(cursor()).toBe('2026-11-21T11:00:00.000Z');

    // A run that fails keeps the cursor: the next one reads the same changes again.
    woo.failWith = 500;
    expect((await sync()).status).toBe(422);
    expect(cursor()).toBe('2026-11-21T11:00:00.000Z');
  });

  it('two syncs of one channel at the same time: one runs (the channel lease), the other answers 409; each order once, one order.created each', async () => {
    t.app.storefront = { origin: shopify.origin };
    shopify.orders = [5201, 5202, 5203, 5204, 5205].map((id) => shopifyOrder(id));
    const { org, channelId, sync } = await channelIn('shopify', fakeShopify);
    const answers = await Promise.all([sync(), sync()]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const ran = answers.find((answer) => answer.status === 200)!;
    const refused = answers.find((answer) => answer.status === 409)!;
    expect(ran.body).toEqual({ created: 5, updated: 0, held: 0, skipped: 0, errors: [] });
    expect(refused.body).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/being synced right now/) });
    expect(ordersOf(channelId)).toHaveLength(5);
    const events = t.app.db.$client.prepare("SELECT count(*) AS n FROM outbox_events WHERE type = 'order.created' AND org_id = ?").get(org.orgId);
    expect(events).toEqual({ n: 5 });
  });

  it('answers 422 STOREFRONT_ERROR for a shop that answers with something other than JSON', async () => {
    const notJson: typeof fetch = async () => new Response('<html>Maintenance</html>', { headers: { 'content-type': 'text/html' } });
    t.app.storefront = { fetch: notJson };
    const { channelId, sync } = await channelIn('shopify', fakeShopify);
    const res = await sync();
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'STOREFRONT_ERROR',
      errors: [{ code: 'INVALID_RESPONSE', message: 'acme.myshopify.com did not answer with JSON' }],
    });
    expect(ordersOf(channelId)).toEqual([]);
  });

  it('reports bad orders in errors and imports the others', async () => {
    t.app.storefront = { origin: shopify.origin };
    shopify.orders = [
      shopifyOrder(6001),
      shopifyOrder(6002, { lineItems: [] }),
      shopifyOrder(6003, { lineItems: [{ name: 'Mug', quantity: 1, price: 'ten' }] }),
      shopifyOrder(6004, {
        shippingAddress: {
          firstName: 'Jane',
          lastName: 'Doe',
          name: 'Jane Doe',
          company: null,
          address1: '',
          address2: null,
          city: 'Aarhus',
          province: null,
          provinceCode: null,
          country: 'Denmark',
          countryCodeV2: 'DK',
          zip: '8000',
          phone: null,
        },
      }),
    ];
    const { channelId, sync } = await channelIn('shopify', fakeShopify);
    const res = await sync();
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(1);
    expect(res.body.errors).toEqual([
      { externalId: '6002', message: expect.stringContaining('orderLines') },
      { externalId: '6003', message: expect.stringContaining('orderLines.0.unitPrice') },
      { externalId: '6004', message: expect.stringContaining('shippingAddress.address1') },
    ]);
    expect(ordersOf(channelId).map((row) => row.external_id)).toEqual(['6001']);
  });

  it('reports an order number already typed in by hand, and imports the rest', async () => {
    t.app.storefront = { origin: shopify.origin };
    shopify.orders = [shopifyOrder(7001), shopifyOrder(7002)];
    const { org, channelId, sync } = await channelIn('shopify', fakeShopify);
    const manual = await t.request('POST', `/orgs/${org.orgId}/orders`, {
      token: org.token,
      body: { orderNumber: '#2001', orderChannelId: channelId, orderLines: [{ name: 'Mug', quantity: 1 }] },
    });
    expect(manual.status).toBe(201);
    const res = await sync();
    expect(res.body).toEqual({
      created: 1,
      updated: 0,
      held: 0,
      skipped: 0,
      errors: [{ externalId: '7001', message: expect.stringContaining('already exists') }],
    });
  });

  it('answers 422 STOREFRONT_ERROR when the shop refuses the credentials, and changes no orders', async () => {
    t.app.storefront = { origin: shopify.origin };
    shopify.orders = [shopifyOrder(8001)];
    const { channelId, sync } = await channelIn('shopify', { ...fakeShopify, accessToken: 'shpat_not_the_right_one' });
    const res = await sync();
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'STOREFRONT_ERROR', errors: [{ code: 'HTTP_401', message: expect.any(String) }] });
    expect(JSON.stringify(res.body)).not.toContain('shpat_not_the_right_one');
    expect(ordersOf(channelId)).toEqual([]);

    // A failure on a later page also imports nothing.
    t.app.storefront = { origin: woo.origin };
    woo.orders = [901, 902, 903].map((id) => wooOrder(id));
    const wooChannel = await channelIn('woocommerce', fakeWoo);
    woo.failWith = 500;
    expect((await wooChannel.sync()).status).toBe(422);
    expect(ordersOf(wooChannel.channelId)).toEqual([]);
  });

  it('answers 409 for manual and csv channels: there is nothing to sync', async () => {
    const { sync } = await channelIn('manual', {});
    const res = await sync();
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CONFLICT');
    const csv = await channelIn('csv', {});
    expect((await csv.sync()).status).toBe(409);
  });

  it('needs write:order_channels and keeps organizations apart', async () => {
    t.app.storefront = { origin: shopify.origin };
    shopify.orders = [shopifyOrder(9001)];
    const { org, channelId, sync } = await channelIn('shopify', fakeShopify);
    const readOnly = await t.tokenWithScopes(org, ['read:order_channels']);
    expect((await sync(readOnly)).status).toBe(403);
    const writer = await t.tokenWithScopes(org, ['write:order_channels']);
    expect((await sync(writer)).status).toBe(200);

    const other = await t.createOrg();
    const foreign = await t.request('POST', `/orgs/${other.orgId}/order-channels/${channelId}/sync`, { token: other.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('ORDER_CHANNEL_NOT_FOUND');
    const intoOrg = await t.request('POST', `/orgs/${org.orgId}/order-channels/${channelId}/sync`, { token: other.token });
    expect(intoOrg.status).toBe(403);
  });
});
