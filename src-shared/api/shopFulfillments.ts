import { defineOperation } from '../operation';
import { shopFulfillmentListSchema, shopFulfillmentSchema } from '../schemas/shopFulfillment';

const base = '/orgs/{orgId}/orders/{orderId}/shop-fulfillments' as const;

/** The write-back of dispatched shipments to the order's shop (issue 22), per order; guarded by the orders scopes. */
export const shopFulfillmentOperations = [
  defineOperation({
    id: 'shopFulfillments.list',
    method: 'GET',
    path: base,
    summary: "What the order's shop was told about each dispatched shipment: sent (when), waiting, or the shop's error",
    resource: 'orders',
    response: shopFulfillmentListSchema,
  }),
  defineOperation({
    id: 'shopFulfillments.retry',
    method: 'POST',
    path: `${base}/{shopFulfillmentId}/retry`,
    summary: 'Queue a write-back that failed after its last attempt again (409 CONFLICT unless it failed)',
    resource: 'orders',
    response: shopFulfillmentSchema,
    successStatus: 200,
  }),
];
