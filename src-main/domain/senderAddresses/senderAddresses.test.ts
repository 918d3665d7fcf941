import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { senderAddressBody, startTestServer, type TestServer } from '../../testing/harness';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t.close());

const base = () => `/orgs/${t.org.orgId}/sender-addresses`;

describe('sender addresses', () => {
  it('creates with 201 and the spec shape, null for an empty address2', async () => {
    const res = await t.request('POST', base(), { body: senderAddressBody() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Main warehouse', zipcode: '8000', countryCode: 'DK', orgId: t.org.orgId, address2: null });
    expect(res.body.id).toMatch(/^adr_[0-9a-z]{26}$/);
    expect(res.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const row = t.app.db.$client.prepare('SELECT zipcode, org_id FROM sender_addresses WHERE id = ?').get(res.body.id);
    expect(row).toEqual({ zipcode: '8000', org_id: t.org.orgId });
  });

  it('rejects unknown fields, bad countries and missing required fields with details', async () => {
    const unknown = await t.request('POST', base(), { body: senderAddressBody({ colour: 'red' }) });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('VALIDATION_FAILED');
    const country = await t.request('POST', base(), { body: senderAddressBody({ countryCode: 'dk' }) });
    expect(country.status).toBe(400);
    expect(country.body.details[0].path).toBe('body.countryCode');
    const missing = await t.request('POST', base(), { body: { name: 'x' } });
    expect(missing.status).toBe(400);
    expect(missing.body.details.map((d: { path: string }) => d.path)).toEqual(
      expect.arrayContaining(['body.address1', 'body.zipcode', 'body.city', 'body.countryCode']),
    );
  });

  it('reads, updates with PUT, lists newest first, and deletes', async () => {
    const created = (await t.request('POST', base(), { body: senderAddressBody({ name: 'Second' }) })).body;
    const read = await t.request('GET', `${base()}/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);
    const put = await t.request('PUT', `${base()}/${created.id}`, { body: { city: 'Odense', address2: 'Gate 4' } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ city: 'Odense', address2: 'Gate 4', name: 'Second' });
    // PATCH is the same update, for clients that update every other resource that way.
    const patched = await t.request('PATCH', `${base()}/${created.id}`, { body: { attContact: 'Dock lead' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...put.body, attContact: 'Dock lead', updatedAt: expect.any(String) });
    expect((await t.request('PATCH', `${base()}/${created.id}`, { body: { color: 'red' } })).body.code).toBe('VALIDATION_FAILED');
    // customs: shown when it holds something, left out when empty (decisions §1), `{}` clears it.
    const withCustoms = await t.request('PUT', `${base()}/${created.id}`, { body: { customs: { eori: 'DK12345678' } } });
    expect(withCustoms.body.customs).toEqual({ eori: 'DK12345678' });
    const cleared = await t.request('PUT', `${base()}/${created.id}`, { body: { customs: {} } });
    expect(cleared.body).not.toHaveProperty('customs');
    expect((await t.request('GET', `${base()}/${created.id}`)).body).not.toHaveProperty('customs');
    const list = await t.request('GET', `${base()}?limit=1`);
    expect(list.body).toMatchObject({ page: 1, limit: 1, total: 2, totalPages: 2 });
    expect(list.body.data[0].id).toBe(created.id);
    const del = await t.request('DELETE', `${base()}/${created.id}`);
    expect(del.status).toBe(200);
    expect(del.body.message).toContain(created.id);
    expect((await t.request('GET', `${base()}/${created.id}`)).body.code).toBe('ADDRESS_NOT_FOUND');
  });

  it('hides other organizations’ addresses behind 404 and refuses their paths with 403', async () => {
    const other = await t.createOrg();
    const theirs = (await t.request('POST', `/orgs/${other.orgId}/sender-addresses`, { token: other.token, body: senderAddressBody() })).body;
    const res = await t.request('GET', `${base()}/${theirs.id}`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('ADDRESS_NOT_FOUND');
    const cross = await t.request('GET', `/orgs/${other.orgId}/sender-addresses`);
    expect(cross.status).toBe(403);
    expect(cross.body.code).toBe('ORG_ACCESS_DENIED');
  });

  it('needs a credential and the right scope', async () => {
    expect((await t.request('GET', base(), { token: null })).status).toBe(401);
    const readOnly = await t.tokenWithScopes(t.org, ['read:sender_addresses']);
    expect((await t.request('GET', base(), { token: readOnly })).status).toBe(200);
    const denied = await t.request('POST', base(), { token: readOnly, body: senderAddressBody() });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'FORBIDDEN', error: 'Forbidden' });
    expect(denied.body.message).toContain('write:sender_addresses');
  });

  it('enforces the plan limit of 5 sender addresses (starter)', async () => {
    const org = await t.createOrg();
    for (let i = 0; i < 5; i++) {
      expect((await t.request('POST', `/orgs/${org.orgId}/sender-addresses`, { token: org.token, body: senderAddressBody() })).status).toBe(201);
    }
    const sixth = await t.request('POST', `/orgs/${org.orgId}/sender-addresses`, { token: org.token, body: senderAddressBody() });
    expect(sixth.status).toBe(403);
    expect(sixth.body.code).toBe('RESOURCE_LIMIT_REACHED');
  });
});
