import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { roleScopes } from '../../../src-shared/scopes';
import { fakeKarrioConnections, startFakeKarrio, type FakeKarrio } from '../../carriers/karrio/fake';
import { pickups } from '../../db/schema';
import { runStartupChores } from '../../app/runtime/startup';
import { setupLocalCarrier, startTestServer, type TestServer } from '../../testing/harness';

// Pickups through real HTTP: the local carrier records them, Karrio books them with its fake server.

let t: TestServer;
let fake: FakeKarrio;
let orgId: string;
let localId: string;
let senderAddressId: string;
let karrioId: string;
let karrioNoPickupsId: string;
// Monday 30 November 2026, 09:00 on this computer's clock.
let clock = new Date(2026, 10, 30, 9, 0);

const [postnordConnection, dhlConnection] = fakeKarrioConnections as [(typeof fakeKarrioConnections)[0], (typeof fakeKarrioConnections)[0]];

const body = (overrides: Record<string, unknown> = {}) => ({ date: '2026-11-30', from: '15:00', to: '17:00', senderAddressId, ...overrides });
const book = (carrierId: string, overrides: Record<string, unknown> = {}, token?: string) =>
  t.request('POST', `/orgs/${orgId}/carriers/${carrierId}/pickups`, { body: body(overrides), ...(token ? { token } : {}) });

async function karrioCarrier(connectionId: string, name: string) {
  const res = await t.request('POST', `/orgs/${orgId}/carriers`, {
    body: { name, carrierSlug: 'karrio', senderAddressId, config: { apiBaseUrl: fake.url, apiKey: fake.apiKey, connectionId, testMode: true } },
  });
  if (res.status !== 201) throw new Error(`carrier: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

beforeAll(async () => {
  fake = await startFakeKarrio();
  t = await startTestServer({ now: () => clock, carrierHttp: { timeoutMs: 1500, backoffMs: 10, maxRetryAfterMs: 1000 } });
  orgId = t.org.orgId;
  t.app.db.$client.prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(orgId);
  ({ carrierId: localId, senderAddressId } = await setupLocalCarrier(t));
  karrioId = await karrioCarrier(postnordConnection.id, 'PostNord via Karrio');
  karrioNoPickupsId = await karrioCarrier(dhlConnection.id, 'DHL DE via Karrio');
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  clock = new Date(2026, 10, 30, 9, 0);
  fake.switches.pickupRefusal = null;
  fake.switches.serverError = null;
});

describe('validation', () => {
  it.each([
    ['a date that is no date', { date: '2026-02-30' }, 'date'],
    ['a time that is no time', { from: '25:00' }, 'from'],
    ['a window ending before it starts', { from: '17:00', to: '15:00' }, 'to'],
    ['an empty window', { from: '15:00', to: '15:00' }, 'to'],
    ['no parcels', { parcelCount: 0 }, 'parcelCount'],
    ['half a parcel', { parcelCount: 1.5 }, 'parcelCount'],
    ['no weight', { weight: 0 }, 'weight'],
    ['an instruction longer than 50 characters', { instruction: 'x'.repeat(51) }, 'instruction'],
    ['an unknown field', { colour: 'red' }, ''],
  ])('refuses %s with 400 naming the field', async (_name, overrides, path) => {
    const res = await book(localId, overrides);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    if (path) expect(res.body.details.map((detail: { path: string }) => detail.path)).toContain(`body.${path}`);
  });

  it('refuses a day in the past and a window already over today', async () => {
    const yesterday = await book(localId, { date: '2026-11-29' });
    expect(yesterday.status).toBe(400);
    expect(yesterday.body.details).toEqual([{ path: 'body.date', message: 'Must be today (2026-11-30) or later' }]);
    clock = new Date(2026, 10, 30, 17, 30);
    const over = await book(localId);
    expect(over.status).toBe(400);
    expect(over.body.details[0].path).toBe('body.to');
    // Tomorrow is fine at any hour.
    expect((await book(localId, { date: '2026-12-01' })).status).toBe(201);
  });

  it('answers 404 for a sender address or carrier of no one here, and writes nothing', async () => {
    const before = t.app.db.select().from(pickups).all().length;
    const address = await book(localId, { senderAddressId: 'adr_nothere' });
    expect(address.status).toBe(404);
    expect(address.body.code).toBe('ADDRESS_NOT_FOUND');
    const carrier = await book('car_nothere');
    expect(carrier.status).toBe(404);
    expect(carrier.body.code).toBe('CARRIER_NOT_FOUND');
    expect(t.app.db.select().from(pickups).all()).toHaveLength(before);
  });
});

describe('the local carrier', () => {
  it('records the pickup with its own confirmation number from the running sequence', async () => {
    const first = await book(localId, { parcelCount: 12, weight: 84.5, instruction: ' Ring at gate 2 ' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      carrierId: localId,
      senderAddressId,
      date: '2026-11-30',
      from: '15:00',
      to: '17:00',
      parcelCount: 12,
      weight: 84.5,
      instruction: 'Ring at gate 2',
      status: 'booked',
      error: null,
      notice: null,
      dailyPickupId: null,
    });
    expect(first.body.confirmationNumber).toMatch(/^PU\d{9}$/);
    const second = await book(localId);
    expect(second.body.confirmationNumber).not.toBe(first.body.confirmationNumber);
    expect((await t.request('GET', `/orgs/${orgId}/pickups/${first.body.id}`)).body).toEqual(first.body);
  });

  it('cancels without anyone to tell, and a second cancel is a conflict', async () => {
    const booked = await book(localId);
    const cancelled = await t.request('POST', `/orgs/${orgId}/pickups/${booked.body.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', confirmationNumber: booked.body.confirmationNumber, notice: null });
    const again = await t.request('POST', `/orgs/${orgId}/pickups/${booked.body.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CONFLICT');
  });

  it('works the same with an Idempotency-Key: a retried request gets the first answer, nothing booked twice', async () => {
    const headers = { 'idempotency-key': `pickup-${Date.now()}` };
    const first = await t.request('POST', `/orgs/${orgId}/carriers/${localId}/pickups`, { body: body({ date: '2026-12-02' }), headers });
    const retried = await t.request('POST', `/orgs/${orgId}/carriers/${localId}/pickups`, { body: body({ date: '2026-12-02' }), headers });
    expect(first.status).toBe(201);
    expect(retried.body).toEqual(first.body);
    const list = await t.request('GET', `/orgs/${orgId}/pickups?date=2026-12-02`);
    expect(list.body.total).toBe(1);
  });
});

describe('Karrio', () => {
  it("books with the connection's carrier and keeps Karrio's confirmation number", async () => {
    const res = await book(karrioId, { parcelCount: 3, instruction: 'Dock 4' });
    expect(res.status).toBe(201);
    const scheduled = fake.state.pickups.at(-1);
    expect(scheduled?.data).toMatchObject({
      carrier_code: 'postnord',
      pickup_date: '2026-11-30',
      ready_time: '15:00',
      closing_time: '17:00',
      parcels_count: 3,
      instruction: 'Dock 4',
      options: { connection_id: postnordConnection.id },
      metadata: { shipdesk_pickup_id: res.body.id },
    });
    expect(scheduled?.data.address).toMatchObject({ address_line1: 'Industrivej 12', postal_code: '8000', city: 'Aarhus', country_code: 'DK' });
    expect(res.body).toMatchObject({ status: 'booked', confirmationNumber: scheduled?.pickup.confirmation_number, error: null });
  });

  it("cancels with Karrio, and a pickup Karrio will not cancel stays booked (422 in Karrio's words)", async () => {
    const booked = await book(karrioId);
    const scheduled = fake.state.pickups.at(-1);
    if (!scheduled) throw new Error('nothing scheduled');
    const cancelled = await t.request('POST', `/orgs/${orgId}/pickups/${booked.body.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect(scheduled.pickup.status).toBe('cancelled');

    const other = await book(karrioId, { date: '2026-12-01' });
    const otherScheduled = fake.state.pickups.at(-1);
    if (!otherScheduled) throw new Error('nothing scheduled');
    otherScheduled.pickup = { ...otherScheduled.pickup, status: 'picked_up' };
    const refused = await t.request('POST', `/orgs/${orgId}/pickups/${other.body.id}/cancel`);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('CARRIER_ERROR');
    expect(refused.body.errors[0].code).toBe('state_error');
    expect((await t.request('GET', `/orgs/${orgId}/pickups/${other.body.id}`)).body.status).toBe('booked');
  });

  it("a carrier's refusal is a failed pickup with its words, answered 422 CARRIER_ERROR", async () => {
    fake.switches.pickupRefusal = { code: 'PICKUP_CUTOFF', message: 'Pickup requests for today must be made before 08:00', times: 1 };
    const res = await book(karrioId);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CARRIER_ERROR');
    expect(res.body.errors).toEqual([{ code: 'PICKUP_CUTOFF', message: 'Pickup requests for today must be made before 08:00' }]);
    const failed = await t.request('GET', `/orgs/${orgId}/pickups?carrierId=${karrioId}&status=failed`);
    expect(failed.body.data[0]).toMatchObject({ status: 'failed', confirmationNumber: null });
    expect(failed.body.data[0].error).toContain('Pickup requests for today must be made before 08:00');
    // A failed pickup can be closed; nothing is sent to Karrio for it.
    const cancels = fake.state.counters.pickupCancels;
    expect((await t.request('POST', `/orgs/${orgId}/pickups/${failed.body.data[0].id}/cancel`)).body.status).toBe('cancelled');
    expect(fake.state.counters.pickupCancels).toBe(cancels);
  });

  it('a server error after sending is an unknown outcome: failed, asked once, with advice to check before booking again', async () => {
    const before = fake.state.requests.filter((request) => request.path === '/v1/pickups').length;
    fake.switches.serverError = { times: 1, route: 'POST /v1/pickups' };
    const res = await book(karrioId, { date: '2026-12-04' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    expect(res.body.message).toContain('Check with PostNord via Karrio by phone or on its website before booking it again');
    // A booking call is never repeated on its own: the carrier may have it.
    expect(fake.state.requests.filter((request) => request.path === '/v1/pickups')).toHaveLength(before + 1);
    const [failed] = (await t.request('GET', `/orgs/${orgId}/pickups?date=2026-12-04&carrierId=${karrioId}`)).body.data;
    expect(failed).toMatchObject({ status: 'failed', confirmationNumber: null });
    expect(failed.error).toBe(res.body.message);
  });

  it('a connection whose carrier books no pickups is refused by the carrier, 422', async () => {
    const res = await book(karrioNoPickupsId);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CARRIER_ERROR');
    expect(res.body.errors[0].code).toBe('pickup_not_supported');
  });

  it('a refused API key is 422 CARRIER_AUTH_FAILED', async () => {
    const res = await t.request('POST', `/orgs/${orgId}/carriers`, {
      body: {
        name: 'Wrong key',
        carrierSlug: 'karrio',
        senderAddressId,
        config: { apiBaseUrl: fake.url, apiKey: fake.apiKey, connectionId: postnordConnection.id, testMode: true },
      },
    });
    t.app.db.$client.prepare('UPDATE carriers SET config = json_set(config, ?, ?) WHERE id = ?').run('$.apiKey', 'key_wrong', res.body.id);
    const refused = await book(res.body.id);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('CARRIER_AUTH_FAILED');
    expect(refused.body.errors).toEqual([{ code: 'authentication_failed', message: 'Invalid token.' }]);
  });
});

describe('a carrier without pickup booking', () => {
  it('answers 422 PICKUP_NOT_SUPPORTED in plain words and writes nothing', async () => {
    const res = await t.request('POST', `/orgs/${orgId}/carriers`, {
      body: {
        name: 'GLS',
        carrierSlug: 'gls',
        senderAddressId,
        config: { clientId: 'id', clientSecret: 'secret', contactId: '276a45fkqM', testMode: true, apiBaseUrl: 'http://127.0.0.1:9' },
      },
    });
    expect(res.status).toBe(201);
    const before = t.app.db.select().from(pickups).all().length;
    const refused = await book(res.body.id);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('PICKUP_NOT_SUPPORTED');
    expect(refused.body.message).toBe('GLS cannot book pickups through Shipdesk. Book the pickup with GLS by phone or on its website.');
    expect(t.app.db.select().from(pickups).all()).toHaveLength(before);
  });
});

describe('lists and scope', () => {
  it('filters by carrier, status and date, paginated', async () => {
    await book(localId, { date: '2026-12-07' });
    await book(localId, { date: '2026-12-08' });
    const page = await t.request('GET', `/orgs/${orgId}/pickups?carrierId=${localId}&dateFrom=2026-12-07&limit=1`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 2, page: 1, limit: 1, totalPages: 2 });
    expect(page.body.data[0].date).toBe('2026-12-07');
    const byDate = await t.request('GET', `/orgs/${orgId}/pickups?date=2026-12-08&status=booked`);
    expect(byDate.body.data.map((pickup: { date: string }) => pickup.date)).toEqual(['2026-12-08']);
    expect((await t.request('GET', `/orgs/${orgId}/pickups?status=lost`)).status).toBe(400);
  });

  it("a packer books and cancels, a viewer only reads; another organization's pickup is not found", async () => {
    const packer = await t.tokenWithScopes(t.org, [...roleScopes.packer]);
    const viewer = await t.tokenWithScopes(t.org, [...roleScopes.viewer]);
    const booked = await book(localId, {}, packer);
    expect(booked.status).toBe(201);
    const denied = await book(localId, {}, viewer);
    expect(denied.status).toBe(403);
    expect(denied.body.message).toContain('write:shipments');
    expect((await t.request('POST', `/orgs/${orgId}/pickups/${booked.body.id}/cancel`, { token: viewer })).status).toBe(403);
    expect((await t.request('GET', `/orgs/${orgId}/pickups/${booked.body.id}`, { token: viewer })).status).toBe(200);
    expect((await t.request('POST', `/orgs/${orgId}/pickups/${booked.body.id}/cancel`, { token: packer })).status).toBe(200);
    const other = await t.createOrg();
    const foreign = await t.request('GET', `/orgs/${other.orgId}/pickups/${booked.body.id}`, { token: other.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('PICKUP_NOT_FOUND');
  });
});

describe('a stop between the carrier call and its answer', () => {
  it('leaves the pickup failed at the next start, asking the user to check with the carrier, never booked again', async () => {
    const booked = await book(localId, { date: '2026-12-03' });
    // As the row stands when the process stops while the carrier is being asked.
    t.app.db.$client.prepare("UPDATE pickups SET status = 'booking', confirmation_number = NULL WHERE id = ?").run(booked.body.id);
    const sequenceBefore = t.app.db.$client.prepare('SELECT tracking_seq AS n FROM orgs WHERE id = ?').get(orgId) as { n: number };
    runStartupChores(t.app);
    const after = await t.request('GET', `/orgs/${orgId}/pickups/${booked.body.id}`);
    expect(after.body.status).toBe('failed');
    expect(after.body.error).toBe(
      'Shipdesk stopped while this pickup was being booked with Own trucks. Check with Own trucks whether it was booked before booking it again.',
    );
    expect(t.app.db.$client.prepare('SELECT tracking_seq AS n FROM orgs WHERE id = ?').get(orgId)).toEqual(sequenceBefore);
  });
});
