import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src-shared/errors';
import { fakeWoo, startFakeWooCommerce, wooOrder, type FakeShop } from '../testing/fakeStorefronts';
import { storefrontTransport } from './http';
import { wooCommerceReader } from './woocommerce';

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

const client = () => wooCommerceReader(storefrontTransport({ origin: shop.origin }));
const firstRun = async () => (await client().fetchOrders(fakeWoo, null)).orders;

describe('the WooCommerce client', () => {
  it('walks the pages X-WP-TotalPages announces of the orders waiting to ship, with HTTP Basic auth', async () => {
    const orders = await firstRun();
    expect(orders.map((order) => order.externalId)).toEqual(['801', '802', '803']);
    expect(shop.requests).toEqual([
      { path: '/wp-json/wc/v3/orders?status=processing&per_page=100&page=1', authorized: true },
      { path: '/wp-json/wc/v3/orders?status=processing&per_page=100&page=2', authorized: true },
    ]);
  });

  it('maps an order to what POST /orders takes, with its line ids and the shop state', async () => {
    const [order] = await firstRun();
    expect(order).toMatchObject({ externalId: '801', shopState: 'open', updatedAt: '2024-11-02T09:15:00.000Z', lineIds: ['8011'] });
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
    const [order] = await firstRun();
    expect(order?.order.shippingAddress).toBeNull();
  });

  it('refuses a list that is not of orders (422 INVALID_RESPONSE), instead of importing nothing without a word', async () => {
    shop.orders = [1, 2, 'x'] as unknown as Record<string, unknown>[];
    const error = await client()
      .fetchOrders(fakeWoo, null)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).errors?.[0]).toMatchObject({ code: 'INVALID_RESPONSE', message: expect.stringContaining('answered without an orders list') });
  });

  it('turns refused keys into 422 STOREFRONT_ERROR without the keys in it', async () => {
    const error = await client()
      .fetchOrders({ ...fakeWoo, consumerSecret: 'cs_wrong_secret' }, null)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('STOREFRONT_ERROR');
    expect((error as ApiError).errors?.[0]?.code).toBe('HTTP_401');
    expect(JSON.stringify((error as ApiError).toBody())).not.toMatch(/cs_wrong_secret|ck_fake_key/);
  });

  it('reads later runs from the cursor: modified_after (GMT, less the overlap), the statuses that matter, oldest change first', async () => {
    shop.orders = [
      wooOrder(801, { date_modified_gmt: '2024-11-05T10:00:00' }),
      wooOrder(802, { status: 'cancelled', date_modified_gmt: '2024-11-05T09:00:00' }),
      wooOrder(803, { status: 'completed', date_modified_gmt: '2024-11-05T11:00:00' }),
      wooOrder(804, { status: 'refunded', date_modified_gmt: '2024-11-05T08:00:00' }),
      wooOrder(805, { status: 'on-hold', date_modified_gmt: '2024-11-05T12:00:00' }),
      wooOrder(806, { date_modified_gmt: '2024-11-01T12:00:00' }),
    ];
    const read = await client().fetchOrders(fakeWoo, '2024-11-02T00:00:00.000Z');
    expect(read.orders.map((order) => [order.externalId, order.shopState])).toEqual([
      ['804', 'cancelled'],
      ['802', 'cancelled'],
      ['801', 'open'],
      ['803', 'closed'],
      // 805 waits for payment (on-hold) and 806 was not modified since: neither is asked for.
    ]);
    expect(read.cursor).toBe('2024-11-05T11:00:00.000Z');
    const asked = new URL(shop.requests[0]!.path, 'http://x').searchParams;
    expect(Object.fromEntries(asked)).toEqual({
      status: 'processing,completed,cancelled,refunded,failed',
      modified_after: '2024-11-01T23:50:00.000Z',
      dates_are_gmt: 'true',
      orderby: 'modified',
      order: 'asc',
      per_page: '100',
      page: '1',
    });

    // Nothing changed since: the cursor stays where it was.
    expect(await client().fetchOrders(fakeWoo, '2024-11-06T00:00:00.000Z')).toEqual({ orders: [], cursor: '2024-11-06T00:00:00.000Z' });
  });
});
