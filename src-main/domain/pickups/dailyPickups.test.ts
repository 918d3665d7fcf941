import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAppContext } from '../../app/runtime/createApp';
import { fakeKarrioConnections, startFakeKarrio, type FakeKarrio } from '../../carriers/karrio/fake';
import { setupLocalCarrier, startTestServer, type TestServer } from '../../testing/harness';
import { runDailyPickups } from './scheduler';

// Daily pickups: their CRUD through real HTTP, and the scheduler that books them, on a real SQLite
// file, also from a second process's context on the same file (a restart) and with wakes side by side.

let t: TestServer;
let fake: FakeKarrio;
let orgId: string;
let localId: string;
let karrioId: string;
let senderAddressId: string;
// Monday 30 November 2026, 06:00 on this computer's clock.
const monday = (hour = 6, minute = 0) => new Date(2026, 10, 30, hour, minute);
let clock = monday();
const now = () => clock;

const create = (overrides: Record<string, unknown> = {}) =>
  t.request('POST', `/orgs/${orgId}/daily-pickups`, { body: { carrierId: localId, senderAddressId, from: '15:00', to: '17:00', ...overrides } });

const pickupsOf = async (dailyPickupId: string) =>
  (await t.request('GET', `/orgs/${orgId}/pickups?limit=100`)).body.data.filter(
    (pickup: { dailyPickupId: string }) => pickup.dailyPickupId === dailyPickupId,
  ) as {
    date: string;
    status: string;
    error: string | null;
    confirmationNumber: string | null;
  }[];

beforeAll(async () => {
  fake = await startFakeKarrio();
  t = await startTestServer({ now, carrierHttp: { timeoutMs: 1500, backoffMs: 10, maxRetryAfterMs: 1000 } });
  orgId = t.org.orgId;
  t.app.db.$client.prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(orgId);
  ({ carrierId: localId, senderAddressId } = await setupLocalCarrier(t));
  const karrio = await t.request('POST', `/orgs/${orgId}/carriers`, {
    body: {
      name: 'PostNord via Karrio',
      carrierSlug: 'karrio',
      senderAddressId,
      config: { apiBaseUrl: fake.url, apiKey: fake.apiKey, connectionId: fakeKarrioConnections[0]?.id, testMode: true },
    },
  });
  karrioId = karrio.body.id;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  clock = monday();
  fake.switches.pickupRefusal = null;
  // Each test's daily pickups alone: the scheduler books every organization's.
  t.app.db.$client.prepare("UPDATE daily_pickups SET deleted_at = '2026-01-01T00:00:00.000Z' WHERE deleted_at IS NULL").run();
});

describe('setting one up', () => {
  it('books Monday to Friday by default, enabled, and reads back as created', async () => {
    const res = await create({ parcelCount: 20, instruction: 'Dock 2' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      carrierId: localId,
      senderAddressId,
      from: '15:00',
      to: '17:00',
      parcelCount: 20,
      weight: null,
      weekdays: [1, 2, 3, 4, 5],
      enabled: true,
      lastBookedDate: null,
    });
    expect((await t.request('GET', `/orgs/${orgId}/daily-pickups/${res.body.id}`)).body).toEqual(res.body);
    const list = await t.request('GET', `/orgs/${orgId}/daily-pickups`);
    expect(list.body.data.map((daily: { id: string }) => daily.id)).toEqual([res.body.id]);
  });

  it('changes only what is given, checks the window on the result, and deletes', async () => {
    const { body: daily } = await create();
    const changed = await t.request('PATCH', `/orgs/${orgId}/daily-pickups/${daily.id}`, { body: { weekdays: [5, 1, 3], enabled: false, instruction: null } });
    expect(changed.body).toMatchObject({ weekdays: [1, 3, 5], enabled: false, from: '15:00', instruction: null });
    const backwards = await t.request('PATCH', `/orgs/${orgId}/daily-pickups/${daily.id}`, { body: { from: '18:00' } });
    expect(backwards.status).toBe(400);
    expect(backwards.body.details[0].path).toBe('body.to');
    expect((await t.request('PATCH', `/orgs/${orgId}/daily-pickups/${daily.id}`, { body: { weekdays: [] } })).status).toBe(400);
    expect((await t.request('PATCH', `/orgs/${orgId}/daily-pickups/${daily.id}`, { body: { weekdays: [8] } })).status).toBe(400);
    expect((await t.request('DELETE', `/orgs/${orgId}/daily-pickups/${daily.id}`)).status).toBe(200);
    expect((await t.request('GET', `/orgs/${orgId}/daily-pickups/${daily.id}`)).body.code).toBe('PICKUP_NOT_FOUND');
  });

  it('is refused for a carrier that books no pickups, as a single pickup is', async () => {
    const gls = await t.request('POST', `/orgs/${orgId}/carriers`, {
      body: {
        name: 'GLS',
        carrierSlug: 'gls',
        senderAddressId,
        config: { clientId: 'id', clientSecret: 'secret', contactId: '276a45fkqM', testMode: true, apiBaseUrl: 'http://127.0.0.1:9' },
      },
    });
    const res = await create({ carrierId: gls.body.id });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('PICKUP_NOT_SUPPORTED');
  });
});

describe('the scheduler', () => {
  it("books today's pickup once, however often it wakes", async () => {
    const { body: daily } = await create({ parcelCount: 5 });
    expect(await runDailyPickups(t.app)).toEqual({ booked: 1, failed: 0 });
    expect(await runDailyPickups(t.app)).toEqual({ booked: 0, failed: 0 });
    clock = monday(14, 59);
    await runDailyPickups(t.app);
    const booked = await pickupsOf(daily.id);
    expect(booked).toHaveLength(1);
    expect(booked[0]).toMatchObject({ date: '2026-11-30', status: 'booked', parcelCount: 5, from: '15:00', to: '17:00' });
    expect(booked[0]?.confirmationNumber).toMatch(/^PU\d{9}$/);
    expect((await t.request('GET', `/orgs/${orgId}/daily-pickups/${daily.id}`)).body.lastBookedDate).toBe('2026-11-30');
  });

  it('books once across concurrent wakes', async () => {
    const { body: daily } = await create({ carrierId: karrioId });
    const scheduledBefore = fake.state.counters.pickupsScheduled;
    const runs = await Promise.all([runDailyPickups(t.app), runDailyPickups(t.app), runDailyPickups(t.app)]);
    expect(runs.reduce((sum, run) => sum + run.booked, 0)).toBe(1);
    expect(fake.state.counters.pickupsScheduled - scheduledBefore).toBe(1);
    expect(await pickupsOf(daily.id)).toHaveLength(1);
  });

  it("a wake that saw the day as not booked yet (another process claimed it meanwhile) books nothing: the day's row is the claim", async () => {
    const { body: daily } = await create({ carrierId: karrioId });
    await runDailyPickups(t.app);
    const scheduledBefore = fake.state.counters.pickupsScheduled;
    // As another process's wake finds it when it read the daily pickup just before this one's claim committed.
    t.app.db.$client.prepare('UPDATE daily_pickups SET last_booked_date = NULL WHERE id = ?').run(daily.id);
    expect(await runDailyPickups(t.app)).toEqual({ booked: 0, failed: 0 });
    expect(fake.state.counters.pickupsScheduled).toBe(scheduledBefore);
    expect(await pickupsOf(daily.id)).toHaveLength(1);
  });

  it('after a restart (the file reopened) books nothing twice and goes on the next working day', async () => {
    const { body: daily } = await create();
    await runDailyPickups(t.app);
    const restarted = createAppContext({ dataDir: t.dir, now });
    try {
      expect(await runDailyPickups(restarted)).toEqual({ booked: 0, failed: 0 });
      clock = new Date(2026, 11, 1, 7, 0); // Tuesday
      expect(await runDailyPickups(restarted)).toEqual({ booked: 1, failed: 0 });
      expect(await runDailyPickups(t.app)).toEqual({ booked: 0, failed: 0 });
    } finally {
      restarted.close();
    }
    expect((await pickupsOf(daily.id)).map((pickup) => pickup.date)).toEqual(['2026-12-01', '2026-11-30']);
  });

  it('catches up on today only after days without running', async () => {
    const { body: daily } = await create();
    clock = new Date(2026, 10, 26, 8, 0); // Thursday
    await runDailyPickups(t.app);
    clock = new Date(2026, 11, 2, 8, 0); // the next Wednesday: Friday to Tuesday were missed
    await runDailyPickups(t.app);
    expect((await pickupsOf(daily.id)).map((pickup) => pickup.date)).toEqual(['2026-12-02', '2026-11-26']);
  });

  it('skips the weekend, and books on a Saturday only when Saturday is chosen', async () => {
    const { body: weekdaysOnly } = await create();
    const { body: saturdays } = await create({ weekdays: [6] });
    clock = new Date(2026, 10, 28, 8, 0); // Saturday
    await runDailyPickups(t.app);
    clock = new Date(2026, 10, 29, 8, 0); // Sunday
    await runDailyPickups(t.app);
    expect(await pickupsOf(weekdaysOnly.id)).toEqual([]);
    expect((await pickupsOf(saturdays.id)).map((pickup) => pickup.date)).toEqual(['2026-11-28']);
  });

  it('does not book a window already over today, nor a disabled one', async () => {
    const { body: late } = await create();
    const { body: off } = await create({ enabled: false });
    clock = monday(17, 0);
    await runDailyPickups(t.app);
    expect(await pickupsOf(late.id)).toEqual([]);
    expect(await pickupsOf(off.id)).toEqual([]);
  });

  it("a refusal is a failed pickup with the carrier's words, not tried again that day", async () => {
    const { body: daily } = await create({ carrierId: karrioId });
    fake.switches.pickupRefusal = { code: 'NO_ROUTE', message: 'No driver serves this postal code on Mondays', times: 5 };
    expect(await runDailyPickups(t.app)).toEqual({ booked: 1, failed: 1 });
    await runDailyPickups(t.app);
    const failed = await pickupsOf(daily.id);
    expect(failed).toHaveLength(1);
    expect(failed[0]?.status).toBe('failed');
    expect(failed[0]?.error).toContain('No driver serves this postal code on Mondays');
    expect(fake.switches.pickupRefusal.times).toBe(4);
  });

  it('bounds the work of one wake; the rest are booked on the next', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await create()).body.id as string);
    expect(await runDailyPickups(t.app, 2)).toEqual({ booked: 2, failed: 0 });
    expect(await runDailyPickups(t.app, 2)).toEqual({ booked: 1, failed: 0 });
    for (const id of ids) expect(await pickupsOf(id)).toHaveLength(1);
  });
});
