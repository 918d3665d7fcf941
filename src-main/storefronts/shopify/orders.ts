/**
 * Reading a Shopify shop's orders through the GraphQL Admin API (graphql.ts).
 *
 * - With no cursor (a channel's first sync): the orders waiting to be shipped, `query: "status:open"`,
 *   kept here when unfulfilled or partly fulfilled.
 * - With a cursor: every order the shop changed since, `query: "updated_at:>='…'"` (a little before
 *   the cursor, so an order saved while the last run read is not missed; reading one twice is
 *   harmless), new, edited, cancelled and closed alike.
 *
 * Pages of `orders(first:, after:, sortKey: UPDATED_AT)` follow `pageInfo.endCursor`; an order with
 * more lines than a page holds has the rest read with `order(id:) { lineItems(after:) }`. The page
 * sizes keep a query's calculated cost under Shopify's 1,000-point limit (see pageCost below).
 * The cursor answered is the newest `updatedAt` read, by the shop's own clock.
 */
import {
  amount,
  clipped,
  defined,
  joinName,
  list,
  record,
  str,
  type Json,
  type OrderRead,
  type ShopOrder,
  type ShopOrderState,
  type StorefrontReader,
} from '../types';
// Named through storefronts/: the layer rule reads a bare `../http` as the HTTP door.
import { storefrontError, type StorefrontTransport } from '../../storefronts/http';
import { shopifyCredentials, shopifyGraphql, shopifyPlatform, type ShopifyCredentials } from './graphql';

/** Orders a page and lines an order in the page: 2 + 10 × (1 + 5 + 2 + 10 × 8) = 882 points requested. */
export const ordersPerPage = 10;
export const linesPerOrder = 10;
/** The rest of a long order's lines: 1 + 2 + 100 × 8 = 803 points. */
const linesPerFollowUp = 100;
/** A run reads back this far before its cursor. */
export const cursorOverlapMs = 10 * 60_000;
// 10,000 pages of 10 is 100,000 orders; Shopify itself stops paging at 25,000.
const maxPages = 10_000;

const lineFields = /* GraphQL */ `
  fragment ShipdeskLine on LineItem {
    id
    name
    title
    sku
    quantity
    currentQuantity
    unfulfilledQuantity
    requiresShipping
    taxable
    isGiftCard
    vendor
    originalUnitPriceSet {
      shopMoney {
        amount
        currencyCode
      }
    }
    variant {
      id
      product {
        id
      }
      inventoryItem {
        measurement {
          weight {
            unit
            value
          }
        }
      }
    }
  }
`;

export const ordersQuery = /* GraphQL */ `
  query ShipdeskOrders($first: Int!, $after: String, $query: String, $lines: Int!) {
    orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        legacyResourceId
        name
        email
        createdAt
        updatedAt
        cancelledAt
        closedAt
        note
        currencyCode
        displayFinancialStatus
        displayFulfillmentStatus
        totalPriceSet {
          shopMoney {
            amount
            currencyCode
          }
        }
        customer {
          firstName
          lastName
        }
        shippingAddress {
          firstName
          lastName
          name
          company
          address1
          address2
          city
          province
          provinceCode
          country
          countryCodeV2
          zip
          phone
        }
        billingAddress {
          firstName
          lastName
        }
        lineItems(first: $lines) {
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            ...ShipdeskLine
          }
        }
      }
    }
  }
  ${lineFields}
`;

const moreLinesQuery = /* GraphQL */ `
  query ShipdeskOrderLines($id: ID!, $after: String, $lines: Int!) {
    order(id: $id) {
      lineItems(first: $lines, after: $after) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          ...ShipdeskLine
        }
      }
    }
  }
  ${lineFields}
`;

/** `gid://shopify/ProductVariant/111` → `111`, the id the REST API used and imported orders keep. */
export function legacyId(gid: unknown): string | null {
  const text = str(gid);
  if (!text) return null;
  const tail = text.split('/').pop();
  return tail ? tail : null;
}

const kgPer: Record<string, number> = { GRAMS: 0.001, KILOGRAMS: 1, OUNCES: 0.028349523125, POUNDS: 0.45359237 };

/** The line's weight in kg, or undefined: Shopify answers 0 for a weight never entered (unknown, not weightless). */
function weightKg(line: Json): number | undefined {
  const weight = record(record(record(record(line.variant)?.inventoryItem)?.measurement)?.weight);
  const value = typeof weight?.value === 'number' ? weight.value : 0;
  const factor = kgPer[str(weight?.unit) ?? ''];
  if (!value || !factor) return undefined;
  return Math.round(value * factor * 1_000_000) / 1_000_000;
}

/** What is left to ship of a line: not yet fulfilled, and not refunded or removed. */
function remainingQuantity(line: Json): number {
  const quantity = typeof line.quantity === 'number' ? line.quantity : 0;
  const unfulfilled = typeof line.unfulfilledQuantity === 'number' ? line.unfulfilledQuantity : quantity;
  const current = typeof line.currentQuantity === 'number' ? line.currentQuantity : quantity;
  return Math.max(0, Math.min(unfulfilled, current));
}

function shippingAddressOf(raw: Json | null): ShopOrder['order']['shippingAddress'] {
  if (!raw) return null;
  return {
    name: joinName(raw.firstName, raw.lastName) ?? str(raw.name) ?? '',
    address1: str(raw.address1) ?? '',
    city: str(raw.city) ?? '',
    postalCode: str(raw.zip) ?? '',
    countryCode: str(raw.countryCodeV2)?.toUpperCase() ?? '',
    company: str(raw.company),
    address2: str(raw.address2),
    province: str(raw.province),
    provinceCode: str(raw.provinceCode),
    country: str(raw.country),
    phone: str(raw.phone),
  };
}

export function shopStateOf(raw: Json): ShopOrderState {
  if (raw.cancelledAt) return 'cancelled';
  if (raw.closedAt || raw.displayFulfillmentStatus === 'FULFILLED') return 'closed';
  return 'open';
}

/** An order the warehouse still has to ship: open, unfulfilled or partly fulfilled. */
export function awaitsShipping(raw: Json): boolean {
  return shopStateOf(raw) === 'open' && (raw.displayFulfillmentStatus === 'UNFULFILLED' || raw.displayFulfillmentStatus === 'PARTIALLY_FULFILLED');
}

const lower = (value: unknown) => str(value)?.toLowerCase() ?? undefined;

/** An order of the GraphQL answer (its lines all read) as the sync imports it. */
export function mapShopifyOrder(raw: Json, lines: Json[]): ShopOrder {
  const currency = str(raw.currencyCode)?.toUpperCase() ?? null;
  const customer = record(raw.customer);
  const shipping = record(raw.shippingAddress);
  const billing = record(raw.billingAddress);
  // A partly fulfilled order's shipped units, and refunded ones, are not shipped again; a line
  // with nothing left is left out.
  const open = lines.filter((line) => remainingQuantity(line) > 0);
  return {
    externalId: str(raw.legacyResourceId) ?? legacyId(raw.id) ?? '',
    shopState: shopStateOf(raw),
    updatedAt: str(raw.updatedAt),
    lineIds: open.map((line) => str(line.id)),
    order: {
      orderNumber: str(raw.name) ?? '',
      externalId: str(raw.legacyResourceId) ?? legacyId(raw.id),
      customerName: joinName(customer?.firstName, customer?.lastName) ?? str(shipping?.name) ?? joinName(billing?.firstName, billing?.lastName),
      customerEmail: str(raw.email),
      notes: clipped(raw.note),
      shippingAddress: shippingAddressOf(shipping),
      totalAmount: amount(record(record(raw.totalPriceSet)?.shopMoney)?.amount) ?? null,
      currency,
      orderLines: open.map((line) => {
        const quantity = remainingQuantity(line);
        const unitPrice = amount(record(record(line.originalUnitPriceSet)?.shopMoney)?.amount);
        const weight = weightKg(line);
        const variant = record(line.variant);
        return defined({
          name: str(line.name) ?? str(line.title) ?? '',
          quantity,
          sku: str(line.sku) ?? undefined,
          unitPrice,
          totalPrice: unitPrice === undefined ? undefined : Math.round(unitPrice * quantity * 100) / 100,
          currency: currency ?? undefined,
          weight,
          weightUnit: weight === undefined ? undefined : ('kg' as const),
          variantId: legacyId(variant?.id) ?? undefined,
          productId: legacyId(record(variant?.product)?.id) ?? undefined,
          vendor: str(line.vendor) ?? undefined,
          requiresShipping: typeof line.requiresShipping === 'boolean' ? line.requiresShipping : undefined,
          taxable: typeof line.taxable === 'boolean' ? line.taxable : undefined,
          giftCard: typeof line.isGiftCard === 'boolean' ? line.isGiftCard : undefined,
        });
      }),
      externalData: defined({
        platform: 'shopify',
        name: str(raw.name) ?? undefined,
        createdAt: str(raw.createdAt) ?? undefined,
        financialStatus: lower(raw.displayFinancialStatus),
        fulfillmentStatus: lower(raw.displayFulfillmentStatus),
        adminGraphqlApiId: str(raw.id) ?? undefined,
      }),
    },
  };
}

interface LinePage {
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  nodes: Json[];
}

function linePageOf(value: unknown, shopDomain: string): LinePage {
  const page = record(value);
  const pageInfo = record(page?.pageInfo);
  if (!page || !Array.isArray(page.nodes) || !pageInfo)
    throw storefrontError(shopifyPlatform, 'INVALID_RESPONSE', `${shopDomain} answered an order without its lines`);
  return { nodes: list(page.nodes), pageInfo: { hasNextPage: pageInfo.hasNextPage === true, endCursor: str(pageInfo.endCursor) } };
}

async function allLines(transport: StorefrontTransport, credentials: ShopifyCredentials, order: Json): Promise<Json[]> {
  let page = linePageOf(order.lineItems, credentials.shopDomain);
  const lines = [...page.nodes];
  while (page.pageInfo.hasNextPage && page.pageInfo.endCursor) {
    const { data } = await shopifyGraphql(transport, credentials, moreLinesQuery, { id: order.id, after: page.pageInfo.endCursor, lines: linesPerFollowUp });
    page = linePageOf(record(record(data)?.order)?.lineItems, credentials.shopDomain);
    lines.push(...page.nodes);
  }
  return lines;
}

/** The search a run asks for: open orders on the first run, changes since the cursor (less the overlap) later. */
export function ordersSearch(cursor: string | null): string {
  if (!cursor) return 'status:open';
  const since = new Date(new Date(cursor).getTime() - cursorOverlapMs);
  return `updated_at:>='${since.toISOString()}'`;
}

function validCursor(cursor: string | null): string | null {
  return cursor && !Number.isNaN(new Date(cursor).getTime()) ? cursor : null;
}

const later = (a: string | null, b: string | null): string | null => {
  if (!a) return b;
  if (!b) return a;
  return new Date(b).getTime() > new Date(a).getTime() ? b : a;
};

export function shopifyReader(transport: StorefrontTransport): StorefrontReader {
  return {
    async fetchOrders(rawConfig, rawCursor): Promise<OrderRead> {
      const credentials = shopifyCredentials(rawConfig);
      const cursor = validCursor(rawCursor);
      const search = ordersSearch(cursor);
      const orders: ShopOrder[] = [];
      let newest = cursor;
      let after: string | null = null;
      for (let page = 1; ; page++) {
        if (page > maxPages) throw storefrontError(shopifyPlatform, 'TOO_MANY_PAGES', `${credentials.shopDomain} listed more than ${maxPages} pages of orders`);
        const { data } = await shopifyGraphql(transport, credentials, ordersQuery, { first: ordersPerPage, after, query: search, lines: linesPerOrder });
        const connection = record(record(data)?.orders);
        const pageInfo = record(connection?.pageInfo);
        if (!connection || !Array.isArray(connection.nodes) || !pageInfo) {
          throw storefrontError(shopifyPlatform, 'INVALID_RESPONSE', `${credentials.shopDomain} answered without an orders list`);
        }
        for (const raw of list(connection.nodes)) {
          newest = later(newest, str(raw.updatedAt));
          // The first run keeps the orders to ship (the check is repeated so a shop ignoring the
          // filter cannot fill the order list with its history); a later one keeps every change.
          if (!cursor && !awaitsShipping(raw)) continue;
          orders.push(mapShopifyOrder(raw, await allLines(transport, credentials, raw)));
        }
        after = str(pageInfo.endCursor);
        if (pageInfo.hasNextPage !== true || !after) break;
      }
      return { orders, cursor: newest };
    },
  };
}
