import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors';
import { fakePostnordApiKey, fakePostnordCustomerNumber, startFakePostnord, type FakePostnord } from '../../carriers/postnord/fake';
import { senderAddressBody, shipmentBody, shippingRuleBody, startTestServer, type TestOrg, type TestServer } from '../../testing/harness';

let t: TestServer;
let fake: FakePostnord;

beforeAll(async () => {
  fake = await startFakePostnord();
  t = await startTestServer({ carrierHttp: { timeoutMs: 1500, backoffMs: 5 } });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const stepsOf = (answer: { steps: { id: string; done: boolean; skipped: boolean }[] }) =>
  Object.fromEntries(answer.steps.map((step) => [step.id, step.done ? 'done' : step.skipped ? 'skipped' : 'open']));

describe('the first-day checklist', () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await t.createOrg('First day');
    t.app.db.$client.prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(org.orgId);
  });

  it('starts with every step open, and each step is done when what it asks for exists', async () => {
    const api = t.client(org.token);
    const params = { orgId: org.orgId };
    const fresh = await api.call('onboarding.get', { params });
    expect(fresh).toEqual({
      steps: ['sender_address', 'carrier', 'order_channel', 'shipping_rule', 'printer', 'first_shipment'].map((id) => ({ id, done: false, skipped: false })),
      complete: false,
      closed: false,
      carriersToTest: [],
    });

    const address = await api.call('senderAddresses.create', { params, body: senderAddressBody() });
    // A real carrier is not ready until its connection test has passed once.
    const postnord = await api.call('carriers.create', {
      params,
      body: {
        name: 'PostNord',
        carrierSlug: 'postnord',
        config: { apiKey: fakePostnordApiKey, customerNumber: fakePostnordCustomerNumber, apiBaseUrl: fake.url },
        senderAddressId: address.id,
      },
    });
    let now = await api.call('onboarding.get', { params });
    expect(stepsOf(now)).toMatchObject({ sender_address: 'done', carrier: 'open' });
    expect(now.carriersToTest).toEqual([{ id: postnord.id, name: 'PostNord' }]);

    // A failed test leaves it open; a passed one is remembered.
    const refused = await api.call('carriers.test', {
      params: { ...params, carrierId: postnord.id },
      body: { config: { apiKey: 'f'.repeat(32), customerNumber: fakePostnordCustomerNumber, apiBaseUrl: fake.url } },
    });
    expect(refused.ok).toBe(false);
    expect(stepsOf(await api.call('onboarding.get', { params })).carrier).toBe('open');
    const passed = await api.call('carriers.test', { params: { ...params, carrierId: postnord.id } });
    expect(passed.ok).toBe(true);
    now = await api.call('onboarding.get', { params });
    expect(stepsOf(now).carrier).toBe('done');
    expect(now.carriersToTest).toEqual([]);
    const row = t.app.db.$client.prepare('SELECT onboarding FROM orgs WHERE id = ?').get(org.orgId) as { onboarding: string };
    expect(JSON.parse(row.onboarding)).toEqual({ skipped: [], closed: false, carrierTestsPassed: [postnord.id] });

    const local = await api.call('carriers.create', { params, body: { name: 'Own van', carrierSlug: 'local', config: {}, senderAddressId: address.id } });
    await api.call('orderChannels.create', { params, body: { name: 'Phone', type: 'manual' } });
    await api.call('shippingRules.create', {
      params,
      body: { ...shippingRuleBody(local.id, address.id), conditions: [{ type: 'weight', min: 0, max: 5, shippingPrice: 49, currency: 'DKK' }] },
    });
    await api.call('printers.create', { params, body: { name: 'Desk', driver: 'file', target: mkdtempSync(join(tmpdir(), 'onboarding-')), format: 'pdf' } });
    now = await api.call('onboarding.get', { params });
    expect(stepsOf(now)).toEqual({
      sender_address: 'done',
      carrier: 'done',
      order_channel: 'done',
      shipping_rule: 'done',
      printer: 'done',
      first_shipment: 'open',
    });
    // A shipment counts once it is sent (it has a tracking number), not when it is drafted.
    const shipment = (await t.request('POST', `/orgs/${org.orgId}/shipments`, { token: org.token, body: shipmentBody(local.id) })).body as { id: string };
    expect(stepsOf(await api.call('onboarding.get', { params })).first_shipment).toBe('open');
    await api.call('shipments.send', { params: { ...params, shipmentId: shipment.id } });
    now = await api.call('onboarding.get', { params });
    expect(stepsOf(now).first_shipment).toBe('done');
    expect(now.complete).toBe(true);
  });

  it('the local carrier needs no connection test: its step is done once it exists', async () => {
    const other = await t.createOrg('Own van only');
    const api = t.client(other.token);
    const params = { orgId: other.orgId };
    const address = await api.call('senderAddresses.create', { params, body: senderAddressBody() });
    await api.call('carriers.create', { params, body: { name: 'Own van', carrierSlug: 'local', config: {}, senderAddressId: address.id } });
    const now = await api.call('onboarding.get', { params });
    expect(stepsOf(now)).toMatchObject({ sender_address: 'done', carrier: 'done' });
    expect(now.carriersToTest).toEqual([]);
  });

  it('a step can be skipped and unskipped; the list can be closed and reopened; a done step is never "skipped"', async () => {
    const other = await t.createOrg('No shop');
    const api = t.client(other.token);
    const params = { orgId: other.orgId };
    let now = await api.call('onboarding.update', { params, body: { skip: 'order_channel' } });
    expect(stepsOf(now).order_channel).toBe('skipped');
    now = await api.call('onboarding.update', { params, body: { skip: 'printer' } });
    expect(stepsOf(now)).toMatchObject({ order_channel: 'skipped', printer: 'skipped' });
    now = await api.call('onboarding.update', { params, body: { unskip: 'printer' } });
    expect(stepsOf(now)).toMatchObject({ order_channel: 'skipped', printer: 'open' });
    now = await api.call('onboarding.update', { params, body: { closed: true } });
    expect(now.closed).toBe(true);
    expect((await api.call('onboarding.get', { params })).closed).toBe(true);
    now = await api.call('onboarding.update', { params, body: { closed: false } });
    expect(now.closed).toBe(false);
    // Skipped, then done anyway: it shows as done.
    await api.call('orderChannels.create', { params, body: { name: 'Shop', type: 'manual' } });
    expect(stepsOf(await api.call('onboarding.get', { params })).order_channel).toBe('done');
    // Every step done or skipped: complete.
    for (const id of ['sender_address', 'carrier', 'shipping_rule', 'printer', 'first_shipment'] as const) {
      now = await api.call('onboarding.update', { params, body: { skip: id } });
    }
    expect(now.complete).toBe(true);
  });

  it('refuses an empty change and unknown steps, another organization and a missing scope', async () => {
    const api = t.client(org.token);
    const params = { orgId: org.orgId };
    await expect(api.call('onboarding.update', { params, body: {} })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    const unknown = await t.request('PATCH', `/orgs/${org.orgId}/onboarding`, { token: org.token, body: { skip: 'coffee' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details[0].path).toBe('body.skip');
    const stranger = await t.request('GET', `/orgs/${org.orgId}/onboarding`, { token: t.org.token });
    expect(stranger.status).toBe(403);
    expect(stranger.body.code).toBe('ORG_ACCESS_DENIED');
    const reader = await t.tokenWithScopes(org, ['read:all']);
    await expect(t.client(reader).call('onboarding.get', { params })).resolves.toMatchObject({ closed: false });
    const refused = await t
      .client(reader)
      .call('onboarding.update', { params, body: { closed: true } })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 'FORBIDDEN' });
  });
});
