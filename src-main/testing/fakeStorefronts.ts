/**
 * Fake WooCommerce shops on 127.0.0.1 for the sync tests (the machine has no internet): it checks
 * the credentials it receives, filters by status and modification time as REST v3 does, serves the
 * orders two a page, and records what it was asked. The fake Shopify (GraphQL Admin API) lives in
 * fakeShopify/ and is re-exported here.
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
    const found = wooOrdersMatching(shop.orders, url.searchParams);
    if ('error' in found) return { status: 400, body: { code: 'rest_invalid_param', message: found.error } };
    const totalPages = Math.max(1, Math.ceil(found.orders.length / pageSize));
    return {
      status: 200,
      headers: { 'x-wp-total': String(found.orders.length), 'x-wp-totalpages': String(totalPages) },
      body: found.orders.slice((page - 1) * pageSize, page * pageSize),
    };
  });
}

const wooStatuses = ['any', 'pending', 'processing', 'on-hold', 'completed', 'cancelled', 'refunded', 'failed', 'trash', 'checkout-draft'];
const wooTime = (value: unknown) => new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(String(value)) ? String(value) : `${String(value)}Z`).getTime();

/**
 * The orders REST v3 lists for these parameters: `status` (a comma-separated list; `any` is all but
 * trash), `modified_after` / `after` (ISO 8601; read as UTC with `dates_are_gmt=true`, else as the
 * site's time, which this fake keeps at UTC too), `orderby=modified|date|id` with `order`.
 */
export function wooOrdersMatching(orders: Record<string, unknown>[], params: URLSearchParams): { orders: Record<string, unknown>[] } | { error: string } {
  const statuses = (params.get('status') ?? 'any').split(',').map((status) => status.trim());
  const unknown = statuses.find((status) => !wooStatuses.includes(status));
  if (unknown) return { error: `Invalid parameter(s): status (${unknown} is not one of ${wooStatuses.join(', ')})` };
  // Anything in the list that is not an order (a test's broken shop) is answered as it is.
  const isOrder = (order: unknown) => Boolean(order) && typeof order === 'object';
  let found = orders.filter((order) => !isOrder(order) || (statuses.includes('any') ? order.status !== 'trash' : statuses.includes(String(order.status))));
  for (const [param, field] of [
    ['modified_after', 'date_modified_gmt'],
    ['after', 'date_created_gmt'],
  ] as const) {
    const value = params.get(param);
    if (!value) continue;
    const since = new Date(value).getTime();
    if (Number.isNaN(since)) return { error: `Invalid parameter(s): ${param}` };
    found = found.filter((order) => !isOrder(order) || wooTime(order[field]) > since);
  }
  const orderby = params.get('orderby') ?? 'date';
  const key = orderby === 'modified' ? 'date_modified_gmt' : orderby === 'id' ? 'id' : 'date_created_gmt';
  const direction = (params.get('order') ?? 'desc') === 'asc' ? 1 : -1;
  // A stable sort: the fake's list order stands among equal keys, as tests expect.
  found = found
    .map((order, index) => ({ order, index }))
    .sort((a, b) => {
      const [x, y] = key === 'id' ? [Number(a.order.id), Number(b.order.id)] : [wooTime(a.order[key]), wooTime(b.order[key])];
      return x === y || Number.isNaN(x) || Number.isNaN(y) ? a.index - b.index : (x - y) * direction;
    })
    .map(({ order }) => order);
  return { orders: found };
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
    date_modified_gmt: '2024-11-02T09:15:00',
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

export { fakeShopify, shopifyOrder, startFakeShopify, changeShopifyOrder, type FakeShopify } from './fakeShopify';
