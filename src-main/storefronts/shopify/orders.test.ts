import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeShopify, shopifyOrder, shopifyStandardThrottle, startFakeShopify, type FakeShopify } from '../../testing/fakeShopify';
import { storefrontTransport } from '../../storefronts/http';
import { ordersSearch, shopifyReader } from './orders';

let shop: FakeShopify;
beforeAll(async () => {
  shop = await startFakeShopify();
});
afterAll(async () => shop.close());
beforeEach(() => {
  shop.orders = [5001, 5002, 5003].map((id) => shopifyOrder(id));
  shop.failWith = null;
  shop.requests = [];
  shop.now = () => Date.now();
  shop.throttle = { ...shopifyStandardThrottle, currentlyAvailable: shopifyStandardThrottle.maximumAvailable };
});

const reader = () => shopifyReader(storefrontTransport({ origin: shop.origin }));
const at = (minute: number) => new Date(Date.UTC(2026, 10, 27, 10, minute)).toISOString();

describe('the Shopify order reader (GraphQL Admin API)', () => {
  it('maps an order to what POST /orders takes, with the LineItem ids, the shop state and its last change', async () => {
    const { orders, cursor } = await reader().fetchOrders(fakeShopify, null);
    expect(orders.map((order) => order.externalId)).toEqual(['5001', '5002', '5003']);
    expect(cursor).toBe('2024-11-02T09:15:00Z');
    const [order] = orders;
    expect(order).toMatchObject({
      shopState: 'open',
      updatedAt: '2024-11-02T09:15:00Z',
      lineIds: ['gid://shopify/LineItem/50011', 'gid://shopify/LineItem/50012'],
    });
    expect(order?.order).toEqual({
      orderNumber: '#1',
      externalId: '5001',
      customerName: 'Jane Doe',
      customerEmail: 'buyer5001@example.com',
      notes: 'Leave at the door',
      shippingAddress: {
        name: 'Jane Doe',
        address1: 'Storgade 5',
        address2: '2. tv',
        city: 'København Ø',
        postalCode: '2100',
        countryCode: 'DK',
        company: null,
        province: null,
        provinceCode: null,
        country: 'Denmark',
        phone: '+4520202020',
      },
      totalAmount: 298,
      currency: 'DKK',
      orderLines: [
        {
          name: 'Stoneware mug - Blue',
          quantity: 2,
          sku: 'MUG-01',
          unitPrice: 99,
          totalPrice: 198,
          currency: 'DKK',
          weight: 0.4,
          weightUnit: 'kg',
          variantId: '111',
          productId: '11',
          vendor: 'Acme',
          requiresShipping: true,
          taxable: true,
          giftCard: false,
        },
        {
          name: 'Gift card',
          quantity: 1,
          unitPrice: 100,
          totalPrice: 100,
          currency: 'DKK',
          variantId: '222',
          productId: '22',
          vendor: 'Acme',
          requiresShipping: false,
          taxable: false,
          giftCard: true,
        },
      ],
      externalData: {
        platform: 'shopify',
        name: '#1',
        createdAt: '2024-11-02T09:15:00Z',
        financialStatus: 'paid',
        fulfillmentStatus: 'unfulfilled',
        adminGraphqlApiId: 'gid://shopify/Order/5001',
      },
    });
  });

  it('pages with pageInfo.endCursor, sorted by UPDATED_AT, every query within the 1,000-point limit', async () => {
    shop.orders = Array.from({ length: 23 }, (_, i) => shopifyOrder(6000 + i, { updatedAt: at(i) }));
    const { orders, cursor } = await reader().fetchOrders(fakeShopify, null);
    expect(orders.map((order) => order.externalId)).toEqual(shop.orders.map((order) => order.legacyResourceId));
    expect(cursor).toBe(at(22));
    expect(shop.requests.map((request) => request.variables)).toEqual([
      { first: 10, after: null, query: 'status:open', lines: 10 },
      { first: 10, after: expect.any(String), query: 'status:open', lines: 10 },
      { first: 10, after: expect.any(String), query: 'status:open', lines: 10 },
    ]);
    expect(shop.requests.every((request) => request.authorized && request.query?.includes('sortKey: UPDATED_AT'))).toBe(true);
  });

  it('reads the rest of a long order’s lines, and what is left to ship of a partly fulfilled one', async () => {
    const lines = Array.from({ length: 13 }, (_, i) => ({
      id: 700 + i,
      name: `Item ${i}`,
      sku: `SKU-${i}`,
      quantity: 2,
      price: '10.00',
      variantId: 900 + i,
      productId: 90,
      grams: 100,
    }));
    lines[0] = { ...lines[0]!, unfulfilledQuantity: 1 } as (typeof lines)[number];
    lines[1] = { ...lines[1]!, unfulfilledQuantity: 0 } as (typeof lines)[number];
    shop.orders = [shopifyOrder(7001, { lineItems: lines, displayFulfillmentStatus: 'PARTIALLY_FULFILLED' })];
    const [order] = (await reader().fetchOrders(fakeShopify, null)).orders;
    expect(order?.order.orderLines).toHaveLength(12);
    expect(order?.order.orderLines?.[0]).toMatchObject({ sku: 'SKU-0', quantity: 1, totalPrice: 10 });
    expect(order?.lineIds[1]).toBe('gid://shopify/LineItem/702');
    expect(order?.lineIds.at(-1)).toBe('gid://shopify/LineItem/712');
    expect(shop.requests[1]?.query).toContain('order(id: $id)');
    expect(shop.requests[1]?.variables).toMatchObject({ id: 'gid://shopify/Order/7001', lines: 100 });
  });

  it('reads later runs from the cursor: every order changed since, cancelled and closed ones too', async () => {
    shop.orders = [
      shopifyOrder(5001, { updatedAt: at(30), cancelledAt: at(30), closedAt: at(30), closed: true }),
      shopifyOrder(5002, { updatedAt: at(31), displayFulfillmentStatus: 'FULFILLED', closedAt: at(31), closed: true }),
      shopifyOrder(5003, { updatedAt: at(32), note: 'Ring twice' }),
      shopifyOrder(5004, { updatedAt: at(1) }),
    ];
    const { orders, cursor } = await reader().fetchOrders(fakeShopify, at(20));
    expect(shop.requests[0]?.variables.query).toBe(`updated_at:>='${at(10)}'`);
    expect(orders.map((order) => [order.externalId, order.shopState])).toEqual([
      ['5001', 'cancelled'],
      ['5002', 'closed'],
      ['5003', 'open'],
    ]);
    expect(cursor).toBe(at(32));
    expect(ordersSearch(null)).toBe('status:open');
  });

  it('waits out THROTTLED between pages and carries on', async () => {
    shop.orders = Array.from({ length: 12 }, (_, i) => shopifyOrder(8000 + i, { updatedAt: at(i) }));
    // Room for one page of 882 points; its actual cost (242: two lines an order) comes back, the
    // next page is throttled until 242 more points have leaked back in (1.2 s at 200 a second).
    shop.throttle = { maximumAvailable: 1000, restoreRate: 200, currentlyAvailable: 882 };
    const { orders } = await reader().fetchOrders(fakeShopify, null);
    expect(orders).toHaveLength(12);
    expect(shop.requests.map((request) => request.variables.after === null)).toEqual([true, false, false]);
  });
});
