import { matchShippingRulesRequest } from './match';
import { createShippingRule, deleteShippingRule, getShippingRule, listShippingRules, updateShippingRule } from './rules';
import { defineHandlers } from '../../app/kernel/handler';

export const shippingRuleHandlers = defineHandlers({
  'shippingRules.create': ({ app }, { params, body }) => createShippingRule(app, params.orgId, body),
  'shippingRules.list': ({ app }, { params, query }) => listShippingRules(app, params.orgId, query),
  'shippingRules.get': ({ app }, { params }) => getShippingRule(app, params.orgId, params.ruleId),
  'shippingRules.update': ({ app }, { params, body }) => updateShippingRule(app, params.orgId, params.ruleId, body),
  'shippingRules.delete': ({ app }, { params }) => deleteShippingRule(app, params.orgId, params.ruleId),
  'shippingRules.match': ({ app }, { params, body }) => matchShippingRulesRequest(app, params.orgId, body),
});
