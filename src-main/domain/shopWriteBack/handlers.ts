import { defineHandlers } from '../../app/kernel/handler';
import { listShopFulfillments, retryShopFulfillment } from './outbox';

export const shopFulfillmentHandlers = defineHandlers({
  'shopFulfillments.list': ({ app }, { params }) => listShopFulfillments(app, params.orgId, params.orderId),
  'shopFulfillments.retry': ({ app }, { params }) => retryShopFulfillment(app, params.orgId, params.orderId, params.shopFulfillmentId),
});
