import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addOns, shippingRules } from '../../db/schema';
import { senderAddressBody, startTestServer, type TestOrg, type TestServer } from '../../testing/harness';
import type * as registry from '../../carriers/registry';

// `local` has no secret field, so a stand-in carrier with a password and a required field is
// registered beside it to test sealing, masking and required-field checks through the real server.
vi.mock('../../carriers/registry', async (importOriginal) => {
  const original = await importOriginal<typeof registry>();
  const field = { description: '', options: [] };
  const vault = {
    ...original.carrierAdapters[0]!,
    slug: 'test-vault',
    checkConfig: undefined,
    describe: {
      name: 'Test vault courier',
      group: 'Test',
      description: 'A stand-in with secrets',
      learnMoreUrl: '',
      logoSvg: '<svg xmlns="http://www.w3.org/2000/svg"/>',
      fields: [
        { ...field, name: 'Account', key: 'accountNumber', type: 'string', required: true },
        { ...field, name: 'API key', key: 'apiKey', type: 'password', required: true },
        { ...field, name: 'Test mode', key: 'testMode', type: 'boolean', required: false },
        { ...field, name: 'Customer number', key: 'customerNumber', type: 'number', required: false },
      ],
    },
  };
  return { carrierAdapters: [...original.carrierAdapters, vault] };
});

let t: TestServer;
let addressId: string;
beforeAll(async () => {
  t = await startTestServer();
  // The main organization creates many carriers across tests; the limit itself is tested on its own org.
  t.app.db.$client.prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(t.org.orgId);
  addressId = (await t.request('POST', `/orgs/${t.org.orgId}/sender-addresses`, { body: senderAddressBody() })).body.id;
});
afterAll(async () => t.close());

const base = (orgId = t.org.orgId) => `/orgs/${orgId}/carriers`;
const carrierBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Own vans',
  carrierSlug: 'local',
  config: { labelFormat: 'zpl', trackingPrefix: 'ACME' },
  senderAddressId: addressId,
  ...overrides,
});
const paths = (res: { body: { details?: { path: string }[] } }) => (res.body.details ?? []).map((detail) => detail.path);
const storedConfig = (carrierId: string) => {
  const row = t.app.db.$client.prepare('SELECT config FROM carriers WHERE id = ?').get(carrierId) as { config: string };
  return JSON.parse(row.config) as Record<string, unknown>;
};

/** A fresh organization with one sender address, for tests that count or isolate. */
async function orgWithAddress(): Promise<{ org: TestOrg; addressId: string }> {
  const org = await t.createOrg();
  const res = await t.request('POST', `/orgs/${org.orgId}/sender-addresses`, { token: org.token, body: senderAddressBody() });
  return { org, addressId: res.body.id };
}

describe('available carriers', () => {
  it('lists local with its config fields and an inline logo', async () => {
    const res = await t.request('GET', `/orgs/${t.org.orgId}/available-carriers`);
    expect(res.status).toBe(200);
    const local = res.body.find((entry: { slug: string }) => entry.slug === 'local');
    expect(local).toMatchObject({ name: 'Local delivery', requiredFields: [] });
    expect(local.logo).toMatch(/^data:image\/svg\+xml,/);
    expect(local.optionalFields.map((field: { key: string }) => field.key)).toEqual(['labelFormat', 'labelSize', 'trackingPrefix', 'trackingUrlTemplate']);
    const labelSize = local.optionalFields.find((field: { key: string }) => field.key === 'labelSize');
    expect(labelSize).toMatchObject({ type: 'select', required: false });
    expect(labelSize.options.map((option: { value: string }) => option.value)).toEqual(['A4', 'A6', '100X150', '100X192']);
  });

  it('needs read:carriers', async () => {
    expect((await t.request('GET', `/orgs/${t.org.orgId}/available-carriers`, { token: null })).status).toBe(401);
    const reader = await t.tokenWithScopes(t.org, ['read:carriers']);
    expect((await t.request('GET', `/orgs/${t.org.orgId}/available-carriers`, { token: reader })).status).toBe(200);
    const other = await t.tokenWithScopes(t.org, ['read:sender_addresses']);
    const denied = await t.request('GET', `/orgs/${t.org.orgId}/available-carriers`, { token: other });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toContain('read:carriers');
  });
});

describe('carriers', () => {
  it('creates with 201, the spec shape and its sender address', async () => {
    const res = await t.request('POST', base(), { body: carrierBody() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Own vans',
      carrierSlug: 'local',
      config: { labelFormat: 'zpl', trackingPrefix: 'ACME' },
      senderAddressId: addressId,
      orgId: t.org.orgId,
      senderAddress: { id: addressId, zipcode: '8000' },
    });
    expect(res.body.id).toMatch(/^car_[0-9a-z]{26}$/);
    const row = t.app.db.$client.prepare('SELECT org_id, carrier_slug, sender_address_id, deleted_at FROM carriers WHERE id = ?').get(res.body.id);
    expect(row).toEqual({ org_id: t.org.orgId, carrier_slug: 'local', sender_address_id: addressId, deleted_at: null });
    expect(storedConfig(res.body.id)).toEqual({ labelFormat: 'zpl', trackingPrefix: 'ACME' });
  });

  it('rejects unknown body fields, a missing name or sender address, and an unknown carrier slug', async () => {
    const unknown = await t.request('POST', base(), { body: carrierBody({ colour: 'red' }) });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('VALIDATION_FAILED');
    const missing = await t.request('POST', base(), { body: { carrierSlug: 'local' } });
    expect(missing.status).toBe(400);
    expect(paths(missing)).toEqual(expect.arrayContaining(['body.name', 'body.senderAddressId']));
    const emptyName = await t.request('POST', base(), { body: carrierBody({ name: '' }) });
    expect(paths(emptyName)).toEqual(['body.name']);
    const slug = await t.request('POST', base(), { body: carrierBody({ carrierSlug: 'pigeon-post' }) });
    expect(slug.status).toBe(400);
    expect(slug.body.code).toBe('VALIDATION_FAILED');
    expect(paths(slug)).toEqual(['body.carrierSlug']);
    expect(slug.body.details[0].message).toContain('local');
    const noBody = await t.request('POST', base());
    expect(noBody.status).toBe(400);
  });

  it('checks the config against the catalogue: unknown keys, select options, types and carrier rules', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ colour: 'red' }, 'body.config.colour'],
      [{ labelSize: 'A5' }, 'body.config.labelSize'],
      [{ labelFormat: true }, 'body.config.labelFormat'],
      [{ trackingPrefix: 'acme!' }, 'body.config.trackingPrefix'],
      [{ trackingUrlTemplate: 'https://track.example/no-placeholder' }, 'body.config.trackingUrlTemplate'],
      [{ trackingUrlTemplate: 'ftp://track.example/{trackingNumber}' }, 'body.config.trackingUrlTemplate'],
    ];
    for (const [config, path] of cases) {
      const res = await t.request('POST', base(), { body: carrierBody({ config }) });
      expect(res.status, JSON.stringify(config)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(paths(res)).toEqual([path]);
    }
    const size = await t.request('POST', base(), { body: carrierBody({ config: { labelSize: 'A5' } }) });
    expect(size.body.details[0].message).toContain('100X150');
    const fine = await t.request('POST', base(), {
      body: carrierBody({ config: { labelSize: 'A6', trackingUrlTemplate: 'https://track.example/{trackingNumber}' } }),
    });
    expect(fine.status).toBe(201);
    const empty = await t.request('POST', base(), { body: carrierBody({ config: undefined }) });
    expect(empty.status).toBe(201);
    expect(empty.body.config).toEqual({});
  });

  it('needs a live sender address of the organization', async () => {
    const unknownAddress = await t.request('POST', base(), { body: carrierBody({ senderAddressId: 'adr_nope' }) });
    expect(unknownAddress.status).toBe(404);
    expect(unknownAddress.body.code).toBe('ADDRESS_NOT_FOUND');
    const { addressId: theirs } = await orgWithAddress();
    const foreign = await t.request('POST', base(), { body: carrierBody({ senderAddressId: theirs }) });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('ADDRESS_NOT_FOUND');
    const doomed = (await t.request('POST', `/orgs/${t.org.orgId}/sender-addresses`, { body: senderAddressBody() })).body.id;
    expect((await t.request('DELETE', `/orgs/${t.org.orgId}/sender-addresses/${doomed}`)).status).toBe(200);
    const deleted = await t.request('POST', base(), { body: carrierBody({ senderAddressId: doomed }) });
    expect(deleted.body.code).toBe('ADDRESS_NOT_FOUND');
  });

  it('reads one with its sender address and updates with PUT, only the fields given', async () => {
    const created = (await t.request('POST', base(), { body: carrierBody({ name: 'Pallets' }) })).body;
    const read = await t.request('GET', `${base()}/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);

    const renamed = await t.request('PUT', `${base()}/${created.id}`, { body: { name: 'Pallet trucks' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Pallet trucks', config: created.config, senderAddressId: addressId });

    const second = (await t.request('POST', `/orgs/${t.org.orgId}/sender-addresses`, { body: senderAddressBody({ name: 'Dock 2' }) })).body;
    const moved = await t.request('PUT', `${base()}/${created.id}`, { body: { senderAddressId: second.id, config: { labelSize: 'A4' } } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ senderAddressId: second.id, senderAddress: { name: 'Dock 2' }, config: { labelSize: 'A4' } });
    // A new config replaces the stored one whole.
    expect(storedConfig(created.id)).toEqual({ labelSize: 'A4' });
    expect((await t.request('GET', `${base()}/${created.id}`)).body).toEqual(moved.body);

    // PATCH is the same update, for clients that update every other resource that way.
    const patched = await t.request('PATCH', `${base()}/${created.id}`, { body: { name: 'Pallets again' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...moved.body, name: 'Pallets again', updatedAt: expect.any(String) });
  });

  it('validates a PUT like a create and leaves the row alone when it fails', async () => {
    const created = (await t.request('POST', base(), { body: carrierBody() })).body;
    const cases: [Record<string, unknown>, number, string][] = [
      [{ carrierSlug: 'local' }, 400, 'VALIDATION_FAILED'],
      [{ name: '' }, 400, 'VALIDATION_FAILED'],
      [{ config: { labelFormat: 'png' } }, 400, 'VALIDATION_FAILED'],
      [{ senderAddressId: 'adr_nope' }, 404, 'ADDRESS_NOT_FOUND'],
    ];
    for (const [body, status, code] of cases) {
      const res = await t.request('PUT', `${base()}/${created.id}`, { body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.code).toBe(code);
    }
    const option = await t.request('PUT', `${base()}/${created.id}`, { body: { config: { labelFormat: 'png' } } });
    expect(paths(option)).toEqual(['body.config.labelFormat']);
    expect((await t.request('GET', `${base()}/${created.id}`)).body).toEqual(created);
    const unknown = await t.request('PUT', `${base()}/car_nope`, { body: { name: 'x' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('CARRIER_NOT_FOUND');
  });

  it('deletes softly with a message, and the carrier is gone from reads', async () => {
    const created = (await t.request('POST', base(), { body: carrierBody({ name: 'Short-lived' }) })).body;
    const del = await t.request('DELETE', `${base()}/${created.id}`);
    expect(del.status).toBe(200);
    expect(del.body.message).toContain(created.id);
    const row = t.app.db.$client.prepare('SELECT deleted_at FROM carriers WHERE id = ?').get(created.id) as { deleted_at: string | null };
    expect(row.deleted_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    for (const [method, path] of [
      ['GET', `${base()}/${created.id}`],
      ['GET', `${base()}/${created.id}/products`],
      ['DELETE', `${base()}/${created.id}`],
    ] as const) {
      const res = await t.request(method, path);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('CARRIER_NOT_FOUND');
    }
    const list = await t.request('GET', `${base()}?limit=100`);
    expect(list.body.data.map((carrier: { id: string }) => carrier.id)).not.toContain(created.id);
  });

  it('refuses to delete a carrier a live shipping rule uses, naming the rule', async () => {
    const created = (await t.request('POST', base(), { body: carrierBody({ name: 'Ruled' }) })).body;
    const now = new Date().toISOString();
    t.app.db
      .insert(shippingRules)
      .values({
        id: 'rul_test_conflict',
        orgId: t.org.orgId,
        name: 'Denmark parcels',
        carrierId: created.id,
        productId: 'local_parcel',
        services: [],
        additionalParameters: [],
        senderAddressId: addressId,
        receivingCountries: ['DK'],
        conditions: [],
        createdAt: now,
        updatedAt: now,
      })
      .run();
    const res = await t.request('DELETE', `${base()}/${created.id}`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CONFLICT');
    expect(res.body.message).toContain('rul_test_conflict');
    expect(res.body.message).toContain('Denmark parcels');
    expect((await t.request('GET', `${base()}/${created.id}`)).status).toBe(200);

    // A deleted rule no longer holds the carrier.
    t.app.db.$client.prepare('UPDATE shipping_rules SET deleted_at = ? WHERE id = ?').run(now, 'rul_test_conflict');
    expect((await t.request('DELETE', `${base()}/${created.id}`)).status).toBe(200);
  });

  it('lists the carrier products, outbound and inbound', async () => {
    const created = (await t.request('POST', base(), { body: carrierBody() })).body;
    const res = await t.request('GET', `${base()}/${created.id}/products`);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    const types = new Set(res.body.map((product: { type: string }) => product.type));
    expect(types).toEqual(new Set(['outbound', 'inbound']));
    const ids = res.body.map((product: { productId: string }) => product.productId);
    expect(ids).toEqual(expect.arrayContaining(['local_parcel', 'local_pallet', 'local_pickup', 'local_return']));
    expect(res.body[0].labelSizes).toEqual(['A4', 'A6', '100X150', '100X192']);
    const unknown = await t.request('GET', `${base()}/car_nope/products`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('CARRIER_NOT_FOUND');
  });
});

describe('carrier access', () => {
  it('needs a credential for every operation', async () => {
    const created = (await t.request('POST', base(), { body: carrierBody() })).body;
    const one = `${base()}/${created.id}`;
    for (const [method, path, body] of [
      ['GET', base(), undefined],
      ['POST', base(), carrierBody()],
      ['GET', one, undefined],
      ['PUT', one, { name: 'x' }],
      ['DELETE', one, undefined],
      ['GET', `${one}/products`, undefined],
    ] as const) {
      const res = await t.request(method, path, { token: null, body });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.code).toBe('UNAUTHORIZED');
    }
  });

  it('lets read:carriers read but not write', async () => {
    const created = (await t.request('POST', base(), { body: carrierBody() })).body;
    const one = `${base()}/${created.id}`;
    const reader = await t.tokenWithScopes(t.org, ['read:carriers']);
    expect((await t.request('GET', base(), { token: reader })).status).toBe(200);
    expect((await t.request('GET', one, { token: reader })).status).toBe(200);
    expect((await t.request('GET', `${one}/products`, { token: reader })).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', base(), carrierBody()],
      ['PUT', one, { name: 'x' }],
      ['DELETE', one, undefined],
    ] as const) {
      const res = await t.request(method, path, { token: reader, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toMatchObject({ code: 'FORBIDDEN', error: 'Forbidden' });
      expect(res.body.message).toContain('write:carriers');
    }
    const unscoped = await t.tokenWithScopes(t.org, ['read:sender_addresses']);
    expect((await t.request('GET', base(), { token: unscoped })).status).toBe(403);
    expect((await t.request('GET', one)).body.name).toBe(created.name);
  });

  it('hides other organizations’ carriers behind 404 and refuses their paths with 403', async () => {
    const { org, addressId: theirAddress } = await orgWithAddress();
    const theirs = (await t.request('POST', base(org.orgId), { token: org.token, body: carrierBody({ senderAddressId: theirAddress }) })).body;
    for (const [method, path, body] of [
      ['GET', `${base()}/${theirs.id}`, undefined],
      ['PUT', `${base()}/${theirs.id}`, { name: 'mine now' }],
      ['DELETE', `${base()}/${theirs.id}`, undefined],
      ['GET', `${base()}/${theirs.id}/products`, undefined],
    ] as const) {
      const res = await t.request(method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.code).toBe('CARRIER_NOT_FOUND');
    }
    const list = await t.request('GET', `${base()}?limit=100`);
    expect(list.body.data.map((carrier: { id: string }) => carrier.id)).not.toContain(theirs.id);
    const cross = await t.request('GET', base(org.orgId));
    expect(cross.status).toBe(403);
    expect(cross.body.code).toBe('ORG_ACCESS_DENIED');
    // Their carrier cannot be moved onto our address either.
    const move = await t.request('PUT', `${base(org.orgId)}/${theirs.id}`, { token: org.token, body: { senderAddressId: addressId } });
    expect(move.status).toBe(404);
    expect(move.body.code).toBe('ADDRESS_NOT_FOUND');
    expect((await t.request('GET', `${base(org.orgId)}/${theirs.id}`, { token: org.token })).body.name).toBe('Own vans');
  });
});

describe('carrier plan limit', () => {
  it('allows 3 carriers on starter, more with extra_carrier, and a delete frees a place', async () => {
    const { org, addressId: theirAddress } = await orgWithAddress();
    const create = () => t.request('POST', base(org.orgId), { token: org.token, body: carrierBody({ senderAddressId: theirAddress }) });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await create();
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const fourth = await create();
    expect(fourth.status).toBe(403);
    expect(fourth.body.code).toBe('RESOURCE_LIMIT_REACHED');
    expect(fourth.body.message).toContain('carriers');
    expect(fourth.body.message).toContain(`shipdesk org set-add-on ${org.orgId} extra_carrier`);
    expect(fourth.body.message).toContain(`shipdesk org set-plan ${org.orgId} pro`);

    t.app.db.insert(addOns).values({ orgId: org.orgId, type: 'extra_carrier', quantity: 1, unitPrice: 0 }).run();
    expect((await create()).status).toBe(201);
    expect((await create()).body.code).toBe('RESOURCE_LIMIT_REACHED');

    expect((await t.request('DELETE', `${base(org.orgId)}/${ids[0]}`, { token: org.token })).status).toBe(200);
    expect((await create()).status).toBe(201);
    const live = t.app.db.$client.prepare('SELECT count(*) AS n FROM carriers WHERE org_id = ? AND deleted_at IS NULL').get(org.orgId);
    expect(live).toEqual({ n: 4 });
  });
});

describe('carrier list', () => {
  it('pages newest first with the sender address, and rejects bounds instead of clamping', async () => {
    const { org, addressId: theirAddress } = await orgWithAddress();
    t.app.db.insert(addOns).values({ orgId: org.orgId, type: 'extra_carrier', quantity: 10, unitPrice: 0 }).run();
    const names = ['First', 'Second', 'Third'];
    for (const name of names) {
      await t.request('POST', base(org.orgId), { token: org.token, body: carrierBody({ name, senderAddressId: theirAddress }) });
    }
    const list = (query: string) => t.request('GET', `${base(org.orgId)}${query}`, { token: org.token });
    const all = await list('');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 3, page: 1, limit: 20, totalPages: 1 });
    expect(all.body.data.map((carrier: { name: string }) => carrier.name)).toEqual(['Third', 'Second', 'First']);
    expect(all.body.data[0].senderAddress.id).toBe(theirAddress);

    const second = await list('?limit=2&page=2');
    expect(second.body).toMatchObject({ total: 3, page: 2, limit: 2, totalPages: 2 });
    expect(second.body.data.map((carrier: { name: string }) => carrier.name)).toEqual(['First']);

    for (const query of ['?limit=0', '?limit=101', '?page=0', '?page=abc']) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    const past = await list(`?page=${Number.MAX_SAFE_INTEGER}`);
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ data: [], total: 3, totalPages: 1 });
  });
});

describe('carrier secrets', () => {
  const vaultBody = (config: Record<string, unknown>) =>
    carrierBody({ name: 'Vault', carrierSlug: 'test-vault', config: { accountNumber: 'ACC-1', ...config } });

  it('shows required fields in the catalogue and requires them', async () => {
    const catalogue = (await t.request('GET', `/orgs/${t.org.orgId}/available-carriers`)).body;
    const vault = catalogue.find((entry: { slug: string }) => entry.slug === 'test-vault');
    expect(vault.requiredFields.map((field: { key: string }) => field.key)).toEqual(['accountNumber', 'apiKey']);
    const missing = await t.request('POST', base(), { body: carrierBody({ carrierSlug: 'test-vault', config: {} }) });
    expect(missing.status).toBe(400);
    expect(paths(missing)).toEqual(['body.config.accountNumber', 'body.config.apiKey']);
    const blank = await t.request('POST', base(), { body: vaultBody({ apiKey: '' }) });
    expect(paths(blank)).toEqual(['body.config.apiKey']);
    const types = await t.request('POST', base(), { body: vaultBody({ apiKey: 'k', testMode: 'yes', customerNumber: '12' }) });
    expect(paths(types)).toEqual(['body.config.testMode', 'body.config.customerNumber']);
  });

  it('seals secret fields at rest and masks them in every read', async () => {
    const created = await t.request('POST', base(), { body: vaultBody({ apiKey: 'sk-live-secret-9876', testMode: true }) });
    expect(created.status).toBe(201);
    expect(created.body.config).toEqual({ accountNumber: 'ACC-1', apiKey: '••••9876', testMode: true });
    const stored = storedConfig(created.body.id);
    expect(stored.accountNumber).toBe('ACC-1');
    expect(stored.apiKey).toMatch(/^v1:/);
    const raw = t.app.db.$client.prepare('SELECT config FROM carriers WHERE id = ?').get(created.body.id) as { config: string };
    expect(raw.config).not.toContain('sk-live-secret');

    expect((await t.request('GET', `${base()}/${created.body.id}`)).body.config.apiKey).toBe('••••9876');
    const listed = (await t.request('GET', `${base()}?limit=100`)).body.data.find((c: { id: string }) => c.id === created.body.id);
    expect(listed.config.apiKey).toBe('••••9876');

    // Sending back what a read showed keeps the stored secret; a new value replaces it.
    const kept = await t.request('PUT', `${base()}/${created.body.id}`, { body: { config: created.body.config } });
    expect(kept.status).toBe(200);
    expect(storedConfig(created.body.id).apiKey).toBe(stored.apiKey);
    const replaced = await t.request('PUT', `${base()}/${created.body.id}`, { body: { config: { accountNumber: 'ACC-1', apiKey: 'sk-new-secret-1234' } } });
    expect(replaced.body.config.apiKey).toBe('••••1234');
    expect(storedConfig(created.body.id).apiKey).not.toBe(stored.apiKey);
    expect(JSON.stringify(storedConfig(created.body.id))).not.toContain('sk-new');
    // A mask that matches no stored secret is refused rather than stored as the secret.
    const stale = await t.request('POST', base(), { body: vaultBody({ apiKey: '••••9876' }) });
    expect(stale.status).toBe(400);
    expect(paths(stale)).toEqual(['body.config.apiKey']);
  });
});
