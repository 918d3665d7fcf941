import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';

let clock = new Date('2026-01-20T09:30:00.000Z');
const now = () => clock;
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ now });
});
afterAll(async () => t.close());

const path = () => `/orgs/${t.org.orgId}`;
const nullable = ['vatNumber', 'eoriNumber', 'billingEmail', 'companyName', 'addressLine1', 'addressLine2', 'city', 'postalCode', 'country'] as const;

describe('GET /orgs/{id}', () => {
  it('reads the organization with plan, overage setting and nulls for empty fields', async () => {
    const res = await t.request('GET', path());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: t.org.orgId,
      name: 'Acme Warehouse',
      slug: 'acme-warehouse',
      description: null,
      currency: 'DKK',
      vatNumber: null,
      eoriNumber: null,
      billingEmail: null,
      companyName: null,
      addressLine1: null,
      addressLine2: null,
      city: null,
      postalCode: null,
      country: null,
      overageEnabled: false,
      plan: 'starter',
      returnInstructions: null,
      language: 'en',
      createdAt: clock.toISOString(),
      updatedAt: clock.toISOString(),
    });
    expect(res.body.id).toMatch(/^org_[0-9a-z]{26}$/);
  });

  it('gives organizations with the same name distinct slugs', async () => {
    const other = await t.createOrg('Acme Warehouse');
    const res = await t.request('GET', `/orgs/${other.orgId}`, { token: other.token });
    expect(res.body.slug).toBe('acme-warehouse-2');
  });
});

describe('PUT /orgs/{id}', () => {
  it('updates each field on its own and leaves the others alone', async () => {
    const changes: Record<string, unknown>[] = [
      { name: 'Acme Logistics' },
      { slug: 'acme-logistics-2026' },
      { description: 'Our main warehouse' },
      { currency: 'EUR' },
      { vatNumber: 'DK12345678' },
      { eoriNumber: 'DK12345678' },
      { overageEnabled: true },
      { billingEmail: 'billing@acme.example' },
      { companyName: 'Acme Logistics ApS' },
      { addressLine1: 'Industrivej 12' },
      { addressLine2: 'Gate 4' },
      { city: 'Aarhus' },
      { postalCode: '8000' },
      { country: 'DK' },
      { language: 'da' },
    ];
    let expected = (await t.request('GET', path())).body;
    for (const change of changes) {
      advance(1000);
      const res = await t.request('PUT', path(), { body: change });
      expect(res.status, JSON.stringify(change)).toBe(200);
      expected = { ...expected, ...change, updatedAt: clock.toISOString() };
      expect(res.body).toEqual(expected);
      expect((await t.request('GET', path())).body).toEqual(expected);
    }
    expect(expected.createdAt).not.toBe(expected.updatedAt);
    const row = t.app.db.$client.prepare('SELECT slug, currency, overage_enabled, country FROM orgs WHERE id = ?').get(t.org.orgId);
    expect(row).toEqual({ slug: 'acme-logistics-2026', currency: 'EUR', overage_enabled: 1, country: 'DK' });
  });

  it('clears nullable fields with null', async () => {
    const body = Object.fromEntries(nullable.map((field) => [field, null]));
    const res = await t.request('PUT', path(), { body });
    expect(res.status).toBe(200);
    for (const field of nullable) expect(res.body[field], field).toBeNull();
    expect(res.body.name).toBe('Acme Logistics');
  });

  it('updates several fields at once and accepts an empty update', async () => {
    const res = await t.request('PUT', path(), { body: { currency: 'SEK', city: 'Malmö', country: 'SE', overageEnabled: false } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ currency: 'SEK', city: 'Malmö', country: 'SE', overageEnabled: false });
    const empty = await t.request('PUT', path(), { body: {} });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ currency: 'SEK', city: 'Malmö' });
  });

  it('rejects out-of-bounds values with 400 VALIDATION_FAILED naming the field, and changes nothing', async () => {
    const before = (await t.request('GET', path())).body;
    const cases: [unknown, string][] = [
      [{ name: '' }, 'body.name'],
      [{ name: null }, 'body.name'],
      [{ name: 'x'.repeat(1001) }, 'body.name'],
      [{ slug: 'Bad Slug' }, 'body.slug'],
      [{ slug: '' }, 'body.slug'],
      [{ slug: 'under_score' }, 'body.slug'],
      [{ slug: 'a'.repeat(1001) }, 'body.slug'],
      [{ currency: 'XYZ' }, 'body.currency'],
      [{ currency: 'dkk' }, 'body.currency'],
      [{ country: 'dk' }, 'body.country'],
      [{ country: 'XX' }, 'body.country'],
      [{ billingEmail: 'x' }, 'body.billingEmail'],
      [{ overageEnabled: 'yes' }, 'body.overageEnabled'],
      [{ plan: 'unlimited' }, 'body.plan'],
      [{ id: 'org_other' }, 'body.id'],
      [{ colour: 'red' }, 'body.colour'],
      [{ name: 'Fine', colour: 'red' }, 'body.colour'],
    ];
    for (const [body, field] of cases) {
      const res = await t.request('PUT', path(), { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(
        res.body.details.map((d: { path: string }) => d.path),
        JSON.stringify(body),
      ).toContain(field);
    }
    const noBody = await t.request('PUT', path());
    expect(noBody.status).toBe(400);
    expect((await t.request('GET', path())).body).toEqual(before);
  });

  it('takes a slug up to 1000 characters (text fields, decisions §1; the spec states no maximum)', async () => {
    const other = await t.createOrg();
    const long = 'a'.repeat(1000);
    const res = await t.request('PUT', `/orgs/${other.orgId}`, { token: other.token, body: { slug: long } });
    expect(res.status).toBe(200);
    expect(res.body.slug).toBe(long);
  });

  it('refuses a slug another organization has with 409 ORG_SLUG_EXISTS; keeping one’s own slug is fine', async () => {
    const other = await t.createOrg('Bravo Freight');
    const theirs = (await t.request('GET', `/orgs/${other.orgId}`, { token: other.token })).body.slug;
    const res = await t.request('PUT', path(), { body: { slug: theirs } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'ORG_SLUG_EXISTS', error: 'Conflict', message: expect.stringContaining(theirs) });
    const mine = (await t.request('GET', path())).body.slug;
    expect((await t.request('PUT', path(), { body: { slug: mine, name: 'Same slug' } })).status).toBe(200);
  });
});

describe('scopes', () => {
  it('GET needs read:orgs and PUT write:orgs', async () => {
    const reader = await t.tokenWithScopes(t.org, ['read:orgs']);
    expect((await t.request('GET', path(), { token: reader })).status).toBe(200);
    const put = await t.request('PUT', path(), { token: reader, body: { name: 'Nope' } });
    expect(put.status).toBe(403);
    expect(put.body).toEqual({ code: 'FORBIDDEN', error: 'Forbidden', message: expect.stringContaining('write:orgs') });

    const writer = await t.tokenWithScopes(t.org, ['write:orgs']);
    expect((await t.request('GET', path(), { token: writer })).status).toBe(200);
    expect((await t.request('PUT', path(), { token: writer, body: { description: 'by token' } })).body.description).toBe('by token');

    const unrelated = await t.tokenWithScopes(t.org, ['write:sender_addresses']);
    const get = await t.request('GET', path(), { token: unrelated });
    expect(get.status).toBe(403);
    expect(get.body.message).toContain('read:orgs');
  });

  it('another organization’s record, or one that does not exist, is 403 ORG_ACCESS_DENIED', async () => {
    const other = await t.createOrg();
    for (const id of [other.orgId, 'org_01aaaaaaaaaaaaaaaaaaaaaaaa']) {
      const get = await t.request('GET', `/orgs/${id}`);
      expect(get.status).toBe(403);
      expect(get.body.code).toBe('ORG_ACCESS_DENIED');
      const put = await t.request('PUT', `/orgs/${id}`, { body: { name: 'Hijacked' } });
      expect(put.status).toBe(403);
      expect(put.body.code).toBe('ORG_ACCESS_DENIED');
    }
    expect((await t.request('GET', `/orgs/${other.orgId}`, { token: other.token })).body.name).not.toBe('Hijacked');
  });
});
