import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuleCondition } from '../../db/schema';
import { setupLocalCarrier, shippingRuleBody, startTestServer, type TestServer } from '../../testing/harness';
import { conditionMatches, countryMatches, evaluateRule, matchShippingRules, rankRules, type MatchableRule, type MatchFacts } from './match';

const dk = (weightKg: number, extra: Partial<MatchFacts> = {}): MatchFacts => ({ countryCode: 'DK', weightKg, ...extra });
const weight = (min: number, max: number, shippingPrice = 10): RuleCondition => ({ type: 'weight', min, max, shippingPrice, currency: 'DKK' });
const price = (operator: string, value: number, shippingPrice = 10, currency = 'DKK'): RuleCondition => ({
  type: 'price',
  operator,
  value,
  shippingPrice,
  currency,
});
const rule = (id: string, conditions: RuleCondition[], overrides: Partial<MatchableRule> = {}): MatchableRule => ({
  id,
  createdAt: '2026-06-01T00:00:00.000Z',
  receivingCountries: ['DK'],
  conditions,
  ...overrides,
});

describe('matching conditions (pure)', () => {
  it('weight: min ≤ kg ≤ max, both bounds inclusive, tolerant of unit-conversion noise', () => {
    const c = weight(1, 5);
    expect(conditionMatches(c, dk(1))).toBe(true);
    expect(conditionMatches(c, dk(5))).toBe(true);
    expect(conditionMatches(c, dk(3))).toBe(true);
    expect(conditionMatches(c, dk(0.999))).toBe(false);
    expect(conditionMatches(c, dk(5.001))).toBe(false);
    expect(conditionMatches(weight(0.7, 0.7), dk(700 * 0.001))).toBe(true); // 0.7000000000000001
    expect(conditionMatches({ type: 'weight', max: 5, shippingPrice: 1, currency: 'DKK' }, dk(1))).toBe(false);
  });

  it('price: each operator against the order total; no total means no match', () => {
    const at = (orderTotal: number) => dk(1, { orderTotal });
    const table: [string, number, boolean][] = [
      ['gt', 100, false],
      ['gt', 100.01, true],
      ['gte', 100, true],
      ['gte', 99.99, false],
      ['lt', 100, false],
      ['lt', 99.99, true],
      ['lte', 100, true],
      ['lte', 100.01, false],
      ['eq', 100, true],
      ['eq', 0.1 + 0.2 + 99.7, true],
      ['eq', 100.01, false],
      ['ne', 1, false],
    ];
    for (const [operator, total, expected] of table) {
      expect(conditionMatches(price(operator, 100), at(total)), `${operator} ${total}`).toBe(expected);
    }
    expect(conditionMatches(price('gte', 0), dk(1))).toBe(false);
    expect(conditionMatches({ type: 'price', operator: 'gte', shippingPrice: 1, currency: 'DKK' }, at(1))).toBe(false);
  });

  it('price conditions compare only with a total in their own currency', () => {
    expect(conditionMatches(price('gte', 100, 0, 'DKK'), dk(1, { orderTotal: 500, currency: 'DKK' }))).toBe(true);
    expect(conditionMatches(price('gte', 100, 0, 'DKK'), dk(1, { orderTotal: 500, currency: 'EUR' }))).toBe(false);
    const range: RuleCondition = { type: 'priceRange', min: 0, max: 1000, shippingPrice: 0, currency: 'EUR' };
    expect(conditionMatches(range, dk(1, { orderTotal: 500, currency: 'DKK' }))).toBe(false);
    expect(conditionMatches(range, dk(1, { orderTotal: 500 }))).toBe(true);
  });

  it('priceRange: min ≤ total ≤ max inclusive; flatRate always; unknown types never', () => {
    const range: RuleCondition = { type: 'priceRange', min: 100, max: 200, shippingPrice: 5, currency: 'DKK' };
    expect(conditionMatches(range, dk(1, { orderTotal: 100 }))).toBe(true);
    expect(conditionMatches(range, dk(1, { orderTotal: 200 }))).toBe(true);
    expect(conditionMatches(range, dk(1, { orderTotal: 99.99 }))).toBe(false);
    expect(conditionMatches(range, dk(1, { orderTotal: 200.01 }))).toBe(false);
    expect(conditionMatches(range, dk(1))).toBe(false);
    expect(conditionMatches({ type: 'flatRate', shippingPrice: 5, currency: 'DKK' }, dk(1000))).toBe(true);
    expect(conditionMatches({ type: 'volume', min: 0, max: 10, shippingPrice: 5, currency: 'DKK' }, dk(1))).toBe(false);
  });

  it('countries: the list, or "*" for every country', () => {
    expect(countryMatches(['DK', 'SE'], 'SE')).toBe(true);
    expect(countryMatches(['DK', 'SE'], 'NO')).toBe(false);
    expect(countryMatches(['*'], 'US')).toBe(true);
    expect(countryMatches([], 'DK')).toBe(false);
  });

  it('a rule fits with its cheapest matching condition, or at 0 without conditions', () => {
    const flat: RuleCondition = { type: 'flatRate', shippingPrice: 59, currency: 'DKK' };
    const mixed = rule('rul_a', [flat, weight(0, 5, 39), weight(0, 10, 45)]);
    expect(evaluateRule(mixed, dk(2), 'DKK')).toEqual({ shippingPrice: 39, currency: 'DKK', condition: weight(0, 5, 39) });
    expect(evaluateRule(mixed, dk(7), 'DKK')).toMatchObject({ shippingPrice: 45 });
    expect(evaluateRule(mixed, dk(20), 'DKK')).toEqual({ shippingPrice: 59, currency: 'DKK', condition: flat });
    expect(evaluateRule(rule('rul_b', [weight(0, 5)]), dk(6), 'DKK')).toBeNull();
    expect(evaluateRule(rule('rul_c', []), dk(6), 'EUR')).toEqual({ shippingPrice: 0, currency: 'EUR', condition: null });
    expect(evaluateRule(rule('rul_d', [], { receivingCountries: ['SE'] }), dk(6), 'DKK')).toBeNull();
  });

  it('ranks by price, then the oldest rule (createdAt, then id)', () => {
    const rules = [
      rule('rul_5', [weight(0, 5, 49)]),
      rule('rul_4', [weight(0, 5, 29)], { createdAt: '2026-06-03T00:00:00.000Z' }),
      rule('rul_3', [weight(0, 5, 29)], { createdAt: '2026-06-02T00:00:00.000Z' }),
      rule('rul_2', [weight(0, 5, 29)], { createdAt: '2026-06-02T00:00:00.000Z' }),
      rule('rul_1', [weight(6, 9, 1)]),
    ];
    expect(rankRules(rules, dk(1), 'DKK').map((match) => match.rule.id)).toEqual(['rul_2', 'rul_3', 'rul_4', 'rul_5']);
    expect(rankRules(rules, dk(100), 'DKK')).toEqual([]);
  });
});

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t.close());

/** Each scenario gets its own organization, so only its own rules can match. */
async function scenario() {
  const org = await t.createOrg();
  const { carrierId, senderAddressId } = await setupLocalCarrier(t, org);
  const base = `/orgs/${org.orgId}/shipping-rules`;
  const create = async (overrides: Record<string, unknown>) => {
    const res = await t.request('POST', base, { token: org.token, body: shippingRuleBody(carrierId, senderAddressId, overrides) });
    if (res.status !== 201) throw new Error(`rule: ${JSON.stringify(res.body)}`);
    return res.body as { id: string; name: string };
  };
  const match = (body: Record<string, unknown>) => t.request('POST', `${base}/match`, { token: org.token, body });
  const matchedIds = async (body: Record<string, unknown>) => {
    const res = await match(body);
    expect(res.status).toBe(200);
    return (res.body.matches as { shippingRuleId: string }[]).map((m) => m.shippingRuleId);
  };
  return { org, base, carrierId, create, match, matchedIds };
}

describe('POST /shipping-rules/match', () => {
  it('answers best first with the matching condition, cheapest winning', async () => {
    const s = await scenario();
    const dear = await s.create({ name: 'Dear', conditions: [{ type: 'weight', min: 0, max: 10, shippingPrice: 79, currency: 'DKK' }] });
    const cheap = await s.create({ name: 'Cheap', conditions: [{ type: 'weight', min: 0, max: 10, shippingPrice: 39, currency: 'DKK' }] });
    const res = await s.match({ countryCode: 'DK', weight: 2 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      matches: [
        {
          shippingRuleId: cheap.id,
          name: 'Cheap',
          shippingPrice: 39,
          currency: 'DKK',
          condition: { type: 'weight', min: 0, max: 10, shippingPrice: 39, currency: 'DKK' },
        },
        {
          shippingRuleId: dear.id,
          name: 'Dear',
          shippingPrice: 79,
          currency: 'DKK',
          condition: { type: 'weight', min: 0, max: 10, shippingPrice: 79, currency: 'DKK' },
        },
      ],
    });
  });

  it('breaks a price tie in favour of the oldest rule', async () => {
    const s = await scenario();
    const first = await s.create({ name: 'First' });
    const second = await s.create({ name: 'Second' });
    expect(await s.matchedIds({ countryCode: 'DK', weight: 1 })).toEqual([first.id, second.id]);
    // createdAt decides before the id does.
    t.app.db.$client.prepare("UPDATE shipping_rules SET created_at = '2020-01-01T00:00:00.000Z' WHERE id = ?").run(second.id);
    expect(await s.matchedIds({ countryCode: 'DK', weight: 1 })).toEqual([second.id, first.id]);
  });

  it('matches "*" for every country and answers [] when nothing fits', async () => {
    const s = await scenario();
    const anywhere = await s.create({ name: 'Anywhere', receivingCountries: ['*'] });
    const nordic = await s.create({ name: 'Nordic', receivingCountries: ['SE', 'NO'] });
    expect(await s.matchedIds({ countryCode: 'US', weight: 1 })).toEqual([anywhere.id]);
    expect(await s.matchedIds({ countryCode: 'SE', weight: 1 })).toEqual([anywhere.id, nordic.id]);
    const none = await s.match({ countryCode: 'US', weight: 50 });
    expect(none.body).toEqual({ matches: [] });
    const empty = await scenario();
    expect((await empty.match({ countryCode: 'DK', weight: 1 })).body).toEqual({ matches: [] });
  });

  it('includes both weight bounds and converts g, lb and oz to kg', async () => {
    const s = await scenario();
    const oneToFive = await s.create({ conditions: [{ type: 'weight', min: 1, max: 5, shippingPrice: 10, currency: 'DKK' }] });
    const fit = (weight: number, weightUnit?: string) => s.matchedIds({ countryCode: 'DK', weight, ...(weightUnit ? { weightUnit } : {}) });
    expect(await fit(1)).toEqual([oneToFive.id]);
    expect(await fit(5)).toEqual([oneToFive.id]);
    expect(await fit(0.999)).toEqual([]);
    expect(await fit(5.001)).toEqual([]);
    expect(await fit(1000, 'g')).toEqual([oneToFive.id]);
    expect(await fit(5000, 'g')).toEqual([oneToFive.id]);
    expect(await fit(5001, 'g')).toEqual([]);
    expect(await fit(999, 'g')).toEqual([]);
    expect(await fit(11, 'lb')).toEqual([oneToFive.id]); // 4.99 kg
    expect(await fit(12, 'lb')).toEqual([]); // 5.44 kg
    expect(await fit(2, 'lb')).toEqual([]); // 0.91 kg
    expect(await fit(40, 'oz')).toEqual([oneToFive.id]); // 1.13 kg
    expect(await fit(5, 'kg')).toEqual([oneToFive.id]);
  });

  it('compares price conditions with the order total, by operator', async () => {
    const s = await scenario();
    const ids: Record<string, string> = {};
    for (const operator of ['gt', 'gte', 'lt', 'lte', 'eq']) {
      ids[operator] = (await s.create({ name: operator, conditions: [{ type: 'price', operator, value: 500, shippingPrice: 0, currency: 'DKK' }] })).id;
    }
    const fit = async (body: Record<string, unknown>) =>
      (await s.matchedIds({ countryCode: 'DK', weight: 1, ...body })).map((id) => Object.keys(ids).find((op) => ids[op] === id)).sort();
    expect(await fit({ orderTotal: 500 })).toEqual(['eq', 'gte', 'lte']);
    expect(await fit({ orderTotal: 500.5 })).toEqual(['gt', 'gte']);
    expect(await fit({ orderTotal: 499.5 })).toEqual(['lt', 'lte']);
    expect(await fit({})).toEqual([]);
    expect(await fit({ orderTotal: 500, currency: 'DKK' })).toEqual(['eq', 'gte', 'lte']);
    expect(await fit({ orderTotal: 500, currency: 'EUR' })).toEqual([]);
    const res = await s.match({ countryCode: 'DK', weight: 1, orderTotal: 600 });
    expect(res.body.matches[0].condition).toEqual({ type: 'price', operator: 'gt', value: 500, shippingPrice: 0, currency: 'DKK' });
  });

  it('matches priceRange inclusively and flatRate always, using the cheapest matching condition', async () => {
    const s = await scenario();
    const range = await s.create({ name: 'Range', conditions: [{ type: 'priceRange', min: 100, max: 200, shippingPrice: 25, currency: 'DKK' }] });
    const mixed = await s.create({
      name: 'Mixed',
      conditions: [
        { type: 'flatRate', shippingPrice: 59, currency: 'DKK' },
        { type: 'weight', min: 0, max: 5, shippingPrice: 19, currency: 'DKK' },
      ],
    });
    const at = (orderTotal: number | undefined, weight = 1) => s.match({ countryCode: 'DK', weight, ...(orderTotal === undefined ? {} : { orderTotal }) });
    expect((await at(100)).body.matches.map((m: { shippingRuleId: string }) => m.shippingRuleId)).toEqual([mixed.id, range.id]);
    expect((await at(200)).body.matches).toHaveLength(2);
    expect((await at(99.99)).body.matches.map((m: { shippingRuleId: string }) => m.shippingRuleId)).toEqual([mixed.id]);
    expect((await at(200.01)).body.matches).toHaveLength(1);
    const heavy = await at(150, 30);
    expect(heavy.body.matches).toEqual([
      {
        shippingRuleId: range.id,
        name: 'Range',
        shippingPrice: 25,
        currency: 'DKK',
        condition: { type: 'priceRange', min: 100, max: 200, shippingPrice: 25, currency: 'DKK' },
      },
      { shippingRuleId: mixed.id, name: 'Mixed', shippingPrice: 59, currency: 'DKK', condition: { type: 'flatRate', shippingPrice: 59, currency: 'DKK' } },
    ]);
    expect((await at(undefined, 2)).body.matches[0]).toMatchObject({ shippingRuleId: mixed.id, shippingPrice: 19, condition: { type: 'weight' } });
  });

  it('matches a rule without conditions at price 0 in the order or organization currency', async () => {
    const s = await scenario();
    await s.create({ name: 'Paid' });
    const free = await s.create({ name: 'Free', conditions: [] });
    const res = await s.match({ countryCode: 'DK', weight: 999 });
    expect(res.body.matches).toEqual([{ shippingRuleId: free.id, name: 'Free', shippingPrice: 0, currency: 'DKK', condition: null }]);
    const inEuro = await s.match({ countryCode: 'DK', weight: 1, currency: 'EUR' });
    expect(inEuro.body.matches[0]).toMatchObject({ shippingRuleId: free.id, shippingPrice: 0, currency: 'EUR', condition: null });
    expect(inEuro.body.matches[1]).toMatchObject({ name: 'Paid', shippingPrice: 49, currency: 'DKK' });
  });

  it('never matches return (inbound) rules or deleted rules', async () => {
    const s = await scenario();
    const returnRule = await s.create({ name: 'Returns', productId: 'local_return', receivingCountries: ['*'], conditions: [] });
    const outbound = await s.create({ name: 'Outbound', returnShippingRuleId: returnRule.id });
    const deleted = await s.create({ name: 'Deleted', conditions: [] });
    expect((await t.request('DELETE', `${s.base}/${deleted.id}`, { token: s.org.token })).status).toBe(200);
    expect(await s.matchedIds({ countryCode: 'DK', weight: 1 })).toEqual([outbound.id]);
    expect(await s.matchedIds({ countryCode: 'US', weight: 1 })).toEqual([]);
  });

  it('gives other features the rule rows through matchShippingRules', async () => {
    const s = await scenario();
    const created = await s.create({ name: 'Row' });
    const matches = matchShippingRules(t.app.db, s.org.orgId, { countryCode: 'DK', weightKg: 2, orderTotal: undefined });
    expect(matches).toHaveLength(1);
    expect(matches[0]).toMatchObject({ rule: { id: created.id, carrierId: s.carrierId, productId: 'local_parcel' }, shippingPrice: 49, currency: 'DKK' });
    expect(matchShippingRules(t.app.db, t.org.orgId, { countryCode: 'DK', weightKg: 2 })).toEqual([]);
  });

  it('validates the match body', async () => {
    const s = await scenario();
    const cases: [Record<string, unknown>, string][] = [
      [{ countryCode: 'dk', weight: 1 }, 'body.countryCode'],
      [{ weight: 1 }, 'body.countryCode'],
      [{ countryCode: 'DK' }, 'body.weight'],
      [{ countryCode: 'DK', weight: -1 }, 'body.weight'],
      [{ countryCode: 'DK', weight: 1, weightUnit: 'stone' }, 'body.weightUnit'],
      [{ countryCode: 'DK', weight: 1, orderTotal: -5 }, 'body.orderTotal'],
      [{ countryCode: 'DK', weight: 1, currency: 'kroner' }, 'body.currency'],
      [{ countryCode: 'DK', weight: 1, colour: 'red' }, 'body.colour'],
    ];
    for (const [body, path] of cases) {
      const res = await s.match(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect((await t.request('POST', `${s.base}/match`, { token: null, body: { countryCode: 'DK', weight: 1 } })).status).toBe(401);
  });
});
