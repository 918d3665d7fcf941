import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { signPayload, webhookSigningSecret } from './webhooks';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t.close());

const base = (orgId = t.org.orgId) => `/orgs/${orgId}/webhooks`;
const webhookBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'ERP bridge',
  url: 'https://erp.example/hooks/shipdesk',
  events: ['shipment.created', 'shipment.dispatched'],
  ...overrides,
});
const paths = (body: { details: { path: string }[] }) => body.details.map((detail) => detail.path);

describe('webhooks', () => {
  it('creates with 201, an active webhook and a whsec_ secret that is stored sealed', async () => {
    const res = await t.request('POST', base(), { body: webhookBody() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'ERP bridge', url: 'https://erp.example/hooks/shipdesk', isActive: true });
    expect(res.body.events).toEqual(['shipment.created', 'shipment.dispatched']);
    expect(res.body.id).toMatch(/^whk_[0-9a-z]{26}$/);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32,}$/);
    expect(res.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const row = t.app.db.$client.prepare('SELECT * FROM webhooks WHERE id = ?').get(res.body.id) as Record<string, unknown>;
    expect(row.org_id).toBe(t.org.orgId);
    expect(row.secret_sealed).toMatch(/^v1:/);
    expect(JSON.stringify(row)).not.toContain(res.body.secret.slice('whsec_'.length));
    expect(webhookSigningSecret(t.app, res.body.id)).toBe(res.body.secret);
  });

  it('accepts http URLs and isActive false; every secret differs', async () => {
    const a = await t.request('POST', base(), { body: webhookBody({ url: 'http://localhost:3000/in', isActive: false }) });
    expect(a.status).toBe(201);
    expect(a.body.isActive).toBe(false);
    const b = await t.request('POST', base(), { body: webhookBody() });
    expect(b.body.secret).not.toBe(a.body.secret);
  });

  it('rejects unknown fields, missing fields, bad URLs and bad event lists with details', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [webhookBody({ secret: 'mine' }), 'body.secret'],
      [webhookBody({ url: 'ftp://erp.example/in' }), 'body.url'],
      [webhookBody({ url: 'not a url' }), 'body.url'],
      [webhookBody({ events: ['shipment.exploded'] }), 'body.events.0'],
      [webhookBody({ events: [] }), 'body.events'],
      [webhookBody({ events: ['order.created', 'order.created'] }), 'body.events'],
      [webhookBody({ events: 'order.created' }), 'body.events'],
      [webhookBody({ name: '' }), 'body.name'],
      [webhookBody({ isActive: 'yes' }), 'body.isActive'],
    ];
    for (const [body, path] of cases) {
      const res = await t.request('POST', base(), { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(paths(res.body)).toContain(path);
    }
    const missing = await t.request('POST', base(), { body: {} });
    expect(missing.status).toBe(400);
    expect(paths(missing.body)).toEqual(expect.arrayContaining(['body.name', 'body.url', 'body.events']));
  });

  it('reads and PATCHes with the secret, changing only the fields given', async () => {
    const created = (await t.request('POST', base(), { body: webhookBody({ name: 'Patch me' }) })).body;
    const read = await t.request('GET', `${base()}/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);

    const patched = await t.request('PATCH', `${base()}/${created.id}`, { body: { isActive: false, events: ['tracking.updated'] } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Patch me', url: created.url, isActive: false, events: ['tracking.updated'] });
    expect(patched.body.secret).toBe(created.secret);

    const renamed = await t.request('PATCH', `${base()}/${created.id}`, { body: { name: 'Renamed', url: 'https://other.example/x' } });
    expect(renamed.body).toMatchObject({ name: 'Renamed', url: 'https://other.example/x', isActive: false, events: ['tracking.updated'] });

    for (const body of [{ secret: 'x' }, { events: [] }, { events: ['ping'] }, { url: 'mailto:a@b.c' }, { isActive: null }]) {
      const bad = await t.request('PATCH', `${base()}/${created.id}`, { body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.code).toBe('VALIDATION_FAILED');
    }
  });

  it('lists newest first and never shows a secret', async () => {
    const org = await t.createOrg();
    const first = (await t.request('POST', base(org.orgId), { token: org.token, body: webhookBody({ name: 'First' }) })).body;
    const second = (await t.request('POST', base(org.orgId), { token: org.token, body: webhookBody({ name: 'Second' }) })).body;
    const list = await t.request('GET', base(org.orgId), { token: org.token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 2, page: 1, limit: 20, totalPages: 1 });
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([second.id, first.id]);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    for (const item of list.body.data) expect(item).not.toHaveProperty('secret');
  });

  it('rejects page bounds with 400 and answers a page past the end with the true totals', async () => {
    for (const query of ['limit=0', 'limit=101', 'page=0', 'page=-1', 'limit=abc', 'page=9007199254740992']) {
      const res = await t.request('GET', `${base()}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    const org = await t.createOrg();
    const empty = await t.request('GET', `${base(org.orgId)}?page=9007199254740991`, { token: org.token });
    expect(empty.body).toEqual({ data: [], total: 0, page: 9007199254740991, limit: 20, totalPages: 0 });
    for (let i = 0; i < 3; i++) await t.request('POST', base(org.orgId), { token: org.token, body: webhookBody() });
    const past = await t.request('GET', `${base(org.orgId)}?page=3&limit=2`, { token: org.token });
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ data: [], total: 3, page: 3, limit: 2, totalPages: 2 });
    const last = await t.request('GET', `${base(org.orgId)}?page=2&limit=2`, { token: org.token });
    expect(last.body.data).toHaveLength(1);
  });

  it('deletes with 200 {message}, taking the delivery history with it', async () => {
    const created = (await t.request('POST', base(), { body: webhookBody() })).body;
    t.app.db.$client
      .prepare(
        `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, attempt, created_at)
         VALUES ('whd_test', ?, 'evt_test', 'shipment.created', 1, ?)`,
      )
      .run(created.id, created.createdAt);
    const del = await t.request('DELETE', `${base()}/${created.id}`);
    expect(del.status).toBe(200);
    expect(Object.keys(del.body)).toEqual(['message']);
    expect(del.body.message).toContain(created.id);
    expect(t.app.db.$client.prepare('SELECT count(*) AS n FROM webhooks WHERE id = ?').get(created.id)).toEqual({ n: 0 });
    expect(t.app.db.$client.prepare('SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = ?').get(created.id)).toEqual({ n: 0 });
    expect((await t.request('GET', `${base()}/${created.id}`)).status).toBe(404);
    expect(() => webhookSigningSecret(t.app, created.id)).toThrow(/does not exist/);
  });

  it('answers 404 ORG_WEBHOOK_NOT_FOUND for unknown ids on get, PATCH and DELETE', async () => {
    const requests: [string, { body?: unknown }][] = [
      ['GET', {}],
      ['PATCH', { body: { name: 'x' } }],
      ['DELETE', {}],
    ];
    for (const [method, options] of requests) {
      const res = await t.request(method, `${base()}/whk_unknown`, options);
      expect(res.status, method).toBe(404);
      expect(res.body).toMatchObject({ code: 'ORG_WEBHOOK_NOT_FOUND', error: 'Not Found' });
    }
  });

  it('hides other organizations’ webhooks behind 404 and refuses their paths with 403', async () => {
    const other = await t.createOrg();
    const theirs = (await t.request('POST', base(other.orgId), { token: other.token, body: webhookBody() })).body;
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const res = await t.request(method, `${base()}/${theirs.id}`, method === 'PATCH' ? { body: { name: 'mine now' } } : {});
      expect(res.status, method).toBe(404);
      expect(res.body.code).toBe('ORG_WEBHOOK_NOT_FOUND');
    }
    expect((await t.request('GET', `${base(other.orgId)}/${theirs.id}`, { token: other.token })).body.name).toBe('ERP bridge');
    const cross = await t.request('GET', base(other.orgId));
    expect(cross.status).toBe(403);
    expect(cross.body.code).toBe('ORG_ACCESS_DENIED');
  });

  it('needs a credential, and write:webhooks for changes; read:webhooks can list and get', async () => {
    expect((await t.request('GET', base(), { token: null })).status).toBe(401);
    expect((await t.request('POST', base(), { token: null, body: webhookBody() })).body.code).toBe('UNAUTHORIZED');
    const created = (await t.request('POST', base(), { body: webhookBody() })).body;
    const readOnly = await t.tokenWithScopes(t.org, ['read:webhooks']);
    expect((await t.request('GET', base(), { token: readOnly })).status).toBe(200);
    expect((await t.request('GET', `${base()}/${created.id}`, { token: readOnly })).status).toBe(200);
    const attempts: [string, string, unknown][] = [
      ['POST', base(), webhookBody()],
      ['PATCH', `${base()}/${created.id}`, { name: 'x' }],
      ['DELETE', `${base()}/${created.id}`, undefined],
    ];
    for (const [method, path, body] of attempts) {
      const denied = await t.request(method, path, { token: readOnly, body });
      expect(denied.status, method).toBe(403);
      expect(denied.body).toMatchObject({ code: 'FORBIDDEN', error: 'Forbidden' });
      expect(denied.body.message).toContain('write:webhooks');
    }
    const otherScope = await t.tokenWithScopes(t.org, ['read:shipments']);
    expect((await t.request('GET', base(), { token: otherScope })).status).toBe(403);
  });
});

describe('signPayload', () => {
  const secret = 'whsec_test_secret';
  const body = '{"id":"evt_01","type":"shipment.created"}';

  it('matches an HMAC-SHA256 computed independently (openssl dgst -sha256 -hmac)', () => {
    expect(signPayload(secret, 1750000000, body)).toBe('t=1750000000,v1=44b83b8085b2102d77d6752179e85a9168dbf2bbd6939fda4fe7347d05306cd6');
  });

  it('signs "<t>.<raw body>" with node:crypto, for strings and raw bytes alike', () => {
    const expected = createHmac('sha256', secret).update(`1750000123.${body}`).digest('hex');
    expect(signPayload(secret, 1750000123, body)).toBe(`t=1750000123,v1=${expected}`);
    expect(signPayload(secret, 1750000123, Buffer.from(body))).toBe(`t=1750000123,v1=${expected}`);
    expect(signPayload(secret, 1750000124, body)).not.toBe(`t=1750000124,v1=${expected}`);
  });
});
