import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { databaseFile } from '../../app/runtime/config';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { senderAddressBody, startTestServer, type TestOrg, type TestServer } from '../../testing/harness';
import { sql } from 'drizzle-orm';
import { login } from '../auth/login';
import { authenticate } from '../auth/authenticate';
import { inWriteTransaction } from '../../db/tx';

let clock = new Date('2026-03-10T08:00:00.000Z');
const now = () => clock;
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
const DAY = 24 * 60 * 60 * 1000;
/** Moves the clock by days; the harness owner's 12-hour JWT is renewed so later tests can still use it. */
const advanceDays = async (ms: number) => {
  advance(ms);
  t.org.jwt = (await login(t.app, 'setup', t.org.email, t.org.password)).accessToken;
};

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ now });
});
afterAll(async () => t.close());
beforeEach(() => {
  // Failed authentications from 127.0.0.1 add up across tests; a minute later they are forgotten.
  advance(61_000);
  // Each test starts with only the harness token live, so the plan limit of 10 is never in the way.
  t.app.db.$client
    .prepare('UPDATE api_tokens SET revoked_at = ? WHERE org_id = ? AND revoked_at IS NULL AND token_hash <> ?')
    .run(clock.toISOString(), t.org.orgId, sha256(t.org.token));
});

const base = (org: TestOrg = t.org) => `/orgs/${org.orgId}/api-tokens`;
const create = (body: unknown, token?: string, org: TestOrg = t.org) => t.request('POST', base(org), { body, ...(token ? { token } : {}) });
const row = (id: string) => t.app.db.$client.prepare('SELECT * FROM api_tokens WHERE id = ?').get(id) as Record<string, unknown>;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describe('POST /orgs/{orgId}/api-tokens', () => {
  it('creates with 201, shows the full shpd_ token once, its 12-character prefix and no expiry by default', async () => {
    const res = await create({ name: 'Label station', scopes: ['read:orders', 'write:shipments'] });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name', 'scopes', 'token', 'tokenPrefix']);
    expect(res.body.token).toMatch(/^shpd_[A-Za-z0-9_-]{20,}$/);
    expect(res.body.tokenPrefix).toBe(res.body.token.slice(0, 12));
    expect(res.body.tokenPrefix).toMatch(/^shpd_.{7}$/);
    expect(res.body.id).toMatch(/^tok_[0-9a-z]{26}$/);
    expect(res.body).toMatchObject({
      name: 'Label station',
      scopes: ['read:orders', 'write:shipments'],
      expiresAt: null,
      lastUsedAt: null,
      createdAt: clock.toISOString(),
    });
  });

  it('sets expiresAt to now + expiresInDays', async () => {
    for (const days of [1, 30, 365]) {
      const res = await create({ name: `expires in ${days}`, scopes: ['read:orders'], expiresInDays: days });
      expect(res.status).toBe(201);
      expect(res.body.expiresAt).toBe(new Date(clock.getTime() + days * DAY).toISOString());
      await t.request('DELETE', `${base()}/${res.body.id}`);
    }
  });

  it('rejects out-of-bounds bodies with 400 VALIDATION_FAILED naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ name: '', scopes: ['read:orders'] }, 'body.name'],
      [{ name: 'x'.repeat(101), scopes: ['read:orders'] }, 'body.name'],
      [{ scopes: ['read:orders'] }, 'body.name'],
      [{ name: 'x', scopes: [] }, 'body.scopes'],
      [{ name: 'x' }, 'body.scopes'],
      [{ name: 'x', scopes: ['read:everything'] }, 'body.scopes.0'],
      [{ name: 'x', scopes: ['admin'] }, 'body.scopes.0'],
      [{ name: 'x', scopes: 'read:orders' }, 'body.scopes'],
      [{ name: 'x', scopes: ['read:orders'], expiresInDays: 0 }, 'body.expiresInDays'],
      [{ name: 'x', scopes: ['read:orders'], expiresInDays: 366 }, 'body.expiresInDays'],
      [{ name: 'x', scopes: ['read:orders'], expiresInDays: 1.5 }, 'body.expiresInDays'],
      [{ name: 'x', scopes: ['read:orders'], expiresInDays: '30' }, 'body.expiresInDays'],
      [{ name: 'x', scopes: ['read:orders'], expiresInDays: null }, 'body.expiresInDays'],
      [{ name: 'x', scopes: ['read:orders'], token: 'shpd_mine' }, 'body.token'],
    ];
    for (const [body, path] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(
        res.body.details.map((d: { path: string }) => d.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect((await create({ name: 'x'.repeat(100), scopes: ['read:orders'] })).status).toBe(201);
  });

  it('stores only a SHA-256 hash of the token', async () => {
    const res = await create({ name: 'Hashed', scopes: ['read:all'] });
    const stored = row(res.body.id);
    expect(stored.token_hash).toBe(sha256(res.body.token));
    expect(stored.token_prefix).toBe(res.body.token.slice(0, 12));
    for (const value of Object.values(stored)) expect(String(value)).not.toContain(res.body.token);
    const dump = JSON.stringify(t.app.db.$client.prepare('SELECT * FROM api_tokens').all());
    expect(dump).not.toContain(res.body.token);
  });
});

describe('using a token', () => {
  it('works as a Bearer credential and records lastUsedAt at most once a minute', async () => {
    const created = (await create({ name: 'Used', scopes: ['read:api_tokens'] })).body;
    const firstUse = clock.toISOString();
    const list = await t.request('GET', base(), { token: created.token });
    expect(list.status).toBe(200);
    expect(row(created.id).last_used_at).toBe(firstUse);
    const read = await t.request('GET', `${base()}/${created.id}`, { token: created.token });
    expect(read.body.lastUsedAt).toBe(firstUse);

    advance(59_000);
    expect((await t.request('GET', base(), { token: created.token })).status).toBe(200);
    expect(row(created.id).last_used_at).toBe(firstUse);

    advance(1_000);
    expect((await t.request('GET', base(), { token: created.token })).status).toBe(200);
    expect(row(created.id).last_used_at).toBe(clock.toISOString());
  });

  it('refuses an expired token with 401 AUTH_TOKEN_EXPIRED, and it stops counting against the limit', async () => {
    const org = await t.createOrg();
    const created = (await create({ name: 'Short-lived', scopes: ['read:orgs'], expiresInDays: 1 }, org.token, org)).body;
    const usage = () => t.request('GET', `/orgs/${org.orgId}/billing/usage`, { token: org.token });
    expect((await usage()).body.limits.apiTokens.used).toBe(2);
    await advanceDays(DAY - 1000);
    expect((await t.request('GET', `/orgs/${org.orgId}`, { token: created.token })).status).toBe(200);
    advance(1000);
    const res = await t.request('GET', `/orgs/${org.orgId}`, { token: created.token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'AUTH_TOKEN_EXPIRED', error: 'Unauthorized', message: expect.any(String) });
    expect((await usage()).body.limits.apiTokens.used).toBe(1);
  });
});

describe('reading, listing, renaming and revoking', () => {
  it('GET one includes createdBy and never the token', async () => {
    const created = (await create({ name: 'Readable', scopes: ['read:orders'] })).body;
    const res = await t.request('GET', `${base()}/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('token');
    const { token: _token, ...withoutToken } = created;
    expect(res.body).toEqual({ ...withoutToken, createdBy: { id: t.org.userId, name: expect.any(String), email: t.org.email } });
    expect(JSON.stringify(res.body)).not.toContain(created.token);
  });

  it('names the person behind the creating credential, also when a token creates a token', async () => {
    const maker = await t.tokenWithScopes(t.org, ['write:api_tokens']);
    const created = (await create({ name: 'By token', scopes: ['read:api_tokens'] }, maker)).body;
    const res = await t.request('GET', `${base()}/${created.id}`);
    expect(res.body.createdBy).toEqual({ id: t.org.userId, name: expect.any(String), email: t.org.email });
  });

  it('lists newest first without tokens or hashes', async () => {
    const org = await t.createOrg();
    const a = (await create({ name: 'A', scopes: ['read:orders'] }, org.token, org)).body;
    advance(1000);
    const b = (await create({ name: 'B', scopes: ['read:orders'] }, org.token, org)).body;
    const res = await t.request('GET', base(org), { token: org.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 3, page: 1, limit: 20, totalPages: 1 });
    expect(res.body.data.map((x: { name: string }) => x.name)).toEqual(['B', 'A', 'test']);
    const text = JSON.stringify(res.body);
    for (const created of [a, b]) {
      expect(text).not.toContain(created.token);
      expect(text).not.toContain(sha256(created.token));
    }
    expect(text).not.toContain(org.token);
    for (const item of res.body.data) {
      expect(Object.keys(item).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name', 'scopes', 'tokenPrefix']);
    }
    const paged = await t.request('GET', `${base(org)}?limit=1&page=2`, { token: org.token });
    expect(paged.body).toMatchObject({ total: 3, page: 2, limit: 1, totalPages: 3 });
    expect(paged.body.data.map((x: { id: string }) => x.id)).toEqual([a.id]);
  });

  it('PATCH renames, and only renames', async () => {
    const created = (await create({ name: 'Old name', scopes: ['read:orders'] })).body;
    const res = await t.request('PATCH', `${base()}/${created.id}`, { body: { name: 'New name' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, name: 'New name', scopes: ['read:orders'], tokenPrefix: created.tokenPrefix });
    expect(res.body).not.toHaveProperty('token');
    expect((await t.request('GET', `${base()}/${created.id}`)).body.name).toBe('New name');
    for (const body of [{ scopes: ['write:all'] }, { name: 'x', scopes: ['write:all'] }, { expiresInDays: 5 }, { name: '' }, { name: 'x'.repeat(101) }, {}]) {
      const bad = await t.request('PATCH', `${base()}/${created.id}`, { body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.code).toBe('VALIDATION_FAILED');
    }
    expect(row(created.id).scopes).toBe(JSON.stringify(['read:orders']));
    const missing = await t.request('PATCH', `${base()}/tok_unknown`, { body: { name: 'x' } });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('TOKEN_NOT_FOUND');
  });

  it('DELETE revokes at once: 401 for the token, gone from reads, a place freed', async () => {
    const org = await t.createOrg();
    const created = (await create({ name: 'Doomed', scopes: ['read:orgs'] }, org.token, org)).body;
    const usage = async () => (await t.request('GET', `/orgs/${org.orgId}/billing/usage`, { token: org.token })).body.limits.apiTokens;
    expect(await usage()).toEqual({ used: 2, limit: 10 });
    expect((await t.request('GET', `/orgs/${org.orgId}`, { token: created.token })).status).toBe(200);

    const del = await t.request('DELETE', `${base(org)}/${created.id}`, { token: org.token });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ message: expect.stringContaining(created.id) });

    const refused = await t.request('GET', `/orgs/${org.orgId}`, { token: created.token });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('AUTH_TOKEN_INVALID');
    expect((await t.request('GET', `${base(org)}/${created.id}`, { token: org.token })).body.code).toBe('TOKEN_NOT_FOUND');
    const list = await t.request('GET', base(org), { token: org.token });
    expect(list.body.data.map((x: { id: string }) => x.id)).not.toContain(created.id);
    expect(await usage()).toEqual({ used: 1, limit: 10 });
    const again = await t.request('DELETE', `${base(org)}/${created.id}`, { token: org.token });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('TOKEN_NOT_FOUND');
  });

  it('a token can revoke itself', async () => {
    const created = (await create({ name: 'Self', scopes: ['write:api_tokens'] })).body;
    expect((await t.request('DELETE', `${base()}/${created.id}`, { token: created.token })).status).toBe(200);
    expect((await t.request('GET', base(), { token: created.token })).status).toBe(401);
  });

  it('refuses a token at once when another connection (the CLI, another process) revokes or narrows it', async () => {
    const created = (await create({ name: 'Watched', scopes: ['write:all'] })).body;
    expect((await t.request('GET', base(), { token: created.token })).status).toBe(200);
    const other = new Database(databaseFile(t.dir));
    try {
      other.prepare('UPDATE api_tokens SET scopes = ? WHERE id = ?').run(JSON.stringify(['read:orders']), created.id);
      const narrowed = await t.request('GET', base(), { token: created.token });
      expect(narrowed.status).toBe(403);
      other.prepare('UPDATE api_tokens SET revoked_at = ? WHERE id = ?').run(new Date().toISOString(), created.id);
    } finally {
      other.close();
    }
    expect((await t.request('GET', `/orgs/${t.org.orgId}/orders`, { token: created.token })).status).toBe(401);
  });

  it('refuses a token at once when a statement on the server’s own connection revokes it', async () => {
    const created = (await create({ name: 'Raw', scopes: ['read:orders'] })).body;
    expect((await t.request('GET', `/orgs/${t.org.orgId}/orders`, { token: created.token })).status).toBe(200);
    t.app.db.$client.prepare('UPDATE api_tokens SET revoked_at = ? WHERE id = ?').run(new Date().toISOString(), created.id);
    expect((await t.request('GET', `/orgs/${t.org.orgId}/orders`, { token: created.token })).status).toBe(401);
  });

  it('refuses a token at once when it is revoked while a group commit is open, and is known from the cache meanwhile', async () => {
    const created = (await create({ name: 'Grouped', scopes: ['read:orders'] })).body;
    expect((await t.request('GET', `/orgs/${t.org.orgId}/orders`, { token: created.token })).status).toBe(200);
    const hash = createHash('sha256').update(created.token).digest('hex');
    const client = t.app.db.$client;
    const attempts = inWriteTransaction(t.app.db, (tx) => {
      // The group's transaction stays open until the next turn of the event loop.
      expect(client.inTransaction).toBe(true);
      expect(t.app.tokens.get(hash, '')).toBeDefined();
      const before = authenticate(t.app, created.token);
      tx.run(sql`UPDATE api_tokens SET revoked_at = ${clock.toISOString()} WHERE id = ${created.id}`);
      expect(t.app.tokens.get(hash, '')).toBeUndefined();
      return { before, after: authenticate(t.app, created.token) };
    });
    await expect(attempts.before).resolves.toMatchObject({ tokenId: created.id });
    await expect(attempts.after).rejects.toMatchObject({ code: 'AUTH_TOKEN_INVALID' });
    expect((await t.request('GET', `/orgs/${t.org.orgId}/orders`, { token: created.token })).status).toBe(401);
  });

  it('hides another organization’s tokens behind 404', async () => {
    const other = await t.createOrg();
    const theirs = (await create({ name: 'Theirs', scopes: ['read:orders'] }, other.token, other)).body;
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.request(method, `${base()}/${theirs.id}`, body ? { body } : {});
      expect(res.status, method).toBe(404);
      expect(res.body.code).toBe('TOKEN_NOT_FOUND');
    }
    // Nothing was changed or revoked.
    expect((await t.request('GET', `${base(other)}/${theirs.id}`, { token: other.token })).body.name).toBe('Theirs');
  });
});

describe('scopes', () => {
  it('no escalation: a token can only hand out scopes it holds', async () => {
    const limited = await t.tokenWithScopes(t.org, ['write:api_tokens', 'read:orders']);
    for (const scopes of [['write:all'], ['read:all'], ['write:orders'], ['read:orders', 'read:shipments']]) {
      const res = await create({ name: 'Escalate', scopes }, limited);
      expect(res.status, scopes.join()).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
    const denied = await create({ name: 'Escalate', scopes: ['read:orders', 'write:all'] }, limited);
    expect(denied.body.message).toContain('write:all');
    expect(denied.body.message).not.toContain('read:orders');
    for (const scopes of [['read:orders'], ['read:api_tokens'], ['write:api_tokens', 'read:orders']]) {
      const res = await create({ name: 'Allowed', scopes }, limited);
      expect(res.status, scopes.join()).toBe(201);
      expect(res.body.scopes).toEqual(scopes);
    }
  });

  it('a JWT user can only grant what the role holds', async () => {
    // The owner holds write:all, so anything goes.
    const res = await create({ name: 'Owner made', scopes: ['write:all'] }, t.org.jwt);
    expect(res.status).toBe(201);
  });

  it('write:X implies read:X; read:all covers every read and no write', async () => {
    const writer = await t.tokenWithScopes(t.org, ['write:sender_addresses']);
    expect((await t.request('GET', `/orgs/${t.org.orgId}/sender-addresses`, { token: writer })).status).toBe(200);
    const readAll = await t.tokenWithScopes(t.org, ['read:all']);
    for (const path of ['/sender-addresses', '/api-tokens', '/billing/usage', '']) {
      expect((await t.request('GET', `/orgs/${t.org.orgId}${path}`, { token: readAll })).status, path).toBe(200);
    }
    const write = await t.request('POST', `/orgs/${t.org.orgId}/sender-addresses`, { token: readAll, body: senderAddressBody() });
    expect(write.status).toBe(403);
    expect(write.body.message).toContain('write:sender_addresses');
    const other = await t.tokenWithScopes(t.org, ['read:orders']);
    const res = await t.request('GET', base(), { token: other });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 'FORBIDDEN', error: 'Forbidden', message: expect.stringContaining('read:api_tokens') });
    const create403 = await create({ name: 'x', scopes: ['read:orders'] }, other);
    expect(create403.body.message).toContain('write:api_tokens');
  });

  it('a token of organization A gets 403 ORG_ACCESS_DENIED on organization B', async () => {
    const other = await t.createOrg();
    for (const path of [base(other), `/orgs/${other.orgId}`, `/orgs/${other.orgId}/billing/usage`]) {
      const res = await t.request('GET', path);
      expect(res.status, path).toBe(403);
      expect(res.body.code).toBe('ORG_ACCESS_DENIED');
    }
    const res = await create({ name: 'x', scopes: ['read:orders'] }, undefined, other);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('ORG_ACCESS_DENIED');
  });
});

describe('plan limit', () => {
  it('allows 10 live tokens on starter; the 11th is 403 RESOURCE_LIMIT_REACHED, a revoke frees a place', async () => {
    const org = await t.createOrg();
    const ids: string[] = [];
    for (let i = 2; i <= 10; i++) {
      const res = await create({ name: `token ${i}`, scopes: ['read:orders'] }, org.token, org);
      expect(res.status, `token ${i}`).toBe(201);
      ids.push(res.body.id);
    }
    const eleventh = await create({ name: 'one too many', scopes: ['read:orders'] }, org.token, org);
    expect(eleventh.status).toBe(403);
    expect(eleventh.body.code).toBe('RESOURCE_LIMIT_REACHED');
    expect(eleventh.body.message).toContain('apiTokens');
    expect(t.app.db.$client.prepare('SELECT count(*) AS n FROM api_tokens WHERE org_id = ?').get(org.orgId)).toEqual({ n: 10 });
    expect((await t.request('DELETE', `${base(org)}/${ids[0]}`, { token: org.token })).status).toBe(200);
    expect((await create({ name: 'fits again', scopes: ['read:orders'] }, org.token, org)).status).toBe(201);
  });
});

describe('POST /api-tokens/verify', () => {
  it('describes the request’s own API token', async () => {
    const created = (await create({ name: 'Verified', scopes: ['read:orders', 'write:shipments'], expiresInDays: 7 })).body;
    const res = await t.request('POST', '/api-tokens/verify', { token: created.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      valid: true,
      type: 'api_token',
      tokenId: created.id,
      tokenPrefix: created.tokenPrefix,
      orgId: t.org.orgId,
      scopes: ['read:orders', 'write:shipments'],
      expiresAt: created.expiresAt,
      user: { id: t.org.userId, name: expect.any(String), email: t.org.email },
    });
  });

  it('describes the token given in the body, not the caller', async () => {
    const created = (await create({ name: 'Body', scopes: ['read:orgs'] })).body;
    const res = await t.request('POST', '/api-tokens/verify', { body: { token: created.token } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'api_token', tokenId: created.id, scopes: ['read:orgs'], expiresAt: null });
    const anonymous = await t.request('POST', '/api-tokens/verify', { token: null, body: { token: created.token } });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.tokenId).toBe(created.id);
  });

  it('answers 401 for revoked, unknown and expired tokens and without any credential', async () => {
    const created = (await create({ name: 'Revoked', scopes: ['read:orgs'] })).body;
    await t.request('DELETE', `${base()}/${created.id}`);
    const revoked = await t.request('POST', '/api-tokens/verify', { body: { token: created.token } });
    expect(revoked.status).toBe(401);
    expect(revoked.body.code).toBe('AUTH_TOKEN_INVALID');
    const revokedHeader = await t.request('POST', '/api-tokens/verify', { token: created.token });
    expect(revokedHeader.status).toBe(401);
    const unknown = await t.request('POST', '/api-tokens/verify', { body: { token: 'shpd_unknownunknownunknown' } });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('AUTH_TOKEN_INVALID');
    const garbage = await t.request('POST', '/api-tokens/verify', { body: { token: 'garbage' } });
    expect(garbage.status).toBe(401);
    const none = await t.request('POST', '/api-tokens/verify', { token: null });
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('UNAUTHORIZED');
    const expiring = (await create({ name: 'Expiring', scopes: ['read:orgs'], expiresInDays: 1 })).body;
    await advanceDays(DAY);
    const expired = await t.request('POST', '/api-tokens/verify', { body: { token: expiring.token } });
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('AUTH_TOKEN_EXPIRED');
  });

  it('describes a JWT as type jwt', async () => {
    const jwt = (await t.request('POST', '/auth/login', { token: null, body: { email: t.org.email, password: t.org.password } })).body.accessToken;
    const expected = {
      valid: true,
      type: 'jwt',
      tokenId: null,
      tokenPrefix: null,
      orgId: null,
      scopes: [],
      expiresAt: new Date(Math.floor(clock.getTime() / 1000) * 1000 + 12 * 60 * 60 * 1000).toISOString(),
      user: { id: t.org.userId, name: expect.any(String), email: t.org.email },
    };
    const res = await t.request('POST', '/api-tokens/verify', { token: jwt });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expected);
    expect((await t.request('POST', '/api-tokens/verify', { token: null, body: { token: jwt } })).body).toEqual(expected);
  });

  it('rejects unknown body fields', async () => {
    const res = await t.request('POST', '/api-tokens/verify', { body: { token: 'x', extra: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
  });
});
