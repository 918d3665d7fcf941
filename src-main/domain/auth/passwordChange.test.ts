import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestOrg, type TestServer } from '../../testing/harness';

/** Changing one's own password, resetting a member's, and the CLI's way back in, through the real server and database. */
let clock = new Date('2026-05-04T08:00:00.000Z');
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ now: () => clock });
});
afterAll(async () => t.close());
// Failed authentications from 127.0.0.1 add up across tests; a minute later they are forgotten.
beforeEach(() => advance(61_000));

let emails = 0;
const PASSWORD = 'packing all day long';
const loginAs = (email: string, password: string) => t.request('POST', '/auth/login', { token: null, body: { email, password } });
const changeOwn = (token: string, body: unknown) => t.request('POST', '/auth/password', { token, body });
const readOrg = (org: TestOrg, token: string) => t.request('GET', `/orgs/${org.orgId}`, { token });
const resetPassword = (org: TestOrg, userId: string, password: string, token = org.token) =>
  t.request('PATCH', `/orgs/${org.orgId}/members/${userId}`, { token, body: { password } });

async function addMember(org: TestOrg, role: 'admin' | 'packer' | 'viewer') {
  const email = `${role}-${++emails}@acme.example`;
  const res = await t.request('POST', `/orgs/${org.orgId}/members`, { token: org.token, body: { email, name: `The ${role}`, role, password: PASSWORD } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const login = await loginAs(email, PASSWORD);
  expect(login.status).toBe(200);
  return { userId: res.body.id as string, email, jwt: login.body.accessToken as string };
}

describe('POST /auth/password', () => {
  it('changes one’s own password: the answer is a new login, logins made before stop working, API tokens keep working', async () => {
    const org = await t.createOrg();
    const admin = await addMember(org, 'admin');
    const otherLogin = (await loginAs(admin.email, PASSWORD)).body.accessToken as string;
    const made = await t.request('POST', `/orgs/${org.orgId}/api-tokens`, { token: admin.jwt, body: { name: 'scanner script', scopes: ['read:shipments'] } });
    expect(made.status).toBe(201);
    const adminToken = made.body.token as string;
    advance(1_000);

    const res = await changeOwn(admin.jwt, { currentPassword: PASSWORD, newPassword: 'a brand new password' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      accessToken: expect.any(String),
      tokenType: 'Bearer',
      expiresIn: 43_200,
      user: { id: admin.userId, name: 'The admin', email: admin.email },
      orgs: [{ id: org.orgId, name: expect.any(String), role: 'admin' }],
    });
    for (const old of [admin.jwt, otherLogin]) {
      const refused = await readOrg(org, old);
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ code: 'AUTH_TOKEN_INVALID', error: 'Unauthorized', message: 'The password was changed after this login; log in again' });
    }
    expect((await readOrg(org, res.body.accessToken)).status).toBe(200);
    expect((await t.request('GET', `/orgs/${org.orgId}/shipments`, { token: adminToken })).status).toBe(200);

    expect((await loginAs(admin.email, PASSWORD)).status).toBe(401);
    expect((await loginAs(admin.email, 'a brand new password')).status).toBe(200);
    const stored = t.app.db.$client.prepare('SELECT password_hash, password_changed_at FROM users WHERE id = ?').get(admin.userId) as Record<string, string>;
    expect(stored.password_hash).toMatch(/^scrypt\$/);
    expect(stored.password_hash).not.toContain('a brand new password');
    expect(stored.password_changed_at).toBe(clock.toISOString());
  });

  it('asks for the right current password and a new one of 8 characters or more, other than the current', async () => {
    const org = await t.createOrg();
    const viewer = await addMember(org, 'viewer');
    const cases: [unknown, string][] = [
      [{ currentPassword: 'not it at all', newPassword: 'a brand new password' }, 'body.currentPassword'],
      [{ currentPassword: PASSWORD, newPassword: 'short' }, 'body.newPassword'],
      [{ currentPassword: PASSWORD, newPassword: PASSWORD }, 'body.newPassword'],
      [{ newPassword: 'a brand new password' }, 'body.currentPassword'],
      [{ currentPassword: PASSWORD, newPassword: 'a brand new password', email: viewer.email }, 'body.email'],
    ];
    for (const [body, path] of cases) {
      const res = await changeOwn(viewer.jwt, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.details.map((detail: { path: string }) => detail.path)).toContain(path);
    }
    // Nothing changed: the login still works, with the old password.
    expect((await readOrg(org, viewer.jwt)).status).toBe(200);
    expect((await loginAs(viewer.email, PASSWORD)).status).toBe(200);
    expect((await changeOwn('', { currentPassword: PASSWORD, newPassword: 'a brand new password' })).status).toBe(401);
  });

  it('counts wrong current passwords as failed authentications: the 11th in a minute is 429', async () => {
    const org = await t.createOrg();
    const admin = await addMember(org, 'admin');
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await changeOwn(admin.jwt, { currentPassword: `guess number ${attempt}`, newPassword: 'a brand new password' })).status).toBe(400);
    }
    const limited = await changeOwn(admin.jwt, { currentPassword: PASSWORD, newPassword: 'a brand new password' });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    advance(61_000);
    expect((await changeOwn(admin.jwt, { currentPassword: PASSWORD, newPassword: 'a brand new password' })).status).toBe(200);
  });
});

describe('PATCH /orgs/{orgId}/members/{userId} {password}', () => {
  it('an owner sets a packer’s forgotten password: the member as answer, their old logins end, the new password works', async () => {
    const org = await t.createOrg();
    const packer = await addMember(org, 'packer');
    advance(1_000);
    const res = await resetPassword(org, packer.userId, 'given by the owner');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: packer.userId,
      name: 'The packer',
      email: packer.email,
      role: 'packer',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await readOrg(org, packer.jwt)).status).toBe(401);
    expect((await loginAs(packer.email, PASSWORD)).status).toBe(401);
    expect((await loginAs(packer.email, 'given by the owner')).status).toBe(200);
  });

  it('needs the rights over the member’s role, not one’s own password, and only while this is their one organization', async () => {
    const org = await t.createOrg();
    const admin = await addMember(org, 'admin');
    const packer = await addMember(org, 'packer');

    const own = await resetPassword(org, admin.userId, 'my own new password', admin.jwt);
    expect(own.status).toBe(403);
    expect(own.body.message).toContain('POST /auth/password');

    // write:org_members without the packer's scopes.
    const narrow = await t.tokenWithScopes(org, ['read:all', 'write:org_members']);
    const refused = await resetPassword(org, packer.userId, 'a new password here', narrow);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('Setting the password of a member who is packer') });

    const packerOnly = await t.request('PATCH', `/orgs/${org.orgId}/members/${admin.userId}`, { token: packer.jwt, body: { password: 'a new password here' } });
    expect(packerOnly.status).toBe(403);

    // The packer also belongs to another organization: their password is theirs alone there.
    const other = await t.createOrg();
    expect((await t.request('POST', `/orgs/${other.orgId}/members`, { token: other.token, body: { email: packer.email, role: 'viewer' } })).status).toBe(201);
    const shared = await resetPassword(org, packer.userId, 'a new password here');
    expect(shared.status).toBe(409);
    expect(shared.body.message).toBe('The packer is also a member of another organization; only they can change their password');

    const short = await resetPassword(org, admin.userId, 'short');
    expect(short.status).toBe(400);
    expect(short.body.details).toEqual([{ path: 'body.password', message: 'At least 8 characters' }]);
    const blank = await resetPassword(org, admin.userId, ' '.repeat(12));
    expect(blank.status).toBe(400);
    expect(blank.body.details).toEqual([{ path: 'body.password', message: 'Not only spaces' }]);

    // Nothing changed for anyone.
    for (const who of [admin, packer]) expect((await loginAs(who.email, PASSWORD)).status).toBe(200);
  });
});

describe('shipdesk user set-password', () => {
  it('sets any user’s password from the machine, ending their logins; an unknown email is 404 on stderr', async () => {
    const org = await t.createOrg();
    const run = promisify(execFile);
    const env = { ...process.env, SHIPDESK_DATA_DIR: t.dir };
    const { stdout } = await run(
      'node_modules/.bin/tsx',
      ['src-main/cli.ts', 'user', 'set-password', '--email', org.email.toUpperCase(), '--password', 'back in again'],
      { env },
    );
    expect(JSON.parse(stdout)).toEqual({ userId: org.userId, email: org.email });
    expect((await loginAs(org.email, 'back in again')).status).toBe(200);
    expect((await loginAs(org.email, org.password)).status).toBe(401);
    // The CLI's process wrote with the wall clock, far past this server's test clock: the owner's earlier JWT ends.
    expect((await readOrg(org, org.jwt)).status).toBe(401);

    const failed = await run(
      'node_modules/.bin/tsx',
      ['src-main/cli.ts', 'user', 'set-password', '--email', 'nobody@acme.example', '--password', 'back in again'],
      { env },
    ).catch((error: { code: number; stderr: string }) => error);
    expect('code' in failed ? failed.code : 0).toBe(1);
    expect(JSON.parse(('stderr' in failed ? failed.stderr : '').trim().split('\n').at(-1) ?? '')).toMatchObject({
      code: 'NOT_FOUND',
      message: 'No user has the email nobody@acme.example on this installation',
    });
  }, 30_000);
});
