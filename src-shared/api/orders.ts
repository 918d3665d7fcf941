import { defineOperation } from '../operation';
import { messageResponse, noBody, pageOf } from '../schemas/common';
import {
  orderCreateBody,
  orderDetailSchema,
  orderImportBody,
  orderImportQuery,
  orderImportResponse,
  orderListQuery,
  orderSummarySchema,
  orderUpdateBody,
} from '../schemas/order';

const order = '/orgs/{orgId}/orders/{orderId}' as const;

/** Orders: created, imported, listed, changed, deleted (decisions §5a). */
export const orderOperations = [
  defineOperation({
    id: 'orders.create',
    method: 'POST',
    path: '/orgs/{orgId}/orders',
    summary: 'Create an order (order number unique per channel)',
    resource: 'orders',
    body: orderCreateBody,
    response: orderDetailSchema,
  }),
  defineOperation({
    id: 'orders.import',
    method: 'POST',
    path: '/orgs/{orgId}/orders/import',
    summary: 'Import orders from a CSV file (text/csv, one row per order line); an order with any row error is not imported, one already there is skipped',
    resource: 'orders',
    requestKind: 'csv',
    query: orderImportQuery,
    body: orderImportBody,
    response: orderImportResponse,
    successStatus: 200,
  }),
  defineOperation({
    id: 'orders.list',
    method: 'GET',
    path: '/orgs/{orgId}/orders',
    summary: 'List orders, newest first; filter by status, channel, creation date, or search number, customer or SKU',
    resource: 'orders',
    query: orderListQuery,
    response: pageOf(orderSummarySchema),
  }),
  defineOperation({
    id: 'orders.get',
    method: 'GET',
    path: order,
    summary: 'Read an order with its lines, shipments and shipping rule',
    resource: 'orders',
    response: orderDetailSchema,
  }),
  defineOperation({
    id: 'orders.update',
    method: 'PATCH',
    path: order,
    summary: 'Update an order, or cancel it with status "cancelled" (not when fulfilled or cancelled)',
    resource: 'orders',
    body: orderUpdateBody,
    response: orderDetailSchema,
  }),
  defineOperation({
    id: 'orders.delete',
    method: 'DELETE',
    path: order,
    summary: 'Delete an order that has no shipments',
    resource: 'orders',
    response: messageResponse,
  }),
  defineOperation({
    id: 'orders.applyShopChange',
    method: 'POST',
    path: `${order}/shop-change/apply`,
    summary: "Apply the shop's held change to the order (what still can be) and clear it",
    resource: 'orders',
    body: noBody,
    response: orderDetailSchema,
    successStatus: 200,
  }),
  defineOperation({
    id: 'orders.dismissShopChange',
    method: 'POST',
    path: `${order}/shop-change/dismiss`,
    summary: "Dismiss the shop's held change: the order stays as it is",
    resource: 'orders',
    body: noBody,
    response: orderDetailSchema,
    successStatus: 200,
  }),
];
