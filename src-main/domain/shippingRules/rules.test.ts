import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupLocalCarrier, shippingRuleBody, startTestServer, type TestOrg, type TestServer } from '../../testing/harness';
import { createPrinter } from '../../testing/printing';

let t: TestServer;
let carrierId: string;
let senderAddressId: string;
beforeAll(async () => {
  t = await startTestServer();
  ({ carrierId, senderAddressId } = await setupLocalCarrier(t));
});
afterAll(async () => t.close());

const base = (org: TestOrg = t.org) => `/orgs/${org.orgId}/shipping-rules`;
const body = (overrides: Record<string, unknown> = {}) => shippingRuleBody(carrierId, senderAddressId, overrides);

let printerCounter = 0;
/** Printers are made by another feature; a row is enough for a rule to point at. */
function insertPrinter(orgId: string, name: string, deletedAt: string | null = null): string {
  const id = `prn_test${++printerCounter}`;
  const now = new Date().toISOString();
  t.app.db.$client
    .prepare(
      `INSERT INTO printers (id, org_id, name, driver, target, format, label_size, is_default, deleted_at, created_at, updated_at)
       VALUES (?, ?, ?, 'pdf', 'file', 'pdf', 'A6', 0, ?, ?, ?)`,
    )
    .run(id, orgId, name, deletedAt, now, now);
  return id;
}

async function createRule(overrides: Record<string, unknown> = {}) {
  const res = await t.request('POST', base(), { body: body(overrides) });
  if (res.status !== 201) throw new Error(`rule: ${JSON.stringify(res.body)}`);
  return res.body;
}

describe('shipping rule create', () => {
  it('creates with 201, the base fields and their defaults', async () => {
    const res = await t.request('POST', base(), { body: body() });
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(/^rul_[0-9a-z]{26}$/);
    expect(res.body).toEqual({
      id: res.body.id,
      name: 'Denmark parcels',
      description: null,
      carrierId,
      productId: 'local_parcel',
      services: [],
      additionalParameters: [],
      senderAddressId,
      receivingCountries: ['DK'],
      conditions: [{ type: 'weight', min: 0, max: 5, shippingPrice: 49, currency: 'DKK' }],
      emailNotification: false,
      phoneNotification: false,
      generateProformaInvoice: false,
      generateCommercialInvoice: false,
      generatePackingList: false,
      autoPrintLabels: false,
      autoPrintDocuments: false,
      labelPrinterId: null,
      documentPrinterId: null,
      returnShippingRuleId: null,
      autoCreateReturnShipment: false,
      orgId: t.org.orgId,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: res.body.createdAt,
    });
    const row = t.app.db.$client.prepare('SELECT product_id, org_id, deleted_at FROM shipping_rules WHERE id = ?').get(res.body.id);
    expect(row).toEqual({ product_id: 'local_parcel', org_id: t.org.orgId, deleted_at: null });
  });

  it('keeps every optional field and every condition type as given', async () => {
    const returnRule = await createRule({ name: 'Returns', productId: 'local_return', services: ['collect'], conditions: [] });
    const conditions = [
      { type: 'weight', min: 0, max: 2.5, shippingPrice: 39, currency: 'DKK' },
      { type: 'price', operator: 'gte', value: 500, shippingPrice: 0, currency: 'DKK' },
      { type: 'priceRange', min: 100, max: 499.99, shippingPrice: 29, currency: 'DKK' },
      { type: 'flatRate', shippingPrice: 59, currency: 'EUR' },
    ];
    const res = await t.request('POST', base(), {
      body: body({
        name: 'Everything',
        description: 'Parcels with a signature',
        services: ['signature', 'evening'],
        additionalParameters: [{ name: 'route', val: 'north' }],
        receivingCountries: ['DK', 'SE', '*'],
        conditions,
        emailNotification: true,
        phoneNotification: true,
        generateProformaInvoice: true,
        generateCommercialInvoice: true,
        generatePackingList: true,
        autoPrintLabels: true,
        autoPrintDocuments: true,
        autoCreateReturnShipment: true,
        labelPrinterId: null,
        returnShippingRuleId: returnRule.id,
      }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      description: 'Parcels with a signature',
      services: ['signature', 'evening'],
      additionalParameters: [{ name: 'route', val: 'north' }],
      receivingCountries: ['DK', 'SE', '*'],
      conditions,
      emailNotification: true,
      generatePackingList: true,
      autoPrintDocuments: true,
      autoCreateReturnShipment: true,
      labelPrinterId: null,
      returnShippingRuleId: returnRule.id,
    });
  });

  it('rejects schema violations with details', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'body.name'],
      [{ receivingCountries: [] }, 'body.receivingCountries'],
      [{ receivingCountries: ['dk'] }, 'body.receivingCountries.0'],
      [{ conditions: [{ type: 'weight', min: 6, max: 5, shippingPrice: 1, currency: 'DKK' }] }, 'body.conditions.0.min'],
      [{ conditions: [{ type: 'priceRange', min: 500, max: 100, shippingPrice: 1, currency: 'DKK' }] }, 'body.conditions.0.min'],
      [{ conditions: [{ type: 'volume', min: 0, max: 5, shippingPrice: 1, currency: 'DKK' }] }, 'body.conditions.0.type'],
      [{ conditions: [{ type: 'weight', max: 5, shippingPrice: 1, currency: 'DKK' }] }, 'body.conditions.0.min'],
      [{ conditions: [{ type: 'weight', min: -1, max: 5, shippingPrice: 1, currency: 'DKK' }] }, 'body.conditions.0.min'],
      [{ conditions: [{ type: 'price', value: 100, shippingPrice: 1, currency: 'DKK' }] }, 'body.conditions.0.operator'],
      [{ conditions: [{ type: 'price', operator: 'ne', value: 100, shippingPrice: 1, currency: 'DKK' }] }, 'body.conditions.0.operator'],
      [{ conditions: [{ type: 'flatRate', shippingPrice: 1, currency: 'dkk' }] }, 'body.conditions.0.currency'],
      [{ conditions: [{ type: 'flatRate', shippingPrice: -1, currency: 'DKK' }] }, 'body.conditions.0.shippingPrice'],
      [{ conditions: [{ type: 'flatRate', shippingPrice: 1, currency: 'DKK', min: 0 }] }, 'body.conditions.0.min'],
      [{ colour: 'red' }, 'body.colour'],
      [{ emailNotification: 'yes' }, 'body.emailNotification'],
      [{ additionalParameters: [{ name: '', val: 'x' }] }, 'body.additionalParameters.0.name'],
    ];
    for (const [overrides, path] of cases) {
      const res = await t.request('POST', base(), { body: body(overrides) });
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(
        res.body.details.map((d: { path: string }) => d.path),
        JSON.stringify(overrides),
      ).toContain(path);
    }
  });

  it('names every missing required field', async () => {
    const res = await t.request('POST', base(), { body: {} });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(
      expect.arrayContaining([
        'body.name',
        'body.carrierId',
        'body.productId',
        'body.services',
        'body.senderAddressId',
        'body.receivingCountries',
        'body.conditions',
      ]),
    );
    const malformed = await t.request('POST', base(), { rawBody: '{"name":' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('BAD_REQUEST');
  });

  it('takes any product and services of the carrier: what it offers is checked when a shipment is sent (decisions §8)', async () => {
    const product = await t.request('POST', base(), { body: body({ productId: 'standard', services: ['insurance'] }) });
    expect(product.status).toBe(201);
    expect(product.body).toMatchObject({ productId: 'standard', services: ['insurance'] });
  });

  it('a document printer must print PDF (the papers are A4 PDFs); a label printer may be of either format', async () => {
    const zebra = await createPrinter(t, { name: 'Zebra dock', driver: 'raw', target: '127.0.0.1:9100', format: 'zpl' });
    const refused = await t.request('POST', base(), { body: body({ documentPrinterId: zebra.id }) });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([
      { path: 'body.documentPrinterId', message: 'Zebra dock prints ZPL; packing lists and invoices are PDF, so choose a PDF printer' },
    ]);
    expect((await t.request('POST', base(), { body: body({ labelPrinterId: zebra.id }) })).status).toBe(201);
  });

  it('answers 404 for unknown carriers, addresses, printers and return rules', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ carrierId: 'car_unknown' }, 'CARRIER_NOT_FOUND'],
      [{ senderAddressId: 'adr_unknown' }, 'ADDRESS_NOT_FOUND'],
      [{ labelPrinterId: 'prn_unknown' }, 'PRINTER_NOT_FOUND'],
      [{ documentPrinterId: 'prn_unknown' }, 'PRINTER_NOT_FOUND'],
      [{ labelPrinterId: insertPrinter(t.org.orgId, 'Gone', '2026-01-01T00:00:00.000Z') }, 'PRINTER_NOT_FOUND'],
      [{ returnShippingRuleId: 'rul_unknown' }, 'SHIPPING_RULE_NOT_FOUND'],
    ];
    for (const [overrides, code] of cases) {
      const res = await t.request('POST', base(), { body: body(overrides) });
      expect(res.status, JSON.stringify(overrides)).toBe(404);
      expect(res.body.code).toBe(code);
    }
  });

  it('does not accept another organization’s carrier, address, printer or return rule', async () => {
    const other = await t.createOrg();
    const theirs = await setupLocalCarrier(t, other);
    const theirRule = await t.request('POST', base(other), { token: other.token, body: shippingRuleBody(theirs.carrierId, theirs.senderAddressId) });
    expect(theirRule.status).toBe(201);
    const theirPrinter = insertPrinter(other.orgId, 'Their printer');
    const cases: [Record<string, unknown>, string][] = [
      [{ carrierId: theirs.carrierId }, 'CARRIER_NOT_FOUND'],
      [{ senderAddressId: theirs.senderAddressId }, 'ADDRESS_NOT_FOUND'],
      [{ labelPrinterId: theirPrinter }, 'PRINTER_NOT_FOUND'],
      [{ returnShippingRuleId: theirRule.body.id }, 'SHIPPING_RULE_NOT_FOUND'],
    ];
    for (const [overrides, code] of cases) {
      const res = await t.request('POST', base(), { body: body(overrides) });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(code);
    }
  });
});

describe('shipping rule reads', () => {
  it('gets with the expanded carrier, sender address, printers and return rule', async () => {
    const labelPrinterId = insertPrinter(t.org.orgId, 'Zebra at dock 1');
    const documentPrinterId = insertPrinter(t.org.orgId, 'Office laser');
    const returnRule = await createRule({ name: 'Returns by van', productId: 'local_return', conditions: [] });
    const created = await createRule({ name: 'Expanded', labelPrinterId, documentPrinterId, returnShippingRuleId: returnRule.id });
    const res = await t.request('GET', `${base()}/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ...created,
      carrier: { id: carrierId, name: 'Own trucks', carrierSlug: 'local', senderAddressId, orgId: t.org.orgId },
      senderAddress: { id: senderAddressId, name: 'Main warehouse', city: 'Aarhus' },
      labelPrinter: { id: labelPrinterId, name: 'Zebra at dock 1' },
      documentPrinter: { id: documentPrinterId, name: 'Office laser' },
      returnShippingRule: { id: returnRule.id, name: 'Returns by van' },
    });
    expect(res.body.carrier).not.toHaveProperty('senderAddress');
    expect(res.body.carrier.config).toEqual(expect.any(Object));

    const plain = await t.request('GET', `${base()}/${returnRule.id}`);
    expect(plain.body).toMatchObject({ carrier: { id: carrierId }, senderAddress: { id: senderAddressId } });
    expect(plain.body).not.toHaveProperty('labelPrinter');
    expect(plain.body).not.toHaveProperty('documentPrinter');
    expect(plain.body).not.toHaveProperty('returnShippingRule');
  });

  it('lists newest first with the expanded parts', async () => {
    const labelPrinterId = insertPrinter(t.org.orgId, 'List printer');
    const older = await createRule({ name: 'Older' });
    const newer = await createRule({ name: 'Newer', labelPrinterId, returnShippingRuleId: older.id });
    const res = await t.request('GET', `${base()}?limit=2`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ page: 1, limit: 2 });
    expect(res.body.totalPages).toBe(Math.ceil(res.body.total / 2));
    expect(res.body.data.map((rule: { id: string }) => rule.id)).toEqual([newer.id, older.id]);
    expect(res.body.data[0]).toMatchObject({
      carrier: { id: carrierId },
      senderAddress: { id: senderAddressId },
      labelPrinter: { id: labelPrinterId, name: 'List printer' },
      returnShippingRule: { id: older.id, name: 'Older' },
    });
    expect(res.body.data[0].carrier).not.toHaveProperty('senderAddress');
    expect(res.body.data[1]).not.toHaveProperty('returnShippingRule');
  });

  it('rejects page bounds and answers past the end with an empty page', async () => {
    for (const query of ['limit=0', 'limit=101', 'page=0', 'page=-1', 'limit=abc', 'page=9007199254740992', 'sort=name']) {
      const res = await t.request('GET', `${base()}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    const max = await t.request('GET', `${base()}?page=9007199254740991&limit=100`);
    expect(max.status).toBe(200);
    expect(max.body.data).toEqual([]);
    expect(max.body.total).toBeGreaterThan(0);
    expect(max.body.totalPages).toBe(Math.ceil(max.body.total / 100));
    const org = await t.createOrg();
    const empty = await t.request('GET', base(org), { token: org.token });
    expect(empty.body).toEqual({ data: [], total: 0, page: 1, limit: 20, totalPages: 0 });
  });

  it('answers 404 for unknown rules', async () => {
    const res = await t.request('GET', `${base()}/rul_unknown`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'SHIPPING_RULE_NOT_FOUND', error: 'Not Found' });
    expect((await t.request('PATCH', `${base()}/rul_unknown`, { body: { name: 'x' } })).body.code).toBe('SHIPPING_RULE_NOT_FOUND');
    expect((await t.request('DELETE', `${base()}/rul_unknown`)).body.code).toBe('SHIPPING_RULE_NOT_FOUND');
  });
});

describe('shipping rule update', () => {
  it('changes only the fields given and answers with the base fields', async () => {
    const created = await createRule({ description: 'Keep me', services: ['signature'] });
    const labelPrinterId = insertPrinter(t.org.orgId, 'Patched printer');
    const res = await t.request('PATCH', `${base()}/${created.id}`, {
      body: { name: 'Renamed', receivingCountries: ['*'], labelPrinterId, autoPrintLabels: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...created,
      name: 'Renamed',
      receivingCountries: ['*'],
      labelPrinterId,
      autoPrintLabels: true,
      updatedAt: expect.any(String),
    });
    expect(res.body).not.toHaveProperty('carrier');
    const cleared = await t.request('PATCH', `${base()}/${created.id}`, { body: { labelPrinterId: null, description: null } });
    expect(cleared.body).toMatchObject({ labelPrinterId: null, description: null, name: 'Renamed' });
    const read = await t.request('GET', `${base()}/${created.id}`);
    expect(read.body).not.toHaveProperty('labelPrinter');
  });

  it('checks the rule as a whole, like a create', async () => {
    const created = await createRule({ services: ['signature'] });
    const path = `${base()}/${created.id}`;
    const moved = await t.request('PATCH', path, { body: { productId: 'local_pallet', services: ['tail_lift'] } });
    expect(moved.status).toBe(200);
    expect((await t.request('PATCH', path, { body: { carrierId: 'car_unknown' } })).body.code).toBe('CARRIER_NOT_FOUND');
    expect((await t.request('PATCH', path, { body: { senderAddressId: 'adr_unknown' } })).body.code).toBe('ADDRESS_NOT_FOUND');
    expect((await t.request('PATCH', path, { body: { documentPrinterId: 'prn_unknown' } })).body.code).toBe('PRINTER_NOT_FOUND');
    expect((await t.request('PATCH', path, { body: { returnShippingRuleId: 'rul_unknown' } })).body.code).toBe('SHIPPING_RULE_NOT_FOUND');
    const self = await t.request('PATCH', path, { body: { returnShippingRuleId: created.id } });
    expect(self.status).toBe(400);
    expect(self.body.details[0].path).toBe('body.returnShippingRuleId');
    for (const patch of [{ name: '' }, { receivingCountries: [] }, { colour: 'red' }, { conditions: [{ type: 'weight', min: 2 }] }]) {
      const res = await t.request('PATCH', path, { body: patch });
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    // Nothing of the refused patches was written.
    const read = await t.request('GET', path);
    expect(read.body).toMatchObject({ productId: 'local_pallet', services: ['tail_lift'], returnShippingRuleId: null, name: created.name });
  });
});

describe('shipping rule delete', () => {
  it('soft deletes: gone from reads and lists, the row kept', async () => {
    const created = await createRule({ name: 'Delete me' });
    const del = await t.request('DELETE', `${base()}/${created.id}`);
    expect(del.status).toBe(200);
    expect(del.body.message).toContain(created.id);
    expect((await t.request('GET', `${base()}/${created.id}`)).status).toBe(404);
    expect((await t.request('DELETE', `${base()}/${created.id}`)).status).toBe(404);
    expect((await t.request('PATCH', `${base()}/${created.id}`, { body: { name: 'Back' } })).status).toBe(404);
    const list = await t.request('GET', `${base()}?limit=100`);
    expect(list.body.data.map((rule: { id: string }) => rule.id)).not.toContain(created.id);
    const row = t.app.db.$client.prepare('SELECT deleted_at FROM shipping_rules WHERE id = ?').get(created.id) as { deleted_at: string | null };
    expect(row.deleted_at).toMatch(/Z$/);
    // A deleted rule cannot become a return rule.
    const reuse = await t.request('POST', base(), { body: body({ returnShippingRuleId: created.id }) });
    expect(reuse.body.code).toBe('SHIPPING_RULE_NOT_FOUND');
  });

  it('refuses while another live rule returns with it', async () => {
    const returnRule = await createRule({ name: 'Return rule', productId: 'local_return', conditions: [] });
    const outbound = await createRule({ name: 'Outbound', returnShippingRuleId: returnRule.id });
    const refused = await t.request('DELETE', `${base()}/${returnRule.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CONFLICT');
    expect(refused.body.message).toContain(outbound.id);
    expect((await t.request('DELETE', `${base()}/${outbound.id}`)).status).toBe(200);
    expect((await t.request('DELETE', `${base()}/${returnRule.id}`)).status).toBe(200);
  });
});

describe('shipping rule access', () => {
  it('needs a credential and the right scope', async () => {
    const rule = await createRule();
    expect((await t.request('GET', base(), { token: null })).status).toBe(401);
    expect((await t.request('GET', base(), { token: 'shpd_nottoken' })).status).toBe(401);
    const readOnly = await t.tokenWithScopes(t.org, ['read:shipping_rules']);
    expect((await t.request('GET', base(), { token: readOnly })).status).toBe(200);
    expect((await t.request('GET', `${base()}/${rule.id}`, { token: readOnly })).status).toBe(200);
    const calls: [string, string, unknown][] = [
      ['POST', base(), body()],
      ['PATCH', `${base()}/${rule.id}`, { name: 'x' }],
      ['DELETE', `${base()}/${rule.id}`, undefined],
    ];
    for (const [method, path, payload] of calls) {
      const denied = await t.request(method, path, { token: readOnly, ...(payload === undefined ? {} : { body: payload }) });
      expect(denied.status, `${method} ${path}`).toBe(403);
      expect(denied.body.code).toBe('FORBIDDEN');
      expect(denied.body.message).toContain('write:shipping_rules');
    }
    const otherScope = await t.tokenWithScopes(t.org, ['read:carriers']);
    expect((await t.request('GET', base(), { token: otherScope })).status).toBe(403);
    const writer = await t.tokenWithScopes(t.org, ['write:shipping_rules']);
    expect((await t.request('POST', `${base()}/match`, { token: writer, body: { countryCode: 'DK', weight: 1 } })).status).toBe(200);
  });

  it('answers which rule matches with only read:shipping_rules, since the match only reads (decisions §3)', async () => {
    const rule = await createRule();
    const question = { countryCode: 'DK', weight: 1 };
    const matched = (res: { body: { matches: { shippingRuleId: string }[] } }) => res.body.matches.map((match) => match.shippingRuleId);
    for (const scopes of [['read:shipping_rules'], ['read:all']] as const) {
      const token = await t.tokenWithScopes(t.org, [...scopes]);
      const res = await t.request('POST', `${base()}/match`, { token, body: question });
      expect(res.status, scopes.join()).toBe(200);
      expect(matched(res)).toContain(rule.id);
    }
    // Packers and viewers hold read:all through their role (JWT logins).
    for (const role of ['packer', 'viewer'] as const) {
      const email = `match-${role}-${rule.id}@acme.example`;
      const password = 'reading rules all day';
      const added = await t.request('POST', `/orgs/${t.org.orgId}/members`, { body: { email, name: `The ${role}`, role, password } });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
      const jwt = (await t.request('POST', '/auth/login', { token: null, body: { email, password } })).body.accessToken as string;
      const res = await t.request('POST', `${base()}/match`, { token: jwt, body: question });
      expect(res.status, role).toBe(200);
      expect(matched(res)).toContain(rule.id);
    }
    const otherResource = await t.tokenWithScopes(t.org, ['read:carriers']);
    const denied = await t.request('POST', `${base()}/match`, { token: otherResource, body: question });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toContain('read:shipping_rules');
  });

  it('hides other organizations’ rules behind 404 and refuses their paths with 403', async () => {
    const other = await t.createOrg();
    const theirs = await setupLocalCarrier(t, other);
    const theirRule = (await t.request('POST', base(other), { token: other.token, body: shippingRuleBody(theirs.carrierId, theirs.senderAddressId) })).body;
    for (const [method, payload] of [
      ['GET', undefined],
      ['PATCH', { name: 'Mine now' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.request(method, `${base()}/${theirRule.id}`, payload ? { body: payload } : {});
      expect(res.status, method).toBe(404);
      expect(res.body.code).toBe('SHIPPING_RULE_NOT_FOUND');
    }
    const cross = await t.request('GET', base(other));
    expect(cross.status).toBe(403);
    expect(cross.body.code).toBe('ORG_ACCESS_DENIED');
    const mine = await t.request('GET', `${base()}?limit=100`);
    expect(mine.body.data.map((rule: { id: string }) => rule.id)).not.toContain(theirRule.id);
    expect((await t.request('GET', `${base(other)}/${theirRule.id}`, { token: other.token })).body.name).toBe('Denmark parcels');
  });

  it('enforces the plan limit of 25 shipping rules (starter); a delete frees a place', async () => {
    const org = await t.createOrg();
    const own = await setupLocalCarrier(t, org);
    const create = () => t.request('POST', base(org), { token: org.token, body: shippingRuleBody(own.carrierId, own.senderAddressId) });
    let last = '';
    for (let i = 0; i < 25; i++) {
      const res = await create();
      expect(res.status).toBe(201);
      last = res.body.id;
    }
    const over = await create();
    expect(over.status).toBe(403);
    expect(over.body.code).toBe('RESOURCE_LIMIT_REACHED');
    expect(over.body.message).toContain('shippingRules');
    expect((await t.request('DELETE', `${base(org)}/${last}`, { token: org.token })).status).toBe(200);
    expect((await create()).status).toBe(201);
    const usage = await t.request('GET', `/orgs/${org.orgId}/billing/usage`, { token: org.token });
    expect(usage.body.limits.shippingRules).toEqual({ used: 25, limit: 25 });
  });
});
