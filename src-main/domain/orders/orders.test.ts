import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inWriteTransaction } from '../../db/tx';
import { setupLocalCarrier, startTestServer, type TestOrg, type TestServer } from '../../testing/harness';
import { remainingParcel } from './allocation';
import { recomputeOrder } from './orderStatus';

let t: TestServer;
let carrierId: string;
let senderAddressId: string;
let channelId: string;
let otherChannelId: string;

const orders = (org: TestOrg = t.org) => `/orgs/${org.orgId}/orders`;
const shipmentsPath = () => `/orgs/${t.org.orgId}/shipments`;
const paths = (body: { details?: { path: string }[] }) => (body.details ?? []).map((detail) => detail.path);
const db = () => t.app.db.$client;
const run = (query: string, ...params: unknown[]) =>
  db()
    .prepare(query)
    .run(...params);
const recompute = (orderId: string) => inWriteTransaction(t.app.db, (tx) => recomputeOrder(tx, new Date(), orderId));
const outbox = (type: string, orderId: string) =>
  (db().prepare('SELECT payload FROM outbox_events WHERE type = ? ORDER BY created_at, id').all(type) as { payload: string }[])
    .map((row) => JSON.parse(row.payload) as { type: string; orgId: string; data: { id: string; status: string } })
    .filter((event) => event.data.id === orderId);

let counter = 0;
const nextNumber = () => `#${1000 + ++counter}`;

function shippingAddress(overrides: Record<string, unknown> = {}) {
  return { name: 'Jens Hansen', address1: 'Nørregade 1', city: 'København K', postalCode: '1165', countryCode: 'DK', ...overrides };
}

function orderBody(overrides: Record<string, unknown> = {}) {
  return {
    orderNumber: nextNumber(),
    orderChannelId: channelId,
    customerName: 'Jens Hansen',
    customerEmail: 'jens@example.dk',
    totalAmount: 190,
    currency: 'DKK',
    shippingAddress: shippingAddress(),
    orderLines: [
      { name: 'Mug', sku: 'MUG-01', quantity: 2, unitPrice: 50, currency: 'DKK', weight: 0.5, weightUnit: 'kg', hsCode: '6912' },
      { name: 'Tea', sku: 'TEA-02', quantity: 3, unitPrice: 30, currency: 'DKK', weight: 200, weightUnit: 'g' },
      { name: 'Gift card', quantity: 1, requiresShipping: false, giftCard: true },
    ],
    ...overrides,
  };
}

async function createOrder(overrides: Record<string, unknown> = {}) {
  const res = await t.request('POST', orders(), { body: orderBody(overrides) });
  if (res.status !== 201) throw new Error(`order: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A shipment copied from the order: its receiver and what is left to ship. */
const shipFromOrder = (orderId: string) =>
  t.request('POST', shipmentsPath(), { body: { orderId, type: 'outbound', carrierSettings: { carrierId, productId: 'local_parcel' } } });

const getOrder = async (orderId: string) => (await t.request('GET', `${orders()}/${orderId}`)).body;
const setShipmentStatus = (shipmentId: string, status: string) => run('UPDATE shipments SET status = ? WHERE id = ?', status, shipmentId);

function insertRule(orgId: string, carrier: string, sender: string, overrides: { deletedAt?: string } = {}): string {
  const id = `rul_test${++counter}`;
  const now = new Date().toISOString();
  run(
    `INSERT INTO shipping_rules (id, org_id, name, carrier_id, product_id, services, additional_parameters, sender_address_id,
       receiving_countries, conditions, return_shipping_rule_id, deleted_at, created_at, updated_at)
     VALUES (?, ?, 'Denmark parcels', ?, 'local_parcel', '[]', '[]', ?, '["DK"]', '[]', NULL, ?, ?, ?)`,
    id,
    orgId,
    carrier,
    sender,
    overrides.deletedAt ?? null,
    now,
    now,
  );
  return id;
}

beforeAll(async () => {
  t = await startTestServer();
  ({ carrierId, senderAddressId } = await setupLocalCarrier(t));
  channelId = (await t.request('POST', `/orgs/${t.org.orgId}/order-channels`, { body: { name: 'Phone orders', type: 'manual' } })).body.id;
  otherChannelId = (await t.request('POST', `/orgs/${t.org.orgId}/order-channels`, { body: { name: 'Webshop', type: 'csv' } })).body.id;
});
afterAll(async () => t.close());

describe('order create and read', () => {
  it('creates with 201: pending, no shipments, lines with ids and positions, empty values null, order.created in the outbox', async () => {
    const res = await t.request('POST', orders(), { body: orderBody({ orderNumber: 'SHAPE-1' }) });
    expect(res.status).toBe(201);
    const order = res.body;
    expect(order.id).toMatch(/^ord_[0-9a-z]{26}$/);
    expect(Object.keys(order).sort()).toEqual(
      [
        'createdAt',
        'currency',
        'customerEmail',
        'customerName',
        'externalData',
        'externalId',
        'id',
        'notes',
        'orderChannel',
        'orderChannelId',
        'orderLines',
        'orderNumber',
        'orgId',
        'servicePointId',
        'shipmentCount',
        'shipments',
        'shippingAddress',
        'shippingRuleId',
        'shopChange',
        'status',
        'totalAmount',
        'updatedAt',
      ].sort(),
    );
    expect(order).toMatchObject({
      orderNumber: 'SHAPE-1',
      status: 'pending',
      shipmentCount: 0,
      orderChannel: { id: channelId, name: 'Phone orders', type: 'manual' },
      orderChannelId: channelId,
      orgId: t.org.orgId,
      shipments: [],
      externalId: null,
      servicePointId: null,
      shippingRuleId: null,
      notes: null,
      externalData: {},
      totalAmount: 190,
      currency: 'DKK',
    });
    expect(order.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(order.shippingAddress).toEqual({
      ...shippingAddress(),
      attention: null,
      company: null,
      address2: null,
      province: null,
      provinceCode: null,
      country: null,
      phone: null,
      email: null,
    });
    expect(order.orderLines).toHaveLength(3);
    expect(order.orderLines[0]).toEqual({
      id: expect.stringMatching(/^oln_/),
      name: 'Mug',
      quantity: 2,
      sku: 'MUG-01',
      unitPrice: 50,
      totalPrice: null,
      currency: 'DKK',
      weight: 0.5,
      weightUnit: 'kg',
      variantId: null,
      productId: null,
      imageUrl: null,
      hsCode: '6912',
      countryOfOrigin: null,
      provinceOfOrigin: null,
      barcode: null,
      vendor: null,
      location: null,
      requiresShipping: true,
      taxable: true,
      giftCard: false,
    });
    expect(order.orderLines[2]).toMatchObject({ name: 'Gift card', requiresShipping: false, giftCard: true, sku: null });

    const rows = db().prepare('SELECT id, position, name FROM order_lines WHERE order_id = ? ORDER BY position').all(order.id);
    expect(rows).toEqual(order.orderLines.map((line: { id: string; name: string }, position: number) => ({ id: line.id, position, name: line.name })));
    const created = outbox('order.created', order.id);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ type: 'order.created', orgId: t.org.orgId, data: { id: order.id, status: 'pending' } });

    const got = await t.request('GET', `${orders()}/${order.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(order);
  });

  it('keeps every optional field given, and an order without a shipping address leaves it out', async () => {
    const order = await createOrder({
      externalId: 'shopify-991',
      notes: 'Leave at the door',
      externalData: { source: 'phone', tags: ['vip'] },
      shippingAddress: shippingAddress({ company: 'Hansen ApS', phone: '+4520202020', email: 'ship@example.dk', country: 'Denmark' }),
    });
    expect(order).toMatchObject({ externalId: 'shopify-991', notes: 'Leave at the door', externalData: { source: 'phone', tags: ['vip'] } });
    expect(order.shippingAddress).toMatchObject({ company: 'Hansen ApS', phone: '+4520202020', email: 'ship@example.dk', country: 'Denmark', address2: null });
    const bare = await createOrder({
      shippingAddress: undefined,
      customerName: undefined,
      customerEmail: undefined,
      totalAmount: undefined,
      currency: undefined,
    });
    expect(bare).toMatchObject({ customerName: null, customerEmail: null, totalAmount: null, currency: null });
    // Not nullable in the spec: left out while the order has none (decisions §1).
    expect(bare).not.toHaveProperty('shippingAddress');
    expect(bare.orderLines[0].weightUnit).toBe('kg');
  });

  it('links a live shipping rule of the organization and shows its summary', async () => {
    const ruleId = insertRule(t.org.orgId, carrierId, senderAddressId);
    const order = await createOrder({ shippingRuleId: ruleId });
    expect(order.shippingRuleId).toBe(ruleId);
    expect(order.shippingRule).toEqual({
      id: ruleId,
      name: 'Denmark parcels',
      carrierId,
      productId: 'local_parcel',
      services: [],
      senderAddressId,
      returnShippingRuleId: null,
      autoCreateReturnShipment: false,
    });
    const deletedRule = insertRule(t.org.orgId, carrierId, senderAddressId, { deletedAt: new Date().toISOString() });
    for (const shippingRuleId of ['rul_unknown', deletedRule]) {
      const res = await t.request('POST', orders(), { body: orderBody({ shippingRuleId }) });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'SHIPPING_RULE_NOT_FOUND', error: 'Not Found' });
    }
  });

  it('rejects every validation bound with 400 VALIDATION_FAILED and a path', async () => {
    const line = { name: 'Mug', quantity: 1 };
    const cases: [Record<string, unknown>, string][] = [
      [{ orderLines: [] }, 'body.orderLines'],
      [{ orderLines: undefined }, 'body.orderLines'],
      [{ orderLines: [{ ...line, quantity: 0 }] }, 'body.orderLines.0.quantity'],
      [{ orderLines: [{ ...line, quantity: 1.5 }] }, 'body.orderLines.0.quantity'],
      [{ orderLines: [{ quantity: 1 }] }, 'body.orderLines.0.name'],
      [{ orderLines: [{ ...line, name: '' }] }, 'body.orderLines.0.name'],
      [{ orderLines: [{ ...line, weightUnit: 'stone' }] }, 'body.orderLines.0.weightUnit'],
      [{ orderLines: [{ ...line, colour: 'blue' }] }, 'body.orderLines.0.colour'],
      [{ orderNumber: '' }, 'body.orderNumber'],
      [{ orderNumber: undefined }, 'body.orderNumber'],
      [{ orderNumber: 'x'.repeat(1001) }, 'body.orderNumber'],
      [{ orderChannelId: undefined }, 'body.orderChannelId'],
      [{ shippingAddress: { ...shippingAddress(), city: undefined } }, 'body.shippingAddress.city'],
      [{ shippingAddress: { ...shippingAddress(), name: '' } }, 'body.shippingAddress.name'],
      [{ shippingAddress: shippingAddress({ countryCode: 'dk' }) }, 'body.shippingAddress.countryCode'],
      [{ shippingAddress: shippingAddress({ countryCode: 'XX' }) }, 'body.shippingAddress.countryCode'],
      [{ shippingAddress: shippingAddress({ email: 'not-an-email' }) }, 'body.shippingAddress.email'],
      [{ customerEmail: 'not-an-email' }, 'body.customerEmail'],
      [{ currency: 'XYZ' }, 'body.currency'],
      [{ totalAmount: -1 }, 'body.totalAmount'],
      [{ status: 'pending' }, 'body.status'],
      [{ colour: 'red' }, 'body.colour'],
    ];
    const before = (db().prepare('SELECT count(*) AS n FROM orders').get() as { n: number }).n;
    for (const [overrides, path] of cases) {
      const res = await t.request('POST', orders(), { body: orderBody(overrides) });
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(paths(res.body), JSON.stringify(overrides)).toContain(path);
    }
    const malformed = await t.request('POST', orders(), { rawBody: '{"orderNumber":' });
    expect(malformed.status).toBe(400);
    expect((db().prepare('SELECT count(*) AS n FROM orders').get() as { n: number }).n).toBe(before);
  });

  it('needs a live channel of the organization: 404 ORDER_CHANNEL_NOT_FOUND', async () => {
    const other = await t.createOrg();
    const foreignChannel = (await t.request('POST', `/orgs/${other.orgId}/order-channels`, { token: other.token, body: { name: 'Theirs', type: 'manual' } }))
      .body.id;
    const gone = (await t.request('POST', `/orgs/${other.orgId}/order-channels`, { token: other.token, body: { name: 'Gone', type: 'manual' } })).body.id;
    await t.request('DELETE', `/orgs/${other.orgId}/order-channels/${gone}`, { token: other.token });
    for (const orderChannelId of ['chn_unknown', foreignChannel]) {
      const res = await t.request('POST', orders(), { body: orderBody({ orderChannelId }) });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('ORDER_CHANNEL_NOT_FOUND');
    }
    const res = await t.request('POST', orders(other), { token: other.token, body: orderBody({ orderChannelId: gone }) });
    expect(res.body.code).toBe('ORDER_CHANNEL_NOT_FOUND');
  });

  it('keeps order numbers unique per channel: 409 CONFLICT in the same channel, allowed in another', async () => {
    await createOrder({ orderNumber: 'DUP-1' });
    const again = await t.request('POST', orders(), { body: orderBody({ orderNumber: 'DUP-1' }) });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CONFLICT');
    expect(again.body.message).toContain('DUP-1');
    const elsewhere = await t.request('POST', orders(), { body: orderBody({ orderNumber: 'DUP-1', orderChannelId: otherChannelId }) });
    expect(elsewhere.status).toBe(201);
    expect(outbox('order.created', elsewhere.body.id)).toHaveLength(1);
  });

  it('trims the order number, so a stray space from a scanner or a spreadsheet is not a second order', async () => {
    const first = await createOrder({ orderNumber: ' TRIM-1\t' });
    expect(first.orderNumber).toBe('TRIM-1');
    const again = await t.request('POST', orders(), { body: orderBody({ orderNumber: 'TRIM-1 ' }) });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CONFLICT');
    const blank = await t.request('POST', orders(), { body: orderBody({ orderNumber: '   ' }) });
    expect(blank.status).toBe(400);
    expect(paths(blank.body)).toEqual(['body.orderNumber']);
    const renamed = await t.request('PATCH', `${orders()}/${first.id}`, { body: { orderNumber: ' TRIM-2 ' } });
    expect(renamed.body.orderNumber).toBe('TRIM-2');
  });

  it('answers 404 ORDER_NOT_FOUND for unknown ids and for another organization’s orders', async () => {
    const order = await createOrder();
    const other = await t.createOrg();
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { notes: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const unknown = await t.request(method, `${orders()}/ord_unknown`, { body });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ code: 'ORDER_NOT_FOUND', error: 'Not Found' });
      const foreign = await t.request(method, `${orders(other)}/${order.id}`, { token: other.token, body });
      expect(foreign.status).toBe(404);
      expect(foreign.body.code).toBe('ORDER_NOT_FOUND');
    }
    expect((await getOrder(order.id)).notes).toBeNull();
    expect((await t.request('GET', orders(other), { token: other.token })).body.total).toBe(0);
  });
});

describe('order list', () => {
  let org: TestOrg;
  let phone: string;
  let shop: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    org = await t.createOrg();
    const channel = async (name: string, type: string) =>
      (await t.request('POST', `/orgs/${org.orgId}/order-channels`, { token: org.token, body: { name, type } })).body.id as string;
    phone = await channel('Phone', 'manual');
    shop = await channel('Shop', 'csv');
    const make = async (key: string, overrides: Record<string, unknown>) => {
      const res = await t.request('POST', orders(org), { token: org.token, body: orderBody({ orderChannelId: phone, ...overrides }) });
      if (res.status !== 201) throw new Error(JSON.stringify(res.body));
      ids[key] = res.body.id;
    };
    await make('a', { orderNumber: 'A-100', customerName: 'Åse Olsen', customerEmail: 'ase@example.no' });
    await make('b', { orderNumber: 'B-200', customerName: 'Bo Berg', customerEmail: 'BO@Example.SE', orderChannelId: shop });
    await make('c', { orderNumber: '50%OFF', customerName: 'Carl_Jensen', customerEmail: 'carl@example.dk' });
    await make('d', { orderNumber: '500FF', customerName: 'CarlXJensen', customerEmail: null });
  });

  const list = (query = '') => t.request('GET', `${orders(org)}${query}`, { token: org.token });
  const listIds = async (query: string) => (await list(query)).body.data.map((order: { id: string }) => order.id);

  it('lists summaries newest first in the page envelope', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 4, page: 1, limit: 20, totalPages: 1 });
    expect(res.body.data.map((order: { id: string }) => order.id)).toEqual([ids.d, ids.c, ids.b, ids.a]);
    const item = res.body.data[2];
    expect(Object.keys(item).sort()).toEqual(
      [
        'createdAt',
        'currency',
        'customerEmail',
        'customerName',
        'id',
        'orderChannel',
        'orderNumber',
        'shipmentCount',
        'status',
        'totalAmount',
        'updatedAt',
      ].sort(),
    );
    expect(item).toMatchObject({ id: ids.b, orderNumber: 'B-200', status: 'pending', shipmentCount: 0, orderChannel: { id: shop, name: 'Shop', type: 'csv' } });
  });

  it('filters by status and channel', async () => {
    expect(await listIds(`?orderChannelId=${shop}`)).toEqual([ids.b]);
    expect(await listIds(`?orderChannelId=${phone}`)).toEqual([ids.d, ids.c, ids.a]);
    expect(await listIds('?orderChannelId=chn_unknown')).toEqual([]);
    expect(await listIds('?status=pending')).toHaveLength(4);
    run("UPDATE orders SET status = 'error' WHERE id = ?", ids.c);
    expect(await listIds('?status=error')).toEqual([ids.c]);
    expect(await listIds(`?status=pending&orderChannelId=${phone}`)).toEqual([ids.d, ids.a]);
    run("UPDATE orders SET status = 'pending' WHERE id = ?", ids.c);
    const bad = await list('?status=shipped');
    expect(bad.status).toBe(400);
    expect(paths(bad.body)).toContain('query.status');
  });

  it('searches order number, customer name and email, ignoring case (of any letter in names), with % and _ taken literally', async () => {
    expect(await listIds('?search=b-2')).toEqual([ids.b]);
    expect(await listIds('?search=olsen')).toEqual([ids.a]);
    // Names fold every letter's case, not only ASCII's: a Danish packer types "åse" for "Åse".
    expect(await listIds(`?search=${encodeURIComponent('åse')}`)).toEqual([ids.a]);
    expect(await listIds(`?search=${encodeURIComponent('ÅSE OLSEN')}`)).toEqual([ids.a]);
    // "å" typed as a plus a combining ring (some keyboards and shops send it so) is the same letter.
    expect(await listIds(`?search=${encodeURIComponent('a\u030ase')}`)).toEqual([ids.a]);
    // An ASCII search (SQLite's own LIKE) folds the ASCII letters of a name that has others too.
    expect(await listIds(`?search=${encodeURIComponent('SE OLS')}`)).toEqual([ids.a]);
    expect(await listIds('?search=bo%40example.se')).toEqual([ids.b]);
    expect(await listIds('?search=EXAMPLE.DK')).toEqual([ids.c]);
    expect(await listIds(`?search=${encodeURIComponent('50%')}`)).toEqual([ids.c]);
    expect(await listIds(`?search=${encodeURIComponent('%')}`)).toEqual([ids.c]);
    expect(await listIds('?search=carl_')).toEqual([ids.c]);
    expect(await listIds(`?search=${encodeURIComponent('\\')}`)).toEqual([]);
    expect(await listIds('?search=nobody')).toEqual([]);
    const combined = await list(`?search=carl&orderChannelId=${phone}&limit=1&page=2`);
    expect(combined.body).toMatchObject({ total: 2, page: 2, limit: 1, totalPages: 2 });
    expect(combined.body.data.map((order: { id: string }) => order.id)).toEqual([ids.c]);
    // Blank is no filter (a cleared search box, a script's empty variable); spaces around a code are dropped.
    expect(await listIds('?search=')).toHaveLength(4);
    expect(await listIds('?search=%20%20')).toHaveLength(4);
    expect(await listIds('?search=%20b-2%20')).toEqual([ids.b]);
  });

  it('pages without clamping: bounds are 400, a page past the end is empty with the true totals', async () => {
    const page = await list('?limit=3&page=2');
    expect(page.body).toMatchObject({ total: 4, page: 2, limit: 3, totalPages: 2 });
    expect(page.body.data.map((order: { id: string }) => order.id)).toEqual([ids.a]);
    const past = await list('?page=9007199254740991&limit=100');
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ data: [], total: 4, totalPages: 1 });
    for (const query of ['?limit=0', '?limit=101', '?page=0', '?page=9007199254740992', '?page=x', '?colour=red']) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
  });

  it('still names the channel of an order after the channel is deleted', async () => {
    await t.request('DELETE', `/orgs/${org.orgId}/order-channels/${shop}`, { token: org.token });
    const res = await list(`?orderChannelId=${shop}`);
    expect(res.body.data[0].orderChannel).toEqual({ id: shop, name: 'Shop', type: 'csv' });
    expect((await t.request('GET', `${orders(org)}/${ids.b}`, { token: org.token })).body.orderChannel.name).toBe('Shop');
  });
});

describe('order scopes', () => {
  it('needs a credential; read:orders may list and get but not write; write:orders may create', async () => {
    const order = await createOrder();
    expect((await t.request('GET', orders(), { token: null })).status).toBe(401);
    expect((await t.request('GET', orders(), { token: 'shpd_nonsense' })).status).toBe(401);

    const reader = await t.tokenWithScopes(t.org, ['read:orders']);
    expect((await t.request('GET', orders(), { token: reader })).status).toBe(200);
    expect((await t.request('GET', `${orders()}/${order.id}`, { token: reader })).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', orders(), orderBody()],
      ['PATCH', `${orders()}/${order.id}`, { notes: 'x' }],
      ['DELETE', `${orders()}/${order.id}`, undefined],
    ] as const) {
      const res = await t.request(method, path, { token: reader, body });
      expect(res.status, method).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
      expect(res.body.message).toContain('write:orders');
    }

    const shipmentsOnly = await t.tokenWithScopes(t.org, ['read:shipments']);
    expect((await t.request('GET', orders(), { token: shipmentsOnly })).status).toBe(403);
    const writer = await t.tokenWithScopes(t.org, ['write:orders']);
    expect((await t.request('POST', orders(), { token: writer, body: orderBody() })).status).toBe(201);
    expect((await t.request('GET', orders(), { token: writer })).status).toBe(200);

    const other = await t.createOrg();
    const res = await t.request('GET', orders(), { token: other.token });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('ORG_ACCESS_DENIED');
  });
});

describe('order PATCH', () => {
  it('changes only the fields given, clears nullable ones with null and emits order.updated', async () => {
    const order = await createOrder({ notes: 'first', externalId: 'ext-1' });
    const res = await t.request('PATCH', `${orders()}/${order.id}`, {
      body: { notes: 'Ring the bell', externalId: null, shippingAddress: shippingAddress({ city: 'Odense C', postalCode: '5000' }) },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      notes: 'Ring the bell',
      externalId: null,
      customerName: 'Jens Hansen',
      status: 'pending',
      orderNumber: order.orderNumber,
    });
    expect(res.body.shippingAddress).toMatchObject({ city: 'Odense C', postalCode: '5000' });
    expect(res.body.orderLines).toEqual(order.orderLines);
    expect(res.body.updatedAt >= order.updatedAt).toBe(true);
    expect(await getOrder(order.id)).toEqual(res.body);
    const updated = outbox('order.updated', order.id);
    expect(updated).toHaveLength(1);
    expect(updated[0]?.data).toMatchObject({ id: order.id, status: 'pending' });

    const cleared = await t.request('PATCH', `${orders()}/${order.id}`, { body: { shippingAddress: null, customerEmail: null, totalAmount: null } });
    expect(cleared.body).toMatchObject({ customerEmail: null, totalAmount: null });
    expect(cleared.body).not.toHaveProperty('shippingAddress');
    const empty = await t.request('PATCH', `${orders()}/${order.id}`, { body: {} });
    expect(empty.status).toBe(200);
    expect(outbox('order.updated', order.id)).toHaveLength(2);

    // Values it already has change nothing: no new updatedAt, no event (a client that sends the whole form back).
    const same = await t.request('PATCH', `${orders()}/${order.id}`, {
      body: { notes: 'Ring the bell', customerEmail: null, shippingRuleId: null, externalData: {}, orderNumber: order.orderNumber },
    });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(cleared.body);
    expect(outbox('order.updated', order.id)).toHaveLength(2);
  });

  it('validates the body: unknown fields, bad values, and status other than cancelled', async () => {
    const order = await createOrder();
    const cases: [Record<string, unknown>, string][] = [
      [{ colour: 'red' }, 'body.colour'],
      [{ status: 'fulfilled' }, 'body.status'],
      [{ orderNumber: '' }, 'body.orderNumber'],
      [{ orderLines: [] }, 'body.orderLines'],
      [{ orderLines: [{ name: 'Mug', quantity: 0 }] }, 'body.orderLines.0.quantity'],
      [{ customerEmail: 'nope' }, 'body.customerEmail'],
      [{ shippingAddress: { ...shippingAddress(), city: undefined } }, 'body.shippingAddress.city'],
      [{ orderChannelId: otherChannelId }, 'body.orderChannelId'],
    ];
    for (const [body, path] of cases) {
      const res = await t.request('PATCH', `${orders()}/${order.id}`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(paths(res.body), JSON.stringify(body)).toContain(path);
    }
    const rule = await t.request('PATCH', `${orders()}/${order.id}`, { body: { shippingRuleId: 'rul_unknown' } });
    expect(rule.body.code).toBe('SHIPPING_RULE_NOT_FOUND');
  });

  it('sets and clears the shipping rule', async () => {
    const order = await createOrder();
    const ruleId = insertRule(t.org.orgId, carrierId, senderAddressId);
    const set = await t.request('PATCH', `${orders()}/${order.id}`, { body: { shippingRuleId: ruleId } });
    expect(set.body).toMatchObject({ shippingRuleId: ruleId, shippingRule: { id: ruleId } });
    const cleared = await t.request('PATCH', `${orders()}/${order.id}`, { body: { shippingRuleId: null } });
    expect(cleared.body.shippingRuleId).toBeNull();
    expect(cleared.body).not.toHaveProperty('shippingRule');
  });

  it('keeps order numbers unique per channel on rename', async () => {
    const first = await createOrder({ orderNumber: 'REN-1' });
    const second = await createOrder({ orderNumber: 'REN-2' });
    const clash = await t.request('PATCH', `${orders()}/${second.id}`, { body: { orderNumber: 'REN-1' } });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('CONFLICT');
    expect((await t.request('PATCH', `${orders()}/${first.id}`, { body: { orderNumber: 'REN-1' } })).status).toBe(200);
    expect((await t.request('PATCH', `${orders()}/${second.id}`, { body: { orderNumber: 'REN-3' } })).body.orderNumber).toBe('REN-3');
  });

  it('replaces the lines while no live shipment holds them', async () => {
    const order = await createOrder();
    const replaced = await t.request('PATCH', `${orders()}/${order.id}`, { body: { orderLines: [{ name: 'Teapot', sku: 'POT-1', quantity: 1 }] } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.orderLines).toHaveLength(1);
    expect(replaced.body.orderLines[0]).toMatchObject({ name: 'Teapot', quantity: 1, requiresShipping: true });
    expect(replaced.body.orderLines[0].id).not.toBe(order.orderLines[0].id);
    expect(db().prepare('SELECT count(*) AS n FROM order_lines WHERE order_id = ?').get(order.id)).toEqual({ n: 1 });

    const shipment = (await shipFromOrder(order.id)).body;
    const refused = await t.request('PATCH', `${orders()}/${order.id}`, { body: { orderLines: [{ name: 'Cup', quantity: 2 }] } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('ORDER_INVALID_STATE');
    // Other fields can still change while shipments are under way.
    expect((await t.request('PATCH', `${orders()}/${order.id}`, { body: { notes: 'busy' } })).body).toMatchObject({ notes: 'busy', status: 'processing' });

    // Once the shipment is cancelled its parcel lines stay as copies and the order's lines can be replaced.
    setShipmentStatus(shipment.id, 'cancelled');
    recompute(order.id);
    const again = await t.request('PATCH', `${orders()}/${order.id}`, { body: { orderLines: [{ name: 'Cup', quantity: 2 }] } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'pending', shipmentCount: 0 });
    expect(again.body.orderLines.map((line: { name: string }) => line.name)).toEqual(['Cup']);
    const parcelLines = db()
      .prepare('SELECT pol.order_line_id AS orderLineId, pol.sku FROM parcel_order_lines pol JOIN parcels p ON p.id = pol.parcel_id WHERE p.shipment_id = ?')
      .all(shipment.id);
    expect(parcelLines).toEqual([{ orderLineId: null, sku: 'POT-1' }]);
  });

  it('changes lines given with their id and adds an item to an order that is partly packed; what shipments hold stays covered', async () => {
    const order = await createOrder({
      orderLines: [
        { name: 'Mug', sku: 'MUG-01', quantity: 2, weight: 0.4 },
        { name: 'Tea', sku: 'TEA-02', quantity: 3 },
      ],
    });
    const [mug, tea] = order.orderLines as { id: string }[];
    await shipFromOrder(order.id); // holds 2 mugs and 3 teas
    const patch = (orderLines: unknown[]) => t.request('PATCH', `${orders()}/${order.id}`, { body: { orderLines } });

    // A third mug and a new line, the tea kept as it is: ids kept, one new line, the rest offered to the next shipment.
    const added = await patch([
      { id: mug!.id, name: 'Mug', sku: 'MUG-01', quantity: 3, weight: 0.4 },
      { id: tea!.id, name: 'Tea', sku: 'TEA-02', quantity: 3 },
      { name: 'Spoon', sku: 'SPN', quantity: 1 },
    ]);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(
      added.body.orderLines.map((line: { id: string; name: string; quantity: number }) => [
        line.id === mug!.id || line.id === tea!.id ? 'kept' : 'new',
        line.name,
        line.quantity,
      ]),
    ).toEqual([
      ['kept', 'Mug', 3],
      ['kept', 'Tea', 3],
      ['new', 'Spoon', 1],
    ]);
    expect(added.body.status).toBe('processing');
    const next = (await shipFromOrder(order.id)).body;
    expect(next.parcels[0].orderLines.map((line: { sku: string; quantity: number }) => [line.sku, line.quantity])).toEqual([
      ['MUG-01', 1],
      ['SPN', 1],
    ]);

    // What shipments hold cannot go, nor shrink below what they hold; nothing changes then.
    const dropped = await patch([{ id: mug!.id, name: 'Mug', quantity: 3 }]);
    expect(dropped.status).toBe(409);
    expect(dropped.body).toMatchObject({
      code: 'ORDER_INVALID_STATE',
      message: expect.stringMatching(
        /^Line oln_\w+ \(Tea\) of order .+ has 3 unit\(s\) placed in live shipments; keep it in orderLines \(with its id, or its SKU\)/,
      ),
    });
    const shrunk = await patch([
      { id: mug!.id, name: 'Mug', quantity: 1 },
      { id: tea!.id, name: 'Tea', quantity: 3 },
    ]);
    expect(shrunk.status).toBe(409);
    expect(shrunk.body.message).toMatch(/\(Mug\) .* has 3 unit\(s\) placed in live shipments; its quantity cannot go below 3$/);
    const withoutIds = await patch([
      { name: 'Mug', quantity: 3 },
      { name: 'Tea', quantity: 3 },
    ]);
    expect(withoutIds.status).toBe(409);

    // Without ids, as the spec shows order lines, a line with the SKU of exactly one line is that line.
    const bySku = await patch([
      { name: 'Mug', sku: 'MUG-01', quantity: 4, weight: 0.4 },
      { name: 'Tea', sku: 'TEA-02', quantity: 3 },
      { name: 'Spoon', sku: 'SPN', quantity: 1 },
    ]);
    expect(bySku.status, JSON.stringify(bySku.body)).toBe(200);
    expect(
      bySku.body.orderLines.map((line: { id: string; quantity: number }) => [
        line.id === mug!.id ? 'mug' : line.id === tea!.id ? 'tea' : 'other',
        line.quantity,
      ]),
    ).toEqual([
      ['mug', 4],
      ['tea', 3],
      ['other', 1],
    ]);
    const shrunkBySku = await patch([
      { name: 'Mug', sku: 'MUG-01', quantity: 2 },
      { name: 'Tea', sku: 'TEA-02', quantity: 3 },
    ]);
    expect(shrunkBySku.status).toBe(409);
    expect(shrunkBySku.body.message).toMatch(/\(Mug\) .* its quantity cannot go below 3$/);

    // An id that is not a line of this order, or the same line twice, is a 400 at that line.
    const other = await createOrder();
    const foreign = await patch([{ id: other.orderLines[0].id, name: 'Mug', quantity: 3 }]);
    expect([foreign.status, foreign.body.details]).toEqual([400, [{ path: 'body.orderLines.0.id', message: `Not a line of order ${order.orderNumber}` }]]);
    const twice = await patch([
      { id: tea!.id, name: 'Tea', quantity: 3 },
      { id: tea!.id, name: 'Tea', quantity: 3 },
    ]);
    expect([twice.status, twice.body.details?.[0]?.path]).toEqual([400, 'body.orderLines.1.id']);
    expect((await t.request('GET', `${orders()}/${order.id}`)).body.orderLines).toHaveLength(3);
  });

  it('cancels with status cancelled: it sticks, emits order.cancelled, and the order can no longer change', async () => {
    const order = await createOrder();
    const res = await t.request('PATCH', `${orders()}/${order.id}`, { body: { status: 'cancelled' } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
    expect(outbox('order.cancelled', order.id)).toHaveLength(1);
    expect(outbox('order.cancelled', order.id)[0]?.data.status).toBe('cancelled');
    expect(outbox('order.updated', order.id)).toHaveLength(0);
    for (const body of [{ notes: 'x' }, { status: 'cancelled' }]) {
      const refused = await t.request('PATCH', `${orders()}/${order.id}`, { body });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('ORDER_INVALID_STATE');
      expect(refused.body.message).toContain('cancelled');
    }
    const shipment = await shipFromOrder(order.id);
    expect(shipment.status).toBe(409);
    expect(shipment.body.code).toBe('ORDER_INVALID_STATE');
    expect((await t.request('GET', `${orders()}?status=cancelled`)).body.data.map((o: { id: string }) => o.id)).toContain(order.id);
  });
});

describe('cancelling an order with shipments', () => {
  const readShipment = (shipmentId: string) => t.request('GET', `${shipmentsPath()}/${shipmentId}`).then((res) => res.body);

  it('cancels its shipments not yet booked, with their events first; booked ones and returns stay', async () => {
    const order = await createOrder({ orderLines: [{ name: 'Mug', sku: 'MUG', quantity: 3 }] });
    const parcel = (quantity: number) => ({
      weight: 1,
      weightUnit: 'kg',
      dimensions: { length: 1, width: 1, height: 1 },
      orderLines: [{ sku: 'MUG', quantity }],
    });
    const byHand = (quantity: number, status: string) =>
      t.request('POST', shipmentsPath(), {
        body: { orderId: order.id, type: 'outbound', status, carrierSettings: { carrierId, productId: 'local_parcel' }, parcels: [parcel(quantity)] },
      });
    const sent = (await byHand(1, 'pending')).body;
    expect((await t.request('POST', `${shipmentsPath()}/${sent.id}/send`)).status).toBe(200);
    const held = (await byHand(1, 'on_hold')).body;
    const open = (await shipFromOrder(order.id)).body;
    const returned = (await t.request('POST', `${shipmentsPath()}/${sent.id}/create-return`)).body;
    expect(returned.returnForShipmentId).toBe(sent.id);
    const eventsBefore = (db().prepare('SELECT count(*) AS n FROM outbox_events').get() as { n: number }).n;

    const res = await t.request('PATCH', `${orders()}/${order.id}`, { body: { status: 'cancelled' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'cancelled', shipmentCount: 1 });
    expect(Object.fromEntries(res.body.shipments.map((s: { id: string; status: string }) => [s.id, s.status]))).toEqual({
      [sent.id]: 'dispatched',
      [held.id]: 'cancelled',
      [open.id]: 'cancelled',
      [returned.id]: 'dispatched',
    });
    const cancelled = await readShipment(open.id);
    expect(cancelled.activities.at(-1)).toMatchObject({ action: 'cancelled', description: `Cancelled with order ${order.orderNumber}` });
    const send = await t.request('POST', `${shipmentsPath()}/${open.id}/send`);
    expect(send.status).toBe(409);
    expect(send.body.code).toBe('SHIPMENT_INVALID_STATE');

    const events = db().prepare('SELECT type, payload FROM outbox_events ORDER BY id').all().slice(eventsBefore) as { type: string; payload: string }[];
    expect(events.map((event) => [event.type, (JSON.parse(event.payload) as { data: { id: string } }).data.id])).toEqual([
      ['shipment.cancelled', held.id],
      ['shipment.cancelled', open.id],
      ['order.cancelled', order.id],
    ]);
  });

  it('waits while one of its shipments is being sent: 409 and nothing changes', async () => {
    const order = await createOrder();
    const open = (await shipFromOrder(order.id)).body;
    const other = (await shipFromOrder((await createOrder()).id)).body;
    setShipmentStatus(open.id, 'processing');
    const res = await t.request('PATCH', `${orders()}/${order.id}`, { body: { status: 'cancelled', notes: 'customer called' } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      code: 'ORDER_INVALID_STATE',
      message: `Shipment ${open.reference} of order ${order.orderNumber} is being sent; cancel the order once that send has finished`,
    });
    expect(await getOrder(order.id)).toMatchObject({ status: 'processing', notes: null });
    expect((await readShipment(other.id)).status).toBe('pending');
  });

  it('refuses to move a shipment into a cancelled order, as it refuses to create one there', async () => {
    const order = await createOrder();
    await t.request('PATCH', `${orders()}/${order.id}`, { body: { status: 'cancelled' } });
    const loose = await t.request('POST', shipmentsPath(), {
      body: {
        type: 'outbound',
        carrierSettings: { carrierId, productId: 'local_parcel' },
        parcels: [{ weight: 1, weightUnit: 'kg', dimensions: { length: 1, width: 1, height: 1 }, orderLines: [{ sku: 'MUG-01', quantity: 1 }] }],
      },
    });
    const moved = await t.request('PATCH', `${shipmentsPath()}/${loose.body.id}`, { body: { orderId: order.id } });
    expect(moved.status).toBe(409);
    expect(moved.body).toMatchObject({ code: 'ORDER_INVALID_STATE', message: `Order ${order.orderNumber} is cancelled; a cancelled order gets no shipments` });
    expect((await readShipment(loose.body.id)).orderId).toBeNull();
    expect((await getOrder(order.id)).shipmentCount).toBe(0);
  });
});

describe('order delete', () => {
  it('deletes an order without shipments, lines included', async () => {
    const order = await createOrder();
    const res = await t.request('DELETE', `${orders()}/${order.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.stringContaining(order.id) });
    expect(db().prepare('SELECT count(*) AS n FROM order_lines WHERE order_id = ?').get(order.id)).toEqual({ n: 0 });
    expect((await t.request('GET', `${orders()}/${order.id}`)).status).toBe(404);
    expect((await t.request('DELETE', `${orders()}/${order.id}`)).status).toBe(404);
  });

  it('refuses while any shipment refers to it, even a cancelled one', async () => {
    const order = await createOrder();
    const shipment = (await shipFromOrder(order.id)).body;
    const res = await t.request('DELETE', `${orders()}/${order.id}`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('ORDER_INVALID_STATE');
    setShipmentStatus(shipment.id, 'cancelled');
    expect((await t.request('DELETE', `${orders()}/${order.id}`)).status).toBe(409);
    expect((await t.request('GET', `${orders()}/${order.id}`)).status).toBe(200);
  });
});

describe('derived order status', () => {
  it('processing once a shipment copies the order; fulfilled when it is dispatched', async () => {
    const order = await createOrder();
    const created = await shipFromOrder(order.id);
    expect(created.status).toBe(201);
    const shipment = created.body;
    expect(shipment.orderId).toBe(order.id);
    expect(shipment.parties.find((p: { type: string }) => p.type === 'receiver')).toMatchObject({
      name: 'Jens Hansen',
      city: 'København K',
      email: 'jens@example.dk',
    });
    // The gift card does not need shipping; weight = 2 × 0.5 kg + 3 × 200 g.
    expect(shipment.parcels).toHaveLength(1);
    expect(shipment.parcels[0].weight).toBeCloseTo(1.6);
    expect(shipment.parcels[0].orderLines.map((l: { sku: string; quantity: number; tarrifNumber: string }) => [l.sku, l.quantity, l.tarrifNumber])).toEqual([
      ['MUG-01', 2, '6912'],
      ['TEA-02', 3, ''],
    ]);

    const processing = await getOrder(order.id);
    expect(processing).toMatchObject({ status: 'processing', shipmentCount: 1 });
    expect(processing.shipments).toEqual([
      {
        id: shipment.id,
        reference: shipment.reference,
        status: 'pending',
        type: 'outbound',
        carrierSettings: { carrierId, productId: 'local_parcel', services: [], additionalParameters: {} },
        createdAt: shipment.createdAt,
        updatedAt: shipment.updatedAt,
        shippingRuleId: null,
        documents: [],
      },
    ]);
    expect(outbox('order.updated', order.id).map((event) => event.data.status)).toEqual(['processing']);
    const listed = (await t.request('GET', `${orders()}?status=processing`)).body.data.find((o: { id: string }) => o.id === order.id);
    expect(listed).toMatchObject({ status: 'processing', shipmentCount: 1 });

    const nothingLeft = await shipFromOrder(order.id);
    expect(nothingLeft.status).toBe(409);
    expect(nothingLeft.body.code).toBe('ORDER_INVALID_STATE');
    expect((await getOrder(order.id)).shipmentCount).toBe(1);

    run("UPDATE shipments SET status = 'dispatched', tracking_number = 'LOC-1', tracking_url = 'https://track.example/LOC-1' WHERE id = ?", shipment.id);
    recompute(order.id);
    const fulfilled = await getOrder(order.id);
    expect(fulfilled).toMatchObject({ status: 'fulfilled', shipmentCount: 1 });
    expect(fulfilled.shipments[0]).toMatchObject({ status: 'dispatched', tracking: { number: 'LOC-1', url: 'https://track.example/LOC-1' } });
    expect(outbox('order.updated', order.id).map((event) => event.data.status)).toEqual(['processing', 'fulfilled']);
    // A status change caused by a shipment carries the whole order, like every order.updated.
    expect(outbox('order.updated', order.id).at(-1)?.data).toMatchObject({
      ...fulfilled,
      updatedAt: expect.any(String),
      previousStatus: 'processing',
    });

    const patch = await t.request('PATCH', `${orders()}/${order.id}`, { body: { notes: 'late' } });
    expect(patch.status).toBe(409);
    expect(patch.body.code).toBe('ORDER_INVALID_STATE');
    expect(patch.body.message).toContain('fulfilled');
    expect((await t.request('PATCH', `${orders()}/${order.id}`, { body: { status: 'cancelled' } })).status).toBe(409);
  });

  it('partially_fulfilled while only some quantity is dispatched; the rest goes into the next shipment', async () => {
    const order = await createOrder({ orderLines: [{ name: 'Crate', sku: 'CRATE', quantity: 4, weight: 2, weightUnit: 'kg' }] });
    const lineId = order.orderLines[0].id;
    const first = (await shipFromOrder(order.id)).body;
    // Keep one crate in the first shipment, as a packer adjusting the parcel would.
    run('UPDATE parcel_order_lines SET quantity = 1 WHERE parcel_id = ?', first.parcels[0].id);
    expect(remainingParcel(t.app.db, order.id)).toMatchObject({ weight: 6, orderLines: [{ orderLineId: lineId, quantity: 3, sku: 'CRATE' }] });

    const second = (await shipFromOrder(order.id)).body;
    expect(second.parcels[0].orderLines).toMatchObject([{ sku: 'CRATE', quantity: 3 }]);
    expect(second.parcels[0].weight).toBe(6);
    expect(remainingParcel(t.app.db, order.id)).toBeNull();
    expect(await getOrder(order.id)).toMatchObject({ status: 'processing', shipmentCount: 2 });

    setShipmentStatus(first.id, 'dispatched');
    recompute(order.id);
    expect((await getOrder(order.id)).status).toBe('partially_fulfilled');
    setShipmentStatus(second.id, 'partly_dispatched');
    recompute(order.id);
    expect((await getOrder(order.id)).status).toBe('partially_fulfilled');
    setShipmentStatus(second.id, 'dispatched');
    recompute(order.id);
    expect((await getOrder(order.id)).status).toBe('fulfilled');
  });

  it("lines placed by hand count like the order-based create's: by sku, on create, PATCH of parcels and a move to another order", async () => {
    const parcel = (lines: { sku: string; quantity: number }[]) => ({
      weight: 1,
      weightUnit: 'kg',
      dimensions: { length: 1, width: 1, height: 1 },
      orderLines: lines,
    });
    const order = await createOrder({
      orderLines: [
        { name: 'A', sku: 'A', quantity: 5 },
        { name: 'B', sku: 'B', quantity: 3 },
      ],
    });
    // POST /shipments with the order and explicit parcels: 2 of A placed by hand.
    const byHand = await t.request('POST', shipmentsPath(), {
      body: { orderId: order.id, type: 'outbound', carrierSettings: { carrierId, productId: 'local_parcel' }, parcels: [parcel([{ sku: 'A', quantity: 2 }])] },
    });
    expect(byHand.status).toBe(201);
    const rest = await shipFromOrder(order.id);
    expect(rest.body.parcels[0].orderLines.map((line: { sku: string; quantity: number }) => [line.sku, line.quantity])).toEqual([
      ['A', 3],
      ['B', 3],
    ]);

    // PATCH parcels: the hand-made shipment now holds 1 of A; one A is free again.
    expect((await t.request('PATCH', `${shipmentsPath()}/${byHand.body.id}`, { body: { parcels: [parcel([{ sku: 'A', quantity: 1 }])] } })).status).toBe(200);
    expect(remainingParcel(t.app.db, order.id)?.orderLines.map((line) => [line.sku, line.quantity])).toEqual([['A', 1]]);

    // Moved to another order: it places that order's lines and frees this one's.
    const other = await createOrder({ orderLines: [{ name: 'A', sku: 'A', quantity: 1 }] });
    expect((await t.request('PATCH', `${shipmentsPath()}/${byHand.body.id}`, { body: { orderId: other.id } })).status).toBe(200);
    expect(remainingParcel(t.app.db, other.id)).toBeNull();
    expect(remainingParcel(t.app.db, order.id)?.orderLines.map((line) => [line.sku, line.quantity])).toEqual([['A', 2]]);

    // Sent by hand, it fulfils the other order.
    expect((await t.request('POST', `${shipmentsPath()}/${byHand.body.id}/send`)).body.status).toBe('dispatched');
    expect((await getOrder(other.id)).status).toBe('fulfilled');
  });

  it('error while any shipment of it is in error, ahead of dispatched ones', async () => {
    const order = await createOrder({ orderLines: [{ name: 'Crate', quantity: 2 }] });
    const first = (await shipFromOrder(order.id)).body;
    run('UPDATE parcel_order_lines SET quantity = 1 WHERE parcel_id = ?', first.parcels[0].id);
    const second = (await shipFromOrder(order.id)).body;
    setShipmentStatus(first.id, 'dispatched');
    setShipmentStatus(second.id, 'error');
    recompute(order.id);
    expect((await getOrder(order.id)).status).toBe('error');
    expect((await t.request('GET', `${orders()}?status=error`)).body.data.map((o: { id: string }) => o.id)).toContain(order.id);
    // An order in error can still be edited.
    expect((await t.request('PATCH', `${orders()}/${order.id}`, { body: { notes: 'call carrier' } })).status).toBe(200);
    setShipmentStatus(second.id, 'dispatched');
    recompute(order.id);
    expect((await getOrder(order.id)).status).toBe('fulfilled');
  });

  it('cancelled shipments do not count: back to pending, and their units can be placed again', async () => {
    const order = await createOrder({ orderLines: [{ name: 'Crate', quantity: 2 }] });
    const shipment = (await shipFromOrder(order.id)).body;
    setShipmentStatus(shipment.id, 'cancelled');
    recompute(order.id);
    const pending = await getOrder(order.id);
    expect(pending).toMatchObject({ status: 'pending', shipmentCount: 0 });
    expect(pending.shipments.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([[shipment.id, 'cancelled']]);
    const again = await shipFromOrder(order.id);
    expect(again.status).toBe(201);
    expect(again.body.parcels[0].orderLines[0].quantity).toBe(2);
    expect(await getOrder(order.id)).toMatchObject({ status: 'processing', shipmentCount: 1 });
  });

  it('a cancelled order stays cancelled whatever its shipments do', async () => {
    const order = await createOrder();
    const shipment = (await shipFromOrder(order.id)).body;
    await t.request('PATCH', `${orders()}/${order.id}`, { body: { status: 'cancelled' } });
    for (const status of ['dispatched', 'error', 'pending']) {
      setShipmentStatus(shipment.id, status);
      recompute(order.id);
      expect((await getOrder(order.id)).status, status).toBe('cancelled');
    }
  });

  it('returns do not count: neither their status, their lines nor the shipment count', async () => {
    const order = await createOrder({ orderLines: [{ name: 'Crate', sku: 'CRATE', quantity: 2 }] });
    const lineId = order.orderLines[0].id;
    const outbound = (await shipFromOrder(order.id)).body;
    // A return of it, as create-return would write it: same order, lines copied, marked as a return.
    const parcel = { weight: 1, weightUnit: 'kg', dimensions: { length: 1, width: 1, height: 1 }, orderLines: [{ sku: 'CRATE', quantity: 2 }] };
    const ret = await t.request('POST', shipmentsPath(), {
      body: { orderId: order.id, type: 'inbound', carrierSettings: { carrierId, productId: 'local_parcel' }, parcels: [parcel] },
    });
    expect(ret.status).toBe(201);
    run("UPDATE shipments SET return_for_shipment_id = ?, status = 'error' WHERE id = ?", outbound.id, ret.body.id);
    run('UPDATE parcel_order_lines SET order_line_id = ? WHERE parcel_id = ?', lineId, ret.body.parcels[0].id);
    recompute(order.id);
    expect(await getOrder(order.id)).toMatchObject({ status: 'processing', shipmentCount: 1 });

    // Only the outbound shipment's units are placed: cancelling it frees them although the return holds a copy.
    setShipmentStatus(outbound.id, 'cancelled');
    recompute(order.id);
    expect(await getOrder(order.id)).toMatchObject({ status: 'pending', shipmentCount: 0 });
    expect(remainingParcel(t.app.db, order.id)?.orderLines).toMatchObject([{ orderLineId: lineId, quantity: 2 }]);

    setShipmentStatus(outbound.id, 'dispatched');
    run("UPDATE shipments SET status = 'dispatched' WHERE id = ?", ret.body.id);
    recompute(order.id);
    const fulfilled = await getOrder(order.id);
    expect(fulfilled).toMatchObject({ status: 'fulfilled', shipmentCount: 1 });
    expect(fulfilled.shipments.map((s: { id: string }) => s.id)).toEqual([outbound.id, ret.body.id]);
  });
});
