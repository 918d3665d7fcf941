/**
 * Fake Shopify and WooCommerce shops on 127.0.0.1 for the sync tests (the machine has no internet).
 * They check the credentials they receive, serve the orders two a page the way each platform
 * paginates, and record what they were asked.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeShop {
  /** The origin to give `app.storefront.origin`. */
  origin: string;
  orders: Record<string, unknown>[];
  /** Answer every request with this status instead (401, 500, …). */
  failWith: number | null;
  requests: { path: string; authorized: boolean }[];
  /** While set, requests are held (recorded first) until the promise settles: a run caught mid-sync. */
  gate: Promise<void> | null;
  /** Requests that arrived while a gate was set. */
  held: number;
  close(): Promise<void>;
}

const pageSize = 2;

async function startFake(
  handle: (req: IncomingMessage, url: URL, shop: FakeShop) => { status: number; headers?: Record<string, string>; body: unknown },
): Promise<FakeShop> {
  const shop: FakeShop = {
    origin: '',
    orders: [],
    failWith: null,
    requests: [],
    gate: null,
    held: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const respond = () => {
      const answer = shop.failWith ? { status: shop.failWith, body: { errors: 'failing on purpose' } } : handle(req, url, shop);
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body));
    };
    if (shop.gate) {
      shop.held += 1;
      void shop.gate.then(respond);
    } else respond();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  shop.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return shop;
}

export const fakeShopify = { shopDomain: 'acme.myshopify.com', accessToken: 'shpat_fake_token_1234' };

/** Shopify: the token in X-Shopify-Access-Token, cursor pages in the Link header. */
export function startFakeShopify(): Promise<FakeShop> {
  return startFake((req, url, shop) => {
    const authorized = req.headers['x-shopify-access-token'] === fakeShopify.accessToken;
    shop.requests.push({ path: url.pathname + url.search, authorized });
    if (url.pathname !== '/admin/api/2024-10/orders.json') return { status: 404, body: { errors: 'Not Found' } };
    if (!authorized) return { status: 401, body: { errors: '[API] Invalid API key or access token' } };
    const start = Number(url.searchParams.get('page_info') ?? '0');
    const page = shop.orders.slice(start, start + pageSize);
    const headers: Record<string, string> = {};
    if (start + pageSize < shop.orders.length) {
      // Real Shopify names the shop's own host; the client sends it through the transport again.
      headers.link = `<https://${fakeShopify.shopDomain}/admin/api/2024-10/orders.json?limit=250&page_info=${start + pageSize}>; rel="next"`;
    }
    return { status: 200, headers, body: { orders: page } };
  });
}

export const fakeWoo = { siteUrl: 'https://shop.acme.example', consumerKey: 'ck_fake_key', consumerSecret: 'cs_fake_secret' };

/** WooCommerce: HTTP Basic with the consumer key and secret, numbered pages and X-WP-TotalPages. */
export function startFakeWooCommerce(): Promise<FakeShop> {
  return startFake((req, url, shop) => {
    const expected = `Basic ${Buffer.from(`${fakeWoo.consumerKey}:${fakeWoo.consumerSecret}`).toString('base64')}`;
    const authorized = req.headers.authorization === expected;
    shop.requests.push({ path: url.pathname + url.search, authorized });
    if (url.pathname !== '/wp-json/wc/v3/orders') return { status: 404, body: { code: 'rest_no_route' } };
    if (!authorized) return { status: 401, body: { code: 'woocommerce_rest_cannot_view' } };
    const page = Number(url.searchParams.get('page') ?? '1');
    const totalPages = Math.max(1, Math.ceil(shop.orders.length / pageSize));
    return {
      status: 200,
      headers: { 'x-wp-total': String(shop.orders.length), 'x-wp-totalpages': String(totalPages) },
      body: shop.orders.slice((page - 1) * pageSize, page * pageSize),
    };
  });
}

/** A Shopify order as the Admin REST API sends it (the fields the sync reads, and a few it ignores). */
export function shopifyOrder(id: number, overrides: Record<string, unknown> = {}) {
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${id - 5000}`,
    order_number: id - 5000,
    email: `buyer${id}@example.com`,
    created_at: '2024-11-02T10:15:00+01:00',
    currency: 'DKK',
    total_price: '298.00',
    financial_status: 'paid',
    fulfillment_status: null,
    note: 'Leave at the door',
    customer: { id: 77, first_name: 'Jane', last_name: 'Doe', email: `buyer${id}@example.com` },
    shipping_address: {
      first_name: 'Jane',
      last_name: 'Doe',
      name: 'Jane Doe',
      address1: 'Storgade 5',
      address2: '2. tv',
      city: 'København Ø',
      zip: '2100',
      province: null,
      province_code: null,
      country: 'Denmark',
      country_code: 'DK',
      phone: '+4520202020',
      company: null,
    },
    line_items: [
      {
        id: id * 10 + 1,
        name: 'Stoneware mug - Blue',
        title: 'Stoneware mug',
        sku: 'MUG-01',
        quantity: 2,
        price: '99.00',
        grams: 400,
        requires_shipping: true,
        taxable: true,
        gift_card: false,
        variant_id: 111,
        product_id: 11,
        vendor: 'Acme',
      },
      {
        id: id * 10 + 2,
        name: 'Gift card',
        sku: '',
        quantity: 1,
        price: '100.00',
        grams: 0,
        requires_shipping: false,
        taxable: false,
        gift_card: true,
        variant_id: 222,
        product_id: 22,
        vendor: 'Acme',
      },
    ],
    ...overrides,
  };
}

/** A WooCommerce order as REST v3 sends it. */
export function wooOrder(id: number, overrides: Record<string, unknown> = {}) {
  return {
    id,
    number: String(id),
    status: 'processing',
    currency: 'EUR',
    total: '45.50',
    date_created_gmt: '2024-11-02T09:15:00',
    payment_method_title: 'Credit card',
    customer_note: '',
    billing: {
      first_name: 'Hans',
      last_name: 'Meier',
      email: `hans${id}@example.de`,
      phone: '+49301234567',
      address_1: 'Hauptstr. 1',
      city: 'Berlin',
      postcode: '10115',
      country: 'DE',
    },
    shipping: {
      first_name: 'Hans',
      last_name: 'Meier',
      company: '',
      address_1: 'Hauptstr. 1',
      address_2: '',
      city: 'Berlin',
      state: 'BE',
      postcode: '10115',
      country: 'DE',
      phone: '',
    },
    line_items: [
      { id: id * 10 + 1, name: 'Tea tin', product_id: 31, variation_id: 0, quantity: 3, sku: 'TEA-02', price: 12.5, subtotal: '37.50', total: '37.50' },
    ],
    ...overrides,
  };
}
