import { and, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { carriers, shipments } from '../../db/schema';
import { carrierCall } from '../../domain/carriers/carrierCalls';
import { bookedShipmentOf } from '../../domain/shipments/bookedShipment';
import { senderAddressBody, startTestServer, type TestServer } from '../../testing/harness';
import { CarrierFailure } from '../errors';
import { carrierUrl } from '../platform/origin';
import { postnordOrigins, postnordPaths } from './contract';
import { fakePaperPoints, fakePostnordApiKey, fakePostnordCustomerNumber, startFakePostnord, type FakePostnord } from './fake';

/**
 * The PostNord adapter through Shipdesk's own operations (create, send, cancel) against the fake
 * PostNord on a random port, reached through the carrier's `apiBaseUrl`. Tracking, service points and
 * the connection test have no operation yet; they go through the platform's carrierCall, as the
 * poller and the lookup will.
 */

let t: TestServer;
let fake: FakePostnord;
let senderAddressId: string;
let carrierId: string;

const sql = () => t.app.db.$client;
const shipmentsPath = () => `/orgs/${t.org.orgId}/shipments`;

beforeAll(async () => {
  fake = await startFakePostnord();
  // Short limits so a slow PostNord is a timeout within the test; retries of reads without waiting.
  t = await startTestServer({ carrierHttp: { timeoutMs: 1500, backoffMs: 5 } });
  sql().prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(t.org.orgId);
  const address = await t.request('POST', `/orgs/${t.org.orgId}/sender-addresses`, {
    body: senderAddressBody({
      name: 'Lager Nord',
      address1: 'Sandhamnsgatan 61',
      zipcode: '11528',
      city: 'Stockholm',
      countryCode: 'SE',
      phone: '+46701234567',
    }),
  });
  senderAddressId = address.body.id;
  carrierId = await postnordCarrier();
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  fake.switches.delayMs = 0;
  fake.switches.authRefusal = 'gateway';
});

async function postnordCarrier(config: Record<string, unknown> = {}): Promise<string> {
  const res = await t.request('POST', `/orgs/${t.org.orgId}/carriers`, {
    body: {
      name: 'PostNord',
      carrierSlug: 'postnord',
      config: { apiKey: fakePostnordApiKey, customerNumber: fakePostnordCustomerNumber, apiBaseUrl: fake.url, ...config },
      senderAddressId,
    },
  });
  if (res.status !== 201) throw new Error(`carrier: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

function receiver(overrides: Record<string, unknown> = {}) {
  return {
    type: 'receiver',
    name: 'Anna Svensson',
    address1: 'Karlavägen 100',
    postalCode: '11526',
    city: 'Stockholm',
    countryCode: 'SE',
    email: 'anna@example.se',
    phone: '+46709876543',
    ...overrides,
  };
}

const servicePointParty = {
  type: 'service_point',
  name: 'ICA Supermarket Karlaplan',
  address1: 'Karlaplan 13',
  postalCode: '11460',
  city: 'Stockholm',
  countryCode: 'SE',
};

function parcel(weight: number) {
  return { weight, weightUnit: 'kg', dimensions: { length: 30, width: 20, height: 10 }, orderLines: [{ sku: 'MUG-01', quantity: 1 }] };
}

let referenceCounter = 0;

async function create(
  options: { carrier?: string; productId?: string; services?: string[]; parties?: unknown[]; parcels?: unknown[]; servicePointId?: string; type?: string } = {},
) {
  const res = await t.request('POST', shipmentsPath(), {
    body: {
      type: options.type ?? 'outbound',
      reference: `SD-${Date.now()}-${++referenceCounter}`,
      carrierSettings: { carrierId: options.carrier ?? carrierId, productId: options.productId ?? 'postnord_parcel', services: options.services ?? [] },
      parties: options.parties ?? [receiver()],
      parcels: options.parcels ?? [parcel(1.5)],
      ...(options.servicePointId ? { servicePointId: options.servicePointId } : {}),
    },
  });
  if (res.status !== 201) throw new Error(`create: ${JSON.stringify(res.body)}`);
  return res.body;
}

const send = (id: string, body?: unknown) => t.request('POST', `${shipmentsPath()}/${id}/send`, body === undefined ? {} : { body });
const get = async (id: string) => (await t.request('GET', `${shipmentsPath()}/${id}`)).body;

/** What the fake received in the last booking call. */
function lastBookingBody(): any {
  const calls = fake.state.requests.filter((request) => /\/labels\/(pdf|zpl)$/.test(request.path) && !request.path.includes('/ids/'));
  return calls[calls.length - 1];
}

function fakeLabel(itemId: string) {
  const sent = fake.state.labels.filter((label) => label.itemId === itemId);
  return sent[sent.length - 1]?.data;
}

/** The label documents by parcel id (documents in the API do not name their parcel). */
function labelsByParcel(shipmentId: string): Map<string, { format: string; size: string; content: string }> {
  const rows = sql()
    .prepare("SELECT parcel_id AS parcelId, format, size, content FROM documents WHERE shipment_id = ? AND document_type = 'label'")
    .all(shipmentId) as { parcelId: string; format: string; size: string; content: Buffer }[];
  return new Map(rows.map((row) => [row.parcelId, { format: row.format, size: row.size, content: Buffer.from(row.content).toString('base64') }]));
}

function platformCall(id: string) {
  const row = t.app.db
    .select()
    .from(carriers)
    .where(and(eq(carriers.orgId, t.org.orgId), eq(carriers.id, id)))
    .get();
  if (!row) throw new Error(`no carrier ${id}`);
  return carrierCall(t.app, row);
}

function booked(shipmentId: string) {
  const row = t.app.db.select().from(shipments).where(eq(shipments.id, shipmentId)).get();
  if (!row) throw new Error(`no shipment ${shipmentId}`);
  return bookedShipmentOf(t.app.db, row);
}

describe('PostNord booking', () => {
  it('books one MyPack Collect parcel to a service point with an SMS notice: the A6 PDF label stored byte for byte', async () => {
    const shipment = await create({
      productId: 'postnord_mypack_collect',
      services: ['phoneNotification'],
      parties: [receiver(), servicePointParty],
      servicePointId: '1234567',
    });
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    const sent = res.body;
    expect(sent.status).toBe('dispatched');
    const booking = fake.state.bookings[fake.state.bookings.length - 1]!;
    const itemId = booking.items[0]!.itemId;
    expect(sent.tracking).toMatchObject({ number: itemId, url: `https://tracking.postnord.com/se/?id=${itemId}`, status: 'pending' });
    expect(sent.parcels[0].trackingNumber).toBe(itemId);

    // What PostNord received: the customer number, the reference, the notice and the service point.
    const request = lastBookingBody();
    expect(request.path).toBe('/rest/shipment/v3/edi/labels/pdf');
    expect(request.query).toMatchObject({ apikey: fakePostnordApiKey, paperSize: 'A6', multiPDF: 'false' });
    const instruction = request.body.shipment[0];
    expect(instruction.service).toEqual({ basicServiceCode: '19', additionalServiceCode: ['A3', 'A7'] });
    expect(instruction.references).toEqual([{ referenceNo: shipment.reference, referenceType: 'CU' }]);
    expect(instruction.parties.consignor).toMatchObject({
      issuerCode: 'Z12',
      partyIdentification: { partyId: fakePostnordCustomerNumber, partyIdType: '160' },
    });
    expect(instruction.parties.consignee.party.contact).toEqual({ contactName: 'Anna Svensson', phoneNo: '+46709876543', smsNo: '+46709876543' });
    expect(instruction.parties.deliveryParty).toMatchObject({
      partyIdentification: { partyId: '1234567', partyIdType: '156' },
      party: { address: { streets: ['Karlaplan 13'], postalCode: '11460' } },
    });
    expect(instruction.goodsItem[0].items[0]).toEqual({
      itemIdentification: { itemId: '0' },
      grossWeight: { value: 1.5, unit: 'KGM' },
      dimensions: { length: { value: 30, unit: 'CMT' }, width: { value: 20, unit: 'CMT' }, height: { value: 10, unit: 'CMT' } },
    });

    expect(sent.documents).toHaveLength(1);
    const label = sent.documents[0];
    expect(label).toMatchObject({ documentType: 'label', format: 'pdf', size: 'A6' });
    expect(label.content).toBe(fakeLabel(itemId));
    const page = (await PDFDocument.load(Buffer.from(label.content, 'base64'))).getPage(0).getSize();
    expect([page.width, page.height]).toEqual(fakePaperPoints.A6);
    const raw = await t.request('GET', `${shipmentsPath()}/${shipment.id}/documents/${label.id}/content`);
    expect(raw.headers.get('content-type')).toContain('application/pdf');

    // The API key travels in the query string; it never reaches the shipment's logs.
    expect(sent.logs).toHaveLength(1);
    expect(JSON.stringify(sent.logs)).not.toContain(fakePostnordApiKey);
    expect(sent.logs[0]).toMatchObject({ direction: 'carrier', statusCode: 200 });
  });

  it("asks PostNord for the service point's delivery address when the shipment has no service point party, and refuses a closed one", async () => {
    const shipment = await create({ productId: 'postnord_mypack_collect', servicePointId: '2345678' });
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    const lookup = fake.state.requests.find((request) => request.path === '/rest/businesslocation/v5/servicepoints/ids' && request.query.ids === '2345678');
    expect(lookup?.query).toMatchObject({ returnType: 'json', countryCode: 'SE' });
    const instruction = lastBookingBody().body.shipment[0];
    // No notice asked: MyPack Collect is then notified by letter (A2).
    expect(instruction.service.additionalServiceCode).toEqual(['A2', 'A7']);
    expect(instruction.parties.deliveryParty.party).toMatchObject({
      nameIdentification: { name: 'Pressbyrån Östermalmstorg' },
      address: { streets: ['Östermalmstorg 1'], postalCode: '11442', city: 'STOCKHOLM', countryCode: 'SE' },
    });

    const closed = await create({ productId: 'postnord_mypack_collect', servicePointId: '5678901' });
    const refused = await send(closed.id);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'CARRIER_ERROR',
      errors: [{ code: 'SERVICE_POINT', message: 'Service point 5678901 is closed and cannot receive deliveries' }],
    });
    expect(refused.body.message).toContain('pick another service point');

    const unknown = await create({ productId: 'postnord_mypack_collect', servicePointId: '0000001' });
    expect((await send(unknown.id)).body.errors).toEqual([{ code: 'SERVICE_POINT', message: 'PostNord has no service point 0000001 in SE' }]);
  });

  it('books several parcels with ZPL labels, each parcel with its own PostNord item id and label', async () => {
    const zplCarrier = await postnordCarrier({ labelFormat: 'zpl' });
    const shipment = await create({
      carrier: zplCarrier,
      productId: 'postnord_mypack_home',
      services: ['emailNotification'],
      parcels: [parcel(1), parcel(2.25), parcel(4)],
    });
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    const sent = res.body;
    const booking = fake.state.bookings[fake.state.bookings.length - 1]!;
    const itemIds = booking.items.map((item) => item.itemId);
    expect(new Set(itemIds).size).toBe(3);
    expect(sent.parcels.map((p: { trackingNumber: string }) => p.trackingNumber)).toEqual(itemIds);
    expect(sent.tracking.number).toBe(itemIds[0]);

    const request = lastBookingBody();
    expect(request.path).toBe('/rest/shipment/v3/edi/labels/zpl');
    // MyPack Home is always booked with FlexChange, which needs the receiver's mobile number.
    expect(request.body.shipment[0].service).toEqual({ basicServiceCode: '17', additionalServiceCode: ['A4', 'C7'] });
    expect(request.body.shipment[0].parties.consignee.party.contact).toMatchObject({ smsNo: '+46709876543', emailAddress: 'anna@example.se' });
    expect(request.body.shipment[0].goodsItem.map((goods: any) => goods.items[0].grossWeight.value)).toEqual([1, 2.25, 4]);

    expect(sent.documents).toHaveLength(3);
    const labels = labelsByParcel(shipment.id);
    for (const [index, p] of sent.parcels.entries()) {
      const label = labels.get(p.id);
      expect(label).toMatchObject({ format: 'zpl', size: '100X192' });
      expect(label?.content).toBe(fakeLabel(itemIds[index]!));
      expect(Buffer.from(label?.content ?? '', 'base64').toString()).toMatch(/^\^XA.*\^XZ\n$/s);
    }
  });

  it("asks for PostNord's e-mail and SMS notices when the shipment's shipping rule says emailNotification and phoneNotification", async () => {
    const rule = await t.request('POST', `/orgs/${t.org.orgId}/shipping-rules`, {
      body: {
        name: `Notify ${Date.now()}`,
        carrierId,
        productId: 'postnord_parcel',
        services: [],
        senderAddressId,
        receivingCountries: ['SE'],
        conditions: [],
        emailNotification: true,
        phoneNotification: true,
      },
    });
    expect(rule.status).toBe(201);
    const shipment = await create();
    expect((await t.request('PATCH', `${shipmentsPath()}/${shipment.id}`, { body: { shippingRuleId: rule.body.id } })).status).toBe(200);
    expect((await send(shipment.id)).status).toBe(200);
    const request = lastBookingBody();
    expect(request.body.shipment[0].service.additionalServiceCode).toEqual(expect.arrayContaining(['A3', 'A4']));
    expect(request.body.shipment[0].parties.consignee.party.contact).toMatchObject({ smsNo: '+46709876543', emailAddress: 'anna@example.se' });
  });

  it("does not ask for PostNord's e-mail notice when Shipdesk e-mails the customer itself; the SMS notice stays", async () => {
    const rule = await t.request('POST', `/orgs/${t.org.orgId}/shipping-rules`, {
      body: {
        name: `Own e-mail ${Date.now()}`,
        carrierId,
        productId: 'postnord_parcel',
        services: [],
        senderAddressId,
        receivingCountries: ['SE'],
        conditions: [],
        emailNotification: true,
        phoneNotification: true,
      },
    });
    expect(rule.status).toBe(201);
    const settings = await t.request('PUT', `/orgs/${t.org.orgId}/email-settings`, {
      body: { host: '127.0.0.1', port: 2525, secure: false, fromAddress: 'shop@example.com' },
    });
    expect(settings.status).toBe(200);
    try {
      const shipment = await create();
      expect((await t.request('PATCH', `${shipmentsPath()}/${shipment.id}`, { body: { shippingRuleId: rule.body.id } })).status).toBe(200);
      expect((await send(shipment.id)).status).toBe(200);
      const codes = lastBookingBody().body.shipment[0].service.additionalServiceCode as string[];
      expect(codes).toContain('A3');
      expect(codes).not.toContain('A4');
    } finally {
      expect((await t.request('DELETE', `/orgs/${t.org.orgId}/email-settings`)).status).toBe(200);
    }
  });

  it('books a Return Drop Off through the returns endpoint, with the warehouse as the paying consignee', async () => {
    const customer = { ...receiver(), type: 'sender' };
    const warehouse = receiver({
      name: 'Lager Nord',
      address1: 'Sandhamnsgatan 61',
      postalCode: '11528',
      email: 'returns@acme.example',
      phone: '+46701234567',
    });
    const shipment = await create({ type: 'inbound', productId: 'postnord_return_drop_off', parties: [customer, warehouse] });
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    const request = lastBookingBody();
    expect(request.path).toBe('/rest/shipment/v3/returns/edi/labels/pdf');
    expect(request.body.shipment[0].parties.consignor.party.contact).toMatchObject({ smsNo: '+46709876543', emailAddress: 'anna@example.se' });
    expect(request.body.shipment[0].parties.consignee.partyIdentification).toEqual({ partyId: fakePostnordCustomerNumber, partyIdType: '160' });
  });

  it('cancels a dispatched shipment here only, saying what to do, since PostNord cannot void a booking', async () => {
    const shipment = await create();
    expect((await send(shipment.id)).status).toBe(200);
    const callsBefore = fake.state.requests.length;
    const res = await t.request('POST', `${shipmentsPath()}/${shipment.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
    const activity = res.body.activities[res.body.activities.length - 1];
    expect(activity).toMatchObject({ action: 'cancelled' });
    expect(activity.description).toContain('Cancelled here only: PostNord cannot cancel a booked parcel');
    expect(activity.description).toContain(res.body.tracking.number);
    expect(fake.state.requests.length).toBe(callsBefore);
  });
});

describe('PostNord refusals and failures', () => {
  it('refuses a wrong API key with CARRIER_AUTH_FAILED, in the gateway envelope and the documented body alike', async () => {
    const wrongKey = await postnordCarrier({ apiKey: 'ffffffffffffffffffffffffffffffff' });
    for (const shape of ['gateway', 'errorResponse'] as const) {
      fake.switches.authRefusal = shape;
      const shipment = await create({ carrier: wrongKey });
      const res = await send(shipment.id);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('CARRIER_AUTH_FAILED');
      expect(res.body.errors).toEqual([
        shape === 'gateway' ? { code: 'Forbidden', message: 'Invalid API Key' } : { code: 'API-010', message: 'The apikey is not valid for this API' },
      ]);
      const failed = await get(shipment.id);
      expect(failed.status).toBe('error');
      expect(JSON.stringify(failed.logs)).not.toContain('ffffffffffffffffffffffffffffffff');
    }
    const refused = await platformCall(wrongKey).adapter.testConnection!(platformCall(wrongKey).context).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CarrierFailure);
    expect((refused as CarrierFailure).kind).toBe('auth');
    const { adapter, context } = platformCall(carrierId);
    expect(await adapter.testConnection!(context)).toBe("PostNord's test system accepted the API key; its booking API is up.");
  });

  it("answers a validation error with CARRIER_ERROR in PostNord's own words and a plain sentence", async () => {
    const bookingsBefore = fake.state.bookings.length;
    const shipment = await create({ parties: [receiver({ postalCode: '99999' })] });
    const res = await send(shipment.id);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CARRIER_ERROR');
    expect(res.body.errors).toEqual([{ code: 'POSTAL_CODE', message: 'Postal code 99999 is not valid for country SE' }]);
    expect(res.body.message).toContain("does not know the receiver's postal code");
    expect((await get(shipment.id)).errors).toEqual([expect.objectContaining({ code: 'POSTAL_CODE' })]);

    // MyPack Home without the receiver's mobile number: PostNord's words again.
    const noPhone = await create({ productId: 'postnord_mypack_home', parties: [receiver({ phone: '' })] });
    const refused = await send(noPhone.id);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual(
      expect.arrayContaining([{ code: 'SMS_NO', message: 'Additional service C7 (FlexChange) requires smsNo in the consignee party' }]),
    );
    expect(fake.state.bookings.length).toBe(bookingsBefore);
  });

  it('takes a 5xx as an unknown outcome (422 CARRIER_OUTCOME_UNKNOWN); the next send asks by reference, finds nothing, and books once', async () => {
    const shipment = await create();
    fake.switches.failNext(503);
    const res = await send(shipment.id);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    expect((await get(shipment.id)).status).toBe('error');
    const bookingsBefore = fake.state.bookings.length;

    const again = await send(shipment.id);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('dispatched');
    expect(fake.state.bookings.length).toBe(bookingsBefore + 1);
    const lookups = fake.state.requests.filter((request) => request.path.includes(`/reference/${encodeURIComponent(shipment.reference)}/`));
    expect(lookups).toHaveLength(1);
    expect(lookups[0]!.path).toBe(
      `/rest/shipment/v7/trackandtrace/customernumber/${fakePostnordCustomerNumber}/reference/${encodeURIComponent(shipment.reference)}/public`,
    );
  });

  it.each([
    ['a timeout after PostNord booked', () => (fake.switches.delayMs = 2500)],
    ['a connection dropped after PostNord booked', () => fake.switches.dropAfterBookingNext()],
  ])('%s: 422 CARRIER_OUTCOME_UNKNOWN, then the next send finds the booking by reference and books nothing twice', async (_name, trigger) => {
    const shipment = await create({ parcels: [parcel(1), parcel(2)] });
    const bookingsBefore = fake.state.bookings.length;
    trigger();
    const res = await send(shipment.id);
    fake.switches.delayMs = 0;
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    expect(fake.state.bookings.length).toBe(bookingsBefore + 1);
    const made = fake.state.bookings[fake.state.bookings.length - 1]!;
    const unknown = await get(shipment.id);
    expect(unknown.status).toBe('error');
    expect(unknown.errors.map((error: { code: string }) => error.code)).toContain('CARRIER_OUTCOME_UNKNOWN');

    const callsBefore = fake.state.bookingCalls;
    const again = await send(shipment.id);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('dispatched');
    expect(fake.state.bookingCalls).toBe(callsBefore);
    expect(fake.state.bookings.length).toBe(bookingsBefore + 1);
    const itemIds = made.items.map((item) => item.itemId);
    expect(again.body.tracking.number).toBe(itemIds[0]);
    expect(again.body.parcels.map((p: { trackingNumber: string }) => p.trackingNumber)).toEqual(itemIds);
    // The labels come again from PostNord by item id, as it made them.
    expect(again.body.documents).toHaveLength(2);
    const labels = labelsByParcel(shipment.id);
    for (const [index, p] of again.body.parcels.entries()) expect(labels.get(p.id)?.content).toBe(fakeLabel(itemIds[index]!));
    expect(again.body.activities[again.body.activities.length - 1].description).toContain('Found the earlier booking with PostNord (nothing booked twice)');
  });

  it('waits out a 429 with Retry-After and then books once', async () => {
    const shipment = await create();
    const bookingsBefore = fake.state.bookings.length;
    const callsBefore = fake.state.bookingCalls;
    fake.switches.rateLimitNext(1);
    const started = Date.now();
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('dispatched');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.state.bookingCalls).toBe(callsBefore + 2);
    expect(fake.state.bookings.length).toBe(bookingsBefore + 1);
  });
});

describe('PostNord tracking and service points', () => {
  it('turns Track & Trace events into status, several shipments in one track call', async () => {
    const first = (await send((await create({ parcels: [parcel(1), parcel(1)] })).id)).body;
    const second = (await send((await create()).id)).body;
    const { adapter, context } = platformCall(carrierId);
    const bookings = [booked(first.id), booked(second.id)];

    let results = await adapter.track!(context, bookings);
    expect(results.get(first.id)?.status).toBe('pending');
    expect(results.get(second.id)?.status).toBe('pending');

    const firstShipmentId = String(bookings[0]!.booking.shipmentId);
    fake.state.addEvent(firstShipmentId, {
      status: 'EN_ROUTE',
      eventCode: 'C10',
      eventDescription: 'The shipment item is under transportation',
      city: 'Jönköping',
      at: '2030-01-15T09:30:00',
    });
    fake.state.addEvent(second.tracking.number, {
      status: 'AVAILABLE_FOR_DELIVERY',
      eventCode: 'C30',
      eventDescription: 'The shipment item is ready for pickup',
      at: '2030-01-15T12:00:00',
    });
    results = await adapter.track!(context, bookings);
    expect(results.get(first.id)?.status).toBe('in_transit');
    expect(results.get(second.id)?.status).toBe('out_for_delivery');
    const events = results.get(first.id)!.events;
    // The scan of both parcels is one event; local Swedish time becomes UTC.
    expect(events[events.length - 1]).toEqual({
      at: '2030-01-15T08:30:00.000Z',
      code: 'C10',
      description: 'The shipment item is under transportation',
      location: 'Jönköping, SE',
    });
    expect(events.filter((event) => event.code === 'C10')).toHaveLength(1);

    fake.state.addEvent(first.parcels[0].trackingNumber, { status: 'DELIVERED', eventCode: 'C20', eventDescription: 'The shipment item has been delivered' });
    expect((await adapter.track!(context, bookings)).get(first.id)?.status).toBe('in_transit');
    fake.state.addEvent(first.parcels[1].trackingNumber, { status: 'DELIVERED', eventCode: 'C20', eventDescription: 'The shipment item has been delivered' });
    expect((await adapter.track!(context, bookings)).get(first.id)?.status).toBe('delivered');
    fake.state.addEvent(second.tracking.number, { status: 'RETURNED', eventCode: 'C50', eventDescription: 'Returned to sender' });
    expect((await adapter.track!(context, bookings)).get(second.id)?.status).toBe('returned');

    // Track & Trace takes one id per call: by PostNord's shipment id, which covers every parcel.
    const trackCalls = fake.state.requests.filter((request) => request.path.startsWith('/rest/shipment/v7/trackandtrace/id/'));
    expect(trackCalls.some((request) => request.path === `/rest/shipment/v7/trackandtrace/id/${firstShipmentId}/public`)).toBe(true);
  });

  it('finds the nearest service points by address, with distance, coordinates and opening hours', async () => {
    const { adapter, context } = platformCall(carrierId);
    const points = await adapter.servicePoints!(context, {
      countryCode: 'SE',
      postalCode: '115 28',
      address1: 'Sandhamnsgatan 61',
      city: 'Stockholm',
      limit: 3,
    });
    expect(points).toHaveLength(3);
    expect(points[0]).toEqual({
      id: '1234567',
      name: 'ICA Supermarket Karlaplan',
      address1: 'Karlaplan 13',
      postalCode: '11460',
      city: 'STOCKHOLM',
      countryCode: 'SE',
      distanceMeters: 410,
      latitude: 59.3389,
      longitude: 18.0903,
      openingHours: expect.arrayContaining([
        { day: 'monday', open: '08:00', close: '20:00' },
        { day: 'saturday', open: '10:00', close: '16:00' },
      ]),
    });
    expect(points.map((point) => point.distanceMeters)).toEqual([410, 980, 1350]);
    const lookup = fake.state.requests[fake.state.requests.length - 1]!;
    expect(lookup.path).toBe('/rest/businesslocation/v5/servicepoints/nearest/byaddress');
    expect(lookup.query).toMatchObject({
      returnType: 'json',
      countryCode: 'SE',
      postalCode: '11528',
      streetName: 'Sandhamnsgatan',
      streetNumber: '61',
      numberOfServicePoints: '3',
    });

    // A country PostNord has no service points in is answered without asking.
    const before = fake.state.requests.length;
    expect(await adapter.servicePoints!(context, { countryCode: 'US', postalCode: '10001', address1: null, city: null, limit: 5 })).toEqual([]);
    expect(fake.state.requests.length).toBe(before);

    const unknown = await adapter.servicePoints!(context, { countryCode: 'SE', postalCode: '99999', address1: null, city: null, limit: 5 }).catch(
      (error: unknown) => error,
    );
    expect(unknown).toBeInstanceOf(CarrierFailure);
    expect((unknown as CarrierFailure).errors).toEqual([{ code: 'API-006', message: 'No address found for postal code 99999' }]);
  });
});

describe('PostNord configuration', () => {
  it("checks the customer number's digits for the agreement country and offers PostNord's label sizes", async () => {
    const body = (config: Record<string, unknown>) => ({
      name: 'PostNord',
      carrierSlug: 'postnord',
      config: { apiKey: fakePostnordApiKey, customerNumber: fakePostnordCustomerNumber, ...config },
      senderAddressId,
    });
    const short = await t.request('POST', `/orgs/${t.org.orgId}/carriers`, { body: body({ customerNumber: '123' }) });
    expect(short.status).toBe(400);
    expect(JSON.stringify(short.body)).toContain('A PostNord Sweden customer number has 8 or 10 digits');
    const norway = await t.request('POST', `/orgs/${t.org.orgId}/carriers`, { body: body({ customerNumber: '1234567', issuerCode: 'Z13' }) });
    expect(norway.status).toBe(201);
    const size = await t.request('POST', `/orgs/${t.org.orgId}/carriers`, { body: body({ labelSize: '100X150' }) });
    expect(size.status).toBe(400);

    const products = await t.request('GET', `/orgs/${t.org.orgId}/carriers/${carrierId}/products`);
    expect(products.body.map((product: { productId: string; servicePoint: string }) => [product.productId, product.servicePoint])).toEqual([
      ['postnord_mypack_collect', 'optional'],
      ['postnord_mypack_home', 'none'],
      ['postnord_parcel', 'none'],
      ['postnord_postpaket_utrikes', 'none'],
      ['postnord_return_drop_off', 'none'],
      ['postnord_return_pickup', 'none'],
    ]);
  });

  it("reaches PostNord's sandbox until test mode is switched off, and production after", () => {
    const path = postnordPaths.bookWithLabels('pdf');
    expect(carrierUrl({}, postnordOrigins, path)).toBe('https://atapi2.postnord.com/rest/shipment/v3/edi/labels/pdf');
    expect(carrierUrl({ testMode: false }, postnordOrigins, path)).toBe('https://api2.postnord.com/rest/shipment/v3/edi/labels/pdf');
    expect(carrierUrl({ testMode: false, apiBaseUrl: 'http://127.0.0.1:9999/ignored' }, postnordOrigins, path)).toBe(
      'http://127.0.0.1:9999/rest/shipment/v3/edi/labels/pdf',
    );
  });
});

describe('the fake PostNord', () => {
  it('refuses what PostNord refuses: no apikey, a wrong content type, a missing field, a value outside an enum', async () => {
    const url = `${fake.url}/rest/shipment/v3/edi/labels/pdf`;
    const noKey = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ message: 'Authentication token is missing/invalid' });
    const plainText = await fetch(`${url}?apikey=${fakePostnordApiKey}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    expect(plainText.status).toBe(400);
    const missing = await fetch(`${url}?apikey=${fakePostnordApiKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messageDate: new Date().toISOString(), updateIndicator: 'Sometimes', shipment: [] }),
    });
    expect(missing.status).toBe(400);
    const body = (await missing.json()) as { message: string; compositeFault: { faults: { paramValues: { param: string }[] }[] } };
    expect(body.message).toBe('Invalid indata object EdiInstruction');
    expect(body.compositeFault.faults.map((fault: { paramValues: { param: string }[] }) => fault.paramValues[0]!.param)).toEqual([
      'updateIndicator',
      'shipment',
    ]);
    const badPaper = await fetch(`${url}?apikey=${fakePostnordApiKey}&paperSize=B5`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(badPaper.status).toBe(400);
  });
});
