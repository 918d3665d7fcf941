import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupLocalCarrier, startTestServer, type TestServer } from '../../testing/harness';
import { changeShopifyOrder, fakeShopify, shopifyOrder, startFakeShopify, type FakeShopify } from '../../testing/fakeShopify';
import type { FakeOrderOverrides } from '../../testing/fakeShopify/orders';

let t: TestServer;
let shop: FakeShopify;
let carrierId: string;
let channelId: string;

// Each change in the shop an hour after the last, so a sync's read-back overlap never lists another test's orders.
let hour = 0;
const tick = () => new Date(Date.UTC(2026, 10, 1) + ++hour * 3_600_000).toISOString();

beforeAll(async () => {
  [t, shop] = await Promise.all([startTestServer(), startFakeShopify()]);
  t.app.storefront = { origin: shop.origin };
  ({ carrierId } = await setupLocalCarrier(t));
  const channel = await t.request('POST', `/orgs/${t.org.orgId}/order-channels`, {
    body: { name: 'Webshop', type: 'shopify', config: { ...fakeShopify, syncIntervalMinutes: 0 } },
  });
  expect(channel.status).toBe(201);
  channelId = channel.body.id;
});
afterAll(async () => Promise.all([t.close(), shop.close()]));

const db = () => t.app.db.$client;
const sync = async () => {
  const res = await t.request('POST', `/orgs/${t.org.orgId}/order-channels/${channelId}/sync`);
  expect(res.status).toBe(200);
  return res.body;
};
const orderPath = (orderId: string) => `/orgs/${t.org.orgId}/orders/${orderId}`;
const orderIdOf = (externalId: number) =>
  (db().prepare('SELECT id FROM orders WHERE order_channel_id = ? AND external_id = ?').get(channelId, String(externalId)) as { id: string }).id;
const readOrder = async (orderId: string) => (await t.request('GET', orderPath(orderId))).body;
const events = (type: string, orderId: string) =>
  (db().prepare('SELECT payload FROM outbox_events WHERE type = ?').all(type) as { payload: string }[]).filter(
    (row) => JSON.parse(row.payload).data.id === orderId,
  ).length;
const placeInShop = (id: number, overrides: FakeOrderOverrides = {}) => {
  const at = tick();
  shop.orders.push(shopifyOrder(id, { createdAt: at, updatedAt: at, ...overrides }));
};
const changeInShop = (id: number, change: FakeOrderOverrides) => changeShopifyOrder(shop, id, tick(), change);
const cancelInShop = (id: number) => {
  const at = tick();
  return changeShopifyOrder(shop, id, at, { cancelledAt: at, cancelReason: 'CUSTOMER', closedAt: at, closed: true });
};
async function shipFromOrder(orderId: string) {
  const res = await t.request('POST', `/orgs/${t.org.orgId}/shipments`, {
    body: { orderId, type: 'outbound', carrierSettings: { carrierId, productId: 'local_parcel' } },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; reference: string };
}
/** Imports the order through a sync and answers its id here. */
async function imported(id: number, overrides: FakeOrderOverrides = {}) {
  placeInShop(id, overrides);
  expect(await sync()).toMatchObject({ created: 1, errors: [] });
  return orderIdOf(id);
}
const newAddress = {
  firstName: 'Jane',
  lastName: 'Doe',
  name: 'Jane Doe',
  company: null,
  address1: 'Vestergade 9',
  address2: null,
  city: 'Aarhus C',
  province: null,
  provinceCode: null,
  country: 'Denmark',
  countryCodeV2: 'DK',
  zip: '8000',
  phone: '+4520202020',
};

describe('changes from the shop before any shipment exists', () => {
  it('a cancellation cancels the order here, with order.cancelled, in the sync; a cancelled shipment does not count', async () => {
    const orderId = await imported(9101);
    cancelInShop(9101);
    expect(await sync()).toEqual({ created: 0, updated: 1, held: 0, skipped: 0, errors: [] });
    expect(await readOrder(orderId)).toMatchObject({ status: 'cancelled', shopChange: null });
    expect(events('order.cancelled', orderId)).toBe(1);

    const other = await imported(9102);
    const shipment = await shipFromOrder(other);
    expect((await t.request('POST', `/orgs/${t.org.orgId}/shipments/${shipment.id}/cancel`)).status).toBe(200);
    cancelInShop(9102);
    expect(await sync()).toMatchObject({ updated: 1, held: 0 });
    expect((await readOrder(other)).status).toBe('cancelled');
  });

  it('a change brings the shop’s address, notes and lines here (order.updated), keeping a line’s id where the shop’s line is the same', async () => {
    const orderId = await imported(9201);
    const before = await readOrder(orderId);
    const [mug] = before.orderLines;
    changeInShop(9201, {
      shippingAddress: newAddress,
      note: 'Call before delivery',
      lineItems: [
        { id: 92011, name: 'Stoneware mug - Blue', sku: 'MUG-01', quantity: 3, price: '99.00', grams: 400, variantId: 111, productId: 11 },
        { id: 92013, name: 'Teapot', sku: 'POT-01', quantity: 1, price: '250.00', grams: 1200, variantId: 333, productId: 33 },
      ],
    });
    expect(await sync()).toEqual({ created: 0, updated: 1, held: 0, skipped: 0, errors: [] });
    const after = await readOrder(orderId);
    expect(after).toMatchObject({
      notes: 'Call before delivery',
      shippingAddress: { address1: 'Vestergade 9', city: 'Aarhus C', postalCode: '8000' },
      shopChange: null,
    });
    expect(after.orderLines.map((line: { id: string; sku: string; quantity: number }) => [line.id === mug.id, line.sku, line.quantity])).toEqual([
      [true, 'MUG-01', 3],
      [false, 'POT-01', 1],
    ]);
    expect(db().prepare('SELECT external_line_id FROM order_lines WHERE order_id = ? ORDER BY position').all(orderId)).toEqual([
      { external_line_id: 'gid://shopify/LineItem/92011' },
      { external_line_id: 'gid://shopify/LineItem/92013' },
    ]);
    expect(events('order.updated', orderId)).toBe(1);
  });

  it('a fix made here by hand stays when the shop saved the order without changing it', async () => {
    const orderId = await imported(9301);
    expect((await t.request('PATCH', orderPath(orderId), { body: { notes: 'Fragile: double box' } })).status).toBe(200);
    changeInShop(9301, {});
    expect(await sync()).toEqual({ created: 0, updated: 0, held: 0, skipped: 1, errors: [] });
    expect((await readOrder(orderId)).notes).toBe('Fragile: double box');
  });
});

describe('changes from the shop after a shipment exists', () => {
  it('a cancellation is held, never applied; apply cancels the order and its unbooked shipment', async () => {
    const orderId = await imported(9401);
    const shipment = await shipFromOrder(orderId);
    cancelInShop(9401);
    expect(await sync()).toEqual({ created: 0, updated: 0, held: 1, skipped: 0, errors: [] });
    const held = await readOrder(orderId);
    expect(held.status).not.toBe('cancelled');
    expect(held.shopChange).toEqual({ kind: 'cancelled', detectedAt: expect.any(String), summary: ['Cancelled in the shop'], shop: {} });

    const applied = await t.request('POST', `${orderPath(orderId)}/shop-change/apply`);
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ status: 'cancelled', shopChange: null });
    expect((await t.request('GET', `/orgs/${t.org.orgId}/shipments/${shipment.id}`)).body.status).toBe('cancelled');
    expect(events('order.cancelled', orderId)).toBe(1);
  });

  it('apply answers 409 naming a booked shipment; dismiss clears the notice, and the next sync does not bring it back', async () => {
    const orderId = await imported(9501);
    const shipment = await shipFromOrder(orderId);
    db().prepare("UPDATE shipments SET status = 'dispatched' WHERE id = ?").run(shipment.id);
    cancelInShop(9501);
    expect(await sync()).toMatchObject({ held: 1 });

    const refused = await t.request('POST', `${orderPath(orderId)}/shop-change/apply`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'ORDER_INVALID_STATE',
      message: expect.stringContaining(`${shipment.reference} (dispatched) is already booked`),
    });
    expect((await readOrder(orderId)).shopChange).toMatchObject({ kind: 'cancelled' });

    const dismissed = await t.request('POST', `${orderPath(orderId)}/shop-change/dismiss`);
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.shopChange).toBeNull();
    expect(dismissed.body.status).not.toBe('cancelled');

    // Saved again in the shop, still cancelled: nothing new to hold.
    changeInShop(9501, { note: 'Leave at the door' });
    expect(await sync()).toEqual({ created: 0, updated: 0, held: 0, skipped: 1, errors: [] });
    expect((await readOrder(orderId)).shopChange).toBeNull();

    const nothing = await t.request('POST', `${orderPath(orderId)}/shop-change/apply`);
    expect(nothing.status).toBe(409);
    expect(nothing.body.message).toMatch(/no change from the shop/);
  });

  it('a changed address is held with the shop’s values; apply updates the order', async () => {
    const orderId = await imported(9601);
    await shipFromOrder(orderId);
    changeInShop(9601, { shippingAddress: newAddress });
    expect(await sync()).toMatchObject({ held: 1, updated: 0 });
    const held = await readOrder(orderId);
    expect(held.shippingAddress.address1).toBe('Storgade 5');
    expect(held.shopChange).toEqual({
      kind: 'changed',
      detectedAt: expect.any(String),
      summary: ['Shipping address'],
      shop: {
        shippingAddress: expect.objectContaining({ name: 'Jane Doe', address1: 'Vestergade 9', city: 'Aarhus C', postalCode: '8000', countryCode: 'DK' }),
      },
    });

    const applied = await t.request('POST', `${orderPath(orderId)}/shop-change/apply`);
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ shippingAddress: { address1: 'Vestergade 9', city: 'Aarhus C' }, shopChange: null });
  });

  it('an order fulfilled in the shop with nothing shipped here is held as closed; applying it cancels the order here', async () => {
    const orderId = await imported(9701);
    const at = tick();
    changeShopifyOrder(shop, 9701, at, { displayFulfillmentStatus: 'FULFILLED', closedAt: at, closed: true });
    expect(await sync()).toMatchObject({ held: 1 });
    expect((await readOrder(orderId)).shopChange).toMatchObject({
      kind: 'closed',
      summary: ['Fulfilled or archived in the shop; nothing was shipped from here'],
    });
    const applied = await t.request('POST', `${orderPath(orderId)}/shop-change/apply`);
    expect(applied.body).toMatchObject({ status: 'cancelled', shopChange: null });
  });

  it('apply and dismiss need write:orders', async () => {
    const orderId = await imported(9801);
    const reader = await t.tokenWithScopes(t.org, ['read:orders']);
    for (const action of ['apply', 'dismiss']) {
      const res = await t.request('POST', `${orderPath(orderId)}/shop-change/${action}`, { token: reader });
      expect(res.status).toBe(403);
    }
  });
});
