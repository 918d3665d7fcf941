import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src-shared/errors';
import { fakeWoo, startFakeWooCommerce, wooOrder, type FakeShop } from '../testing/fakeStorefronts';
import { storefrontTransport } from './http';
import { wooCommerceClient } from './woocommerce';

let shop: FakeShop;
beforeAll(async () => {
  shop = await startFakeWooCommerce();
});
afterAll(async () => shop.close());
beforeEach(() => {
  shop.orders = [801, 802, 803].map((id) => wooOrder(id));
  shop.failWith = null;
  shop.requests = [];
});

const client = () => wooCommerceClient(storefrontTransport({ origin: shop.origin }));

describe('the WooCommerce client', () => {
  it('walks the pages X-WP-TotalPages announces of the orders waiting to ship, with HTTP Basic auth', async () => {
    const orders = await client().fetchNewOrders(fakeWoo);
    expect(orders.map((order) => order.externalId)).toEqual(['801', '802', '803']);
    expect(shop.requests).toEqual([
      { path: '/wp-json/wc/v3/orders?status=processing&per_page=100&page=1', authorized: true },
      { path: '/wp-json/wc/v3/orders?status=processing&per_page=100&page=2', authorized: true },
    ]);
  });

  it('maps an order to what POST /orders takes', async () => {
    const [order] = await client().fetchNewOrders(fakeWoo);
    expect(order?.order).toEqual({
      orderNumber: '801',
      externalId: '801',
      customerName: 'Hans Meier',
      customerEmail: 'hans801@example.de',
      notes: null,
      shippingAddress: {
        name: 'Hans Meier',
        address1: 'Hauptstr. 1',
        address2: null,
        city: 'Berlin',
        postalCode: '10115',
        countryCode: 'DE',
        company: null,
        province: 'BE',
        phone: null,
        email: 'hans801@example.de',
      },
      totalAmount: 45.5,
      currency: 'EUR',
      orderLines: [{ name: 'Tea tin', quantity: 3, sku: 'TEA-02', unitPrice: 12.5, totalPrice: 37.5, currency: 'EUR', productId: '31' }],
      externalData: { platform: 'woocommerce', number: '801', status: 'processing', createdAt: '2024-11-02T09:15:00', paymentMethod: 'Credit card' },
    });
  });

  it('maps an all-empty shipping object to no shipping address', async () => {
    shop.orders = [wooOrder(804, { shipping: { first_name: '', last_name: '', address_1: '', city: '', postcode: '', country: '' } })];
    const [order] = await client().fetchNewOrders(fakeWoo);
    expect(order?.order.shippingAddress).toBeNull();
  });

  it('refuses a list that is not of orders (422 INVALID_RESPONSE), instead of importing nothing without a word', async () => {
    shop.orders = [1, 2, 'x'] as unknown as Record<string, unknown>[];
    const error = await client()
      .fetchNewOrders(fakeWoo)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).errors?.[0]).toMatchObject({ code: 'INVALID_RESPONSE', message: expect.stringContaining('answered without an orders list') });
  });

  it('turns refused keys into 422 STOREFRONT_ERROR without the keys in it', async () => {
    const error = await client()
      .fetchNewOrders({ ...fakeWoo, consumerSecret: 'cs_wrong_secret' })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('STOREFRONT_ERROR');
    expect((error as ApiError).errors?.[0]?.code).toBe('HTTP_401');
    expect(JSON.stringify((error as ApiError).toBody())).not.toMatch(/cs_wrong_secret|ck_fake_key/);
  });
});
