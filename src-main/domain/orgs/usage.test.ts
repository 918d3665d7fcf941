import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { senderAddressBody, startTestServer, type TestOrg, type TestServer } from '../../testing/harness';
import { inWriteTransaction } from '../../db/tx';
import { addOns } from '../../db/schema';
import { ApiError } from '../../../src-shared/errors';
import { billingPeriod, countShipmentsCreated } from './usage';
import { findOrgRow, setPlan } from './orgs';

let clock = new Date('2026-06-15T12:00:00.000Z');
const now = () => clock;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ now });
});
afterAll(async () => t.close());

const usage = async (org: TestOrg = t.org) => {
  const res = await t.request('GET', `/orgs/${org.orgId}/billing/usage`, { token: org.token });
  expect(res.status).toBe(200);
  return res.body;
};
/** Stands in for shipment creates until the shipment operations exist. */
const createShipments = (org: TestOrg, n: number) => inWriteTransaction(t.app.db, (tx) => countShipmentsCreated(tx, findOrgRow(tx, org.orgId), t.app.now(), n));

describe('GET /orgs/{orgId}/billing/usage', () => {
  it('reports the month, the shipments and the starter limits of a fresh organization', async () => {
    const org = await t.createOrg();
    const body = await usage(org);
    expect(body).toEqual({
      currentPeriod: { start: '2026-06-01T00:00:00.000Z', end: '2026-07-01T00:00:00.000Z' },
      shipments: { used: 0, included: 500, overage: 0, overageCharges: 0 },
      limits: {
        teamMembers: { used: 1, limit: 3 },
        carriers: { used: 0, limit: 3 },
        orderChannels: { used: 0, limit: 2 },
        shippingRules: { used: 0, limit: 25 },
        senderAddresses: { used: 0, limit: 5 },
        apiTokens: { used: 1, limit: 10 },
      },
      addOns: [],
    });
  });

  it('needs read:orgs', async () => {
    const reader = await t.tokenWithScopes(t.org, ['read:orgs']);
    expect((await t.request('GET', `/orgs/${t.org.orgId}/billing/usage`, { token: reader })).status).toBe(200);
    const other = await t.tokenWithScopes(t.org, ['read:sender_addresses']);
    const res = await t.request('GET', `/orgs/${t.org.orgId}/billing/usage`, { token: other });
    expect(res.status).toBe(403);
    expect(res.body.message).toContain('read:orgs');
    const foreign = await t.createOrg();
    expect((await t.request('GET', `/orgs/${foreign.orgId}/billing/usage`)).body.code).toBe('ORG_ACCESS_DENIED');
  });
});

describe('billing period', () => {
  it('is the UTC calendar month, from its first instant to the next month’s', () => {
    expect(billingPeriod(new Date('2026-06-15T12:00:00.000Z'))).toEqual({
      key: '2026-06',
      start: '2026-06-01T00:00:00.000Z',
      end: '2026-07-01T00:00:00.000Z',
    });
    expect(billingPeriod(new Date('2026-12-31T23:59:59.999Z'))).toMatchObject({ start: '2026-12-01T00:00:00.000Z', end: '2027-01-01T00:00:00.000Z' });
    expect(billingPeriod(new Date('2027-01-01T00:00:00.000Z'))).toMatchObject({ start: '2027-01-01T00:00:00.000Z', end: '2027-02-01T00:00:00.000Z' });
    expect(billingPeriod(new Date('2028-02-29T10:00:00.000Z'))).toMatchObject({ start: '2028-02-01T00:00:00.000Z', end: '2028-03-01T00:00:00.000Z' });
    // In Copenhagen it is already July, in UTC still June.
    expect(billingPeriod(new Date('2026-06-30T23:30:00.000Z')).key).toBe('2026-06');
  });
});

describe('limits count live records', () => {
  it('sender addresses created and deleted through the API move senderAddresses.used', async () => {
    const org = await t.createOrg();
    const ids: string[] = [];
    for (let i = 1; i <= 3; i++) {
      const res = await t.request('POST', `/orgs/${org.orgId}/sender-addresses`, { token: org.token, body: senderAddressBody() });
      ids.push(res.body.id);
      expect((await usage(org)).limits.senderAddresses).toEqual({ used: i, limit: 5 });
    }
    await t.request('DELETE', `/orgs/${org.orgId}/sender-addresses/${ids[0]}`, { token: org.token });
    expect((await usage(org)).limits.senderAddresses).toEqual({ used: 2, limit: 5 });
  });

  it('tokens created and revoked through the API move apiTokens.used', async () => {
    const org = await t.createOrg();
    const created = await t.request('POST', `/orgs/${org.orgId}/api-tokens`, { token: org.token, body: { name: 'x', scopes: ['read:orgs'] } });
    expect((await usage(org)).limits.apiTokens).toEqual({ used: 2, limit: 10 });
    await t.request('DELETE', `/orgs/${org.orgId}/api-tokens/${created.body.id}`, { token: org.token });
    expect((await usage(org)).limits.apiTokens).toEqual({ used: 1, limit: 10 });
  });

  it('counts each organization on its own', async () => {
    const a = await t.createOrg();
    const b = await t.createOrg();
    await t.request('POST', `/orgs/${a.orgId}/sender-addresses`, { token: a.token, body: senderAddressBody() });
    createShipments(a, 7);
    expect((await usage(a)).limits.senderAddresses.used).toBe(1);
    expect((await usage(a)).shipments.used).toBe(7);
    expect((await usage(b)).limits.senderAddresses.used).toBe(0);
    expect((await usage(b)).shipments.used).toBe(0);
  });
});

describe('shipments against the plan', () => {
  it('counts up to the 500 included, then refuses with PLAN_LIMITS_EXCEEDED unless overage is enabled', async () => {
    const org = await t.createOrg();
    createShipments(org, 499);
    createShipments(org, 1);
    expect((await usage(org)).shipments).toEqual({ used: 500, included: 500, overage: 0, overageCharges: 0 });

    let refused: unknown;
    try {
      createShipments(org, 1);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('PLAN_LIMITS_EXCEEDED');
    expect((refused as ApiError).status).toBe(403);
    // It says how to go on: the organization setting, or the command that changes the plan.
    expect((refused as ApiError).message).toContain('overageEnabled');
    expect((refused as ApiError).message).toContain(`shipdesk org set-plan ${org.orgId} pro`);
    expect((await usage(org)).shipments.used).toBe(500);

    const put = await t.request('PUT', `/orgs/${org.orgId}`, { token: org.token, body: { overageEnabled: true } });
    expect(put.body.overageEnabled).toBe(true);
    createShipments(org, 1);
    createShipments(org, 2);
    expect((await usage(org)).shipments).toEqual({ used: 503, included: 500, overage: 3, overageCharges: 450 });

    await t.request('PUT', `/orgs/${org.orgId}`, { token: org.token, body: { overageEnabled: false } });
    expect((await usage(org)).shipments).toEqual({ used: 503, included: 500, overage: 0, overageCharges: 0 });
    expect(() => createShipments(org, 1)).toThrow(ApiError);
  });

  it('refuses a batch that would cross the included number as a whole', async () => {
    const org = await t.createOrg();
    createShipments(org, 498);
    expect(() => createShipments(org, 3)).toThrow(ApiError);
    expect((await usage(org)).shipments.used).toBe(498);
    createShipments(org, 2);
    expect((await usage(org)).shipments.used).toBe(500);
  });

  it('starts every month afresh', async () => {
    const org = await t.createOrg();
    createShipments(org, 500);
    const saved = clock;
    try {
      clock = new Date('2026-07-01T00:00:00.000Z');
      const body = await usage(org);
      expect(body.currentPeriod).toEqual({ start: '2026-07-01T00:00:00.000Z', end: '2026-08-01T00:00:00.000Z' });
      expect(body.shipments.used).toBe(0);
      createShipments(org, 1);
      expect((await usage(org)).shipments.used).toBe(1);
    } finally {
      clock = saved;
    }
    expect((await usage(org)).shipments.used).toBe(500);
  });
});

describe('plans and add-ons', () => {
  it('pro raises every limit and the included shipments; overage is charged at 100', async () => {
    const org = await t.createOrg();
    setPlan(t.app, org.orgId, 'pro');
    expect((await t.request('GET', `/orgs/${org.orgId}`, { token: org.token })).body.plan).toBe('pro');
    const body = await usage(org);
    expect(body.limits).toEqual({
      teamMembers: { used: 1, limit: 10 },
      carriers: { used: 0, limit: 10 },
      orderChannels: { used: 0, limit: 5 },
      shippingRules: { used: 0, limit: 100 },
      senderAddresses: { used: 0, limit: 20 },
      apiTokens: { used: 1, limit: 50 },
    });
    expect(body.shipments).toEqual({ used: 0, included: 5000, overage: 0, overageCharges: 0 });
    await t.request('PUT', `/orgs/${org.orgId}`, { token: org.token, body: { overageEnabled: true } });
    createShipments(org, 5004);
    expect((await usage(org)).shipments).toEqual({ used: 5004, included: 5000, overage: 4, overageCharges: 400 });
    // More sender addresses than starter allows.
    for (let i = 0; i < 6; i++) {
      expect((await t.request('POST', `/orgs/${org.orgId}/sender-addresses`, { token: org.token, body: senderAddressBody() })).status).toBe(201);
    }
  });

  it('unlimited reports -1 everywhere and never refuses or charges', async () => {
    const org = await t.createOrg();
    setPlan(t.app, org.orgId, 'unlimited');
    createShipments(org, 20_000);
    const body = await usage(org);
    expect(body.shipments).toEqual({ used: 20_000, included: -1, overage: 0, overageCharges: 0 });
    for (const limit of Object.values(body.limits) as { limit: number }[]) expect(limit.limit).toBe(-1);
  });

  it('a plan change applies to the next create: back on starter with 6 addresses, the 7th is refused', async () => {
    const org = await t.createOrg();
    setPlan(t.app, org.orgId, 'pro');
    for (let i = 0; i < 6; i++) await t.request('POST', `/orgs/${org.orgId}/sender-addresses`, { token: org.token, body: senderAddressBody() });
    setPlan(t.app, org.orgId, 'starter');
    expect((await usage(org)).limits.senderAddresses).toEqual({ used: 6, limit: 5 });
    const res = await t.request('POST', `/orgs/${org.orgId}/sender-addresses`, { token: org.token, body: senderAddressBody() });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('RESOURCE_LIMIT_REACHED');
  });

  it('an extra_carrier add-on raises the carrier limit and is listed with its total price', async () => {
    const org = await t.createOrg();
    t.app.db.insert(addOns).values({ orgId: org.orgId, type: 'extra_carrier', quantity: 2, unitPrice: 4900 }).run();
    const body = await usage(org);
    expect(body.limits.carriers).toEqual({ used: 0, limit: 5 });
    expect(body.addOns).toEqual([{ type: 'extra_carrier', quantity: 2, unitPrice: 4900, totalPrice: 9800 }]);
    t.app.db.insert(addOns).values({ orgId: org.orgId, type: 'extra_carrier', quantity: 1, unitPrice: 4900 }).run();
    expect((await usage(org)).limits.carriers).toEqual({ used: 0, limit: 6 });
    // Other organizations are not affected.
    expect((await usage()).limits.carriers.limit).toBe(3);
  });
});
