import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import {
  fakeShopify,
  fakeWoo,
  shopifyOrder,
  startFakeShopify,
  startFakeWooCommerce,
  wooOrder,
  type FakeShop,
  type FakeShopify,
} from '../../testing/fakeStorefronts';
import { runScheduledSyncs, startScheduledSync } from './scheduledSync';

const start = new Date('2026-11-27T10:00:00.000Z');
let clock = start;
const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
const iso = (minutes: number) => at(minutes).toISOString();

let shopify: FakeShopify;
let woo: FakeShop;
let t: TestServer;
beforeAll(async () => {
  [shopify, woo] = await Promise.all([startFakeShopify(), startFakeWooCommerce()]);
});
afterAll(async () => {
  await Promise.all([shopify.close(), woo.close()]);
});
// A server of its own per test, so the scheduler sees only the test's channels.
beforeEach(async () => {
  clock = start;
  for (const shop of [shopify, woo]) {
    shop.failWith = null;
    shop.requests = [];
    shop.gate = null;
    shop.held = 0;
    shop.orders = [];
  }
  t = await startTestServer({ now: () => clock });
  t.app.storefront = { origin: shopify.origin };
});
afterEach(async () => t.close());

async function createChannel(server: TestServer, body: Record<string, unknown>) {
  const res = await server.request('POST', `/orgs/${server.org.orgId}/order-channels`, { body });
  expect(res.status).toBe(201);
  return res.body as { id: string; config: Record<string, unknown>; sync: unknown };
}
const channelPath = (server: TestServer, id: string) => `/orgs/${server.org.orgId}/order-channels/${id}`;
const readSync = async (server: TestServer, id: string) => (await server.request('GET', channelPath(server, id))).body.sync;
const manualSync = (server: TestServer, id: string) => server.request('POST', `${channelPath(server, id)}/sync`);
const externalIds = (server: TestServer, channelId: string) =>
  (
    server.app.db.$client.prepare('SELECT external_id FROM orders WHERE order_channel_id = ? ORDER BY external_id').all(channelId) as { external_id: string }[]
  ).map((row) => row.external_id);
const shopifyChannel = (config: Record<string, unknown> = {}) => ({ name: 'Webshop', type: 'shopify', config: { ...fakeShopify, ...config } });

describe('scheduled storefront sync', () => {
  it('syncs a due channel without anyone pressing Sync, then again one interval later', async () => {
    shopify.orders = [5001, 5002].map((id) => shopifyOrder(id));
    const channel = await createChannel(t, shopifyChannel());
    expect(channel.config.syncIntervalMinutes).toBe(10);
    expect(channel.sync).toEqual({ lastSyncedAt: null, nextSyncAt: iso(0), lastError: null });

    expect(await runScheduledSyncs(t.app)).toEqual({ synced: 1, failed: 0, busy: 0 });
    expect(externalIds(t, channel.id)).toEqual(['5001', '5002']);
    expect(await readSync(t, channel.id)).toEqual({ lastSyncedAt: iso(0), nextSyncAt: iso(10), lastError: null });

    // Not due yet: the shop is not asked.
    const asked = shopify.requests.length;
    clock = at(9);
    expect(await runScheduledSyncs(t.app)).toEqual({ synced: 0, failed: 0, busy: 0 });
    expect(shopify.requests).toHaveLength(asked);

    shopify.orders.push(shopifyOrder(5003));
    clock = at(10);
    expect(await runScheduledSyncs(t.app)).toEqual({ synced: 1, failed: 0, busy: 0 });
    expect(externalIds(t, channel.id)).toEqual(['5001', '5002', '5003']);
    expect(await readSync(t, channel.id)).toEqual({ lastSyncedAt: iso(10), nextSyncAt: iso(20), lastError: null });
  });

  it('runs as a background task that wakes at once when started, as serve and the desktop app start it', async () => {
    shopify.orders = [shopifyOrder(5001)];
    const channel = await createChannel(t, shopifyChannel());
    const task = startScheduledSync(t.app, 60_000);
    // stop() waits for the wake in progress.
    await task.stop();
    expect(externalIds(t, channel.id)).toEqual(['5001']);
    expect(await readSync(t, channel.id)).toEqual({ lastSyncedAt: iso(0), nextSyncAt: iso(10), lastError: null });
  });

  it('never syncs a channel whose interval is 0, and validates the interval', async () => {
    shopify.orders = [shopifyOrder(5001)];
    const channel = await createChannel(t, shopifyChannel({ syncIntervalMinutes: 0 }));
    expect(channel.sync).toEqual({ lastSyncedAt: null, nextSyncAt: null, lastError: null });
    clock = at(60 * 24 * 3);
    expect(await runScheduledSyncs(t.app)).toEqual({ synced: 0, failed: 0, busy: 0 });
    expect(shopify.requests).toEqual([]);

    // "Sync" still works and records its time; the schedule stays off.
    expect((await manualSync(t, channel.id)).status).toBe(200);
    expect(await readSync(t, channel.id)).toEqual({ lastSyncedAt: clock.toISOString(), nextSyncAt: null, lastError: null });

    // Turned on: due one interval after now.
    const patched = await t.request('PATCH', channelPath(t, channel.id), { body: { config: { ...fakeShopify, syncIntervalMinutes: 5 } } });
    expect(patched.status).toBe(200);
    expect(patched.body.sync.nextSyncAt).toBe(new Date(clock.getTime() + 5 * 60_000).toISOString());

    for (const bad of [1441, -1, 2.5, '10']) {
      const res = await t.request('PATCH', channelPath(t, channel.id), { body: { config: { ...fakeShopify, syncIntervalMinutes: bad } } });
      expect(res.status).toBe(400);
      expect(res.body.details.map((detail: { path: string }) => detail.path)).toEqual(['body.config.syncIntervalMinutes']);
    }
  });

  it('gives manual and CSV channels no sync state and never picks them', async () => {
    const manual = await createChannel(t, { name: 'Phone orders', type: 'manual' });
    expect(manual.sync).toBeNull();
    expect(t.app.db.$client.prepare('SELECT next_sync_at FROM order_channels WHERE id = ?').get(manual.id)).toEqual({ next_sync_at: null });
    expect(await runScheduledSyncs(t.app)).toEqual({ synced: 0, failed: 0, busy: 0 });
  });

  it('runs one sync at a time per channel: a Sync pressed during a scheduled run answers 409, and the reverse', async () => {
    shopify.orders = [5001, 5002].map((id) => shopifyOrder(id));
    const channel = await createChannel(t, shopifyChannel());
    let release!: () => void;
    shopify.gate = new Promise((resolve) => (release = resolve));
    const scheduled = runScheduledSyncs(t.app);
    while (shopify.held === 0) await new Promise((resolve) => setTimeout(resolve, 5));

    const refused = await manualSync(t, channel.id);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CONFLICT');
    expect(refused.body.message).toMatch(/being synced right now/);
    release();
    shopify.gate = null;
    expect(await scheduled).toEqual({ synced: 1, failed: 0, busy: 0 });
    expect(externalIds(t, channel.id)).toEqual(['5001', '5002']);

    // A Sync pressed and still reading the shop: the scheduler leaves the channel to it.
    clock = at(10);
    shopify.held = 0;
    shopify.gate = new Promise((resolve) => (release = resolve));
    const pressed = manualSync(t, channel.id);
    while (shopify.held === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await runScheduledSyncs(t.app)).toEqual({ synced: 0, failed: 0, busy: 0 });
    expect(shopify.held).toBe(1);
    release();
    shopify.gate = null;
    const done = await pressed;
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ created: 0, updated: 0, held: 0, skipped: 2, errors: [] });
    expect(externalIds(t, channel.id)).toEqual(['5001', '5002']);
    expect(await readSync(t, channel.id)).toEqual({ lastSyncedAt: iso(10), nextSyncAt: iso(20), lastError: null });
  });

  it("records a shop's error as lastError and tries again one interval later", async () => {
    t.app.storefront = { origin: woo.origin };
    woo.orders = [wooOrder(7001)];
    woo.failWith = 500;
    const channel = await createChannel(t, { name: 'Woo shop', type: 'woocommerce', config: { ...fakeWoo, syncIntervalMinutes: 15 } });
    expect(await runScheduledSyncs(t.app)).toEqual({ synced: 1, failed: 1, busy: 0 });
    const failed = await readSync(t, channel.id);
    expect(failed).toMatchObject({ lastSyncedAt: null, nextSyncAt: iso(15) });
    expect(failed.lastError).toMatch(/answered 500/);
    expect(failed.lastError).not.toContain(fakeWoo.consumerSecret);
    expect(externalIds(t, channel.id)).toEqual([]);

    const asked = woo.requests.length;
    clock = at(14);
    await runScheduledSyncs(t.app);
    expect(woo.requests).toHaveLength(asked);

    woo.failWith = null;
    clock = at(15);
    expect(await runScheduledSyncs(t.app)).toEqual({ synced: 1, failed: 0, busy: 0 });
    expect(externalIds(t, channel.id)).toEqual(['7001']);
    expect(await readSync(t, channel.id)).toEqual({ lastSyncedAt: iso(15), nextSyncAt: iso(30), lastError: null });

    // A Sync pressed that fails is recorded the same way.
    woo.failWith = 401;
    clock = at(16);
    expect((await manualSync(t, channel.id)).status).toBe(422);
    expect(await readSync(t, channel.id)).toMatchObject({
      lastSyncedAt: iso(15),
      nextSyncAt: iso(31),
      lastError: expect.stringMatching(/refused the credentials/),
    });
  });

  it('resumes after a restart on the same database file, taking over a run that died, without importing an order twice', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'shipdesk-restart-'));
    try {
      shopify.orders = [5001, 5002].map((id) => shopifyOrder(id));
      const first = await startTestServer({ now: () => clock, dataDir });
      first.app.storefront = { origin: shopify.origin };
      const channel = await createChannel(first, shopifyChannel());
      expect(await runScheduledSyncs(first.app)).toEqual({ synced: 1, failed: 0, busy: 0 });
      // The process dies in the middle of its next run: the lease stays behind.
      clock = at(10);
      first.app.db.$client.prepare('UPDATE order_channels SET sync_started_at = ? WHERE id = ?').run(iso(10), channel.id);
      await first.close();

      // A new order in the shop, and the first run's cursor on the channel: the shop's newest change it read.
      shopify.orders = [
        ...[5001, 5002].map((id) => shopifyOrder(id)),
        shopifyOrder(5003, { createdAt: '2024-11-03T08:00:00Z', updatedAt: '2024-11-03T08:00:00Z' }),
      ];
      const cursorRow = { sync_cursor: '2024-11-02T09:15:00Z' };
      const reopened = await startTestServer({ now: () => clock, dataDir });
      // The first run's organization and token, read back from the file.
      const second: TestServer = {
        ...reopened,
        org: first.org,
        request: (method, path, options) => reopened.request(method, path, { token: first.org.token, ...options }),
      };
      second.app.storefront = { origin: shopify.origin };
      try {
        // The dead run's lease is still fresh: nobody runs, and Sync says why.
        expect(await runScheduledSyncs(second.app)).toEqual({ synced: 0, failed: 0, busy: 0 });
        expect((await manualSync(second, channel.id)).status).toBe(409);
        // Once stale, it is taken over.
        expect(second.app.db.$client.prepare('SELECT sync_cursor FROM order_channels WHERE id = ?').get(channel.id)).toEqual(cursorRow);
        clock = at(20 + 1);
        expect(await runScheduledSyncs(second.app)).toEqual({ synced: 1, failed: 0, busy: 0 });
        // Read from the cursor (less its overlap), not from the start.
        expect(shopify.requests.at(-1)?.variables.query).toBe("updated_at:>='2024-11-02T09:05:00.000Z'");
        expect(second.app.db.$client.prepare('SELECT sync_cursor FROM order_channels WHERE id = ?').get(channel.id)).toEqual({
          sync_cursor: '2024-11-03T08:00:00Z',
        });
        expect(externalIds(second, channel.id)).toEqual(['5001', '5002', '5003']);
        expect(await readSync(second, channel.id)).toEqual({ lastSyncedAt: iso(21), nextSyncAt: iso(31), lastError: null });
        // Only what changed since the cursor is read again: the new order, once.
        expect((await manualSync(second, channel.id)).body).toEqual({ created: 0, updated: 0, held: 0, skipped: 1, errors: [] });
        expect(externalIds(second, channel.id)).toEqual(['5001', '5002', '5003']);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
