/**
 * The write-back to Shopify (issue 22) through the GraphQL Admin API's fulfilment operations (the
 * REST fulfilment endpoints are deprecated; `fulfillmentCreateV2` / `fulfillmentTrackingInfoUpdateV2`
 * were renamed to `fulfillmentCreate` / `fulfillmentTrackingInfoUpdate` in 2024-10):
 *  - the order's fulfillment orders and their line items (`order.fulfillmentOrders`), to turn the
 *    shipped lines (the shop's LineItem ids kept on the order lines) into fulfillment order line items;
 *  - `fulfillmentCreate` with `trackingInfo {company number url}`, `notifyCustomer` and
 *    `lineItemsByFulfillmentOrder`;
 *  - a later tracking number: `fulfillmentTrackingInfoUpdate` on the fulfilment written before.
 * Read-back: the order's `fulfillments { id trackingInfo { number } }`, the one with this number.
 * Access scopes: read_orders, read/write_merchant_managed_fulfillment_orders (docs/api.md §13.16).
 * Calls go through the shared client (shopify/graphql.ts), which speaks the current stable version.
 */
import type { StorefrontTransport } from './http';
import { shopifyCredentials, shopifyGraphql } from './shopify/graphql';
import { ShopWriteError } from './writeHttp';
import { list, record, str, type Json, type ShopFulfillment, type StorefrontWriter, type WrittenFulfillment } from './types';

/** Ends every error message of the write-back: the outbox tries again on its schedule. */
const consequence = 'the shop was not told yet';

type Graphql = (query: string, variables: Record<string, unknown>) => Promise<Json>;

/** The shared GraphQL Admin client (shopify/graphql.ts: version, token, THROTTLED waited out, errors in plain words). */
function graphqlClient(transport: StorefrontTransport, rawConfig: Record<string, unknown>): Graphql {
  const credentials = shopifyCredentials(rawConfig, consequence);
  return async (query, variables) => (await shopifyGraphql<Json>(transport, credentials, query, variables, { consequence })).data;
}

export function shopifyGid(kind: 'Order' | 'LineItem', id: string): string {
  return id.startsWith('gid://') ? id : `gid://shopify/${kind}/${id}`;
}

function userErrorsOf(payload: Json | null): string | null {
  const errors = list(payload?.userErrors);
  return errors.length ? errors.map((error) => str(error.message) ?? 'unnamed error').join('; ') : null;
}

// Five fulfillment orders of up to 80 lines keep the query's calculated cost (about 820) under Shopify's 1,000 a query.
const fulfillmentOrdersQuery = `query ShipdeskFulfillmentOrders($id: ID!) {
  order(id: $id) {
    id
    fulfillmentOrders(first: 5) {
      nodes {
        id
        status
        lineItems(first: 80) {
          nodes { id remainingQuantity lineItem { id sku } }
        }
      }
    }
  }
}`;

const fulfillmentCreateMutation = `mutation ShipdeskFulfillmentCreate($fulfillment: FulfillmentInput!) {
  fulfillmentCreate(fulfillment: $fulfillment) {
    fulfillment { id status trackingInfo { company number url } }
    userErrors { field message }
  }
}`;

const trackingUpdateMutation = `mutation ShipdeskTrackingUpdate($fulfillmentId: ID!, $trackingInfoInput: FulfillmentTrackingInput!, $notifyCustomer: Boolean) {
  fulfillmentTrackingInfoUpdate(fulfillmentId: $fulfillmentId, trackingInfoInput: $trackingInfoInput, notifyCustomer: $notifyCustomer) {
    fulfillment { id trackingInfo { number } }
    userErrors { field message }
  }
}`;

const fulfillmentsQuery = `query ShipdeskFulfillments($id: ID!) {
  order(id: $id) {
    id
    fulfillments(first: 250) { id status trackingInfo { number } }
  }
}`;

/** Fulfillment orders that can still be fulfilled (not closed, cancelled or on hold). */
const openStatuses = new Set(['OPEN', 'IN_PROGRESS']);

/**
 * The shipped lines as fulfillment order line items: each line's units taken from the fulfillment
 * order lines of its shop line (by LineItem id, else by SKU) that still have units to fulfil.
 */
export function lineItemsByFulfillmentOrder(
  order: Json,
  fulfillment: ShopFulfillment,
): { fulfillmentOrderId: string; fulfillmentOrderLineItems: { id: string; quantity: number }[] }[] {
  const items = list(record(order.fulfillmentOrders)?.nodes)
    .filter((fo) => openStatuses.has(str(fo.status) ?? ''))
    .flatMap((fo) =>
      list(record(fo.lineItems)?.nodes).map((item) => ({
        fulfillmentOrderId: str(fo.id) ?? '',
        id: str(item.id) ?? '',
        lineItemId: str(record(item.lineItem)?.id),
        sku: str(record(item.lineItem)?.sku),
        remaining: typeof item.remainingQuantity === 'number' ? item.remainingQuantity : 0,
      })),
    );
  const byOrder = new Map<string, Map<string, number>>();
  const unplaced: string[] = [];
  for (const line of fulfillment.lines) {
    const lineItemId = line.externalLineId ? shopifyGid('LineItem', line.externalLineId) : null;
    let left = line.quantity;
    for (const item of items) {
      if (left <= 0) break;
      const matches = lineItemId ? item.lineItemId === lineItemId : line.sku !== null && item.sku === line.sku;
      if (!matches || item.remaining <= 0) continue;
      const take = Math.min(left, item.remaining);
      item.remaining -= take;
      left -= take;
      const lines = byOrder.get(item.fulfillmentOrderId) ?? new Map<string, number>();
      lines.set(item.id, (lines.get(item.id) ?? 0) + take);
      byOrder.set(item.fulfillmentOrderId, lines);
    }
    if (left > 0) unplaced.push(`${left} × ${line.sku ?? line.externalLineId ?? 'a line'}`);
  }
  if (unplaced.length) {
    throw new ShopWriteError(
      'LINES_NOT_OPEN',
      `Shopify: the order has no open fulfilment left for ${unplaced.join(', ')} (fulfilled, cancelled or on hold in Shopify?)`,
    );
  }
  return [...byOrder].map(([fulfillmentOrderId, lines]) => ({
    fulfillmentOrderId,
    fulfillmentOrderLineItems: [...lines].map(([id, quantity]) => ({ id, quantity })),
  }));
}

function trackingInput(fulfillment: ShopFulfillment) {
  return {
    company: fulfillment.carrierName || null,
    number: fulfillment.trackingNumber,
    ...(fulfillment.trackingUrl ? { url: fulfillment.trackingUrl } : {}),
  };
}

export function shopifyWriter(transport: StorefrontTransport): StorefrontWriter {
  return {
    async writeFulfillment(config, fulfillment): Promise<WrittenFulfillment> {
      const graphql = graphqlClient(transport, config);
      if (fulfillment.remoteId) {
        const data = await graphql(trackingUpdateMutation, {
          fulfillmentId: fulfillment.remoteId,
          trackingInfoInput: trackingInput(fulfillment),
          notifyCustomer: fulfillment.notifyCustomer,
        });
        const payload = record(data.fulfillmentTrackingInfoUpdate);
        const refused = userErrorsOf(payload);
        if (refused) throw new ShopWriteError('USER_ERRORS', `Shopify refused the new tracking number: ${refused}`);
        return { remoteId: str(record(payload?.fulfillment)?.id) ?? fulfillment.remoteId, trackingNumber: fulfillment.trackingNumber };
      }
      const orderId = shopifyGid('Order', fulfillment.orderExternalId);
      const order = record((await graphql(fulfillmentOrdersQuery, { id: orderId })).order);
      if (!order) throw new ShopWriteError('ORDER_UNKNOWN', `Shopify has no order ${fulfillment.orderExternalId} (deleted there?)`);
      const data = await graphql(fulfillmentCreateMutation, {
        fulfillment: {
          lineItemsByFulfillmentOrder: lineItemsByFulfillmentOrder(order, fulfillment),
          notifyCustomer: fulfillment.notifyCustomer,
          trackingInfo: trackingInput(fulfillment),
        },
      });
      const payload = record(data.fulfillmentCreate);
      const refused = userErrorsOf(payload);
      if (refused) throw new ShopWriteError('USER_ERRORS', `Shopify refused the fulfilment: ${refused}`);
      const id = str(record(payload?.fulfillment)?.id);
      if (!id) throw new ShopWriteError('INVALID_RESPONSE', 'Shopify: the answer named no fulfilment');
      return { remoteId: id, trackingNumber: fulfillment.trackingNumber };
    },

    async findFulfillment(config, fulfillment): Promise<WrittenFulfillment | null> {
      const graphql = graphqlClient(transport, config);
      const order = record((await graphql(fulfillmentsQuery, { id: shopifyGid('Order', fulfillment.orderExternalId) })).order);
      if (!order) return null;
      const found = list(order.fulfillments).find(
        (item) => str(item.status) !== 'CANCELLED' && list(item.trackingInfo).some((info) => str(info.number) === fulfillment.trackingNumber),
      );
      const id = found ? str(found.id) : null;
      return id ? { remoteId: id, trackingNumber: fulfillment.trackingNumber } : null;
    },
  };
}
