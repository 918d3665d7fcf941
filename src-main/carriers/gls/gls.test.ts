import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hasPoppler, pdfText } from '../../testing/shippingPapers';
import { receiverParty, senderAddressBody, startTestServer, type TestServer } from '../../testing/harness';
import { eq, inArray } from 'drizzle-orm';
import { carriers, shipments } from '../../db/schema';
import { carrierCall } from '../../domain/carriers/carrierCalls';
import { bookedShipmentOf } from '../../domain/shipments/bookedShipment';
import { startFakeGls, type FakeGls } from './fake';
import { GLS_EXPRESS, GLS_PARCEL, GLS_PARCEL_SHOP } from './shipmentRequest';

/**
 * The GLS adapter through the real send and cancel operations (tracking and ParcelShops through the
 * platform's carrier call), against the
 * local fake GLS on a random port reached through `apiBaseUrl` (decisions §13). Every booking the fake
 * made is counted, so a doubled booking cannot hide.
 */

let t: TestServer;
let fake: FakeGls;
let senderAddressId: string;
let carrierId: string;

const CALL_TIMEOUT_MS = 1500;
const orgPath = () => `/orgs/${t.org.orgId}`;

beforeAll(async () => {
  fake = await startFakeGls();
  t = await startTestServer({ carrierHttp: { timeoutMs: CALL_TIMEOUT_MS, backoffMs: 10, maxRetryAfterMs: 5000 } });
  t.app.db.$client.prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(t.org.orgId);
  const address = await t.request('POST', `${orgPath()}/sender-addresses`, {
    body: senderAddressBody({
      name: 'Acme Lager',
      address1: 'Industriestraße 7',
      zipcode: '36286',
      city: 'Neuenstein',
      countryCode: 'DE',
      phone: '+4966771234',
    }),
  });
  expect(address.status).toBe(201);
  senderAddressId = address.body.id;
  carrierId = await createCarrier('GLS');
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.switches.clear());

async function createCarrier(name: string, config: Record<string, unknown> = {}): Promise<string> {
  const res = await t.request('POST', `${orgPath()}/carriers`, {
    body: {
      name,
      carrierSlug: 'gls',
      senderAddressId,
      config: { clientId: fake.clientId, clientSecret: fake.clientSecret, contactId: fake.contactId, testMode: true, apiBaseUrl: fake.url, ...config },
    },
  });
  if (res.status !== 201) throw new Error(`carrier: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

let referenceCounter = 0;
const german = receiverParty({
  name: 'Tim Test',
  address1: 'Testallee 5',
  postalCode: '65760',
  city: 'Eschborn',
  countryCode: 'DE',
  email: 'tim@example.de',
  phone: '+49612345678',
});
const parcel = (weight: number) => ({ weight, weightUnit: 'kg', dimensions: { length: 30, width: 20, height: 10 }, orderLines: [] });

async function createShipment(
  options: { carrier?: string; productId?: string; services?: string[]; parameters?: object; parcels?: number[]; receiver?: object; extra?: object } = {},
) {
  const res = await t.request('POST', `${orgPath()}/shipments`, {
    body: {
      type: 'outbound',
      reference: `GLS-TEST-${++referenceCounter}`,
      carrierSettings: {
        carrierId: options.carrier ?? carrierId,
        productId: options.productId ?? GLS_PARCEL,
        services: options.services ?? [],
        additionalParameters: options.parameters ?? {},
      },
      parties: [options.receiver ?? german],
      parcels: (options.parcels ?? [2.5]).map(parcel),
      ...options.extra,
    },
  });
  if (res.status !== 201) throw new Error(`shipment: ${JSON.stringify(res.body)}`);
  return res.body as { id: string; reference: string; parcels: { id: string }[] };
}

const send = (id: string, body?: object) => t.request('POST', `${orgPath()}/shipments/${id}/send`, body ? { body } : {});
const get = async (id: string) => (await t.request('GET', `${orgPath()}/shipments/${id}`)).body;
const bookingsOf = (reference: string) => fake.state.shipments.filter((shipment) => shipment.reference.includes(reference));
/**
 * Tracking and service points have no operation yet: they are asked through the platform's own call
 * (the carrier row, its HTTP client and call slots), as the poller and the lookup operation will.
 */
function callFor(id: string) {
  const row = t.app.db.select().from(carriers).where(eq(carriers.id, id)).get();
  if (!row) throw new Error(`no carrier ${id}`);
  return carrierCall(t.app, row);
}

async function track(shipmentIds: string[]) {
  const rows = t.app.db.select().from(shipments).where(inArray(shipments.id, shipmentIds)).all();
  const { adapter, context } = callFor(carrierId);
  return adapter.track!(
    context,
    rows.map((row) => bookedShipmentOf(t.app.db, row)),
  );
}

/** The label document stored for a parcel (documents carry their parcel in the database, not in the JSON). */
function labelOf(shipment: { documents: { id: string; content: string; format: string; size: string }[] }, parcelId: string) {
  const row = t.app.db.$client.prepare("SELECT id FROM documents WHERE parcel_id = ? AND document_type = 'label'").get(parcelId) as { id: string } | undefined;
  return shipment.documents.find((document) => document.id === row?.id);
}
const lastBody = () => fake.state.bookingBodies.at(-1) as { Shipment: Record<string, any>; PrintingOptions: Record<string, any> };

describe('GLS booking', () => {
  it('books one parcel: its TrackID, the PDF label byte for byte, the reference sent, secrets kept out of the logs', async () => {
    const shipment = await createShipment();
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    const sent = res.body;
    const [booked] = bookingsOf(shipment.reference);
    const glsParcel = booked!.parcels[0]!;
    expect(sent.status).toBe('dispatched');
    expect(sent.tracking).toMatchObject({ number: glsParcel.trackId, status: 'pending' });
    expect(sent.tracking.url).toContain(glsParcel.trackId);
    expect(sent.parcels[0]).toMatchObject({ trackingNumber: glsParcel.trackId, parcelNumber: glsParcel.parcelNumber });

    expect(sent.documents).toHaveLength(1);
    expect(sent.documents[0]).toMatchObject({ documentType: 'label', format: 'pdf', size: 'A6' });
    expect(labelOf(sent, shipment.parcels[0]!.id)?.content).toBe(fake.state.labels.get(glsParcel.trackId)!.data);

    // What GLS received: ShipIT's field names, the reference as its customer reference, each unit tied to its parcel.
    const body = lastBody();
    expect(body.Shipment).toMatchObject({
      ShipmentReference: [shipment.reference],
      Product: 'PARCEL',
      Shipper: { ContactID: fake.contactId, AlternativeShipperAddress: { Name1: 'Acme Lager', ZIPCode: '36286', CountryCode: 'DE' } },
      Consignee: { Address: { Name1: 'Tim Test', Street: 'Testallee 5', ZIPCode: '65760', City: 'Eschborn', CountryCode: 'DE', eMail: 'tim@example.de' } },
      ShipmentUnit: [{ ShipmentUnitReference: [shipment.parcels[0]!.id], Weight: 2.5 }],
    });
    expect(body.PrintingOptions).toEqual({ ReturnLabels: { TemplateSet: 'NONE', LabelFormat: 'PDF' } });

    const logs = JSON.stringify(sent.logs);
    expect(sent.logs.map((log: { request: { operation: string } }) => log.request.operation)).toEqual(expect.arrayContaining(['token', 'book']));
    expect(logs).not.toContain(fake.clientSecret);
    expect(logs).not.toContain(Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64'));
  });

  it('books several parcels: one label and one GLS number per parcel', async () => {
    const shipment = await createShipment({ parcels: [1, 4.25, 12] });
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    const [booked] = bookingsOf(shipment.reference);
    expect(booked!.parcels).toHaveLength(3);
    shipment.parcels.forEach((ours, index) => {
      const theirs = booked!.parcels[index]!;
      expect(theirs.unitReference).toEqual([ours.id]);
      expect(labelOf(res.body, ours.id)?.content).toBe(fake.state.labels.get(theirs.trackId)!.data);
      expect(res.body.parcels[index]).toMatchObject({ id: ours.id, trackingNumber: theirs.trackId, parcelNumber: theirs.parcelNumber });
    });
    expect(lastBody().Shipment.ShipmentUnit.map((unit: { Weight: number }) => unit.Weight)).toEqual([1, 4.25, 12]);
  });

  it('asks for ZPL when the carrier is set to it and stores the ZPL as GLS sent it', async () => {
    const zplCarrier = await createCarrier('GLS ZPL', { labelFormat: 'zpl', zplTemplateSet: 'ZPL_300' });
    const shipment = await createShipment({ carrier: zplCarrier, parcels: [2, 3] });
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    expect(lastBody().PrintingOptions).toEqual({ ReturnLabels: { TemplateSet: 'ZPL_300', LabelFormat: 'ZEBRA' } });
    const [booked] = bookingsOf(shipment.reference);
    expect(res.body.documents).toHaveLength(2);
    for (const [index, ours] of shipment.parcels.entries()) {
      const document = labelOf(res.body, ours.id)!;
      expect(document).toMatchObject({ format: 'zpl', size: '100X150' });
      expect(document.content).toBe(fake.state.labels.get(booked!.parcels[index]!.trackId)!.data);
      expect(Buffer.from(document.content, 'base64').toString('utf8')).toMatch(/^\^XA/);
    }
    expect(booked!.labelFormat).toBe('ZEBRA');
  });

  it('sends the services: FlexDelivery, Deposit with its place, Express as its own product', async () => {
    const shipment = await createShipment({ services: ['flexDelivery', 'deposit', 'saturday'], parameters: { placeOfDeposit: 'Garage' } });
    expect((await send(shipment.id)).status).toBe(200);
    expect(lastBody().Shipment.Service).toEqual([
      { Service: { ServiceName: 'service_flexdelivery' } },
      { Deposit: { ServiceName: 'service_deposit', PlaceOfDeposit: 'Garage' } },
      { Service: { ServiceName: 'service_Saturday' } },
    ]);
    const express = await createShipment({ productId: GLS_EXPRESS, services: ['addresseeOnly'] });
    expect((await send(express.id)).status).toBe(200);
    expect(lastBody().Shipment).toMatchObject({ Product: 'EXPRESS', Service: [{ Service: { ServiceName: 'service_addresseeonly' } }] });
  });

  it('delivers to a ParcelShop with the shop delivery product; an unknown shop is GLS refusing it', async () => {
    const shipment = await createShipment({ productId: GLS_PARCEL_SHOP, extra: { servicePointId: 'GLS_DE-2760000002' } });
    expect((await send(shipment.id)).status).toBe(200);
    expect(lastBody().Shipment.Service).toEqual([{ ShopDelivery: { ServiceName: 'service_shopdelivery', ParcelShopID: 'GLS_DE-2760000002' } }]);

    const unknownShop = await createShipment({ productId: GLS_PARCEL_SHOP, extra: { servicePointId: 'GLS_DE-2769999999' } });
    const res = await send(unknownShop.id);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CARRIER_ERROR');
    expect(res.body.errors).toContainEqual({
      code: 'INVALID_FIELD_VALUE',
      message: 'Invalid field Shipment.Service.ShopDelivery.ParcelShopID. Value GLS_DE-2769999999 is not a valid value. ParcelShop not found.',
    });
    expect(bookingsOf(unknownShop.reference)).toHaveLength(0);
  });
});

describe('GLS exports (issue 21)', () => {
  it('ShipIT takes no customs data: the commercial invoice is made here to travel printed, with the declared values', async () => {
    expect((await t.request('PUT', orgPath(), { body: { eoriNumber: 'DE123456789012345' } })).status).toBe(200);
    const zurich = {
      type: 'receiver',
      name: 'Heidi Muster',
      address1: 'Bahnhofstrasse 1',
      postalCode: '8001',
      city: 'Zürich',
      countryCode: 'CH',
      phone: '+41441234567',
    };
    const line = {
      sku: 'MUG-01',
      quantity: 2,
      description: 'Stoneware mug',
      unitPrice: 12.5,
      currency: 'EUR',
      tarrifNumber: '6912.00',
      countryOfOrigin: 'DE',
      weight: 0.35,
    };
    const shipment = await createShipment({ receiver: zurich, extra: { parcels: [{ ...parcel(1.5), orderLines: [line] }] } });
    const res = await send(shipment.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.documents.map((doc: { documentType: string }) => doc.documentType)).toEqual(['label', 'commercial_invoice']);
    expect(JSON.stringify(lastBody().Shipment)).not.toMatch(/691200|Stoneware/);
    if (hasPoppler) {
      const invoice = res.body.documents.find((doc: { documentType: string }) => doc.documentType === 'commercial_invoice');
      const text = pdfText(Buffer.from(invoice.content, 'base64'));
      expect(text).toContain('DE123456789012345');
      expect(text).toMatch(/Stoneware mug\s+MUG-01\s+691200\s+DE\s+2\s+12\.50\s+EUR\s+25\.00\s+0\.700/);
    }
  });
});

describe('GLS refusals and failures', () => {
  it('credentials refused: 422 CARRIER_AUTH_FAILED with what GLS said, nothing booked', async () => {
    const wrongSecret = await createCarrier('GLS wrong secret', { clientSecret: 'not-the-secret' });
    const shipment = await createShipment({ carrier: wrongSecret });
    const before = fake.state.counts.book;
    const res = await send(shipment.id);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CARRIER_AUTH_FAILED');
    expect(JSON.stringify(res.body)).toContain('Invalid client identifier');
    expect(fake.state.counts.book).toBe(before);
    expect((await get(shipment.id)).status).toBe('error');
  });

  it('a validation error: 422 CARRIER_ERROR in GLS words, nothing booked', async () => {
    const shipment = await createShipment({ receiver: { ...german, postalCode: '6576' } });
    const res = await send(shipment.id);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CARRIER_ERROR');
    expect(res.body.errors).toContainEqual({
      code: 'INVALID_FIELD_VALUE',
      message: 'Invalid field Shipment.Consignee.Address.ZIPCode. Value 6576 is not a valid value. The ZIP code is not valid for the country.',
    });
    expect(bookingsOf(shipment.reference)).toHaveLength(0);
    const stored = await get(shipment.id);
    expect(stored.status).toBe('error');
    expect(JSON.stringify(stored.errors)).toContain('ZIP code');
  });

  it('a 5xx while booking leaves the outcome unknown; the next send asks GLS, finds nothing and books once', async () => {
    const shipment = await createShipment();
    fake.switches.add('book', { kind: 'serverError', status: 503 });
    const first = await send(shipment.id);
    expect(first.status).toBe(422);
    expect(first.body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    expect(bookingsOf(shipment.reference)).toHaveLength(0);

    const lookupsBefore = fake.state.counts.findParcels;
    const second = await send(shipment.id);
    expect(second.status).toBe(200);
    expect(fake.state.counts.findParcels).toBe(lookupsBefore + 1);
    expect(bookingsOf(shipment.reference)).toHaveLength(1);
  });

  it('a timeout after GLS booked: 422 CARRIER_OUTCOME_UNKNOWN, then the lookup finds that booking and books nothing twice', async () => {
    const shipment = await createShipment({ parcels: [2, 3] });
    fake.switches.add('book', { kind: 'delay', ms: CALL_TIMEOUT_MS + 1000 });
    const first = await send(shipment.id);
    expect(first.status).toBe(422);
    expect(first.body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    expect(bookingsOf(shipment.reference)).toHaveLength(1);
    expect((await get(shipment.id)).status).toBe('error');

    const second = await send(shipment.id);
    expect(second.status).toBe(200);
    expect(bookingsOf(shipment.reference)).toHaveLength(1);
    const [booked] = bookingsOf(shipment.reference);
    expect(second.body.tracking.number).toBe(booked!.parcels[0]!.trackId);
    for (const [index, ours] of shipment.parcels.entries()) {
      expect(labelOf(second.body, ours.id)?.content).toBe(fake.state.labels.get(booked!.parcels[index]!.trackId)!.data);
    }
    expect(second.body.activities.at(-1).description).toContain('nothing booked twice');
  });

  it('booked, then the connection dropped: the same, and a lookup that fails leaves it unknown rather than booking again', async () => {
    const shipment = await createShipment();
    fake.switches.add('book', { kind: 'dropAfterBooking' });
    expect((await send(shipment.id)).body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    expect(bookingsOf(shipment.reference)).toHaveLength(1);

    fake.switches.add('findParcels', { kind: 'serverError' }, 5);
    const unanswered = await send(shipment.id);
    expect(unanswered.status).toBe(422);
    expect(unanswered.body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    expect(bookingsOf(shipment.reference)).toHaveLength(1);

    fake.switches.clear();
    const found = await send(shipment.id);
    expect(found.status).toBe(200);
    expect(bookingsOf(shipment.reference)).toHaveLength(1);
    expect(found.body.tracking.number).toBe(bookingsOf(shipment.reference)[0]!.parcels[0]!.trackId);
  });

  it('a 429 with Retry-After is waited for, then booked once', async () => {
    const shipment = await createShipment();
    fake.switches.add('book', { kind: 'rateLimit', retryAfterSeconds: 1 });
    const before = fake.state.counts.book;
    const started = Date.now();
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.state.counts.book).toBe(before + 2);
    expect(bookingsOf(shipment.reference)).toHaveLength(1);
  });

  it('a token GLS no longer accepts is replaced and the booking goes through once', async () => {
    const shipment = await createShipment();
    fake.state.expireTokens();
    const tokensBefore = fake.state.counts.token;
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    expect(fake.state.counts.token).toBe(tokensBefore + 1);
    expect(bookingsOf(shipment.reference)).toHaveLength(1);
  });
});

describe('GLS after booking', () => {
  it('voids by cancelling every parcel at GLS', async () => {
    const shipment = await createShipment({ parcels: [1, 2] });
    expect((await send(shipment.id)).status).toBe(200);
    const res = await t.request('POST', `${orgPath()}/shipments/${shipment.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
    expect(bookingsOf(shipment.reference)[0]!.parcels.map((p) => p.status)).toEqual(['CANCELED', 'CANCELED']);
    expect(res.body.activities.at(-1).description).toContain('voided');
  });

  it('a parcel GLS has scanned is not cancelled there: cancelled here with what to do', async () => {
    const shipment = await createShipment();
    const sent = await send(shipment.id);
    fake.state.scan(sent.body.tracking.number, 'INTRANSIT');
    const res = await t.request('POST', `${orgPath()}/shipments/${shipment.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
    expect(res.body.activities.at(-1).description).toMatch(/Cancelled here only: GLS did not cancel parcel .* \(SCANNED\)/);
  });

  it("turns GLS's tracking events into the shipment's status, ten parcels a call", async () => {
    const shipment = await createShipment({ parcels: [1, 2] });
    const other = await createShipment({ parcels: [1, 1, 1, 1, 1, 1, 1, 1, 1] });
    const sent = (await send(shipment.id)).body;
    expect((await send(other.id)).status).toBe(200);
    const [first, second] = sent.parcels as { parcelNumber: string }[];
    // Scans after the booking's own pre-advice event, in whole seconds as Track and Trace writes them.
    const base = Math.ceil(Date.now() / 1000) * 1000;
    const hoursLater = (hours: number) => new Date(base + hours * 3_600_000);
    fake.state.scan(first!.parcelNumber, 'INTRANSIT', hoursLater(1), { city: 'Neuenstein', postalCode: '36286', country: 'DE' });
    fake.state.scan(second!.parcelNumber, 'INDELIVERY', hoursLater(2));

    const callsBefore = fake.state.counts.track;
    let results = await track([shipment.id, other.id]);
    // Eleven parcels: two calls of at most ten parcel numbers.
    expect(fake.state.counts.track).toBe(callsBefore + 2);
    expect(results.get(other.id)?.status).toBe('pending');
    const tracked = results.get(shipment.id)!;
    expect(tracked.status).toBe('in_transit');
    expect(tracked.events).toContainEqual({
      at: hoursLater(1).toISOString(),
      code: 'INTIAL.NORMAL',
      description: `GLS has received the parcel. (parcel ${first!.parcelNumber})`,
      location: '36286 Neuenstein, DE',
    });

    fake.state.scan(first!.parcelNumber, 'DELIVERED', hoursLater(3));
    fake.state.scan(second!.parcelNumber, 'DELIVEREDPS', hoursLater(4));
    results = await track([shipment.id]);
    expect(results.get(shipment.id)?.status).toBe('delivered');
    expect(results.get(shipment.id)?.events[0]).toMatchObject({ at: hoursLater(4).toISOString(), code: 'DELIVD.PARCELSHOP' });

    fake.state.scan(first!.parcelNumber, 'NOTDELIVERED');
    expect((await track([shipment.id])).get(shipment.id)?.status).toBe('exception');
  });

  it('finds ParcelShops nearest first, with coordinates and opening hours', async () => {
    const { adapter, context } = callFor(carrierId);
    const points = await adapter.servicePoints!(context, { countryCode: 'DE', postalCode: '36286', address1: 'Industriestraße 7', city: null, limit: 2 });
    expect(fake.state.requests.at(-1)).toMatchObject({ operation: 'parcelShops', status: 200 });
    expect(points).toHaveLength(2);
    expect(points[0]).toEqual({
      id: 'GLS_DE-2760000001',
      name: 'Kiosk am Markt',
      address1: 'Marktplatz 3',
      postalCode: '36286',
      city: 'Neuenstein',
      countryCode: 'DE',
      distanceMeters: 420,
      latitude: 50.9271,
      longitude: 9.5432,
      openingHours: expect.arrayContaining([
        { day: 'monday', open: '08:00', close: '18:30' },
        { day: 'saturday', open: '09:00', close: '13:00' },
      ]),
    });
    expect(points[0]!.openingHours.filter((hours) => hours.day === 'sunday')).toEqual([]);
    expect(points[1]!.distanceMeters).toBeGreaterThan(points[0]!.distanceMeters!);
    // The lunch break GLS sends apart from the day splits the day's hours.
    expect(points[1]!.openingHours.filter((hours) => hours.day === 'tuesday')).toEqual([
      { day: 'tuesday', open: '09:00', close: '12:30' },
      { day: 'tuesday', open: '14:00', close: '19:00' },
    ]);
  });

  it('tests the connection by asking for a token; refused credentials are CARRIER_AUTH_FAILED', async () => {
    const { adapter, context } = callFor(carrierId);
    const tokensBefore = fake.state.counts.token;
    await expect(adapter.testConnection!(context)).resolves.toContain(`GLS accepted client ID ${fake.clientId} in its sandbox`);
    expect(fake.state.counts.token).toBe(tokensBefore + 1);

    const wrong = callFor(await createCarrier('GLS wrong id', { clientId: 'someone-else' }));
    await expect(wrong.adapter.testConnection!(wrong.context)).rejects.toMatchObject({ kind: 'auth', errors: [{ message: 'Invalid client identifier' }] });
  });
});
