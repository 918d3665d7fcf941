import { defineOperation } from '../operation';
import { messageResponse, pageOf, pageQuery } from '../schemas/common';
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
import {
  shippingRuleCreateBody,
  shippingRuleExpandedSchema,
  shippingRuleMatchBody,
  shippingRuleMatchResponse,
  shippingRuleSchema,
  shippingRuleUpdateBody,
} from '../schemas/shippingRule';

const order = '/orgs/{orgId}/orders/{orderId}' as const;
const rule = '/orgs/{orgId}/shipping-rules/{ruleId}' as const;

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
    summary: 'List orders, newest first; filter by status, channel, or search number/customer',
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
];

export const shippingRuleOperations = [
  defineOperation({
    id: 'shippingRules.create',
    method: 'POST',
    path: '/orgs/{orgId}/shipping-rules',
    summary: 'Create a shipping rule',
    resource: 'shipping_rules',
    body: shippingRuleCreateBody,
    response: shippingRuleSchema,
  }),
  defineOperation({
    id: 'shippingRules.list',
    method: 'GET',
    path: '/orgs/{orgId}/shipping-rules',
    summary: 'List shipping rules with carrier, sender address, printers and return rule',
    resource: 'shipping_rules',
    query: pageQuery,
    response: pageOf(shippingRuleExpandedSchema),
  }),
  defineOperation({
    id: 'shippingRules.get',
    method: 'GET',
    path: rule,
    summary: 'Read a shipping rule with its expanded parts',
    resource: 'shipping_rules',
    response: shippingRuleExpandedSchema,
  }),
  defineOperation({
    id: 'shippingRules.update',
    method: 'PATCH',
    path: rule,
    summary: 'Update a shipping rule (only the fields given)',
    resource: 'shipping_rules',
    body: shippingRuleUpdateBody,
    response: shippingRuleSchema,
  }),
  defineOperation({
    id: 'shippingRules.delete',
    method: 'DELETE',
    path: rule,
    summary: 'Delete a shipping rule',
    resource: 'shipping_rules',
    response: messageResponse,
  }),
  defineOperation({
    id: 'shippingRules.match',
    method: 'POST',
    path: '/orgs/{orgId}/shipping-rules/match',
    summary: 'Which rules match a destination, weight and order total, best first, with the matching condition',
    resource: 'shipping_rules',
    // It only asks which rules would apply (decisions §3), so read-only scripts and viewers may.
    onlyReads: true,
    body: shippingRuleMatchBody,
    response: shippingRuleMatchResponse,
    successStatus: 200,
  }),
];
