import { defineOperation } from '../operation';
import { messageResponse, pageOf, pageQuery } from '../schemas/common';
import {
  shippingRuleCreateBody,
  shippingRuleExpandedSchema,
  shippingRuleMatchBody,
  shippingRuleMatchResponse,
  shippingRuleSchema,
  shippingRuleUpdateBody,
} from '../schemas/shippingRule';

const rule = '/orgs/{orgId}/shipping-rules/{ruleId}' as const;

/** Shipping rules (decisions §6), and which rules match a destination. */
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
