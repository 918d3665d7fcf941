import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { senderAddressBody, startTestServer, type TestServer } from '../../testing/harness';
import { orgMembers, users } from '../../db/schema';
import { newId } from '../../db/ids';
import { hashPassword } from './passwords';
import { FailedAuthLimiter } from './failedAuthLimiter';
import { signAccessToken } from './jwt';

/** A clock the tests move; each server of this file reads it. */
let clock = new Date('2026-06-15T12:00:00.000Z');
const now = () => clock;
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ now });
});
afterAll(async () => t.close());
// Failed authentications from 127.0.0.1 add up across tests; a minute later they are forgotten.
beforeEach(() => advance(61_000));

const orgPath = () => `/orgs/${t.org.orgId}`;
const login = (body: unknown) => t.request('POST', '/auth/login', { token: null, body });

/** Adds a user with a role in an organization straight into the database; returns its credentials. */
async function addMember(server: TestServer, orgId: string, role: 'owner' | 'admin' | 'packer' | 'viewer') {
  const email = `${role}-${newId('user')}@example.com`;
  const password = `${role} password 123`;
  const at = server.app.now().toISOString();
  const userId = newId('user');
  server.app.db
    .insert(users)
    .values({ id: userId, name: `The ${role}`, email, passwordHash: await hashPassword(password), createdAt: at, updatedAt: at })
    .run();
  server.app.db.insert(orgMembers).values({ orgId, userId, role, createdAt: at, updatedAt: at }).run();
  return { userId, email, password };
}

describe('POST /auth/login', () => {
  it('answers 200 with a Bearer token for 12 hours, the user and their organizations', async () => {
    const res = await login({ email: t.org.email, password: t.org.password });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['accessToken', 'expiresIn', 'orgs', 'tokenType', 'user']);
    expect(res.body.tokenType).toBe('Bearer');
    expect(res.body.expiresIn).toBe(43200);
    expect(res.body.accessToken.split('.')).toHaveLength(3);
    expect(res.body.user).toEqual({ id: t.org.userId, name: expect.any(String), email: t.org.email });
    expect(res.body.orgs).toEqual([{ id: t.org.orgId, name: 'Acme Warehouse', role: 'owner' }]);
    const claims = JSON.parse(Buffer.from(res.body.accessToken.split('.')[1], 'base64url').toString('utf8'));
    expect(claims.exp - claims.iat).toBe(43200);
    expect(claims.iat).toBe(Math.floor(clock.getTime() / 1000));
    expect(claims.sub).toBe(t.org.userId);
    // Two logins in the same second still get different tokens: a random jti.
    const again = await login({ email: t.org.email, password: t.org.password });
    const second = JSON.parse(Buffer.from(again.body.accessToken.split('.')[1], 'base64url').toString('utf8'));
    expect(second.iat).toBe(claims.iat);
    expect(second.jti).toMatch(/^[\w-]{22}$/);
    expect(second.jti).not.toBe(claims.jti);
  });

  it('treats the email case-insensitively', async () => {
    const res = await login({ email: t.org.email.toUpperCase(), password: t.org.password });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(t.org.userId);
  });

  it('lists every organization the user belongs to, with the role in each', async () => {
    const other = await t.createOrg('Second Site');
    t.app.db
      .insert(orgMembers)
      .values({ orgId: other.orgId, userId: t.org.userId, role: 'viewer', createdAt: clock.toISOString(), updatedAt: clock.toISOString() })
      .run();
    const res = await login({ email: t.org.email, password: t.org.password });
    expect(res.status).toBe(200);
    expect(res.body.orgs).toHaveLength(2);
    expect(res.body.orgs).toEqual(
      expect.arrayContaining([
        { id: t.org.orgId, name: 'Acme Warehouse', role: 'owner' },
        { id: other.orgId, name: 'Second Site', role: 'viewer' },
      ]),
    );
    // The viewer role holds in the second organization: reads pass, writes do not.
    const jwt = res.body.accessToken;
    expect((await t.request('GET', `/orgs/${other.orgId}`, { token: jwt })).status).toBe(200);
    const put = await t.request('PUT', `/orgs/${other.orgId}`, { token: jwt, body: { name: 'Renamed' } });
    expect(put.status).toBe(403);
    expect(put.body.code).toBe('FORBIDDEN');
    t.app.db.$client.prepare('DELETE FROM org_members WHERE org_id = ? AND user_id = ?').run(other.orgId, t.org.userId);
  });

  it('refuses a wrong password and an unknown email alike with 401 AUTH_INVALID_CREDENTIALS', async () => {
    const wrong = await login({ email: t.org.email, password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ code: 'AUTH_INVALID_CREDENTIALS', error: 'Unauthorized', message: expect.any(String) });
    const unknown = await login({ email: 'nobody@example.com', password: 'not the password' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('rejects malformed bodies with 400 and never issues a token', async () => {
    for (const body of [
      { email: 'not-an-email', password: 'x' },
      { email: t.org.email },
      { password: t.org.password },
      { email: t.org.email, password: '' },
      { email: t.org.email, password: t.org.password, remember: true },
      { email: 42, password: t.org.password },
      [],
    ]) {
      const res = await login(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.details.length).toBeGreaterThan(0);
    }
    const noBody = await t.request('POST', '/auth/login', { token: null });
    expect(noBody.status).toBe(400);
    expect(noBody.body.code).toBe('VALIDATION_FAILED');
    const malformed = await t.request('POST', '/auth/login', { token: null, rawBody: '{"email": "a@b.c", ' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('BAD_REQUEST');
  });
});

describe('JWT access tokens', () => {
  it('work as a Bearer credential on /orgs/{id}, whatever the case of the scheme', async () => {
    const jwt = (await login({ email: t.org.email, password: t.org.password })).body.accessToken;
    const res = await t.request('GET', orgPath(), { token: jwt });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(t.org.orgId);
    const lower = await t.request('GET', orgPath(), { token: null, headers: { authorization: `bearer ${jwt}` } });
    expect(lower.status).toBe(200);
  });

  it('refuses a JWT signed with another key, a tampered one and an unsigned one with 401 AUTH_TOKEN_INVALID', async () => {
    const foreign = await signAccessToken(new Uint8Array(randomBytes(32)), t.org.userId, clock);
    const res = await t.request('GET', orgPath(), { token: foreign });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'AUTH_TOKEN_INVALID', error: 'Unauthorized', message: expect.any(String) });

    const genuine = (await login({ email: t.org.email, password: t.org.password })).body.accessToken as string;
    const [header, payload, signature] = genuine.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: 'usr_someone_else' })).toString('base64url');
    expect((await t.request('GET', orgPath(), { token: `${header}.${forgedPayload}.${signature}` })).body.code).toBe('AUTH_TOKEN_INVALID');

    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect((await t.request('GET', orgPath(), { token: `${none}.${payload}.` })).body.code).toBe('AUTH_TOKEN_INVALID');
    expect((await t.request('GET', orgPath(), { token: 'not-a-jwt' })).body.code).toBe('AUTH_TOKEN_INVALID');
  });

  it('refuses an expired JWT with 401 AUTH_TOKEN_EXPIRED', async () => {
    const jwt = (await login({ email: t.org.email, password: t.org.password })).body.accessToken;
    advance(12 * 60 * 60 * 1000 - 1000);
    expect((await t.request('GET', orgPath(), { token: jwt })).status).toBe(200);
    advance(2000);
    const res = await t.request('GET', orgPath(), { token: jwt });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'AUTH_TOKEN_EXPIRED', error: 'Unauthorized', message: expect.any(String) });
  });

  it('refuses a JWT of a user who is no longer a member of the organization with 403 ORG_ACCESS_DENIED', async () => {
    const member = await addMember(t, t.org.orgId, 'admin');
    const jwt = (await login({ email: member.email, password: member.password })).body.accessToken;
    expect((await t.request('GET', orgPath(), { token: jwt })).status).toBe(200);
    t.app.db.$client.prepare('DELETE FROM org_members WHERE user_id = ?').run(member.userId);
    const res = await t.request('GET', orgPath(), { token: jwt });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('ORG_ACCESS_DENIED');
  });
});

describe('missing and malformed credentials', () => {
  it('answers 401 UNAUTHORIZED without an Authorization header', async () => {
    const res = await t.request('GET', orgPath(), { token: null });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'UNAUTHORIZED', error: 'Unauthorized', message: expect.stringContaining('Bearer') });
    // RFC 6750 §3: the scheme wanted, and `invalid_token` once a token was given and refused.
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="Shipdesk"');
    const unknown = await t.request('GET', orgPath(), { token: 'shpd_' + 'y'.repeat(40) });
    expect(unknown.headers.get('www-authenticate')).toBe('Bearer realm="Shipdesk", error="invalid_token"');
    const wrongPassword = await login({ email: t.org.email, password: 'not the password' });
    expect([wrongPassword.status, wrongPassword.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="Shipdesk"']);
    expect((await t.request('GET', orgPath())).headers.get('www-authenticate')).toBeNull();
  });

  it('answers 401 for other schemes and an empty Bearer', async () => {
    for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Token abc', `${t.org.token}`]) {
      const res = await t.request('GET', orgPath(), { token: null, headers: { authorization } });
      expect(res.status, authorization).toBe(401);
      expect(res.body.code, authorization).toBe('UNAUTHORIZED');
    }
  });

  it('answers 401 AUTH_TOKEN_INVALID for an unknown API token', async () => {
    const res = await t.request('GET', orgPath(), { token: 'shpd_' + 'x'.repeat(40) });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('AUTH_TOKEN_INVALID');
  });

  it('checks the credential before the input: an unauthenticated caller learns nothing about validity', async () => {
    const res = await t.request('PUT', orgPath(), { token: null, body: { slug: 'Bad Slug', colour: 'red' } });
    expect(res.status).toBe(401);
    const other = await t.createOrg();
    const cross = await t.request('PUT', `/orgs/${other.orgId}`, { body: { slug: 'Bad Slug' } });
    expect(cross.status).toBe(403);
    expect(cross.body.code).toBe('ORG_ACCESS_DENIED');
  });
});

describe('FailedAuthLimiter memory', () => {
  it('forgets clients whose failures have left the window once many are on record', () => {
    let at = Date.parse('2026-05-01T08:00:00.000Z');
    const limiter = new FailedAuthLimiter(() => new Date(at));
    for (let i = 0; i < 1000; i++) limiter.fail(`10.0.${Math.floor(i / 250)}.${i % 250}`);
    // All still in the window: a sweep at 500 kept them, the next waits for 1000.
    expect(limiter.trackedClients).toBe(1000);
    at += 61_000;
    limiter.fail('10.9.9.9');
    expect(limiter.trackedClients).toBe(1);
    expect(limiter.isOverLimit('10.0.0.1')).toBe(false);
  });
});

describe('failed-authentication rate limit', () => {
  let r: TestServer;
  beforeAll(async () => {
    r = await startTestServer({ now });
  });
  afterAll(async () => r.close());

  it('answers 429 RATE_LIMITED with Retry-After past 10 failures a minute; requests without a credential do not count', async () => {
    // Requests without any Authorization header are not attempts.
    for (let i = 0; i < 15; i++) {
      const res = await r.request('GET', `/orgs/${r.org.orgId}`, { token: null });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHORIZED');
    }
    for (let i = 0; i < 10; i++) {
      const res = await r.request('GET', `/orgs/${r.org.orgId}`, { token: `shpd_wrong${i}` });
      expect(res.status, `failure ${i + 1}`).toBe(401);
      expect(res.headers.get('retry-after')).toBeNull();
    }
    const limited = await r.request('GET', `/orgs/${r.org.orgId}`, { token: 'shpd_wrong-again' });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ code: 'RATE_LIMITED', error: 'Too Many Requests', message: expect.any(String) });
    expect(limited.headers.get('retry-after')).toBe('60');

    // A valid credential still works (documented choice: only failures are limited for bearer tokens).
    expect((await r.request('GET', `/orgs/${r.org.orgId}`)).status).toBe(200);
    expect((await r.request('GET', `/orgs/${r.org.orgId}`, { token: r.org.jwt })).status).toBe(200);
    // A request without a credential is still an ordinary 401.
    expect((await r.request('GET', `/orgs/${r.org.orgId}`, { token: null })).status).toBe(401);

    // Login is refused while over the limit, even with the right password.
    const loginWhileLimited = await r.request('POST', '/auth/login', { token: null, body: { email: r.org.email, password: r.org.password } });
    expect(loginWhileLimited.status).toBe(429);
    expect(loginWhileLimited.body.code).toBe('RATE_LIMITED');
    expect(Number(loginWhileLimited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // Token verification failures are failed authentications too.
    const verify = await r.request('POST', '/api-tokens/verify', { token: null, body: { token: 'shpd_nope' } });
    expect(verify.status).toBe(429);

    // Retry-After counts down with the clock.
    advance(30_000);
    const later = await r.request('GET', `/orgs/${r.org.orgId}`, { token: 'shpd_still-wrong' });
    expect(later.status).toBe(429);
    expect(Number(later.headers.get('retry-after'))).toBe(30);

    // The window slides: a minute after the burst, a wrong credential is an ordinary 401 again.
    advance(61_000);
    const again = await r.request('GET', `/orgs/${r.org.orgId}`, { token: 'shpd_wrong-later' });
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('AUTH_TOKEN_INVALID');
    const loginAgain = await r.request('POST', '/auth/login', { token: null, body: { email: r.org.email, password: r.org.password } });
    expect(loginAgain.status).toBe(200);
  });

  it('Retry-After is the wait until the client is let through again, not until the oldest failure leaves', async () => {
    advance(61_000);
    // Ten failures a second apart, then one more: 429.
    for (let i = 0; i < 10; i++) {
      expect((await r.request('GET', `/orgs/${r.org.orgId}`, { token: `shpd_spread${i}` })).status).toBe(401);
      advance(1000);
    }
    const limited = await r.request('GET', `/orgs/${r.org.orgId}`, { token: 'shpd_spread-last' });
    expect(limited.status).toBe(429);
    // 11 failures in the window: the first two have to leave before fewer than 10 remain.
    const wait = Number(limited.headers.get('retry-after'));
    expect(wait).toBe(51);
    advance((wait - 1) * 1000);
    const early = await r.request('POST', '/auth/login', { token: null, body: { email: r.org.email, password: r.org.password } });
    expect(early.status).toBe(429);
    advance(1000);
    const onTime = await r.request('POST', '/auth/login', { token: null, body: { email: r.org.email, password: r.org.password } });
    expect(onTime.status).toBe(200);
  });

  it('counts failed logins: the 11th wrong password within a minute is 429', async () => {
    advance(61_000);
    for (let i = 0; i < 10; i++) {
      const res = await r.request('POST', '/auth/login', { token: null, body: { email: r.org.email, password: `guess ${i}` } });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('AUTH_INVALID_CREDENTIALS');
    }
    const eleventh = await r.request('POST', '/auth/login', { token: null, body: { email: r.org.email, password: r.org.password } });
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers.get('retry-after')).not.toBeNull();
    // Malformed login bodies are not authentication attempts and still get their 400.
    const malformed = await r.request('POST', '/auth/login', { token: null, body: { email: 'x' } });
    expect(malformed.status).toBe(400);
    advance(61_000);
    expect((await r.request('POST', '/auth/login', { token: null, body: { email: r.org.email, password: r.org.password } })).status).toBe(200);
  });
});

describe('roles', () => {
  it('a packer reads everything and writes shipments, orders and printers only', async () => {
    const packer = await addMember(t, t.org.orgId, 'packer');
    const res = await login({ email: packer.email, password: packer.password });
    expect(res.status).toBe(200);
    expect(res.body.orgs).toEqual([{ id: t.org.orgId, name: 'Acme Warehouse', role: 'packer' }]);
    const jwt = res.body.accessToken;
    expect((await t.request('GET', `${orgPath()}/sender-addresses`, { token: jwt })).status).toBe(200);
    // The carriers handlers arrive with their own issue; until then the stub answers 500 after authorization passed.
    const carriers = await t.request('GET', `${orgPath()}/carriers`, { token: jwt });
    if (!(carriers.status === 500 && carriers.body.message === 'Not built yet')) expect(carriers.status).toBe(200);
    expect((await t.request('GET', `${orgPath()}/billing/usage`, { token: jwt })).status).toBe(200);
    const denied = await t.request('POST', `${orgPath()}/sender-addresses`, { token: jwt, body: senderAddressBody() });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ code: 'FORBIDDEN', error: 'Forbidden', message: expect.stringContaining('write:sender_addresses') });
    const token = await t.request('POST', `${orgPath()}/api-tokens`, { token: jwt, body: { name: 'mine', scopes: ['read:orders'] } });
    expect(token.status).toBe(403);
    expect(token.body.message).toContain('write:api_tokens');
  });

  it('a viewer reads but cannot change the organization', async () => {
    const viewer = await addMember(t, t.org.orgId, 'viewer');
    const jwt = (await login({ email: viewer.email, password: viewer.password })).body.accessToken;
    expect((await t.request('GET', orgPath(), { token: jwt })).status).toBe(200);
    const res = await t.request('PUT', orgPath(), { token: jwt, body: { name: 'Taken over' } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
    expect(res.body.message).toContain('write:orgs');
    expect((await t.request('GET', orgPath())).body.name).toBe('Acme Warehouse');
  });

  it('an admin holds write:all', async () => {
    const admin = await addMember(t, t.org.orgId, 'admin');
    const jwt = (await login({ email: admin.email, password: admin.password })).body.accessToken;
    const res = await t.request('POST', `${orgPath()}/api-tokens`, { token: jwt, body: { name: 'admin made', scopes: ['write:all'] } });
    expect(res.status).toBe(201);
    expect((await t.request('DELETE', `${orgPath()}/api-tokens/${res.body.id}`)).status).toBe(200);
  });

  it('a user of one organization gets 403 ORG_ACCESS_DENIED on another organization’s paths', async () => {
    const other = await t.createOrg();
    const jwt = (await login({ email: t.org.email, password: t.org.password })).body.accessToken;
    for (const [method, path] of [
      ['GET', `/orgs/${other.orgId}`],
      ['GET', `/orgs/${other.orgId}/billing/usage`],
      ['GET', `/orgs/${other.orgId}/api-tokens`],
      ['GET', `/orgs/${other.orgId}/sender-addresses`],
      ['GET', `/orgs/org_does_not_exist`],
    ] as const) {
      const res = await t.request(method, path, { token: jwt });
      expect(res.status, path).toBe(403);
      expect(res.body.code, path).toBe('ORG_ACCESS_DENIED');
    }
    const put = await t.request('PUT', `/orgs/${other.orgId}`, { token: jwt, body: { name: 'Mine now' } });
    expect(put.status).toBe(403);
    expect(put.body.code).toBe('ORG_ACCESS_DENIED');
    expect((await t.request('GET', `/orgs/${other.orgId}`, { token: other.jwt })).body.name).not.toBe('Mine now');
  });
});
