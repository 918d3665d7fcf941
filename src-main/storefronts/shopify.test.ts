import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src-shared/errors';
import { fakeShopify, shopifyOrder, startFakeShopify, type FakeShop } from '../testing/fakeStorefronts';
import { storefrontTransport } from './http';
import { nextPageUrl, shopifyClient } from './shopify';

let shop: FakeShop;
beforeAll(async () => {
  shop = await startFakeShopify();
});
afterAll(async () => shop.close());
beforeEach(() => {
  shop.orders = [5001, 5002, 5003].map((id) => shopifyOrder(id));
  shop.failWith = null;
  shop.requests = [];
});

const client = (options: Parameters<typeof storefrontTransport>[0] = {}) => shopifyClient(storefrontTransport({ origin: shop.origin, ...options }));

async function storefrontFailure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('the Shopify client', () => {
  it('follows the Link header over every page, sending the access token', async () => {
    const orders = await client().fetchNewOrders(fakeShopify);
    expect(orders.map((order) => order.externalId)).toEqual(['5001', '5002', '5003']);
    expect(shop.requests).toEqual([
      { path: '/admin/api/2024-10/orders.json?status=open&fulfillment_status=unfulfilled&limit=250', authorized: true },
      { path: '/admin/api/2024-10/orders.json?limit=250&page_info=2', authorized: true },
    ]);
  });

  it('maps an order to what POST /orders takes', async () => {
    const [order] = await client().fetchNewOrders(fakeShopify);
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
        orderNumber: 1,
        createdAt: '2024-11-02T10:15:00+01:00',
        financialStatus: 'paid',
        adminGraphqlApiId: 'gid://shopify/Order/5001',
      },
    });
  });

  it('asks for what is left to ship of a partly fulfilled order, leaving out lines with nothing left', async () => {
    shop.orders = [
      shopifyOrder(5010, {
        fulfillment_status: 'partial',
        line_items: [
          { id: 1, name: 'Mug', sku: 'MUG-01', quantity: 3, fulfillable_quantity: 1, price: '99.00', grams: 400, requires_shipping: true },
          { id: 2, name: 'Teapot', sku: 'POT-01', quantity: 1, fulfillable_quantity: 0, price: '250.00', grams: 1200, requires_shipping: true },
        ],
      }),
    ];
    const [order] = await client().fetchNewOrders(fakeShopify);
    expect(order?.order.orderLines).toEqual([expect.objectContaining({ sku: 'MUG-01', quantity: 1, unitPrice: 99, totalPrice: 99 })]);
  });

  it('asks only for orders created after `since`', async () => {
    await client().fetchNewOrders(fakeShopify, new Date('2024-11-01T00:00:00Z'));
    expect(shop.requests[0]?.path).toContain('created_at_min=2024-11-01T00%3A00%3A00.000Z');
  });

  it('turns a refused token into 422 STOREFRONT_ERROR without the token in it', async () => {
    const error = await storefrontFailure(client().fetchNewOrders({ ...fakeShopify, accessToken: 'shpat_wrong_secret' }));
    expect(error.code).toBe('STOREFRONT_ERROR');
    expect(error.status).toBe(422);
    expect(error.errors).toEqual([{ code: 'HTTP_401', message: expect.stringContaining('refused the credentials') }]);
    expect(JSON.stringify(error.toBody())).not.toContain('shpat_wrong_secret');
  });

  it('reports a server error, a timeout and an unreachable shop as STOREFRONT_ERROR', async () => {
    shop.failWith = 503;
    expect((await storefrontFailure(client().fetchNewOrders(fakeShopify))).errors?.[0]?.code).toBe('HTTP_503');

    const hanging: typeof fetch = (_url, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    const timedOut = await storefrontFailure(client({ fetch: hanging, timeoutMs: 50 }).fetchNewOrders(fakeShopify));
    expect(timedOut.errors?.[0]?.code).toBe('TIMEOUT');

    const unreachable = await storefrontFailure(client({ origin: 'http://127.0.0.1:1' }).fetchNewOrders(fakeShopify));
    expect(unreachable.errors?.[0]?.code).toBe('UNREACHABLE');
  });

  it('never follows a next page on another host', async () => {
    const elsewhere: typeof fetch = async () =>
      new Response(JSON.stringify({ orders: [] }), { headers: { link: '<https://evil.example/orders.json?page_info=x>; rel="next"' } });
    const error = await storefrontFailure(client({ fetch: elsewhere }).fetchNewOrders(fakeShopify));
    expect(error.errors?.[0]?.code).toBe('INVALID_RESPONSE');
  });

  it('reads the next URL out of a Link header with previous and next', () => {
    expect(nextPageUrl('<https://a.myshopify.com/x?page_info=p>; rel="previous", <https://a.myshopify.com/x?page_info=n>; rel="next"')).toBe(
      'https://a.myshopify.com/x?page_info=n',
    );
    expect(nextPageUrl('<https://a.myshopify.com/x?page_info=p>; rel="previous"')).toBeNull();
    expect(nextPageUrl(null)).toBeNull();
  });
});
