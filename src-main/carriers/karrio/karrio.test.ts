import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ShipdeskClient } from '../../../src-shared/client';
import type { ShipmentCreateInput } from '../../../src-shared/schemas/shipment';
import { carriers, shipments } from '../../db/schema';
import { carrierCall, unsavedCarrierCall } from '../../domain/carriers/carrierCalls';
import { seal } from '../../domain/secrets';
import { bookedShipmentOf } from '../../domain/shipments/bookedShipment';
import { bookingRequest } from '../../domain/shipments/booking';
import { loadShipmentRecord } from '../../domain/shipments/repository';
import { receiverParty, senderAddressBody, startTestServer, type TestServer } from '../../testing/harness';
import { CarrierFailure } from '../errors';
import { karrioCarrier } from './adapter';
import { fakeKarrioConnections, startFakeKarrio, type FakeKarrio } from './fake';
import { eventTime, trackingStatusFromKarrio } from './mapping';

// The Karrio adapter against a fake Karrio server on a random port, served under a path prefix as
// `apiBaseUrl` names it, through the real operations (carriers.create, shipments.send, shipments.cancel).

let t: TestServer;
let fake: FakeKarrio;
let api: ShipdeskClient;
let orgId: string;
let senderAddressId: string;
let referenceCounter = 0;

const [postnord, dhl, inactiveUps] = fakeKarrioConnections as [
  (typeof fakeKarrioConnections)[0],
  (typeof fakeKarrioConnections)[0],
  (typeof fakeKarrioConnections)[0],
];

const karrioConfig = (overrides: Record<string, unknown> = {}) => ({
  apiBaseUrl: fake.url,
  apiKey: fake.apiKey,
  connectionId: postnord.id,
  testMode: true,
  ...overrides,
});

beforeAll(async () => {
  fake = await startFakeKarrio({ prefix: '/shipping/karrio' });
  // Short limits so the timeout and retry cases run in a second, not in thirty.
  t = await startTestServer({ carrierHttp: { timeoutMs: 1500, backoffMs: 20, maxRetryAfterMs: 5000 } });
  t.app.db.$client.prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(t.org.orgId);
  api = t.client();
  orgId = t.org.orgId;
  senderAddressId = (await api.call('senderAddresses.create', { params: { orgId }, body: senderAddressBody() as never })).id;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  fake.switches.serverError = null;
  fake.switches.slow = null;
  fake.switches.rateLimit = null;
  fake.switches.dropAfterBooking = null;
  fake.switches.carrierRefusal = null;
});

const carrierRow = (carrierId: string) => {
  const row = t.app.db.select().from(carriers).where(eq(carriers.id, carrierId)).get();
  if (!row) throw new Error(`no carrier ${carrierId}`);
  return row;
};

/** A saved Karrio carrier: creating it reads its products from the server and keeps them with it. */
async function karrioCarrierWithProducts(config: Record<string, unknown> = {}, name = 'PostNord via Karrio') {
  const carrier = await api.call('carriers.create', {
    params: { orgId },
    body: { name, carrierSlug: 'karrio', config: karrioConfig(config), senderAddressId },
  });
  expect(carrierRow(carrier.id).products?.length).toBeGreaterThan(0);
  return carrier.id;
}

function parcel(weight: number) {
  return { weight, weightUnit: 'kg', dimensions: { length: 30, width: 20, height: 10 }, orderLines: [{ sku: 'MUG-01', quantity: 1 }] };
}

async function createShipment(carrierId: string, overrides: Record<string, unknown> = {}) {
  const body = {
    type: 'outbound',
    reference: `KAR-${++referenceCounter}`,
    carrierSettings: { carrierId, productId: 'postnord_parcel', services: [] },
    parties: [receiverParty({ countryCode: 'SE', postalCode: '11122', city: 'Stockholm', address1: 'Drottninggatan 1' })],
    parcels: [parcel(2.5)],
    ...overrides,
  };
  // The create body's defaults (termOfTrade, …) are filled by its schema, as for any caller.
  return api.call('shipments.create', { params: { orgId }, body: body as unknown as ShipmentCreateInput });
}

const send = (shipmentId: string) => t.request('POST', `/orgs/${orgId}/shipments/${shipmentId}/send`);
const bookedInFake = (reference: string) => fake.state.shipments.filter((entry) => entry.shipment.reference === reference);
const lastBody = () =>
  [...fake.state.requests].reverse().find((request) => request.method === 'POST' && request.path === '/v1/shipments')?.body as Record<string, any>;

describe('connections and products', () => {
  it('lists the active connections with the typed address and key, before anything is saved', async () => {
    const carriersBefore = t.app.db.select().from(carriers).all().length;
    const { context } = unsavedCarrierCall(t.app, orgId, karrioCarrier, karrioConfig({ connectionId: undefined }));
    const options = await karrioCarrier.fieldOptions!(context, 'connectionId');
    expect(options).toEqual([
      { name: 'PostNord · postnord-main (test)', value: postnord.id },
      { name: 'DHL Parcel DE · dhl-de (test)', value: dhl.id },
    ]);
    expect(options.map((option) => option.value)).not.toContain(inactiveUps.id);
    expect(fake.state.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/connections', authorized: true });
    expect(t.app.db.select().from(carriers).all()).toHaveLength(carriersBefore);

    const wrongKey = unsavedCarrierCall(t.app, orgId, karrioCarrier, karrioConfig({ apiKey: 'key_wrong' }));
    const refused = await karrioCarrier.fieldOptions!(wrongKey.context, 'connectionId').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CarrierFailure);
    expect(refused).toMatchObject({ kind: 'auth', errors: [{ code: 'authentication_failed', message: 'Invalid token.' }] });
  });

  it('tests the connection: the key, the chosen connection and its mode against Test mode', async () => {
    const ok = unsavedCarrierCall(t.app, orgId, karrioCarrier, karrioConfig());
    expect(await karrioCarrier.testConnection!(ok.context)).toBe('Connected to Karrio: PostNord · postnord-main (test) is active.');

    const live = unsavedCarrierCall(t.app, orgId, karrioCarrier, karrioConfig({ testMode: false }));
    await expect(karrioCarrier.testConnection!(live.context)).rejects.toMatchObject({ kind: 'refused', errors: [{ code: 'KARRIO_TEST_MODE_MISMATCH' }] });
    const off = unsavedCarrierCall(t.app, orgId, karrioCarrier, karrioConfig({ connectionId: inactiveUps.id }));
    await expect(karrioCarrier.testConnection!(off.context)).rejects.toMatchObject({ errors: [{ code: 'KARRIO_CONNECTION_INACTIVE' }] });
    // The key is checked on every call; none of these booked anything.
    expect(fake.state.counters.shipmentsBooked).toBe(0);
  });

  it("reads the connection's services as products and keeps them with the carrier for offline use", async () => {
    const carrierId = await karrioCarrierWithProducts();
    // The server is down: the kept products still answer.
    fake.switches.serverError = { times: 1000 };
    const products = await api.call('carriers.products', { params: { orgId, carrierId } });
    fake.switches.serverError = null;
    expect(products.map((product) => product.productId)).toEqual([
      'postnord_parcel',
      'postnord_mypack_home',
      'postnord_mypack_collect',
      'postnord_return_pickup',
    ]);
    expect(products[0]).toEqual({
      productId: 'postnord_parcel',
      name: 'PostNord Parcel',
      type: 'outbound',
      description: 'PostNord service 18 through Karrio (postnord-main)',
      services: [
        { serviceId: 'postnord_sms_notification', name: 'Sms notification' },
        { serviceId: 'postnord_email_notification', name: 'Email notification' },
      ],
      labelSizes: ['100X150'],
      servicePoint: 'none',
    });
    expect(products.find((product) => product.productId === 'postnord_return_pickup')?.type).toBe('inbound');

    const dhlCarrier = await karrioCarrierWithProducts({ connectionId: dhl.id }, 'DHL via Karrio');
    const dhlProducts = await api.call('carriers.products', { params: { orgId, carrierId: dhlCarrier } });
    expect(dhlProducts.map((product) => product.name)).toEqual(['DHL Parcel DE Paket', 'DHL Parcel DE Kleinpaket', 'DHL Parcel DE Europaket']);
  });
});

describe('booking', () => {
  let pdfCarrier: string;
  let zplCarrier: string;
  beforeAll(async () => {
    pdfCarrier = await karrioCarrierWithProducts({ labelFormat: 'pdf' });
    zplCarrier = await karrioCarrierWithProducts({ labelFormat: 'zpl' }, 'PostNord ZPL via Karrio');
  });

  it('books one parcel with the reference, the connection and the chosen options; the PDF label is stored byte for byte', async () => {
    const shipment = await createShipment(pdfCarrier, {
      carrierSettings: { carrierId: pdfCarrier, productId: 'postnord_parcel', services: ['postnord_sms_notification'] },
    });
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    const sent = res.body;
    const [booked] = bookedInFake(shipment.reference);
    expect(booked).toBeDefined();
    expect(sent.status).toBe('dispatched');
    expect(sent.tracking.number).toBe(booked!.shipment.tracking_number);
    expect(sent.parcels[0].trackingNumber).toBe(booked!.shipment.tracking_number);

    expect(lastBody()).toMatchObject({
      service: 'postnord_parcel',
      carrier_ids: [postnord.id],
      reference: shipment.reference,
      label_type: 'PDF',
      options: { postnord_sms_notification: true },
      recipient: { person_name: 'Jens Hansen', postal_code: '11122', city: 'Stockholm', country_code: 'SE', phone_number: '+4520202020' },
      shipper: { country_code: 'DK', postal_code: '8000', city: 'Aarhus' },
      parcels: [{ weight: 2.5, weight_unit: 'KG', length: 30, width: 20, height: 10, dimension_unit: 'CM' }],
    });

    expect(sent.documents).toHaveLength(1);
    const [label] = sent.documents;
    expect(label).toMatchObject({ documentType: 'label', format: 'pdf', size: '100X150' });
    expect(label.content).toBe(booked!.label);
    const pdf = await PDFDocument.load(Buffer.from(label.content, 'base64'));
    expect(pdf.getPageCount()).toBe(1);

    // The key travels in the Authorization header and never reaches logs[].
    expect([...fake.state.requests].reverse().find((request) => request.path === '/v1/shipments')).toMatchObject({ method: 'POST', authorized: true });
    expect(JSON.stringify(sent.logs)).not.toContain(fake.apiKey);
    expect(sent.logs.length).toBeGreaterThanOrEqual(1);
  });

  it('books several parcels in one booking; each keeps its own number and the ZPL label is stored byte for byte', async () => {
    const shipment = await createShipment(zplCarrier, { parcels: [parcel(1), parcel(2), parcel(3.5)] });
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    const [booked] = bookedInFake(shipment.reference);
    const numbers = booked!.shipment.meta!.tracking_numbers as string[];
    expect(numbers).toHaveLength(3);
    expect(new Set(numbers).size).toBe(3);
    expect(res.body.tracking.number).toBe(numbers[0]);
    expect(res.body.parcels.map((p: { trackingNumber: string }) => p.trackingNumber)).toEqual(numbers);
    expect(lastBody()).toMatchObject({ label_type: 'ZPL', parcels: [{ weight: 1 }, { weight: 2 }, { weight: 3.5 }] });

    expect(res.body.documents).toHaveLength(1);
    const [label] = res.body.documents;
    expect(label).toMatchObject({ format: 'zpl', size: '100X150' });
    expect(label.content).toBe(booked!.label);
    const zpl = Buffer.from(label.content, 'base64').toString('utf8');
    expect(zpl.match(/\^XA/g)).toHaveLength(3);
    const raw = await t.request('GET', `/orgs/${orgId}/shipments/${shipment.id}/documents/${label.id}/content`);
    expect(Buffer.compare(raw.body as Buffer, Buffer.from(booked!.label, 'base64'))).toBe(0);
  });

  it("voids a dispatched shipment through Karrio's cancel", async () => {
    const shipment = await createShipment(pdfCarrier);
    expect((await send(shipment.id)).status).toBe(200);
    const cancelsBefore = fake.state.counters.cancels;
    const cancelled = await api.call('shipments.cancel', { params: { orgId, shipmentId: shipment.id } });
    expect(cancelled.status).toBe('cancelled');
    expect(fake.state.counters.cancels).toBe(cancelsBefore + 1);
    expect(bookedInFake(shipment.reference)[0]!.shipment.status).toBe('cancelled');
    expect(fake.state.requests.at(-1)).toMatchObject({ method: 'POST', path: `/v1/shipments/${bookedInFake(shipment.reference)[0]!.shipment.id}/cancel` });
  });

  it("turns Karrio's tracking events into status and events", async () => {
    const shipment = await createShipment(pdfCarrier);
    expect((await send(shipment.id)).status).toBe(200);
    const trackingNumber = bookedInFake(shipment.reference)[0]!.shipment.tracking_number!;
    const row = t.app.db.select().from(shipments).where(eq(shipments.id, shipment.id)).get()!;
    const { context } = carrierCall(t.app, carrierRow(pdfCarrier));
    const ask = async () => (await karrioCarrier.track!(context, [bookedShipmentOf(t.app.db, row)])).get(shipment.id);

    expect(await ask()).toEqual({ status: 'pending', events: [] });
    fake.addTrackingEvent(trackingNumber, {
      status: 'picked_up',
      date: '2026-11-27',
      time: '09:15',
      code: 'EE10',
      description: 'Picked up',
      location: 'Aarhus',
    });
    fake.addTrackingEvent(trackingNumber, {
      status: 'in_transit',
      date: '2026-11-27',
      time: '03:40 PM',
      code: 'EE20',
      description: 'Sorted',
      location: 'Malmö',
    });
    expect(await ask()).toEqual({
      status: 'in_transit',
      events: [
        { at: '2026-11-27T09:15:00.000Z', code: 'EE10', description: 'Picked up', location: 'Aarhus' },
        { at: '2026-11-27T15:40:00.000Z', code: 'EE20', description: 'Sorted', location: 'Malmö' },
      ],
    });
    fake.addTrackingEvent(trackingNumber, {
      status: 'out_for_delivery',
      timestamp: '2026-11-28T07:02:00.000Z',
      code: 'EE30',
      description: 'On the van',
      location: 'Stockholm',
    });
    fake.addTrackingEvent(trackingNumber, {
      status: 'delivered',
      date: '2026-11-28',
      time: '11:30',
      code: 'EE90',
      description: 'Delivered',
      location: 'Stockholm',
    });
    const delivered = await ask();
    expect(delivered?.status).toBe('delivered');
    expect(delivered?.events.map((event) => event.code)).toEqual(['EE10', 'EE20', 'EE30', 'EE90']);

    // Asked about several at once, a number Karrio cannot track is left out; the others still answer.
    const unknown = { ...bookedShipmentOf(t.app.db, row), shipmentId: 'shp_unknown', trackingNumber: '00999' };
    const both = await karrioCarrier.track!(context, [bookedShipmentOf(t.app.db, row), unknown]);
    expect([...both.keys()]).toEqual([shipment.id]);

    // Karrio's statuses that have no twin here.
    expect(trackingStatusFromKarrio.ready_for_pickup).toBe('out_for_delivery');
    expect(trackingStatusFromKarrio.return_to_sender).toBe('returned');
    expect(trackingStatusFromKarrio.delivery_failed).toBe('exception');
    expect(eventTime({ date: '2026-01-05', time: '12:05 AM' })).toBe('2026-01-05T00:05:00.000Z');
  });
});

describe('failures', () => {
  let carrierId: string;
  beforeAll(async () => {
    carrierId = await karrioCarrierWithProducts({}, 'PostNord via Karrio (failures)');
  });

  it("credentials refused: 422 CARRIER_AUTH_FAILED with Karrio's words, nothing booked", async () => {
    // Karrio refuses the key at create (its products cannot be read): nothing is saved.
    const refused = await t.request('POST', `/orgs/${orgId}/carriers`, {
      body: { name: 'Karrio with an old key', carrierSlug: 'karrio', config: karrioConfig({ apiKey: 'key_revoked' }), senderAddressId },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('CARRIER_AUTH_FAILED');
    // A key revoked after the carrier was saved: the send finds out.
    const wrongKey = await api.call('carriers.create', {
      params: { orgId },
      body: { name: 'Karrio with an old key', carrierSlug: 'karrio', config: karrioConfig(), senderAddressId },
    });
    const stored = carrierRow(wrongKey.id).config;
    t.app.db
      .update(carriers)
      .set({ config: { ...stored, apiKey: seal(t.app.keys.sealKey, 'key_revoked') } })
      .where(eq(carriers.id, wrongKey.id))
      .run();
    const shipment = await createShipment(wrongKey.id);
    const booked = fake.state.counters.shipmentsBooked;
    const res = await send(shipment.id);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CARRIER_AUTH_FAILED');
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'authentication_failed', message: 'Invalid token.' })]));
    expect(fake.state.counters.shipmentsBooked).toBe(booked);
  });

  it("a validation error of Karrio's reaches errors[] in its words", async () => {
    const shipment = await createShipment(carrierId, { parties: [receiverParty({ countryCode: 'SE', name: 'N'.repeat(120) })] });
    const res = await send(shipment.id);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CARRIER_ERROR');
    expect(res.body.errors).toEqual(
      expect.arrayContaining([{ code: 'validation', message: 'recipient.person_name: Ensure this field has no more than 100 characters.' }]),
    );
    const failed = await api.call('shipments.get', { params: { orgId, shipmentId: shipment.id } });
    expect(failed.status).toBe('error');
    expect(failed.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ message: 'recipient.person_name: Ensure this field has no more than 100 characters.' })]),
    );
  });

  it("the carrier's refusal behind Karrio (424) reaches errors[] with a plain sentence", async () => {
    fake.switches.carrierRefusal = { code: 'invalid_postal_code', message: 'The postal code 11122 is not valid for the service', times: 1 };
    const shipment = await createShipment(carrierId);
    const res = await send(shipment.id);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CARRIER_ERROR');
    expect(res.body.errors).toEqual(expect.arrayContaining([{ code: 'invalid_postal_code', message: 'The postal code 11122 is not valid for the service' }]));
    expect(res.body.message).toContain("does not know the receiver's postal code");
    expect(bookedInFake(shipment.reference)).toHaveLength(0);
  });

  it('a 5xx on booking leaves the outcome unknown; the next send asks by the exact reference and books once', async () => {
    // A booking under a reference that contains this one must not be taken for it (Karrio matches "contains").
    const longer = await createShipment(carrierId, { reference: 'FIVE-HUNDRED-1-B' });
    expect((await send(longer.id)).status).toBe(200);
    const shipment = await createShipment(carrierId, { reference: 'FIVE-HUNDRED-1' });
    fake.switches.serverError = { times: 1, route: 'POST /v1/shipments', status: 502 };
    const first = await send(shipment.id);
    expect(first.status).toBe(422);
    expect(first.body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    expect(bookedInFake('FIVE-HUNDRED-1')).toHaveLength(0);

    const again = await send(shipment.id);
    expect(again.status).toBe(200);
    expect(bookedInFake('FIVE-HUNDRED-1')).toHaveLength(1);
    expect(again.body.tracking.number).toBe(bookedInFake('FIVE-HUNDRED-1')[0]!.shipment.tracking_number);
    expect(again.body.tracking.number).not.toBe(bookedInFake('FIVE-HUNDRED-1-B')[0]!.shipment.tracking_number);
    expect(fake.state.requests.some((request) => request.method === 'GET' && request.path.startsWith('/v1/shipments?reference=FIVE-HUNDRED-1'))).toBe(true);
  });

  it('a timeout after Karrio booked: 422 CARRIER_OUTCOME_UNKNOWN, then the next send finds it by reference, no second booking', async () => {
    const shipment = await createShipment(carrierId, { parcels: [parcel(1), parcel(2)] });
    fake.switches.slow = { times: 1, route: 'POST /v1/shipments', ms: 2500 };
    const first = await send(shipment.id);
    expect(first.status).toBe(422);
    expect(first.body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    expect(bookedInFake(shipment.reference)).toHaveLength(1);
    const stuck = await api.call('shipments.get', { params: { orgId, shipmentId: shipment.id } });
    expect(stuck.status).toBe('error');

    const booked = fake.state.counters.shipmentsBooked;
    const again = await send(shipment.id);
    expect(again.status).toBe(200);
    expect(fake.state.counters.shipmentsBooked).toBe(booked);
    const [entry] = bookedInFake(shipment.reference);
    expect(again.body.tracking.number).toBe(entry!.shipment.tracking_number);
    expect(again.body.parcels.map((p: { trackingNumber: string }) => p.trackingNumber)).toEqual(entry!.shipment.meta!.tracking_numbers);
    // The label is fetched from Karrio's documents call and kept exactly.
    expect(again.body.documents).toHaveLength(1);
    expect(again.body.documents[0].content).toBe(entry!.label);
  });

  it('a connection dropped after Karrio booked is handled the same way', async () => {
    const shipment = await createShipment(carrierId);
    fake.switches.dropAfterBooking = { times: 1 };
    const first = await send(shipment.id);
    expect(first.body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    const again = await send(shipment.id);
    expect(again.status).toBe(200);
    expect(bookedInFake(shipment.reference)).toHaveLength(1);
    expect(again.body.documents[0].content).toBe(bookedInFake(shipment.reference)[0]!.label);
  });

  it('a 429 waits for its Retry-After and then books once', async () => {
    const shipment = await createShipment(carrierId);
    fake.switches.rateLimit = { times: 1, route: 'POST /v1/shipments', retryAfterSeconds: 1 };
    const started = performance.now();
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(bookedInFake(shipment.reference)).toHaveLength(1);
    expect(res.body.logs.map((log: { statusCode: number | null }) => log.statusCode)).toEqual(expect.arrayContaining([429, 201]));
  });

  it('a 5xx on a read is tried again', async () => {
    fake.switches.serverError = { times: 1, route: 'GET /v1/connections' };
    const { context } = unsavedCarrierCall(t.app, orgId, karrioCarrier, karrioConfig());
    expect(await karrioCarrier.testConnection!(context)).toContain('postnord-main');
    expect(fake.switches.serverError.times).toBe(0);
  });
});

describe('customs (issue 21)', () => {
  it("sends an export's declaration as Karrio's customs, and the fake refuses one booked without it", async () => {
    await api.call('orgs.update', { params: { id: orgId }, body: { eoriNumber: 'DK12345678', vatNumber: 'DK87654321' } });
    const carrierId = await karrioCarrierWithProducts({}, 'PostNord via Karrio, export');
    const shipment = await createShipment(carrierId, {
      termOfTrade: 'DDP',
      parties: [receiverParty({ name: 'Kari Nordmann', countryCode: 'NO', postalCode: '0154', city: 'Oslo', address1: 'Karl Johans gate 1' })],
      parcels: [
        {
          ...parcel(1.5),
          orderLines: [
            {
              sku: 'MUG-01',
              quantity: 2,
              description: 'Stoneware mug',
              unitPrice: 120,
              currency: 'DKK',
              tarrifNumber: '6912.00',
              countryOfOrigin: 'DK',
              weight: 0.35,
            },
          ],
        },
      ],
    });
    const sent = await send(shipment.id);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(lastBody().customs).toEqual({
      commodities: [
        {
          weight: 0.35,
          weight_unit: 'KG',
          title: 'Stoneware mug',
          description: 'Stoneware mug',
          quantity: 2,
          sku: 'MUG-01',
          hs_code: '691200',
          value_amount: 120,
          value_currency: 'DKK',
          origin_country: 'DK',
        },
      ],
      content_type: 'merchandise',
      incoterm: 'DDP',
      invoice: `INV-${shipment.reference}`,
      invoice_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      commercial_invoice: true,
      certify: true,
      signer: 'Main warehouse',
      options: { eori_number: 'DK12345678', vat_registration_number: 'DK87654321' },
    });

    // Straight to the adapter without the declaration: Karrio refuses an international dutiable parcel.
    const { adapter, context } = carrierCall(t.app, carrierRow(carrierId));
    const other = await createShipment(carrierId, { parties: [receiverParty({ countryCode: 'NO', postalCode: '0154', city: 'Oslo' })] });
    const request = bookingRequest(loadShipmentRecord(t.app.db, orgId, other.id), adapter, context.config);
    const failure = await adapter.book(context, request).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(CarrierFailure);
    expect(JSON.stringify((failure as CarrierFailure).errors)).toContain('customs details with at least one commodity are required');
  });
});
