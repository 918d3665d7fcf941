import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupLocalCarrier, shipmentBody, startTestServer, type TestServer } from '../../testing/harness';

let t: TestServer;
let carrierId: string;
let senderAddressId: string;
beforeAll(async () => {
  t = await startTestServer();
  ({ carrierId, senderAddressId } = await setupLocalCarrier(t));
});
afterAll(async () => t.close());

const base = () => `/orgs/${t.org.orgId}/shipments`;

describe('shipment create, read and list', () => {
  it('creates with defaults: pending, generated reference, DAP, sender party from the sender address', async () => {
    const res = await t.request('POST', base(), { body: shipmentBody(carrierId) });
    expect(res.status).toBe(201);
    const s = res.body;
    expect(s.id).toMatch(/^shp_/);
    expect(s).toMatchObject({ status: 'pending', termOfTrade: 'DAP', type: 'outbound', senderAddressId, orderId: null, servicePointId: null });
    expect(s.reference).toMatch(/^SHP-\d{6}$/);
    expect(s.carrierSettings).toEqual({ carrierId, productId: 'local_parcel', services: [], additionalParameters: {} });
    expect(s.parties.map((p: { type: string }) => p.type)).toEqual(['sender', 'receiver']);
    expect(s.parties[0]).toMatchObject({ name: 'Main warehouse', attention: 'Dispatch desk', postalCode: '8000', city: 'Aarhus' });
    expect(s.parcels[0].id).toMatch(/^prc_/);
    expect(s.parcels[0].orderLines[1]).toMatchObject({ sku: 'TEA-02', quantity: 3, tarrifNumber: '0902' });
    expect(s.activities.map((a: { action: string }) => a.action)).toEqual(['created']);
    expect(s).not.toHaveProperty('tracking');
    expect(s).not.toHaveProperty('pickupDetails');
    const events = t.app.db.$client.prepare("SELECT type FROM outbox_events WHERE type = 'shipment.created'").all();
    expect(events.length).toBeGreaterThan(0);
  });

  it('numbers references per organization and keeps a given one', async () => {
    const a = (await t.request('POST', base(), { body: shipmentBody(carrierId) })).body;
    const b = (await t.request('POST', base(), { body: shipmentBody(carrierId, { reference: 'ORDER-77' }) })).body;
    expect(Number(a.reference.slice(4))).toBeGreaterThan(1);
    expect(b.reference).toBe('ORDER-77');
  });

  it('rejects unknown carriers and sender addresses; a product or service the carrier does not offer is refused at send (decisions §8)', async () => {
    const product = await t.request('POST', base(), { body: shipmentBody(carrierId, { carrierSettings: { carrierId, productId: 'standard' } }) });
    expect(product.status).toBe(201);
    expect(product.body.carrierSettings).toMatchObject({ productId: 'standard' });
    const unsendable = await t.request('POST', `${base()}/${product.body.id}/send`);
    expect(unsendable.status).toBe(422);
    expect(unsendable.body).toMatchObject({
      code: 'SHIPMENT_INCOMPLETE',
      details: [{ path: 'carrierSettings.productId', message: expect.stringContaining('standard is not one of local_parcel') }],
    });
    const service = await t.request('POST', base(), {
      body: shipmentBody(carrierId, { carrierSettings: { carrierId, productId: 'local_parcel', services: ['teleport'] } }),
    });
    expect(service.status).toBe(201);
    const noTeleport = await t.request('POST', `${base()}/${service.body.id}/send`);
    expect(noTeleport.body).toMatchObject({
      code: 'SHIPMENT_INCOMPLETE',
      details: [{ path: 'carrierSettings.services', message: expect.stringContaining('teleport is not among') }],
    });
    expect((await t.request('GET', `${base()}/${service.body.id}`)).body.status).toBe('pending');
    const carrier = await t.request('POST', base(), { body: shipmentBody('car_unknown') });
    expect(carrier.body.code).toBe('CARRIER_NOT_FOUND');
    const address = await t.request('POST', base(), { body: shipmentBody(carrierId, { senderAddressId: 'adr_unknown' }) });
    expect(address.body.code).toBe('ADDRESS_NOT_FOUND');
  });

  it('gets and lists with the sender address, newest first', async () => {
    const created = (await t.request('POST', base(), { body: shipmentBody(carrierId, { reference: 'LIST-ME' }) })).body;
    const got = await t.request('GET', `${base()}/${created.id}`);
    expect(got.body).toEqual(created);
    const list = await t.request('GET', `${base()}?limit=2`);
    expect(list.status).toBe(200);
    expect(list.body.data[0]).toMatchObject({ id: created.id, reference: 'LIST-ME', senderAddress: { id: senderAddressId } });
    // §2.4a's fields, and the receiver the list's optional columns show (decisions: "Lists").
    expect(Object.keys(list.body.data[0]).sort()).toEqual([
      'carrierSettings',
      'createdAt',
      'id',
      'receiverCountryCode',
      'receiverName',
      'reference',
      'senderAddress',
      'status',
      'type',
      'updatedAt',
    ]);
    const search = await t.request('GET', `${base()}?search=LIST-`);
    expect(search.body.total).toBe(1);
    // Blank is no filter, as an empty search box means.
    const blank = await t.request('GET', `${base()}?search=%20`);
    expect([blank.status, blank.body.total]).toEqual([200, list.body.total]);
  });
});

describe('shipment list order', () => {
  it('sorts by reference or status on request, newest first otherwise', async () => {
    const org = await t.createOrg();
    const carrier = await setupLocalCarrier(t, org);
    for (const reference of ['B-2', 'A-1', 'C-3']) {
      await t.request('POST', `/orgs/${org.orgId}/shipments`, { token: org.token, body: shipmentBody(carrier.carrierId, { reference }) });
    }
    const refs = async (sort?: string) =>
      (await t.request('GET', `/orgs/${org.orgId}/shipments${sort ? `?sort=${sort}` : ''}`, { token: org.token })).body.data.map(
        (s: { reference: string }) => s.reference,
      );
    expect(await refs()).toEqual(['C-3', 'A-1', 'B-2']);
    expect(await refs('reference')).toEqual(['A-1', 'B-2', 'C-3']);
    expect(await refs('-reference')).toEqual(['C-3', 'B-2', 'A-1']);
    expect((await t.request('GET', `/orgs/${org.orgId}/shipments?sort=colour`, { token: org.token })).status).toBe(400);
  });
});

describe('shipment create bounds (decisions §5)', () => {
  it('requires weightUnit and dimensions on a parcel, and at most one sender and one receiver', async () => {
    const parcel = { weight: 1, weightUnit: 'kg', dimensions: { length: 1, width: 1, height: 1 } };
    const noUnit = await t.request('POST', base(), { body: shipmentBody(carrierId, { parcels: [{ weight: 1, dimensions: parcel.dimensions }] }) });
    expect(noUnit.status).toBe(400);
    expect(noUnit.body.details[0].path).toBe('body.parcels.0.weightUnit');
    const noDimensions = await t.request('POST', base(), { body: shipmentBody(carrierId, { parcels: [{ weight: 1, weightUnit: 'kg' }] }) });
    expect(noDimensions.body.details[0].path).toBe('body.parcels.0.dimensions');
    const receivers = await t.request('POST', base(), {
      body: shipmentBody(carrierId, {
        parties: [
          { type: 'receiver', name: 'A', address1: 'a', postalCode: '1', city: 'c', countryCode: 'DK' },
          { type: 'receiver', name: 'B', address1: 'b', postalCode: '2', city: 'd', countryCode: 'DK' },
        ],
      }),
    });
    expect(receivers.status).toBe(400);
    expect((await t.request('POST', base(), { body: shipmentBody(carrierId, { parcels: [] }) })).status).toBe(400);
    expect((await t.request('POST', base(), { body: shipmentBody(carrierId, { parcels: [parcel] }) })).status).toBe(201);
  });

  it('bounds a parcel weight in kg whatever the unit: a 250 000 g pallet is fine, 100 001 kg is not', async () => {
    const parcel = (weight: number, weightUnit: string) => ({ weight, weightUnit, dimensions: { length: 120, width: 80, height: 100 } });
    const pallet = await t.request('POST', base(), { body: shipmentBody(carrierId, { parcels: [parcel(250_000, 'g')] }) });
    expect(pallet.status).toBe(201);
    expect(pallet.body.parcels[0]).toMatchObject({ weight: 250_000, weightUnit: 'g' });
    const tooHeavy = await t.request('POST', base(), { body: shipmentBody(carrierId, { parcels: [parcel(100_001, 'kg')] }) });
    expect(tooHeavy.status).toBe(400);
    expect(tooHeavy.body.details).toEqual([{ path: 'body.parcels.0.weight', message: expect.stringContaining('100000 kg') }]);
    expect((await t.request('POST', base(), { body: shipmentBody(carrierId, { parcels: [parcel(250_000, 'lb')] }) })).status).toBe(400);
  });
});

describe('the full read as sent (JSON built by SQLite)', () => {
  it('is the same document the create answered, with numbers as written, text escaped and empty optional objects left out', async () => {
    const receiver = {
      type: 'receiver',
      name: 'Åse "Quote" \\ Back',
      address1: 'Line\nbreak 1',
      postalCode: '1165',
      city: 'København',
      countryCode: 'DK',
      attributes: [{ name: 'door', value: '<b>2</b>' }],
    };
    const created = await t.request('POST', base(), {
      body: shipmentBody(carrierId, {
        parties: [receiver],
        parcels: [
          { weight: 2, weightUnit: 'kg', dimensions: { length: 30, width: 20.5, height: 0 }, orderLines: [{ sku: 'A', quantity: 1, unitPrice: 9.99 }] },
        ],
        pickupDetails: { date: '2026-12-01', from: '09:00', to: '12:00' },
      }),
    });
    expect(created.status).toBe(201);
    const response = await fetch(`${t.url}${base()}/${created.body.id}`, { headers: { authorization: `Bearer ${t.org.token}` } });
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await response.text();
    const read = JSON.parse(text);
    expect(read).toEqual(created.body);
    // Whole numbers as JavaScript writes them (2, not 2.0); fractions kept.
    expect(text).toContain('"weight":2,');
    expect(text).toContain('"dimensions":{"length":30,"width":20.5,"height":0}');
    expect(text).toContain('"unitPrice":9.99');
    expect(read.parties[1]).toMatchObject({
      name: 'Åse "Quote" \\ Back',
      address1: 'Line\nbreak 1',
      attention: '',
      attributes: [{ name: 'door', value: '<b>2</b>' }],
    });
    // An email has the email format (interface 2.2): none is left out, never "".
    expect(read.parties[1]).not.toHaveProperty('email');
    expect(read.parcels[0].orderLines[0]).toMatchObject({ description: '', vatPercent: 0, currency: '', tarrifNumber: '' });
    expect(read.pickupDetails).toEqual({ date: '2026-12-01', from: '09:00', to: '12:00', instruction: '' });
    expect(read).not.toHaveProperty('tracking');
    expect(read).not.toHaveProperty('shippingRule');
    expect(read).toMatchObject({ documents: [], errors: [], logs: [], servicePointId: null, shippingRuleId: null });
  });
});
