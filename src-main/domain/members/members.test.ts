import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { databaseFile } from '../../app/runtime/config';
import { orgMembers } from '../../db/schema';
import { setupLocalCarrier, shipmentBody, senderAddressBody, startTestServer, type TestOrg, type TestServer } from '../../testing/harness';
import { setPlan } from '../orgs/orgs';

let clock = new Date('2026-04-01T09:00:00.000Z');
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

let emails = 0;
const newEmail = (who: string) => `${who}-${++emails}@acme.example`;
const PASSWORD = 'packing all day long';

const base = (org: TestOrg) => `/orgs/${org.orgId}/members`;
const add = (org: TestOrg, body: unknown, token = org.token) => t.request('POST', base(org), { token, body });
const loginAs = (email: string, password = PASSWORD) => t.request('POST', '/auth/login', { token: null, body: { email, password } });
const row = (sql: string, ...args: unknown[]) => t.app.db.$client.prepare(sql).get(...args) as Record<string, unknown> | undefined;

/** A new member added through the API by the owner, logged in: their user id, email and JWT. */
async function member(org: TestOrg, role: 'admin' | 'packer' | 'viewer') {
  const email = newEmail(role);
  const res = await add(org, { email, name: `The ${role}`, role, password: PASSWORD });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const login = await loginAs(email);
  expect(login.status).toBe(200);
  return { userId: res.body.id as string, email, jwt: login.body.accessToken as string };
}

describe('POST /orgs/{orgId}/members', () => {
  it('adds a new user with 201: the member, lower-case email, a scrypt hash and a working login', async () => {
    const org = await t.createOrg();
    const res = await add(org, { email: 'Pia.Packer@ACME.example', name: 'Pia Packer', role: 'packer', password: 'a long packing password' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^usr_[0-9a-z]{26}$/),
      name: 'Pia Packer',
      email: 'pia.packer@acme.example',
      role: 'packer',
      createdAt: clock.toISOString(),
      updatedAt: clock.toISOString(),
    });
    expect(JSON.stringify(res.body)).not.toContain('password');

    const user = row('SELECT * FROM users WHERE id = ?', res.body.id);
    expect(user?.password_hash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(user)).not.toContain('a long packing password');
    expect(row('SELECT role FROM org_members WHERE org_id = ? AND user_id = ?', org.orgId, res.body.id)).toEqual({ role: 'packer' });

    const login = await loginAs('PIA.PACKER@acme.example', 'a long packing password');
    expect(login.status).toBe(200);
    expect(login.body.user).toEqual({ id: res.body.id, name: 'Pia Packer', email: 'pia.packer@acme.example' });
    expect(login.body.orgs).toEqual([{ id: org.orgId, name: expect.any(String), role: 'packer' }]);
  });

  it('rejects bad bodies with 400 VALIDATION_FAILED at the field; owner cannot be given', async () => {
    const org = await t.createOrg();
    const ok = { email: newEmail('x'), name: 'X', role: 'viewer', password: PASSWORD };
    const cases: [unknown, string][] = [
      [{ ...ok, role: 'owner' }, 'body.role'],
      [{ ...ok, role: 'boss' }, 'body.role'],
      [{ ...ok, role: undefined }, 'body.role'],
      [{ ...ok, email: 'not-an-email' }, 'body.email'],
      [{ ...ok, email: undefined }, 'body.email'],
      [{ ...ok, password: 'short' }, 'body.password'],
      [{ ...ok, name: '' }, 'body.name'],
      [{ ...ok, colour: 'red' }, 'body.colour'],
      // A new email needs both a name and a password.
      [{ ...ok, password: undefined }, 'body.password'],
      [{ ...ok, name: undefined }, 'body.name'],
    ];
    for (const [body, path] of cases) {
      const res = await add(org, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(
        res.body.details.map((d: { path: string }) => d.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect(row('SELECT count(*) AS n FROM users WHERE email = ?', ok.email)).toEqual({ n: 0 });
    expect((await t.request('GET', base(org), { token: org.token })).body.total).toBe(1);
  });

  it('adds an existing user of this installation with their own name and password; a password in the body is 409', async () => {
    const shop = await t.createOrg('Other shop');
    const existing = await member(shop, 'packer');
    const org = await t.createOrg();

    const withPassword = await add(org, { email: existing.email, role: 'viewer', password: 'a password of mine' });
    expect(withPassword.status).toBe(409);
    expect(withPassword.body).toEqual({ code: 'CONFLICT', error: 'Conflict', message: expect.stringContaining('keeps their own password') });
    expect(row('SELECT 1 AS x FROM org_members WHERE org_id = ? AND user_id = ?', org.orgId, existing.userId)).toBeUndefined();

    const res = await add(org, { email: existing.email.toUpperCase(), role: 'viewer', name: 'Ignored name' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: existing.userId, name: 'The packer', email: existing.email, role: 'viewer' });

    // The same password still works, and the login now lists both organizations with their roles.
    const login = await loginAs(existing.email);
    expect(login.status).toBe(200);
    expect(login.body.orgs).toEqual(
      expect.arrayContaining([
        { id: shop.orgId, name: 'Other shop', role: 'packer' },
        { id: org.orgId, name: expect.any(String), role: 'viewer' },
      ]),
    );
    expect(login.body.orgs).toHaveLength(2);
  });

  it('refuses a duplicate membership with 409 CONFLICT, whatever the case of the email', async () => {
    const org = await t.createOrg();
    const { email } = await member(org, 'viewer');
    for (const body of [
      { email: email.toUpperCase(), role: 'packer' },
      { email, role: 'viewer', name: 'Again', password: PASSWORD },
      { email: org.email, role: 'admin' },
    ]) {
      const res = await add(org, body);
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(res.body.code).toBe('CONFLICT');
      expect(res.body.message).toContain('already a member');
    }
    expect((await t.request('GET', base(org), { token: org.token })).body.total).toBe(2);
  });

  it('stops at the plan’s teamMembers limit with 403 RESOURCE_LIMIT_REACHED; a removed member frees the place', async () => {
    const org = await t.createOrg();
    const usage = async () => (await t.request('GET', `/orgs/${org.orgId}/billing/usage`, { token: org.token })).body.limits.teamMembers;
    expect(await usage()).toEqual({ used: 1, limit: 3 });
    await member(org, 'packer');
    const viewer = await member(org, 'viewer');
    expect(await usage()).toEqual({ used: 3, limit: 3 });

    const email = newEmail('fourth');
    const refused = await add(org, { email, name: 'Fourth', role: 'packer', password: PASSWORD });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: 'RESOURCE_LIMIT_REACHED', error: 'Forbidden', message: expect.stringContaining('teamMembers') });
    expect(refused.body.message).toContain('3 team members');
    // Nothing of the refused add is kept: no user, no membership.
    expect(row('SELECT count(*) AS n FROM users WHERE email = ?', email)).toEqual({ n: 0 });

    expect((await t.request('DELETE', `${base(org)}/${viewer.userId}`, { token: org.token })).status).toBe(200);
    expect(await usage()).toEqual({ used: 2, limit: 3 });
    expect((await add(org, { email, name: 'Fourth', role: 'packer', password: PASSWORD })).status).toBe(201);

    setPlan(t.app, org.orgId, 'pro');
    expect(await usage()).toEqual({ used: 3, limit: 10 });
    expect((await add(org, { email: newEmail('fifth'), name: 'Fifth', role: 'viewer', password: PASSWORD })).status).toBe(201);
  });
});

describe('reading and listing', () => {
  it('lists newest first in the page envelope, and reads one member', async () => {
    const org = await t.createOrg();
    advance(1000);
    const packer = await member(org, 'packer');
    advance(1000);
    const viewer = await member(org, 'viewer');

    const list = await t.request('GET', base(org), { token: org.token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 3, page: 1, limit: 20, totalPages: 1 });
    expect(list.body.data.map((m: { id: string }) => m.id)).toEqual([viewer.userId, packer.userId, org.userId]);
    expect(list.body.data[2]).toEqual({
      id: org.userId,
      name: expect.any(String),
      email: org.email,
      role: 'owner',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    for (const item of list.body.data) expect(Object.keys(item).sort()).toEqual(['createdAt', 'email', 'id', 'name', 'role', 'updatedAt']);

    const paged = await t.request('GET', `${base(org)}?page=2&limit=2`, { token: org.token });
    expect(paged.body).toMatchObject({ total: 3, page: 2, limit: 2, totalPages: 2 });
    expect(paged.body.data.map((m: { id: string }) => m.id)).toEqual([org.userId]);

    const one = await t.request('GET', `${base(org)}/${packer.userId}`, { token: org.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(list.body.data[1]);
  });

  it('answers 404 MEMBER_NOT_FOUND for an unknown user and for another organization’s member, and changes nothing', async () => {
    const org = await t.createOrg();
    const other = await t.createOrg();
    const theirs = await member(other, 'packer');
    for (const userId of ['usr_unknown', theirs.userId, other.userId]) {
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { role: 'viewer' }],
        ['DELETE', undefined],
      ] as const) {
        const res = await t.request(method, `${base(org)}/${userId}`, { token: org.token, ...(body ? { body } : {}) });
        expect(res.status, `${method} ${userId}`).toBe(404);
        expect(res.body).toEqual({ code: 'MEMBER_NOT_FOUND', error: 'Not Found', message: expect.stringContaining(userId) });
      }
    }
    expect(row('SELECT role FROM org_members WHERE org_id = ? AND user_id = ?', other.orgId, theirs.userId)).toEqual({ role: 'packer' });
  });

  it('answers 403 ORG_ACCESS_DENIED on another organization’s members, for tokens and logins alike', async () => {
    const org = await t.createOrg();
    const other = await t.createOrg();
    const admin = await member(org, 'admin');
    for (const token of [org.token, org.jwt, admin.jwt]) {
      for (const [method, path, body] of [
        ['GET', base(other), undefined],
        ['POST', base(other), { email: newEmail('intruder'), name: 'I', role: 'admin', password: PASSWORD }],
        ['GET', `${base(other)}/${other.userId}`, undefined],
        ['PATCH', `${base(other)}/${other.userId}`, { name: 'Taken over' }],
        ['DELETE', `${base(other)}/${other.userId}`, undefined],
      ] as const) {
        const res = await t.request(method, path, { token, ...(body ? { body } : {}) });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.code).toBe('ORG_ACCESS_DENIED');
      }
    }
    expect((await t.request('GET', base(other), { token: other.token })).body.total).toBe(1);
  });
});

describe('roles are enforced for members logged in with their password', () => {
  it('a packer creates shipments but gets 403 FORBIDDEN on carriers and on the team', async () => {
    const org = await t.createOrg();
    const { carrierId } = await setupLocalCarrier(t, org);
    const packer = await member(org, 'packer');

    const shipment = await t.request('POST', `/orgs/${org.orgId}/shipments`, { token: packer.jwt, body: shipmentBody(carrierId) });
    expect(shipment.status).toBe(201);
    expect((await t.request('GET', `/orgs/${org.orgId}/carriers`, { token: packer.jwt })).status).toBe(200);

    const carrier = await t.request('POST', `/orgs/${org.orgId}/carriers`, {
      token: packer.jwt,
      body: { name: 'Mine', carrierSlug: 'local', config: {}, senderAddressId: shipment.body.senderAddressId },
    });
    expect(carrier.status).toBe(403);
    expect(carrier.body).toEqual({ code: 'FORBIDDEN', error: 'Forbidden', message: 'This operation needs the scope write:carriers' });
    const deleteCarrier = await t.request('DELETE', `/orgs/${org.orgId}/carriers/${carrierId}`, { token: packer.jwt });
    expect(deleteCarrier.status).toBe(403);

    expect((await t.request('GET', base(org), { token: packer.jwt })).status).toBe(200);
    const addOther = await add(org, { email: newEmail('friend'), name: 'Friend', role: 'packer', password: PASSWORD }, packer.jwt);
    expect(addOther.status).toBe(403);
    expect(addOther.body.message).toContain('write:org_members');
  });

  it('a viewer reads but every write is 403 FORBIDDEN', async () => {
    const org = await t.createOrg();
    const { carrierId } = await setupLocalCarrier(t, org);
    const viewer = await member(org, 'viewer');
    expect((await t.request('GET', `/orgs/${org.orgId}/shipments`, { token: viewer.jwt })).status).toBe(200);
    expect((await t.request('GET', base(org), { token: viewer.jwt })).status).toBe(200);
    expect((await t.request('GET', `${base(org)}/${org.userId}`, { token: viewer.jwt })).status).toBe(200);
    for (const [method, path, body, scope] of [
      ['POST', `/orgs/${org.orgId}/shipments`, shipmentBody(carrierId), 'write:shipments'],
      ['POST', `/orgs/${org.orgId}/sender-addresses`, senderAddressBody(), 'write:sender_addresses'],
      ['POST', base(org), { email: newEmail('v'), name: 'V', role: 'viewer', password: PASSWORD }, 'write:org_members'],
      ['PATCH', `${base(org)}/${viewer.userId}`, { name: 'Me, renamed' }, 'write:org_members'],
      ['DELETE', `${base(org)}/${org.userId}`, undefined, 'write:org_members'],
    ] as const) {
      const res = await t.request(method, path, { token: viewer.jwt, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual({ code: 'FORBIDDEN', error: 'Forbidden', message: `This operation needs the scope ${scope}` });
    }
  });

  it('an admin adds admins, packers and viewers', async () => {
    const org = await t.createOrg();
    setPlan(t.app, org.orgId, 'pro');
    const admin = await member(org, 'admin');
    for (const role of ['admin', 'packer', 'viewer']) {
      const res = await add(org, { email: newEmail(role), name: role, role, password: PASSWORD }, admin.jwt);
      expect(res.status, role).toBe(201);
    }
  });

  it('a role can only be given, changed or taken away by a credential holding all of its scopes', async () => {
    const org = await t.createOrg();
    setPlan(t.app, org.orgId, 'pro');
    const admin = await member(org, 'admin');
    const packer = await member(org, 'packer');
    const teamToken = await t.tokenWithScopes(org, ['read:all', 'write:org_members']);

    const viewer = await add(org, { email: newEmail('viewer'), name: 'V', role: 'viewer', password: PASSWORD }, teamToken);
    expect(viewer.status).toBe(201);
    for (const role of ['packer', 'admin']) {
      const res = await add(org, { email: newEmail(role), name: role, role, password: PASSWORD }, teamToken);
      expect(res.status, role).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
      expect(res.body.message).toContain(`Giving the role ${role}`);
    }
    const promote = await t.request('PATCH', `${base(org)}/${viewer.body.id}`, { token: teamToken, body: { role: 'packer' } });
    expect(promote.status).toBe(403);
    expect(promote.body.message).toContain('write:shipments');
    for (const target of [admin.userId, packer.userId]) {
      const demote = await t.request('PATCH', `${base(org)}/${target}`, { token: teamToken, body: { role: 'viewer' } });
      expect(demote.status).toBe(403);
      const remove = await t.request('DELETE', `${base(org)}/${target}`, { token: teamToken });
      expect(remove.status).toBe(403);
      expect(remove.body.code).toBe('FORBIDDEN');
    }
    // Renaming someone else needs the same rights over their role.
    expect((await t.request('PATCH', `${base(org)}/${admin.userId}`, { token: teamToken, body: { name: 'Renamed admin' } })).status).toBe(403);
    // What it holds, it may do: rename and remove a viewer.
    expect((await t.request('PATCH', `${base(org)}/${viewer.body.id}`, { token: teamToken, body: { name: 'Renamed viewer' } })).status).toBe(200);
    expect((await t.request('DELETE', `${base(org)}/${viewer.body.id}`, { token: teamToken })).status).toBe(200);
    expect(row('SELECT role FROM org_members WHERE org_id = ? AND user_id = ?', org.orgId, admin.userId)).toEqual({ role: 'admin' });
  });
});

describe('PATCH /orgs/{orgId}/members/{userId}', () => {
  it('changes the role and the name; the role takes effect at once for the member’s login', async () => {
    const org = await t.createOrg();
    const packer = await member(org, 'packer');
    const tokenBody = { name: 'mine', scopes: ['read:orders'] };
    expect((await t.request('POST', `/orgs/${org.orgId}/api-tokens`, { token: packer.jwt, body: tokenBody })).status).toBe(403);

    advance(5000);
    const res = await t.request('PATCH', `${base(org)}/${packer.userId}`, { token: org.token, body: { role: 'admin', name: 'Pat Admin' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: packer.userId,
      name: 'Pat Admin',
      email: packer.email,
      role: 'admin',
      createdAt: new Date(clock.getTime() - 5000).toISOString(),
      updatedAt: clock.toISOString(),
    });
    expect((await t.request('GET', `${base(org)}/${packer.userId}`, { token: org.token })).body).toEqual(res.body);
    // The same JWT, issued while a packer, now acts as an admin.
    expect((await t.request('POST', `/orgs/${org.orgId}/api-tokens`, { token: packer.jwt, body: tokenBody })).status).toBe(201);
    expect((await loginAs(packer.email)).body.user.name).toBe('Pat Admin');

    const same = await t.request('PATCH', `${base(org)}/${packer.userId}`, { token: org.token, body: {} });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(res.body);
    for (const body of [{ role: 'owner' }, { name: '' }, { email: 'new@acme.example' }, { password: 'short' }]) {
      const bad = await t.request('PATCH', `${base(org)}/${packer.userId}`, { token: org.token, body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.code).toBe('VALIDATION_FAILED');
    }
  });

  it('a member cannot change their own role (403 FORBIDDEN), but may keep it or change their name', async () => {
    const org = await t.createOrg();
    const admin = await member(org, 'admin');
    const own = await t.request('PATCH', `${base(org)}/${admin.userId}`, { token: admin.jwt, body: { role: 'viewer' } });
    expect(own.status).toBe(403);
    expect(own.body).toEqual({ code: 'FORBIDDEN', error: 'Forbidden', message: expect.stringContaining('your own role') });
    const ownerSelf = await t.request('PATCH', `${base(org)}/${org.userId}`, { token: org.jwt, body: { role: 'admin' } });
    expect(ownerSelf.status).toBe(403);
    // An API token acts for the user who made it.
    const ownerToken = await t.request('PATCH', `${base(org)}/${org.userId}`, { token: org.token, body: { role: 'admin' } });
    expect(ownerToken.status).toBe(403);

    const rename = await t.request('PATCH', `${base(org)}/${admin.userId}`, { token: admin.jwt, body: { role: 'admin', name: 'Still admin' } });
    expect(rename.status).toBe(200);
    expect(rename.body).toMatchObject({ role: 'admin', name: 'Still admin' });
  });
});

describe('renaming someone else', () => {
  it('needs the rights over their role, and is refused while they also belong to another organization', async () => {
    const org = await t.createOrg();
    setPlan(t.app, org.orgId, 'pro');
    const weak = await t.tokenWithScopes(org, ['read:all', 'write:org_members']);
    const rename = (userId: string, name: string, token = org.token) => t.request('PATCH', `${base(org)}/${userId}`, { token, body: { name } });
    // A token acts for the one who made it (the owner here): renaming an admin needs an admin's rights.
    const admin = await member(org, 'admin');
    const refused = await rename(admin.userId, 'Renamed Admin', weak);
    expect([refused.status, refused.body.code]).toEqual([403, 'FORBIDDEN']);
    // The owner of another organization, pulled in as a viewer, keeps their own name there.
    const other = await t.createOrg();
    const pulledIn = await add(org, { email: other.email, role: 'viewer' });
    expect(pulledIn.status).toBe(201);
    const hijack = await rename(other.userId, 'Hijacked');
    expect([hijack.status, hijack.body.code]).toEqual([409, 'CONFLICT']);
    const theirs = await t.request('GET', `/orgs/${other.orgId}/members/${other.userId}`, { token: other.token });
    expect(theirs.body.name).not.toBe('Hijacked');
    // A member of this organization only may be renamed by someone with rights over their role.
    const viewer = await member(org, 'viewer');
    expect((await rename(viewer.userId, 'Vera Viewer', weak)).body.name).toBe('Vera Viewer');
  });
});

describe('the last owner', () => {
  it('can be neither removed nor given another role (409 CONFLICT); with a second owner, one may go', async () => {
    const org = await t.createOrg();
    const admin = await member(org, 'admin');
    const demote = await t.request('PATCH', `${base(org)}/${org.userId}`, { token: admin.jwt, body: { role: 'admin' } });
    expect(demote.status).toBe(409);
    expect(demote.body).toEqual({ code: 'CONFLICT', error: 'Conflict', message: expect.stringContaining('only owner') });
    const remove = await t.request('DELETE', `${base(org)}/${org.userId}`, { token: admin.jwt });
    expect(remove.status).toBe(409);
    expect(remove.body.message).toContain('always keeps an owner');
    const selfRemove = await t.request('DELETE', `${base(org)}/${org.userId}`, { token: org.jwt });
    expect(selfRemove.status).toBe(409);
    expect(row('SELECT role FROM org_members WHERE org_id = ? AND user_id = ?', org.orgId, org.userId)).toEqual({ role: 'owner' });

    // A second owner (only `shipdesk init` makes owners; here, straight into the database).
    const at = clock.toISOString();
    t.app.db.update(orgMembers).set({ role: 'owner', updatedAt: at }).where(eq(orgMembers.userId, admin.userId)).run();
    expect((await t.request('PATCH', `${base(org)}/${org.userId}`, { token: admin.jwt, body: { role: 'admin' } })).status).toBe(200);
    const last = await t.request('DELETE', `${base(org)}/${admin.userId}`, { token: org.jwt });
    expect(last.status).toBe(409);
    expect(last.body.code).toBe('CONFLICT');
  });
});

describe('DELETE /orgs/{orgId}/members/{userId}', () => {
  it('removes at once: the member’s JWT gets 403 ORG_ACCESS_DENIED and their API tokens for it are revoked', async () => {
    const org = await t.createOrg();
    const other = await t.createOrg('Sister warehouse');
    const admin = await member(org, 'admin');
    expect((await add(other, { email: admin.email, role: 'viewer' })).status).toBe(201);
    const token = await t.request('POST', `/orgs/${org.orgId}/api-tokens`, { token: admin.jwt, body: { name: 'admin script', scopes: ['read:all'] } });
    expect(token.status).toBe(201);
    // Both credentials work, and the token is now kept in the token cache.
    expect((await t.request('GET', `/orgs/${org.orgId}`, { token: admin.jwt })).status).toBe(200);
    expect((await t.request('GET', `/orgs/${org.orgId}`, { token: token.body.token })).status).toBe(200);

    const res = await t.request('DELETE', `${base(org)}/${admin.userId}`, { token: org.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: `${admin.email} removed from the organization; 1 API token they made revoked` });

    const jwt = await t.request('GET', `/orgs/${org.orgId}`, { token: admin.jwt });
    expect(jwt.status).toBe(403);
    expect(jwt.body.code).toBe('ORG_ACCESS_DENIED');
    const tokenUse = await t.request('GET', `/orgs/${org.orgId}`, { token: token.body.token });
    expect(tokenUse.status).toBe(401);
    expect(tokenUse.body.code).toBe('AUTH_TOKEN_INVALID');
    expect((await t.request('GET', `${base(org)}/${admin.userId}`, { token: org.token })).body.code).toBe('MEMBER_NOT_FOUND');

    // The user stays: the other organization keeps them, and they can still log in to it.
    expect((await t.request('GET', `/orgs/${other.orgId}`, { token: admin.jwt })).status).toBe(200);
    expect((await loginAs(admin.email)).body.orgs).toEqual([{ id: other.orgId, name: 'Sister warehouse', role: 'viewer' }]);
    const again = await t.request('DELETE', `${base(org)}/${admin.userId}`, { token: org.token });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('MEMBER_NOT_FOUND');
  });

  it('a member may leave on their own', async () => {
    const org = await t.createOrg();
    const admin = await member(org, 'admin');
    expect((await t.request('DELETE', `${base(org)}/${admin.userId}`, { token: admin.jwt })).status).toBe(200);
    expect((await t.request('GET', base(org), { token: admin.jwt })).body.code).toBe('ORG_ACCESS_DENIED');
  });
});

describe('API tokens act within their creator’s current role', () => {
  it('narrows a cached token at once when its creator is demoted, and widens it again when promoted', async () => {
    const org = await t.createOrg();
    const admin = await member(org, 'admin');
    const made = await t.request('POST', `/orgs/${org.orgId}/api-tokens`, { token: admin.jwt, body: { name: 'all of it', scopes: ['write:all'] } });
    const token = made.body.token as string;
    const rename = (name: string) => t.request('PUT', `/orgs/${org.orgId}`, { token, body: { name } });
    expect((await rename('By the admin’s token')).status).toBe(200);

    expect((await t.request('PATCH', `${base(org)}/${admin.userId}`, { token: org.token, body: { role: 'viewer' } })).status).toBe(200);
    const refused = await rename('Still writing?');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('write:orgs');
    expect((await t.request('GET', `/orgs/${org.orgId}`, { token })).status).toBe(200);
    const verify = await t.request('POST', '/api-tokens/verify', { token: null, body: { token } });
    expect(verify.body.scopes).toEqual(['read:all']);

    expect((await t.request('PATCH', `${base(org)}/${admin.userId}`, { token: org.token, body: { role: 'packer' } })).status).toBe(200);
    expect(
      (await t.request('POST', `/orgs/${org.orgId}/printers`, { token, body: { name: 'Desk', driver: 'file', target: t.dir, format: 'pdf' } })).status,
    ).toBe(201);
    expect((await rename('Packer now')).status).toBe(403);
    expect((await t.request('POST', '/api-tokens/verify', { token: null, body: { token } })).body.scopes.sort()).toEqual(
      ['read:all', 'write:orders', 'write:printers', 'write:shipments'].sort(),
    );
  });

  it('refuses a cached token at once when another process deletes its creator’s membership', async () => {
    const org = await t.createOrg();
    const admin = await member(org, 'admin');
    const made = await t.request('POST', `/orgs/${org.orgId}/api-tokens`, { token: admin.jwt, body: { name: 'x', scopes: ['read:orgs'] } });
    expect((await t.request('GET', `/orgs/${org.orgId}`, { token: made.body.token })).status).toBe(200);
    const other = new Database(databaseFile(t.dir));
    try {
      other.prepare('DELETE FROM org_members WHERE org_id = ? AND user_id = ?').run(org.orgId, admin.userId);
    } finally {
      other.close();
    }
    const res = await t.request('GET', `/orgs/${org.orgId}`, { token: made.body.token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('AUTH_TOKEN_INVALID');
  });
});

describe('shipdesk member add (CLI)', () => {
  const cli = (...args: string[]) =>
    promisify(execFile)('node_modules/.bin/tsx', ['src-main/cli.ts', ...args], { env: { ...process.env, SHIPDESK_DATA_DIR: t.dir } });

  it('adds a member and prints it as JSON; errors are the API’s error body on stderr', async () => {
    const org = await t.createOrg();
    const email = newEmail('cli');
    const { stdout } = await cli('member', 'add', org.orgId, '--email', email, '--name', 'Cli Packer', '--role', 'packer', '--password', PASSWORD);
    const printed = JSON.parse(stdout);
    expect(printed).toMatchObject({ id: expect.stringMatching(/^usr_/), name: 'Cli Packer', email, role: 'packer' });
    expect(stdout).not.toContain(PASSWORD);
    // The server sees it at once, and the member can log in.
    expect((await t.request('GET', `${base(org)}/${printed.id}`, { token: org.token })).body.role).toBe('packer');
    expect((await loginAs(email)).status).toBe(200);

    const failure = await cli('member', 'add', org.orgId, '--email', email, '--role', 'viewer').then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(JSON.parse(failure?.stderr ?? '{}')).toMatchObject({ code: 'CONFLICT' });
  }, 30_000);

  it('goes through the dispatcher with the API’s schema: a refusal names the option to fix', async () => {
    const org = await t.createOrg();
    const failure = await cli('member', 'add', org.orgId, '--email', 'not an email', '--name', 'X', '--role', 'owner', '--password', PASSWORD).then(
      () => null,
      (error: { code: number; stderr: string; stdout: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stdout).toBe('');
    const body = JSON.parse(failure?.stderr ?? '{}') as { code: string; message: string; details: { path: string }[] };
    expect(body.code).toBe('VALIDATION_FAILED');
    // The same checks as POST /members (an email, no owner), each at the option's name.
    expect(body.details.map((detail) => detail.path).sort()).toEqual(['--email', '--role']);
    expect(body.message).toMatch(/^Invalid --(email|role)/);
  }, 30_000);
});
