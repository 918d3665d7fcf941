/**
 * The fake Shopify's orders module: Order, LineItem, MailingAddress, … as the GraphQL Admin API
 * (2026-10) names them (a subset of their fields), the `orders` connection with Shopify's search
 * syntax for the filters the sync uses (status, fulfillment_status, updated_at, created_at), sort
 * keys and opaque cursors, and `order(id:)`. The store is `shop.orders`, objects in the API's own
 * shape, shared with any module that changes orders.
 */
import { GraphQLError } from 'graphql';
import type { FakeShopify, FakeShopifyContext, FakeShopifyModule } from './server';
import type { FakeMoneyBag, FakeShopifyAddress, FakeShopifyLineItem, FakeShopifyOrder } from './store';

// The order shapes live in store.ts (server.ts needs them too); named here as before.
export type { FakeMoneyBag, FakeShopifyAddress, FakeShopifyLineItem, FakeShopifyOrder } from './store';

const sdl = /* GraphQL */ `
  enum OrderSortKeys {
    CREATED_AT
    CUSTOMER_NAME
    DESTINATION
    FINANCIAL_STATUS
    FULFILLMENT_STATUS
    ID
    ORDER_NUMBER
    PO_NUMBER
    PROCESSED_AT
    RELEVANCE
    TOTAL_ITEMS_QUANTITY
    TOTAL_PRICE
    UPDATED_AT
  }

  enum OrderDisplayFulfillmentStatus {
    FULFILLED
    IN_PROGRESS
    ON_HOLD
    OPEN
    PARTIALLY_FULFILLED
    PENDING_FULFILLMENT
    REQUEST_DECLINED
    RESTOCKED
    SCHEDULED
    UNFULFILLED
  }

  enum OrderDisplayFinancialStatus {
    AUTHORIZED
    EXPIRED
    PAID
    PARTIALLY_PAID
    PARTIALLY_REFUNDED
    PENDING
    REFUNDED
    VOIDED
  }

  enum OrderCancelReason {
    CUSTOMER
    DECLINED
    FRAUD
    INVENTORY
    OTHER
    STAFF
  }

  enum WeightUnit {
    GRAMS
    KILOGRAMS
    OUNCES
    POUNDS
  }

  enum CountryCode {
    AT
    BE
    CH
    DE
    DK
    ES
    FI
    FR
    GB
    IE
    IS
    IT
    NL
    NO
    PL
    SE
    US
  }

  type Weight {
    unit: WeightUnit!
    value: Float!
  }

  type InventoryItemMeasurement implements Node {
    id: ID!
    weight: Weight
  }

  type InventoryItem implements Node {
    id: ID!
    measurement: InventoryItemMeasurement!
  }

  type Product implements Node {
    id: ID!
    title: String!
  }

  type ProductVariant implements Node {
    id: ID!
    title: String!
    sku: String
    product: Product!
    inventoryItem: InventoryItem!
  }

  type MailingAddress implements Node {
    id: ID!
    firstName: String
    lastName: String
    name: String
    company: String
    address1: String
    address2: String
    city: String
    province: String
    provinceCode: String
    country: String
    countryCodeV2: CountryCode
    zip: String
    phone: String
  }

  type Customer implements Node {
    id: ID!
    firstName: String
    lastName: String
    displayName: String!
  }

  type LineItem implements Node {
    id: ID!
    name: String!
    title: String!
    sku: String
    quantity: Int!
    currentQuantity: Int!
    unfulfilledQuantity: Int!
    nonFulfillableQuantity: Int!
    requiresShipping: Boolean!
    taxable: Boolean!
    isGiftCard: Boolean!
    vendor: String
    originalUnitPriceSet: MoneyBag!
    variant: ProductVariant
    product: Product
  }

  type LineItemEdge {
    cursor: String!
    node: LineItem!
  }

  type LineItemConnection {
    edges: [LineItemEdge!]!
    nodes: [LineItem!]!
    pageInfo: PageInfo!
  }

  type Order implements Node {
    id: ID!
    legacyResourceId: UnsignedInt64!
    name: String!
    email: String
    phone: String
    createdAt: DateTime!
    updatedAt: DateTime!
    processedAt: DateTime!
    cancelledAt: DateTime
    cancelReason: OrderCancelReason
    closed: Boolean!
    closedAt: DateTime
    confirmed: Boolean!
    test: Boolean!
    note: String
    currencyCode: CurrencyCode!
    totalPriceSet: MoneyBag!
    displayFinancialStatus: OrderDisplayFinancialStatus
    displayFulfillmentStatus: OrderDisplayFulfillmentStatus!
    customer: Customer
    shippingAddress: MailingAddress
    billingAddress: MailingAddress
    lineItems(first: Int, after: String, last: Int, before: String, reverse: Boolean = false): LineItemConnection!
  }

  type OrderEdge {
    cursor: String!
    node: Order!
  }

  type OrderConnection {
    edges: [OrderEdge!]!
    nodes: [Order!]!
    pageInfo: PageInfo!
  }

  extend type Query {
    orders(
      first: Int
      after: String
      last: Int
      before: String
      reverse: Boolean = false
      sortKey: OrderSortKeys = PROCESSED_AT
      query: String
      savedSearchId: ID
    ): OrderConnection!
    order(id: ID!): Order
  }
`;

/** Shopify caps a connection page at 250 and wants one of first or last. */
function pageSize(args: { first?: number | null; last?: number | null }): number {
  const size = args.first ?? args.last;
  if (size === undefined || size === null) throw new GraphQLError('you must provide one of first or last', { extensions: { code: 'BAD_REQUEST' } });
  if (size < 0 || size > 250)
    throw new GraphQLError(`The ${args.first != null ? 'first' : 'last'} argument must be between 0 and 250`, { extensions: { code: 'BAD_REQUEST' } });
  return size;
}

const encodeCursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
function decodeCursor(cursor: string): unknown {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64').toString('utf8'));
  } catch {
    throw new GraphQLError('Invalid cursor for current pagination sort.', { extensions: { code: 'BAD_REQUEST' } });
  }
}

/** A page of `items` after the cursor, as Shopify's connections answer (forward paging; `last` pages from the end). */
function connection<T>(
  items: T[],
  args: { first?: number | null; last?: number | null; after?: string | null; before?: string | null },
  keyOf: (item: T) => string,
) {
  const size = pageSize(args);
  let start = 0;
  if (args.after) {
    const key = decodeCursor(args.after);
    const index = items.findIndex((item) => keyOf(item) === (key as { key?: string })?.key);
    if (index < 0) throw new GraphQLError('Invalid cursor for current pagination sort.', { extensions: { code: 'BAD_REQUEST' } });
    start = index + 1;
  }
  const page = args.last != null && args.first == null ? items.slice(Math.max(start, items.length - size)) : items.slice(start, start + size);
  const cursors = page.map((item) => encodeCursor({ key: keyOf(item) }));
  return {
    nodes: page,
    edges: page.map((node, i) => ({ cursor: cursors[i], node })),
    pageInfo: {
      hasNextPage: start + page.length < items.length && !(args.last != null && args.first == null),
      hasPreviousPage: start > 0,
      startCursor: cursors[0] ?? null,
      endCursor: cursors[cursors.length - 1] ?? null,
    },
  };
}

// ---- Shopify's search syntax, the part the sync uses: `field:value`, `field:>=value` (quoted or
// not), terms joined by spaces or AND, a leading `-` or NOT to negate. ----

type Term = { negate: boolean; field: string; op: string; value: string };

function parseSearch(query: string): Term[] {
  const terms: Term[] = [];
  const pattern = /(NOT\s+|-)?(\w+):(>=|<=|>|<)?('([^']*)'|"([^"]*)"|(\S+))|\bAND\b|(\S+)/g;
  for (const match of query.matchAll(pattern)) {
    if (match[0] === 'AND') continue;
    if (match[8] !== undefined)
      throw new GraphQLError(`fake Shopify: the search term "${match[8]}" is not supported by this fake`, { extensions: { code: 'BAD_REQUEST' } });
    terms.push({ negate: Boolean(match[1]), field: match[2]!, op: match[3] ?? ':', value: match[5] ?? match[6] ?? match[7] ?? '' });
  }
  return terms;
}

function compareDates(actual: string, op: string, value: string): boolean {
  const a = new Date(actual).getTime();
  const b = new Date(value).getTime();
  if (Number.isNaN(b)) throw new GraphQLError(`fake Shopify: "${value}" is not a date`, { extensions: { code: 'BAD_REQUEST' } });
  if (op === '>=') return a >= b;
  if (op === '>') return a > b;
  if (op === '<=') return a <= b;
  if (op === '<') return a < b;
  return actual.slice(0, 10) === value.slice(0, 10);
}

function matchesTerm(order: FakeShopifyOrder, term: Term): boolean {
  const value = term.value.toLowerCase();
  switch (term.field) {
    case 'status':
      if (value === 'any') return true;
      if (value === 'open') return !order.closedAt && !order.cancelledAt;
      if (value === 'closed') return Boolean(order.closedAt);
      if (value === 'cancelled') return Boolean(order.cancelledAt);
      if (value === 'not_closed') return !order.closedAt;
      break;
    case 'fulfillment_status':
      if (value === 'any') return true;
      if (value === 'unshipped' || value === 'unfulfilled') return order.displayFulfillmentStatus === 'UNFULFILLED';
      if (value === 'partial') return order.displayFulfillmentStatus === 'PARTIALLY_FULFILLED';
      if (value === 'shipped' || value === 'fulfilled') return order.displayFulfillmentStatus === 'FULFILLED';
      break;
    case 'updated_at':
      return compareDates(order.updatedAt, term.op, term.value);
    case 'created_at':
      return compareDates(order.createdAt, term.op, term.value);
  }
  throw new GraphQLError(`fake Shopify: the filter ${term.field}:${term.value} is not supported by this fake`, { extensions: { code: 'BAD_REQUEST' } });
}

export function searchOrders(orders: FakeShopifyOrder[], query: string | null | undefined): FakeShopifyOrder[] {
  const terms = query ? parseSearch(query) : [];
  return orders.filter((order) => terms.every((term) => matchesTerm(order, term) !== term.negate));
}

const sortValue: Partial<Record<string, (order: FakeShopifyOrder) => string | number>> = {
  UPDATED_AT: (order) => new Date(order.updatedAt).getTime(),
  CREATED_AT: (order) => new Date(order.createdAt).getTime(),
  PROCESSED_AT: (order) => new Date(order.processedAt).getTime(),
  ID: (order) => Number(order.legacyResourceId),
};

const numericId = (gid: string) => Number(gid.split('/').pop());

export const ordersModule: FakeShopifyModule = {
  name: 'orders',
  sdl,
  resolvers: {
    Query: {
      orders: (
        _source,
        args: { first?: number; last?: number; after?: string; before?: string; reverse?: boolean; sortKey?: string; query?: string },
        context: FakeShopifyContext,
      ) => {
        context.requireScope('read_orders');
        const by = sortValue[args.sortKey ?? 'PROCESSED_AT'];
        if (!by) throw new GraphQLError(`fake Shopify: sortKey ${args.sortKey} is not supported by this fake`, { extensions: { code: 'BAD_REQUEST' } });
        const found = searchOrders(context.shop.orders, args.query).sort((a, b) => {
          const [x, y] = [by(a), by(b)];
          return x < y ? -1 : x > y ? 1 : numericId(a.id) - numericId(b.id);
        });
        if (args.reverse) found.reverse();
        return connection(found, args, (order) => order.id);
      },
      order: (_source, args: { id: string }, context: FakeShopifyContext) => {
        context.requireScope('read_orders');
        return context.shop.orders.find((order) => order.id === args.id) ?? null;
      },
    },
    Order: {
      lineItems: (order: FakeShopifyOrder, args: { first?: number; last?: number; after?: string; reverse?: boolean }) => {
        const lines = args.reverse ? [...order.lineItems].reverse() : order.lineItems;
        return connection(lines, args, (line) => line.id);
      },
    },
    MailingAddress: {
      id: (address: FakeShopifyAddress) => address.id ?? 'gid://shopify/MailingAddress/1',
    },
  },
};

// ---- Building orders for tests ----

const money = (amount: string, currencyCode: string): FakeMoneyBag => ({ shopMoney: { amount, currencyCode }, presentmentMoney: { amount, currencyCode } });

export interface FakeLineInput {
  id?: number;
  name: string;
  sku?: string | null;
  quantity: number;
  /** Units still to ship (the rest is fulfilled); all of them by default. */
  unfulfilledQuantity?: number;
  /** Units left after refunds and removals; `quantity` by default. */
  currentQuantity?: number;
  price: string;
  grams?: number | null;
  requiresShipping?: boolean;
  taxable?: boolean;
  isGiftCard?: boolean;
  vendor?: string | null;
  variantId?: number | null;
  productId?: number | null;
}

export function fakeLineItem(input: FakeLineInput, currencyCode = 'DKK'): FakeShopifyLineItem {
  const id = input.id ?? Math.floor(Math.random() * 1e9);
  const product = input.productId ? { id: `gid://shopify/Product/${input.productId}`, title: input.name.split(' - ')[0] ?? input.name } : null;
  return {
    id: `gid://shopify/LineItem/${id}`,
    name: input.name,
    title: input.name.split(' - ')[0] ?? input.name,
    sku: input.sku === undefined ? null : input.sku,
    quantity: input.quantity,
    currentQuantity: input.currentQuantity ?? input.quantity,
    unfulfilledQuantity: input.unfulfilledQuantity ?? input.quantity,
    nonFulfillableQuantity: 0,
    requiresShipping: input.requiresShipping ?? true,
    taxable: input.taxable ?? true,
    isGiftCard: input.isGiftCard ?? false,
    vendor: input.vendor ?? null,
    originalUnitPriceSet: money(input.price, currencyCode),
    variant:
      input.variantId && product
        ? {
            id: `gid://shopify/ProductVariant/${input.variantId}`,
            title: 'Default Title',
            sku: input.sku ?? null,
            product,
            inventoryItem: {
              id: `gid://shopify/InventoryItem/${input.variantId}`,
              measurement: { id: `gid://shopify/InventoryItemMeasurement/${input.variantId}`, weight: { unit: 'GRAMS', value: input.grams ?? 0 } },
            },
          }
        : null,
    product,
  };
}

export interface FakeOrderOverrides extends Partial<Omit<FakeShopifyOrder, 'lineItems'>> {
  lineItems?: (FakeShopifyLineItem | FakeLineInput)[];
}

/** A Shopify order as the GraphQL Admin API answers it: two lines (a 400 g mug and a gift card), open, unfulfilled. */
export function shopifyOrder(id: number, overrides: FakeOrderOverrides = {}): FakeShopifyOrder {
  const currencyCode = overrides.currencyCode ?? 'DKK';
  const { lineItems, ...rest } = overrides;
  const lines: (FakeShopifyLineItem | FakeLineInput)[] = lineItems ?? [
    { id: id * 10 + 1, name: 'Stoneware mug - Blue', sku: 'MUG-01', quantity: 2, price: '99.00', grams: 400, vendor: 'Acme', variantId: 111, productId: 11 },
    {
      id: id * 10 + 2,
      name: 'Gift card',
      sku: null,
      quantity: 1,
      price: '100.00',
      grams: 0,
      requiresShipping: false,
      taxable: false,
      isGiftCard: true,
      vendor: 'Acme',
      variantId: 222,
      productId: 22,
    },
  ];
  return {
    id: `gid://shopify/Order/${id}`,
    legacyResourceId: String(id),
    name: `#${id - 5000}`,
    email: `buyer${id}@example.com`,
    phone: null,
    createdAt: '2024-11-02T09:15:00Z',
    updatedAt: '2024-11-02T09:15:00Z',
    processedAt: '2024-11-02T09:15:00Z',
    cancelledAt: null,
    cancelReason: null,
    closed: false,
    closedAt: null,
    confirmed: true,
    test: false,
    note: 'Leave at the door',
    currencyCode,
    totalPriceSet: money('298.00', currencyCode),
    displayFinancialStatus: 'PAID',
    displayFulfillmentStatus: 'UNFULFILLED',
    customer: { id: 'gid://shopify/Customer/77', firstName: 'Jane', lastName: 'Doe', displayName: 'Jane Doe' },
    shippingAddress: {
      firstName: 'Jane',
      lastName: 'Doe',
      name: 'Jane Doe',
      company: null,
      address1: 'Storgade 5',
      address2: '2. tv',
      city: 'København Ø',
      province: null,
      provinceCode: null,
      country: 'Denmark',
      countryCodeV2: 'DK',
      zip: '2100',
      phone: '+4520202020',
    },
    billingAddress: null,
    ...rest,
    lineItems: lines.map((line) => ('originalUnitPriceSet' in line ? line : fakeLineItem(line, currencyCode))),
  };
}

/** Changes an order in the fake shop as the shop admin would: the change moves `updatedAt`. */
export function changeShopifyOrder(shop: FakeShopify, id: number, at: string, change: FakeOrderOverrides): FakeShopifyOrder {
  const index = shop.orders.findIndex((order) => order.id === `gid://shopify/Order/${id}`);
  if (index < 0) throw new Error(`fake Shopify has no order ${id}`);
  const current = shop.orders[index]!;
  const { lineItems, ...rest } = change;
  const next: FakeShopifyOrder = {
    ...current,
    ...rest,
    updatedAt: at,
    lineItems: lineItems ? lineItems.map((line) => ('originalUnitPriceSet' in line ? line : fakeLineItem(line, current.currencyCode))) : current.lineItems,
  };
  shop.orders[index] = next;
  return next;
}
