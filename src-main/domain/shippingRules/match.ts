/**
 * Which shipping rules fit a shipment (decisions §6), best first, each with the condition that made
 * it fit so the UI can say why. The decision is a pure function of the rules and the facts; the
 * database part only loads the organization's live outbound rules.
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Condition, ShippingRuleMatchInput } from '../../../src-shared/schemas/shippingRule';
import { carriers, orgs, shippingRules, type RuleCondition } from '../../db/schema';
import type { ReadDb } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { carrierAdapterFor } from '../../carriers/catalogue';
import { toKg } from '../units';
import { toCondition, type ShippingRuleRow } from './rules';

/** What a shipment offers for matching: destination, weight in kg and, when known, the order total. */
export interface MatchFacts {
  countryCode: string;
  weightKg: number;
  orderTotal?: number | undefined;
  /** The order total's currency; price conditions in another currency do not compare with it. */
  currency?: string | undefined;
}

export interface RuleMatch<R = ShippingRuleRow> {
  rule: R;
  shippingPrice: number;
  currency: string;
  /** The cheapest matching condition; null for a rule without conditions (price 0). */
  condition: Condition | null;
}

/** The parts of a rule the decision looks at. */
export type MatchableRule = Pick<ShippingRuleRow, 'id' | 'createdAt' | 'receivingCountries' | 'conditions'>;

/**
 * Weights come from unit conversions (700 g is 0.7000000000000001 kg) and totals from sums of line
 * prices, so "equal" allows for floating-point noise far below a gram or a cent.
 */
const EPSILON = 1e-9;
function compare(a: number, b: number): -1 | 0 | 1 {
  if (Math.abs(a - b) <= EPSILON * Math.max(1, Math.abs(a), Math.abs(b))) return 0;
  return a < b ? -1 : 1;
}
const within = (value: number, min: number | undefined, max: number | undefined) =>
  min !== undefined && max !== undefined && compare(value, min) >= 0 && compare(value, max) <= 0;

export function countryMatches(receivingCountries: readonly string[], countryCode: string): boolean {
  return receivingCountries.includes('*') || receivingCountries.includes(countryCode);
}

/** The order total when a price condition may compare with it: known, and in the condition's currency. */
function comparableTotal(condition: RuleCondition, facts: MatchFacts): number | undefined {
  if (facts.orderTotal === undefined) return undefined;
  if (facts.currency !== undefined && facts.currency !== condition.currency) return undefined;
  return facts.orderTotal;
}

export function conditionMatches(condition: RuleCondition, facts: MatchFacts): boolean {
  switch (condition.type) {
    case 'weight':
      return within(facts.weightKg, condition.min, condition.max);
    case 'price': {
      const total = comparableTotal(condition, facts);
      if (total === undefined || condition.value === undefined) return false;
      const order = compare(total, condition.value);
      switch (condition.operator) {
        case 'gt':
          return order > 0;
        case 'gte':
          return order >= 0;
        case 'lt':
          return order < 0;
        case 'lte':
          return order <= 0;
        case 'eq':
          return order === 0;
        default:
          return false;
      }
    }
    case 'priceRange': {
      const total = comparableTotal(condition, facts);
      return total !== undefined && within(total, condition.min, condition.max);
    }
    case 'flatRate':
      return true;
    default:
      // A type this version does not know never matches, rather than guessing.
      return false;
  }
}

/**
 * Whether one rule fits, and at what price: its country list must match and, if it has conditions,
 * at least one of them; the cheapest matching condition sets the price (the first listed on a tie).
 * A rule without conditions fits at price 0 in `fallbackCurrency`.
 */
export function evaluateRule(rule: MatchableRule, facts: MatchFacts, fallbackCurrency: string): Omit<RuleMatch<never>, 'rule'> | null {
  if (!countryMatches(rule.receivingCountries, facts.countryCode)) return null;
  if (rule.conditions.length === 0) return { shippingPrice: 0, currency: fallbackCurrency, condition: null };
  let best: RuleCondition | undefined;
  for (const condition of rule.conditions) {
    if (conditionMatches(condition, facts) && (best === undefined || condition.shippingPrice < best.shippingPrice)) best = condition;
  }
  if (!best) return null;
  return { shippingPrice: best.shippingPrice, currency: best.currency, condition: toCondition(best) };
}

/** Every fitting rule, best first: lowest shipping price, then the oldest rule (createdAt, then id). */
export function rankRules<R extends MatchableRule>(rules: readonly R[], facts: MatchFacts, fallbackCurrency: string): RuleMatch<R>[] {
  const matches: RuleMatch<R>[] = [];
  for (const rule of rules) {
    const result = evaluateRule(rule, facts, fallbackCurrency);
    if (result) matches.push({ rule, ...result });
  }
  return matches.sort(
    (a, b) =>
      a.shippingPrice - b.shippingPrice ||
      (a.rule.createdAt < b.rule.createdAt ? -1 : a.rule.createdAt > b.rule.createdAt ? 1 : 0) ||
      (a.rule.id < b.rule.id ? -1 : a.rule.id > b.rule.id ? 1 : 0),
  );
}

/**
 * Whether the rule books an outbound product. Products are part of the adapter and never depend on
 * credentials, so the stored config (secrets still sealed) is enough here. A rule whose carrier type
 * is missing from this build, or whose product is gone, is not a candidate.
 */
function isOutboundRule(carrier: typeof carriers.$inferSelect, rule: ShippingRuleRow): boolean {
  const adapter = carrierAdapterFor(carrier.carrierSlug);
  const product = adapter?.products(carrier.config, carrier.products).find((candidate) => candidate.productId === rule.productId);
  return product?.type === 'outbound';
}

/**
 * The organization's live rules that fit, best first. Only outbound rules are candidates: a return
 * (inbound) rule is chosen through its outbound rule's returnShippingRuleId, never by matching.
 * A rule without conditions is priced in `input.currency`, else the organization's currency.
 */
export function matchShippingRules(
  db: ReadDb,
  orgId: string,
  input: { countryCode: string; weightKg: number; orderTotal?: number | undefined; currency?: string | undefined },
): RuleMatch[] {
  const rows = db
    .select({ rule: shippingRules, carrier: carriers })
    .from(shippingRules)
    .innerJoin(carriers, eq(carriers.id, shippingRules.carrierId))
    .where(and(eq(shippingRules.orgId, orgId), isNull(shippingRules.deletedAt), isNull(carriers.deletedAt)))
    .orderBy(asc(shippingRules.createdAt), asc(shippingRules.id))
    .all();
  const candidates = rows.filter(({ rule, carrier }) => isOutboundRule(carrier, rule)).map(({ rule }) => rule);
  const orgCurrency = db.select({ currency: orgs.currency }).from(orgs).where(eq(orgs.id, orgId)).get()?.currency ?? 'DKK';
  return rankRules(candidates, input, input.currency ?? orgCurrency);
}

/** POST /shipping-rules/match: the weight converted to kg, the answer as the UI shows it. */
export function matchShippingRulesRequest(app: AppContext, orgId: string, input: ShippingRuleMatchInput) {
  const facts: MatchFacts = {
    countryCode: input.countryCode,
    weightKg: toKg(input.weight, input.weightUnit),
    orderTotal: input.orderTotal,
    currency: input.currency,
  };
  return {
    matches: matchShippingRules(app.db, orgId, facts).map((match) => ({
      shippingRuleId: match.rule.id,
      name: match.rule.name,
      shippingPrice: match.shippingPrice,
      currency: match.currency,
      condition: match.condition,
    })),
  };
}
