import { createOrder, deleteOrder, getOrder, listOrders, updateOrder } from './orders';
import { importOrdersCsv } from './csvImport';
import { applyShopChange, dismissShopChange } from './shopChanges';
import { defineHandlers } from '../../app/kernel/handler';

export const orderHandlers = defineHandlers({
  'orders.create': ({ app }, { params, body }) => createOrder(app, params.orgId, body),
  'orders.import': ({ app }, { params, query, body }) => importOrdersCsv(app, params.orgId, body, { orderChannelId: query.orderChannelId }),
  'orders.list': ({ app }, { params, query }) => listOrders(app, params.orgId, query),
  'orders.get': ({ app }, { params }) => getOrder(app, params.orgId, params.orderId),
  'orders.update': ({ app }, { params, body }) => updateOrder(app, params.orgId, params.orderId, body),
  'orders.delete': ({ app }, { params }) => deleteOrder(app, params.orgId, params.orderId),
  'orders.applyShopChange': ({ app }, { params }) => applyShopChange(app, params.orgId, params.orderId),
  'orders.dismissShopChange': ({ app }, { params }) => dismissShopChange(app, params.orgId, params.orderId),
});
