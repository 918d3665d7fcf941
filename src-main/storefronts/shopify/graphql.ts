/**
 * Shopify's GraphQL Admin API: one POST to `https://{shop}/admin/api/{version}/graphql.json` with the
 * app's token in `X-Shopify-Access-Token`, through the storefront transport (30 s a call).
 *
 * Shopify answers most failures with HTTP 200 and a top-level `errors` list (THROTTLED,
 * ACCESS_DENIED, MAX_COST_EXCEEDED, a field the version does not have, …) and the others with an
 * HTTP status (401 bad token, 402 frozen shop, 403, 404 unknown shop or version, 423 locked shop,
 * 429, 5xx). Every answer carries the calculated query cost in `extensions.cost`; a THROTTLED query
 * is tried again after the wait the restore rate gives, never past the call's 30 s.
 *
 * Shared by the order read (orders.ts) and the fulfilment write-back.
 */
import { orderChannelConfigSchemas } from '../../../src-shared/schemas/orderChannel';
// Named through storefronts/: the layer rule reads a bare `../http` as the HTTP door.
import { nothingImported, storefrontError, storefrontRequest, type StorefrontTransport } from '../../storefronts/http';
import { record, str, type Json } from '../types';

export const shopifyPlatform = 'Shopify';

/**
 * The stable version Shopify released on 1 October 2026, the newest on 2026-11-27 and supported
 * until October 2027 (a version is released each quarter and supported for 12 months; 2027-01
 * comes out in January). See docs/decisions.md, "Shopify API version".
 */
export const shopifyApiVersion = '2026-10';

export interface ShopifyCredentials {
  shopDomain: string;
  accessToken: string;
}

/** The channel's shop and token, or 422 STOREFRONT_ERROR CONFIG_INVALID. */
export function shopifyCredentials(rawConfig: Record<string, unknown>, consequence: string = nothingImported): ShopifyCredentials {
  const parsed = orderChannelConfigSchemas.shopify.safeParse(rawConfig);
  if (!parsed.success) throw storefrontError(shopifyPlatform, 'CONFIG_INVALID', "the channel's shop domain or access token is missing", consequence);
  return { shopDomain: parsed.data.shopDomain, accessToken: parsed.data.accessToken };
}

export function shopifyGraphqlUrl(shopDomain: string): URL {
  return new URL(`https://${shopDomain}/admin/api/${shopifyApiVersion}/graphql.json`);
}

/** `extensions.cost` of an answer. */
export interface ShopifyQueryCost {
  requestedQueryCost: number | null;
  actualQueryCost: number | null;
  throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number } | null;
}

export interface ShopifyGraphqlAnswer<T> {
  data: T;
  cost: ShopifyQueryCost | null;
}

export interface ShopifyGraphqlOptions {
  /** Added to every error message ("no orders were imported", "it is tried again later"). */
  consequence?: string;
  /** The whole call, throttle waits included, ends by then; the transport's limit (30 s) when not given. */
  deadlineMs?: number;
  /** For tests: how a throttle wait is slept. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

export function queryCostOf(body: unknown): ShopifyQueryCost | null {
  const cost = record(record(record(body)?.extensions)?.cost);
  if (!cost) return null;
  const throttle = record(cost.throttleStatus);
  const maximumAvailable = num(throttle?.maximumAvailable);
  const currentlyAvailable = num(throttle?.currentlyAvailable);
  const restoreRate = num(throttle?.restoreRate);
  return {
    requestedQueryCost: num(cost.requestedQueryCost),
    actualQueryCost: num(cost.actualQueryCost),
    throttleStatus:
      maximumAvailable !== null && currentlyAvailable !== null && restoreRate !== null ? { maximumAvailable, currentlyAvailable, restoreRate } : null,
  };
}

/**
 * How long until the bucket holds what the query asks for (ms), from what the throttled answer
 * says; one second when it says nothing usable.
 */
export function throttleWaitMs(cost: ShopifyQueryCost | null): number {
  const status = cost?.throttleStatus;
  const requested = cost?.requestedQueryCost;
  if (!status || requested === null || requested === undefined || status.restoreRate <= 0) return 1000;
  const missing = Math.max(0, requested - status.currentlyAvailable);
  return Math.max(50, Math.ceil((missing / status.restoreRate) * 1000));
}

interface GraphqlError {
  message: string;
  code: string | null;
}

/** The top-level `errors`: a list of {message, extensions.code}, or (401 and some others) a plain string. */
function errorsOf(body: unknown): GraphqlError[] {
  const errors = record(body)?.errors;
  if (typeof errors === 'string') return [{ message: errors, code: null }];
  if (!Array.isArray(errors)) return [];
  return errors.map((raw) => {
    const error = record(raw) ?? {};
    return { message: str(error.message) ?? 'unnamed error', code: str(record(error.extensions)?.code) };
  });
}

function describeErrors(errors: GraphqlError[], shopDomain: string): { code: string; message: string } {
  const first = errors[0]!;
  const shopSays = errors
    .slice(0, 3)
    .map((error) => error.message)
    .join('; ');
  switch (first.code) {
    case 'ACCESS_DENIED':
      return { code: 'ACCESS_DENIED', message: `${shopDomain} refused the request: the app token lacks an access scope (${shopSays}); see the scopes in docs` };
    case 'THROTTLED':
      return { code: 'THROTTLED', message: `${shopDomain} kept asking to slow down (${shopSays}); it is tried again at the next sync` };
    case 'MAX_COST_EXCEEDED':
      return { code: 'MAX_COST_EXCEEDED', message: `${shopDomain} refused the query as too costly (${shopSays})` };
    case 'SHOP_INACTIVE':
      return { code: 'SHOP_INACTIVE', message: `${shopDomain} is not active (${shopSays})` };
    case 'INTERNAL_SERVER_ERROR':
      return { code: 'SHOP_ERROR', message: `${shopDomain} had a problem of its own (${shopSays})` };
    default:
      return { code: first.code ? `GRAPHQL_${first.code.toUpperCase()}` : 'GRAPHQL_ERROR', message: `${shopDomain} refused the query: ${shopSays}` };
  }
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs one query or mutation and answers its `data`. Failures become 422 STOREFRONT_ERROR with the
 * shop's message; a THROTTLED answer is waited out and tried again while the deadline allows.
 */
export async function shopifyGraphql<T = Json>(
  transport: StorefrontTransport,
  credentials: ShopifyCredentials,
  query: string,
  variables: Record<string, unknown> = {},
  options: ShopifyGraphqlOptions = {},
): Promise<ShopifyGraphqlAnswer<T>> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const deadline = now() + Math.min(options.deadlineMs ?? transport.timeoutMs, transport.timeoutMs);
  const { shopDomain, accessToken } = credentials;
  const fail = (code: string, message: string) => storefrontError(shopifyPlatform, code, message, options.consequence);
  for (;;) {
    const left = deadline - now();
    if (left <= 0) throw fail('TIMEOUT', `${shopDomain} did not answer within ${Math.round(transport.timeoutMs / 1000)} s`);
    const answer = await storefrontRequest(transport, shopifyPlatform, shopifyGraphqlUrl(shopDomain), {
      method: 'POST',
      headers: { 'X-Shopify-Access-Token': accessToken },
      body: { query, variables },
      timeoutMs: left,
      consequence: options.consequence,
      // A 429 still says how long to wait in its cost, when it has one.
      passStatuses: [429],
    });
    const cost = queryCostOf(answer.body);
    const errors = errorsOf(answer.body);
    const throttled = answer.status === 429 || errors.some((error) => error.code === 'THROTTLED');
    if (throttled) {
      const retryAfter = Number(answer.headers.get('retry-after'));
      const wait = Number.isFinite(retryAfter) && retryAfter > 0 && !cost ? retryAfter * 1000 : throttleWaitMs(cost);
      if (now() + wait < deadline) {
        await sleep(wait);
        continue;
      }
      if (answer.status === 429 && errors.length === 0) throw fail('HTTP_429', `${shopDomain} answered 429: the shop asks to slow down; try again in a minute`);
      const described = describeErrors(errors.length ? errors : [{ message: 'Throttled', code: 'THROTTLED' }], shopDomain);
      throw fail(described.code, described.message);
    }
    if (errors.length) {
      const described = describeErrors(errors, shopDomain);
      throw fail(described.code, described.message);
    }
    const data = record(answer.body)?.data;
    if (!record(data)) throw fail('INVALID_RESPONSE', `${shopDomain} answered without data`);
    return { data: data as T, cost };
  }
}
