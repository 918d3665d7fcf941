/**
 * The fake Shopify's fulfilment module (issue 22 write-back), from the GraphQL Admin API reference:
 * an order's fulfillment orders (`Order.fulfillmentOrders`, with their line items and what remains to
 * fulfil), its fulfilments (`Order.fulfillments`), and the mutations `fulfillmentCreate` and
 * `fulfillmentTrackingInfoUpdate` (the names since 2024-10; the V2 ones are deprecated and absent
 * here, so a client still using them is refused as by a real shop of this version). It refuses what
 * Shopify refuses with `userErrors`: an unknown fulfillment order or line item, a fulfillment order
 * that is closed, cancelled or on hold, a quantity above what remains or below 1, a fulfilment that
 * does not exist; and it asks for the access scopes Shopify asks for.
 *
 * Each order gets one OPEN fulfillment order holding its lines that need shipping, made when first
 * looked at (or set by a test through `fulfillmentOrdersOf`).
 */
import type { FakeShopifyContext, FakeShopifyModule } from './server';
import type { FakeShopifyOrder } from './orders';

export interface FakeFulfillmentOrderLine {
  id: string;
  lineItemId: string;
  totalQuantity: number;
  remainingQuantity: number;
}

export interface FakeFulfillmentOrder {
  id: string;
  status: 'OPEN' | 'IN_PROGRESS' | 'CANCELLED' | 'INCOMPLETE' | 'CLOSED' | 'SCHEDULED' | 'ON_HOLD';
  lines: FakeFulfillmentOrderLine[];
}

export interface FakeFulfillment {
  id: string;
  status: 'SUCCESS' | 'CANCELLED';
  createdAt: string;
  trackingInfo: { company: string | null; number: string | null; url: string | null }[];
  lines: { fulfillmentOrderLineId: string; quantity: number }[];
  /** Every notifyCustomer the shop was given for it (create, then each tracking update). */
  notifyCustomer: boolean[];
}

interface FulfillmentState {
  fulfillmentOrders: FakeFulfillmentOrder[];
  fulfillments: FakeFulfillment[];
}

/** What a test steers: while `holdAnswers` is set, a mutation's answer waits for it after the change is made (a slow shop). */
export const fakeFulfillmentControl: { holdAnswers: Promise<void> | null } = { holdAnswers: null };

let counter = 7_000_000;
const nextId = () => ++counter;

/** The order's fulfilment state, made on first use: one OPEN fulfillment order with the lines to ship. */
export function fulfillmentsOf(order: FakeShopifyOrder): FulfillmentState {
  order.extra ??= {};
  let state = order.extra.fulfillments as FulfillmentState | undefined;
  if (!state) {
    const lines = order.lineItems
      .filter((line) => line.requiresShipping && line.unfulfilledQuantity > 0)
      .map((line) => ({
        id: `gid://shopify/FulfillmentOrderLineItem/${nextId()}`,
        lineItemId: line.id,
        totalQuantity: line.quantity,
        remainingQuantity: line.unfulfilledQuantity,
      }));
    state = {
      fulfillmentOrders: lines.length ? [{ id: `gid://shopify/FulfillmentOrder/${nextId()}`, status: 'OPEN', lines }] : [],
      fulfillments: [],
    };
    order.extra.fulfillments = state;
  }
  return state;
}

const sdl = /* GraphQL */ `
  enum FulfillmentOrderStatus {
    CANCELLED
    CLOSED
    INCOMPLETE
    IN_PROGRESS
    ON_HOLD
    OPEN
    SCHEDULED
  }

  enum FulfillmentStatus {
    CANCELLED
    ERROR
    FAILURE
    SUCCESS
    OPEN
    PENDING
  }

  type FulfillmentOrderLineItem implements Node {
    id: ID!
    totalQuantity: Int!
    remainingQuantity: Int!
    lineItem: LineItem!
  }

  type FulfillmentOrderLineItemConnection {
    nodes: [FulfillmentOrderLineItem!]!
    pageInfo: PageInfo!
  }

  type FulfillmentOrder implements Node {
    id: ID!
    status: FulfillmentOrderStatus!
    orderId: ID!
    lineItems(first: Int, after: String): FulfillmentOrderLineItemConnection!
  }

  type FulfillmentOrderConnection {
    nodes: [FulfillmentOrder!]!
    pageInfo: PageInfo!
  }

  type FulfillmentTrackingInfo {
    company: String
    number: String
    url: URL
  }

  type Fulfillment implements Node {
    id: ID!
    status: FulfillmentStatus!
    createdAt: DateTime!
    trackingInfo(first: Int): [FulfillmentTrackingInfo!]!
  }

  extend type Order {
    fulfillmentOrders(first: Int, after: String, displayable: Boolean, query: String): FulfillmentOrderConnection!
    fulfillments(first: Int): [Fulfillment!]!
  }

  input FulfillmentOrderLineItemInput {
    id: ID!
    quantity: Int!
  }

  input FulfillmentOrderLineItemsInput {
    fulfillmentOrderId: ID!
    fulfillmentOrderLineItems: [FulfillmentOrderLineItemInput!]
  }

  input FulfillmentTrackingInput {
    company: String
    number: String
    url: URL
    numbers: [String!]
    urls: [URL!]
  }

  input FulfillmentOriginAddressInput {
    address1: String
    address2: String
    city: String
    countryCode: String!
    provinceCode: String
    zip: String
  }

  input FulfillmentInput {
    lineItemsByFulfillmentOrder: [FulfillmentOrderLineItemsInput!]!
    notifyCustomer: Boolean
    originAddress: FulfillmentOriginAddressInput
    trackingInfo: FulfillmentTrackingInput
  }

  type UserError {
    field: [String!]
    message: String!
  }

  type FulfillmentCreatePayload {
    fulfillment: Fulfillment
    userErrors: [UserError!]!
  }

  type FulfillmentTrackingInfoUpdatePayload {
    fulfillment: Fulfillment
    userErrors: [UserError!]!
  }

  type Mutation {
    fulfillmentCreate(fulfillment: FulfillmentInput!, message: String): FulfillmentCreatePayload
    fulfillmentTrackingInfoUpdate(
      fulfillmentId: ID!
      trackingInfoInput: FulfillmentTrackingInput!
      notifyCustomer: Boolean
    ): FulfillmentTrackingInfoUpdatePayload
  }
`;

const nodesOf = <T>(items: T[], first: number | undefined) => ({
  nodes: items.slice(0, first ?? items.length),
  pageInfo: { hasNextPage: first !== undefined && items.length > first, hasPreviousPage: false, startCursor: null, endCursor: null },
});

type UserError = { field: string[]; message: string };

function trackingOf(
  input: { company?: string | null; number?: string | null; url?: string | null; numbers?: string[] | null; urls?: string[] | null } | null | undefined,
) {
  if (!input) return [];
  const numbers = input.numbers?.length ? input.numbers : input.number ? [input.number] : [];
  const urls = input.urls?.length ? input.urls : input.url ? [input.url] : [];
  return numbers.map((number, index) => ({ company: input.company ?? null, number, url: urls[index] ?? null }));
}

const held = async () => {
  if (fakeFulfillmentControl.holdAnswers) await fakeFulfillmentControl.holdAnswers;
};

function findFulfillmentOrder(context: FakeShopifyContext, id: string) {
  for (const order of context.shop.orders) {
    const fulfillmentOrder = fulfillmentsOf(order).fulfillmentOrders.find((fo) => fo.id === id);
    if (fulfillmentOrder) return { order, fulfillmentOrder };
  }
  return null;
}

export const fulfillmentsModule: FakeShopifyModule = {
  name: 'fulfillments',
  sdl,
  resolvers: {
    Order: {
      fulfillmentOrders: (order: FakeShopifyOrder, args: { first?: number }, context: FakeShopifyContext) => {
        context.requireScope('read_merchant_managed_fulfillment_orders');
        return nodesOf(
          fulfillmentsOf(order).fulfillmentOrders.map((fo) => ({ ...fo, orderId: order.id, order })),
          args.first,
        );
      },
      fulfillments: (order: FakeShopifyOrder, args: { first?: number }) => fulfillmentsOf(order).fulfillments.slice(0, args.first ?? undefined),
    },
    FulfillmentOrder: {
      lineItems: (fo: FakeFulfillmentOrder & { order: FakeShopifyOrder }, args: { first?: number }) =>
        nodesOf(
          fo.lines.map((line) => ({ ...line, lineItem: fo.order.lineItems.find((item) => item.id === line.lineItemId) })),
          args.first,
        ),
    },
    Fulfillment: {
      trackingInfo: (fulfillment: FakeFulfillment, args: { first?: number }) => fulfillment.trackingInfo.slice(0, args.first ?? undefined),
    },
    Mutation: {
      fulfillmentCreate: async (
        _source,
        args: {
          fulfillment: {
            lineItemsByFulfillmentOrder: { fulfillmentOrderId: string; fulfillmentOrderLineItems?: { id: string; quantity: number }[] | null }[];
            notifyCustomer?: boolean | null;
            trackingInfo?: Parameters<typeof trackingOf>[0];
          };
        },
        context: FakeShopifyContext,
      ) => {
        context.requireScope('write_merchant_managed_fulfillment_orders');
        const input = args.fulfillment;
        const errors: UserError[] = [];
        const taken: { fo: FakeFulfillmentOrder; line: FakeFulfillmentOrderLine; quantity: number }[] = [];
        let order: FakeShopifyOrder | null = null;
        if (!input.lineItemsByFulfillmentOrder.length) {
          errors.push({ field: ['fulfillment', 'lineItemsByFulfillmentOrder'], message: 'Line items by fulfillment order must not be empty.' });
        }
        input.lineItemsByFulfillmentOrder.forEach((group, g) => {
          const field = ['fulfillment', 'lineItemsByFulfillmentOrder', String(g)];
          const found = findFulfillmentOrder(context, group.fulfillmentOrderId);
          if (!found) {
            errors.push({ field: [...field, 'fulfillmentOrderId'], message: 'Fulfillment order does not exist.' });
            return;
          }
          if (order && order !== found.order) errors.push({ field, message: 'All fulfillment orders must belong to the same order.' });
          order = found.order;
          if (!['OPEN', 'IN_PROGRESS'].includes(found.fulfillmentOrder.status)) {
            errors.push({
              field,
              message: `Fulfillment order ${group.fulfillmentOrderId} has an unfulfillable status= ${found.fulfillmentOrder.status.toLowerCase()}.`,
            });
            return;
          }
          const asked =
            group.fulfillmentOrderLineItems ??
            found.fulfillmentOrder.lines.filter((line) => line.remainingQuantity > 0).map((line) => ({ id: line.id, quantity: line.remainingQuantity }));
          asked.forEach((item, i) => {
            const line = found.fulfillmentOrder.lines.find((candidate) => candidate.id === item.id);
            if (!line) {
              errors.push({ field: [...field, 'fulfillmentOrderLineItems', String(i), 'id'], message: 'Fulfillment order line item does not exist.' });
              return;
            }
            const already = taken.filter((t) => t.line === line).reduce((sum, t) => sum + t.quantity, 0);
            if (!Number.isInteger(item.quantity) || item.quantity < 1 || item.quantity + already > line.remainingQuantity) {
              errors.push({
                field: [...field, 'fulfillmentOrderLineItems', String(i), 'quantity'],
                message: 'Invalid fulfillment order line item quantity requested.',
              });
              return;
            }
            taken.push({ fo: found.fulfillmentOrder, line, quantity: item.quantity });
          });
        });
        if (errors.length || !order) return { fulfillment: null, userErrors: errors };
        const theOrder: FakeShopifyOrder = order;
        for (const { line, quantity } of taken) {
          line.remainingQuantity -= quantity;
          const item = theOrder.lineItems.find((candidate) => candidate.id === line.lineItemId);
          if (item) item.unfulfilledQuantity -= quantity;
        }
        for (const fo of new Set(taken.map((t) => t.fo))) fo.status = fo.lines.every((line) => line.remainingQuantity === 0) ? 'CLOSED' : 'IN_PROGRESS';
        const fulfillment: FakeFulfillment = {
          id: `gid://shopify/Fulfillment/${nextId()}`,
          status: 'SUCCESS',
          createdAt: new Date().toISOString(),
          trackingInfo: trackingOf(input.trackingInfo),
          lines: taken.map((t) => ({ fulfillmentOrderLineId: t.line.id, quantity: t.quantity })),
          notifyCustomer: [input.notifyCustomer === true],
        };
        fulfillmentsOf(theOrder).fulfillments.push(fulfillment);
        const remaining = theOrder.lineItems.filter((line) => line.requiresShipping).some((line) => line.unfulfilledQuantity > 0);
        theOrder.displayFulfillmentStatus = remaining ? 'PARTIALLY_FULFILLED' : 'FULFILLED';
        await held();
        return { fulfillment, userErrors: [] };
      },
      fulfillmentTrackingInfoUpdate: async (
        _source,
        args: { fulfillmentId: string; trackingInfoInput: Parameters<typeof trackingOf>[0]; notifyCustomer?: boolean | null },
        context: FakeShopifyContext,
      ) => {
        context.requireScope('write_merchant_managed_fulfillment_orders');
        const fulfillment = context.shop.orders.flatMap((order) => fulfillmentsOf(order).fulfillments).find((item) => item.id === args.fulfillmentId);
        if (!fulfillment) return { fulfillment: null, userErrors: [{ field: ['fulfillmentId'], message: 'Fulfillment does not exist.' }] };
        if (fulfillment.status === 'CANCELLED') return { fulfillment: null, userErrors: [{ field: ['fulfillmentId'], message: 'Fulfillment is cancelled.' }] };
        fulfillment.trackingInfo = trackingOf(args.trackingInfoInput);
        fulfillment.notifyCustomer.push(args.notifyCustomer === true);
        await held();
        return { fulfillment, userErrors: [] };
      },
    },
  },
};
