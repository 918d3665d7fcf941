import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type RequestOptions, type TestOrg, type TestServer } from '../../testing/harness';
import { findOrderChannelRow, orderChannelCredentials } from './orderChannels';
import { seal } from '../secrets';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t.close());

const shopify = (config: Record<string, unknown> = {}) => ({
  name: 'Webshop',
  type: 'shopify',
  config: { shopDomain: 'acme.myshopify.com', accessToken: 'shpat_0123456789abcdef', ...config },
});
const woocommerce = (config: Record<string, unknown> = {}) => ({
  name: 'Woo shop',
  type: 'woocommerce',
  config: { siteUrl: 'https://shop.acme.example', consumerKey: 'ck_live_key_1111', consumerSecret: 'cs_live_secret_2222', ...config },
});
const paths = (body: { details: { path: string }[] }) => body.details.map((detail) => detail.path);

/** The starter plan allows two channels, so each test works in an organization of its own. */
async function inFreshOrg() {
  const org: TestOrg = await t.createOrg();
  const base = `/orgs/${org.orgId}/order-channels`;
  const call = (method: string, path: string, options: RequestOptions = {}) => t.request(method, path, { token: org.token, ...options });
  return { org, base, call };
}

const storedConfig = (id: string) =>
  JSON.parse((t.app.db.$client.prepare('SELECT config FROM order_channels WHERE id = ?').get(id) as { config: string }).config);

describe('order channels', () => {
  it('creates a manual channel with 201 and the spec shape, config defaulting to {}', async () => {
    const { org, base, call } = await inFreshOrg();
    const res = await call('POST', base, { body: { name: 'Phone orders', type: 'manual' } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['config', 'createdAt', 'id', 'name', 'sync', 'type', 'updatedAt']);
    // Manual and CSV channels have nothing to sync (issue 22).
    expect(res.body.sync).toBeNull();
    expect(res.body).toMatchObject({ name: 'Phone orders', type: 'manual', config: {} });
    expect(res.body.id).toMatch(/^chn_[0-9a-z]{26}$/);
    expect(res.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const row = t.app.db.$client.prepare('SELECT org_id, type, deleted_at FROM order_channels WHERE id = ?').get(res.body.id);
    expect(row).toEqual({ org_id: org.orgId, type: 'manual', deleted_at: null });
    const csv = await call('POST', base, { body: { name: 'Spreadsheet', type: 'csv', config: { delimiter: ';', hasHeader: true } } });
    expect(csv.status).toBe(201);
    expect(csv.body.config).toEqual({ delimiter: ';', hasHeader: true });
  });

  it('seals storefront credentials at rest and masks them in create, get and list', async () => {
    const { base, call } = await inFreshOrg();
    const shop = await call('POST', base, { body: shopify({ shopDomain: 'Acme.myshopify.com' }) });
    expect(shop.status).toBe(201);
    expect(shop.body.config).toEqual({ shopDomain: 'acme.myshopify.com', accessToken: '••••cdef', syncIntervalMinutes: 10 });
    // The shop's address as pasted from the browser names the same shop.
    const fresh = await inFreshOrg();
    const pasted = await fresh.call('POST', fresh.base, { body: shopify({ shopDomain: 'https://Acme.myshopify.com/admin/orders?x=1' }) });
    expect(pasted.body.config.shopDomain).toBe('acme.myshopify.com');
    const woo = await call('POST', base, { body: woocommerce() });
    expect(woo.body.config).toEqual({ siteUrl: 'https://shop.acme.example', consumerKey: '••••1111', consumerSecret: '••••2222', syncIntervalMinutes: 10 });

    for (const [id, secrets] of [
      [shop.body.id, ['shpat_0123456789abcdef']],
      [woo.body.id, ['ck_live_key_1111', 'cs_live_secret_2222']],
    ] as const) {
      const raw = JSON.stringify(t.app.db.$client.prepare('SELECT * FROM order_channels WHERE id = ?').get(id));
      for (const secret of secrets) expect(raw).not.toContain(secret);
    }
    expect(storedConfig(shop.body.id).accessToken).toMatch(/^v1:/);

    expect((await call('GET', `${base}/${shop.body.id}`)).body).toEqual(shop.body);
    const list = await call('GET', base);
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([woo.body.id, shop.body.id]);
    for (const secret of ['shpat_0123456789abcdef', 'ck_live_key_1111', 'cs_live_secret_2222', 'v1:']) {
      expect(JSON.stringify(list.body)).not.toContain(secret);
    }
  });

  it('rejects bad types, unknown fields and per-type config errors with paths', async () => {
    const { base, call } = await inFreshOrg();
    const cases: [unknown, string][] = [
      [{ name: 'x', type: 'amazon' }, 'body.type'],
      [{ name: 'x' }, 'body.type'],
      [{ name: 'x', type: 'manual', colour: 'red' }, 'body.colour'],
      [{ name: '', type: 'manual' }, 'body.name'],
      [{ type: 'csv' }, 'body.name'],
      [{ name: 'x', type: 'manual', config: { nested: { a: 1 } } }, 'body.config.nested'],
      [{ name: 'x', type: 'shopify' }, 'body.config'],
      [shopify({ shopDomain: undefined }), 'body.config.shopDomain'],
      [shopify({ shopDomain: 'acme.example.com' }), 'body.config.shopDomain'],
      [shopify({ shopDomain: 'https://acme.example.com/admin' }), 'body.config.shopDomain'],
      [shopify({ accessToken: '' }), 'body.config.accessToken'],
      [shopify({ accessToken: undefined }), 'body.config.accessToken'],
      [shopify({ acessToken: 'typo' }), 'body.config.acessToken'],
      [woocommerce({ siteUrl: 'http://shop.acme.example' }), 'body.config.siteUrl'],
      [woocommerce({ siteUrl: 'shop.acme.example' }), 'body.config.siteUrl'],
      [woocommerce({ consumerKey: undefined }), 'body.config.consumerKey'],
      [woocommerce({ consumerSecret: undefined }), 'body.config.consumerSecret'],
    ];
    for (const [body, path] of cases) {
      const res = await call('POST', base, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(paths(res.body), JSON.stringify(body)).toContain(path);
    }
    expect((await call('GET', base)).body.total).toBe(0);
  });

  it('says which types there are, and what a setting of a manual channel may be', async () => {
    const { base, call } = await inFreshOrg();
    const details = async (body: unknown) => (await call('POST', base, { body })).body.details;
    expect(await details({ name: 'eBay', type: 'ebay' })).toEqual([{ path: 'body.type', message: 'Must be one of: manual, csv, shopify, woocommerce' }]);
    expect(await details({ name: 'No type' })).toEqual([{ path: 'body.type', message: 'Required' }]);
    expect(await details({ name: 'Desk', type: 'manual', config: { bins: [1, 2] } })).toEqual([
      { path: 'body.config.bins', message: 'Must be text, a number or true/false' },
    ]);
  });

  it('PATCHes name and config; a masked secret sent back keeps the stored one, a new one replaces it', async () => {
    const { org, base, call } = await inFreshOrg();
    const created = (await call('POST', base, { body: shopify() })).body;
    const sealedBefore = storedConfig(created.id).accessToken;

    const renamed = await call('PATCH', `${base}/${created.id}`, { body: { name: 'Main webshop' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Main webshop', type: 'shopify', config: created.config });

    const echoed = { ...created.config, shopDomain: 'acme-eu.myshopify.com' };
    const roundTrip = await call('PATCH', `${base}/${created.id}`, { body: { config: echoed } });
    expect(roundTrip.status).toBe(200);
    expect(roundTrip.body.config).toEqual({ shopDomain: 'acme-eu.myshopify.com', accessToken: '••••cdef', syncIntervalMinutes: 10 });
    expect(storedConfig(created.id).accessToken).toBe(sealedBefore);

    const fresh = { shopDomain: 'acme-eu.myshopify.com', accessToken: 'shpat_new_token_9999' };
    const rotated = await call('PATCH', `${base}/${created.id}`, { body: { config: fresh } });
    expect(rotated.body.config.accessToken).toBe('••••9999');
    const row = findOrderChannelRow(t.app.db, org.orgId, created.id);
    expect(orderChannelCredentials(t.app, row)).toEqual({ ...fresh, syncIntervalMinutes: 10 });
  });

  it('after a restore without installation-keys.json: reads still work, using a secret says why, and a new secret can be entered', async () => {
    const { org, base, call } = await inFreshOrg();
    const created = (await call('POST', base, { body: shopify() })).body;
    const hook = (await call('POST', `/orgs/${org.orgId}/webhooks`, { body: { name: 'ERP', url: 'https://erp.example/hook', events: ['order.created'] } }))
      .body;
    // What a database restored beside a new keys file holds: secrets sealed under another key.
    const otherKey = randomBytes(32);
    const foreign = { ...storedConfig(created.id), accessToken: seal(otherKey, 'shpat_0123456789abcdef') };
    t.app.db.$client.prepare('UPDATE order_channels SET config = ? WHERE id = ?').run(JSON.stringify(foreign), created.id);
    t.app.db.$client.prepare('UPDATE webhooks SET secret_sealed = ? WHERE id = ?').run(seal(otherKey, hook.secret), hook.id);

    const list = await call('GET', base);
    expect(list.status).toBe(200);
    expect(list.body.data[0].config).toEqual({ shopDomain: 'acme.myshopify.com', accessToken: '••••', syncIntervalMinutes: 10 });
    expect((await call('GET', `${base}/${created.id}`)).status).toBe(200);

    for (const [method, path] of [
      ['POST', `${base}/${created.id}/sync`],
      ['GET', `/orgs/${org.orgId}/webhooks/${hook.id}`],
    ] as const) {
      const res = await call(method, path);
      expect(res.status, path).toBe(500);
      expect(res.body, path).toMatchObject({ code: 'INTERNAL_ERROR', message: expect.stringContaining('installation-keys.json') });
    }

    // The unreadable secret is not kept by sending its mask back, but a new one replaces it.
    const echoed = await call('PATCH', `${base}/${created.id}`, { body: { config: list.body.data[0].config } });
    expect([echoed.status, echoed.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const fresh = { shopDomain: 'acme.myshopify.com', accessToken: 'shpat_entered_again_4444' };
    const entered = await call('PATCH', `${base}/${created.id}`, { body: { config: fresh } });
    expect([entered.status, entered.body.config.accessToken]).toEqual([200, '••••4444']);
    expect(orderChannelCredentials(t.app, findOrderChannelRow(t.app.db, org.orgId, created.id))).toEqual({ ...fresh, syncIntervalMinutes: 10 });
  });

  it('checks a PATCHed config against the stored type, which cannot change', async () => {
    const { base, call } = await inFreshOrg();
    const shop = (await call('POST', base, { body: shopify() })).body;
    const cases: [unknown, string][] = [
      [{ type: 'manual' }, 'body.type'],
      [{ config: { shopDomain: 'acme.myshopify.com' } }, 'body.config.accessToken'],
      [{ config: { ...shop.config, shopDomain: 'nope' } }, 'body.config.shopDomain'],
      [{ config: { ...shop.config, extra: 'x' } }, 'body.config.extra'],
      [{ name: '' }, 'body.name'],
    ];
    for (const [body, path] of cases) {
      const res = await call('PATCH', `${base}/${shop.id}`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(paths(res.body), JSON.stringify(body)).toContain(path);
    }
    const manual = (await call('POST', base, { body: { name: 'Phone', type: 'manual' } })).body;
    const ok = await call('PATCH', `${base}/${manual.id}`, { body: { config: { note: 'call-ins' } } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ type: 'manual', config: { note: 'call-ins' } });
  });

  it('enforces the starter plan limit of 2 channels; a deleted channel frees its place', async () => {
    const { base, call } = await inFreshOrg();
    const first = (await call('POST', base, { body: { name: 'One', type: 'manual' } })).body;
    expect((await call('POST', base, { body: { name: 'Two', type: 'csv' } })).status).toBe(201);
    const third = await call('POST', base, { body: { name: 'Three', type: 'manual' } });
    expect(third.status).toBe(403);
    expect(third.body.code).toBe('RESOURCE_LIMIT_REACHED');
    expect(third.body.message).toContain('orderChannels');
    expect((await call('DELETE', `${base}/${first.id}`)).status).toBe(200);
    expect((await call('POST', base, { body: { name: 'Three', type: 'manual' } })).status).toBe(201);
  });

  it('soft-deletes with 200 {message}: orders keep their channel, reads answer 404', async () => {
    const { org, base, call } = await inFreshOrg();
    const channel = (await call('POST', base, { body: { name: 'Phone', type: 'manual' } })).body;
    t.app.db.$client
      .prepare(
        `INSERT INTO orders (id, org_id, order_channel_id, order_number, external_data, created_at, updated_at)
         VALUES ('ord_test_soft_delete', ?, ?, '1001', '{}', ?, ?)`,
      )
      .run(org.orgId, channel.id, channel.createdAt, channel.createdAt);
    const del = await call('DELETE', `${base}/${channel.id}`);
    expect(del.status).toBe(200);
    expect(Object.keys(del.body)).toEqual(['message']);
    expect(del.body.message).toContain(channel.id);
    const row = t.app.db.$client.prepare('SELECT deleted_at FROM order_channels WHERE id = ?').get(channel.id) as { deleted_at: string };
    expect(row.deleted_at).toMatch(/Z$/);
    const order = t.app.db.$client.prepare("SELECT order_channel_id FROM orders WHERE id = 'ord_test_soft_delete'").get();
    expect(order).toEqual({ order_channel_id: channel.id });
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const res = await call(method, `${base}/${channel.id}`, method === 'PATCH' ? { body: { name: 'back' } } : {});
      expect(res.status, method).toBe(404);
      expect(res.body.code).toBe('ORDER_CHANNEL_NOT_FOUND');
    }
    expect((await call('GET', base)).body).toMatchObject({ data: [], total: 0 });
  });

  it('answers 404 ORDER_CHANNEL_NOT_FOUND for unknown ids', async () => {
    const base = `/orgs/${t.org.orgId}/order-channels`;
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const res = await t.request(method, `${base}/chn_unknown`, method === 'PATCH' ? { body: { name: 'x' } } : {});
      expect(res.status, method).toBe(404);
      expect(res.body).toMatchObject({ code: 'ORDER_CHANNEL_NOT_FOUND', error: 'Not Found' });
    }
  });

  it('hides other organizations’ channels behind 404 and refuses their paths with 403', async () => {
    const mine = await inFreshOrg();
    const theirs = await inFreshOrg();
    const channel = (await theirs.call('POST', theirs.base, { body: shopify() })).body;
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const res = await mine.call(method, `${mine.base}/${channel.id}`, method === 'PATCH' ? { body: { name: 'mine now' } } : {});
      expect(res.status, method).toBe(404);
      expect(res.body.code).toBe('ORDER_CHANNEL_NOT_FOUND');
    }
    expect((await theirs.call('GET', `${theirs.base}/${channel.id}`)).body.name).toBe('Webshop');
    const cross = await mine.call('GET', theirs.base);
    expect(cross.status).toBe(403);
    expect(cross.body.code).toBe('ORG_ACCESS_DENIED');
  });

  it('needs a credential, and write:order_channels for changes; read:order_channels can list and get', async () => {
    const { org, base, call } = await inFreshOrg();
    expect((await call('GET', base, { token: null })).status).toBe(401);
    expect((await call('POST', base, { token: null, body: { name: 'x', type: 'manual' } })).body.code).toBe('UNAUTHORIZED');
    const channel = (await call('POST', base, { body: { name: 'Phone', type: 'manual' } })).body;
    const readOnly = await t.tokenWithScopes(org, ['read:order_channels']);
    expect((await call('GET', base, { token: readOnly })).status).toBe(200);
    expect((await call('GET', `${base}/${channel.id}`, { token: readOnly })).status).toBe(200);
    const attempts: [string, string, unknown][] = [
      ['POST', base, { name: 'x', type: 'manual' }],
      ['PATCH', `${base}/${channel.id}`, { name: 'x' }],
      ['DELETE', `${base}/${channel.id}`, undefined],
    ];
    for (const [method, path, body] of attempts) {
      const denied = await call(method, path, { token: readOnly, body });
      expect(denied.status, method).toBe(403);
      expect(denied.body).toMatchObject({ code: 'FORBIDDEN', error: 'Forbidden' });
      expect(denied.body.message).toContain('write:order_channels');
    }
  });

  it('rejects page bounds with 400 and answers a page past the end with the true totals', async () => {
    const { base, call } = await inFreshOrg();
    for (const query of ['limit=0', 'limit=101', 'page=0', 'limit=1.5', 'page=9007199254740992']) {
      const res = await call('GET', `${base}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await call('GET', `${base}?page=2`)).body).toEqual({ data: [], total: 0, page: 2, limit: 20, totalPages: 0 });
    await call('POST', base, { body: { name: 'One', type: 'manual' } });
    await call('POST', base, { body: { name: 'Two', type: 'manual' } });
    const past = await call('GET', `${base}?page=9007199254740991&limit=1`);
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ data: [], total: 2, page: 9007199254740991, limit: 1, totalPages: 2 });
    expect((await call('GET', `${base}?page=2&limit=1`)).body.data[0].name).toBe('One');
  });
});
