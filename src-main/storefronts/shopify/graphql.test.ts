import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors';
import { fakeShopify, shopifyOrder, shopifyStandardThrottle, startFakeShopify, type FakeShopify } from '../../testing/fakeShopify';
import { storefrontTransport } from '../../storefronts/http';
import { queryCostOf, shopifyApiVersion, shopifyGraphql, throttleWaitMs } from './graphql';

let shop: FakeShopify;
beforeAll(async () => {
  shop = await startFakeShopify();
});
afterAll(async () => shop.close());
beforeEach(() => {
  shop.orders = [shopifyOrder(5001)];
  shop.failWith = null;
  shop.requests = [];
  shop.scopes = ['read_orders'];
  shop.now = () => Date.now();
  shop.throttle = { ...shopifyStandardThrottle, currentlyAvailable: shopifyStandardThrottle.maximumAvailable };
});

const transport = (options: Parameters<typeof storefrontTransport>[0] = {}) => storefrontTransport({ origin: shop.origin, ...options });

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('the Shopify GraphQL client', () => {
  it('POSTs the query to the version’s graphql.json with the token, and answers data and cost', async () => {
    const answer = await shopifyGraphql<{ order: { name: string } }>(transport(), fakeShopify, 'query One($id: ID!) { order(id: $id) { name } }', {
      id: 'gid://shopify/Order/5001',
    });
    expect(answer.data).toEqual({ order: { name: '#1' } });
    expect(answer.cost).toEqual({
      requestedQueryCost: 1,
      actualQueryCost: 1,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: expect.any(Number), restoreRate: 100 },
    });
    expect(shop.requests).toEqual([
      {
        path: `/admin/api/${shopifyApiVersion}/graphql.json`,
        authorized: true,
        query: expect.stringContaining('order(id: $id)'),
        variables: { id: 'gid://shopify/Order/5001' },
      },
    ]);
  });

  it('turns a refused token into 422 STOREFRONT_ERROR HTTP_401 without the token in it', async () => {
    const error = await failure(shopifyGraphql(transport(), { ...fakeShopify, accessToken: 'shpat_wrong_secret' }, '{ shop { name } }'));
    expect(error.status).toBe(422);
    expect(error.code).toBe('STOREFRONT_ERROR');
    expect(error.errors).toEqual([{ code: 'HTTP_401', message: expect.stringContaining('refused the credentials') }]);
    // The shop's own words come along.
    expect(error.message).toContain('the shop said: "[API] Invalid API key or access token');
    expect(JSON.stringify(error.toBody())).not.toContain('shpat_wrong_secret');
  });

  it('is refused a field and an argument the API does not have, in Shopify’s words', async () => {
    const field = await failure(shopifyGraphql(transport(), fakeShopify, '{ orders(first: 1) { nodes { fulfillmentStatus } } }'));
    expect(field.errors).toEqual([
      { code: 'GRAPHQL_UNDEFINEDFIELD', message: expect.stringContaining("Field 'fulfillmentStatus' doesn't exist on type 'Order'") },
    ]);
    const argument = await failure(shopifyGraphql(transport(), fakeShopify, '{ orders(first: 1, status: "open") { nodes { id } } }'));
    expect(argument.errors).toEqual([
      { code: 'GRAPHQL_ARGUMENTNOTACCEPTED', message: expect.stringContaining("Field 'orders' doesn't accept argument 'status'") },
    ]);
  });

  it('names a missing access scope', async () => {
    shop.scopes = [];
    const error = await failure(shopifyGraphql(transport(), fakeShopify, '{ orders(first: 1) { nodes { id } } }'));
    expect(error.errors).toEqual([{ code: 'ACCESS_DENIED', message: expect.stringContaining('read_orders') }]);
  });

  it('refuses a query costing more than 1,000 points with MAX_COST_EXCEEDED', async () => {
    const error = await failure(shopifyGraphql(transport(), fakeShopify, '{ orders(first: 250) { nodes { lineItems(first: 250) { nodes { id } } } } }'));
    expect(error.errors).toEqual([{ code: 'MAX_COST_EXCEEDED', message: expect.stringContaining('exceeds the single query max cost limit (1000)') }]);
  });

  it('waits out THROTTLED as the restore rate says and then gets its answer', async () => {
    // The fake's bucket runs on a clock that moves only while the client sleeps.
    let clock = 1_000_000;
    shop.now = () => clock;
    shop.throttle = { maximumAvailable: 100, restoreRate: 10, currentlyAvailable: 0 };
    const slept: number[] = [];
    const answer = await shopifyGraphql(
      transport(),
      fakeShopify,
      '{ orders(first: 5) { nodes { id name } } }',
      {},
      {
        sleep: async (ms) => {
          slept.push(ms);
          clock += ms;
        },
      },
    );
    expect(answer.data).toEqual({ orders: { nodes: [{ id: 'gid://shopify/Order/5001', name: '#1' }] } });
    // 2 + 5 × 1 = 7 points asked with the bucket empty, restoring 10 a second: 0.7 s.
    expect(slept).toEqual([700]);
    expect(shop.requests).toHaveLength(2);
  });

  it('gives up on THROTTLED when the wait would pass the 30 s limit, without waiting', async () => {
    shop.now = () => 1_000_000;
    shop.throttle = { maximumAvailable: 2000, restoreRate: 1, currentlyAvailable: 0 };
    const slept: number[] = [];
    const error = await failure(
      shopifyGraphql(transport(), fakeShopify, '{ orders(first: 50) { nodes { id } } }', {}, { sleep: async (ms) => void slept.push(ms) }),
    );
    expect(error.errors).toEqual([{ code: 'THROTTLED', message: expect.stringContaining('slow down') }]);
    expect(slept).toEqual([]);
  });

  it('explains a frozen shop, a locked shop, an unknown shop and a server error', async () => {
    const codes: Record<number, string> = { 402: 'frozen', 423: 'locked', 404: 'not found', 503: 'problem of its own' };
    for (const [status, words] of Object.entries(codes)) {
      shop.failWith = Number(status);
      const error = await failure(shopifyGraphql(transport(), fakeShopify, '{ shop { name } }'));
      expect(error.errors).toEqual([{ code: `HTTP_${status}`, message: expect.stringContaining(words) }]);
    }
  });

  it('reads the cost and turns it into a wait', () => {
    const cost = queryCostOf({
      extensions: {
        cost: { requestedQueryCost: 502, actualQueryCost: null, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 2, restoreRate: 100 } },
      },
    });
    expect(throttleWaitMs(cost)).toBe(5000);
    expect(throttleWaitMs(null)).toBe(1000);
  });
});
