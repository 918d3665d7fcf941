import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { receiverParty, senderAddressBody, startTestServer, type TestServer } from '../../testing/harness';
import { carriers, shipments } from '../../db/schema';
import { carrierCall } from '../../domain/carriers/carrierCalls';
import { bookedShipmentOf } from '../../domain/shipments/bookedShipment';
import { bookingRequest } from '../../domain/shipments/booking';
import { loadShipmentRecord } from '../../domain/shipments/repository';
import { customsDeclarationOf } from '../../domain/customs/declaration';
import type { BookingRequest } from '../adapter';
import { startFakeDhl, type FakeDhl } from './fake';

/**
 * The DHL Express adapter through the real send and cancel operations (tracking, pickups and the
 * paperless invoice through the platform's carrier call), against the local fake MyDHL API on a random
 * port reached through `apiBaseUrl` (decisions §13). Every booking the fake made is counted, so a
 * doubled booking cannot hide.
 */

let t: TestServer;
let fake: FakeDhl;
let senderAddressId: string;
let carrierId: string;

const CALL_TIMEOUT_MS = 1500;
const orgPath = () => `/orgs/${t.org.orgId}`;

beforeAll(async () => {
  fake = await startFakeDhl();
  t = await startTestServer({ carrierHttp: { timeoutMs: CALL_TIMEOUT_MS, backoffMs: 10, maxRetryAfterMs: 5000 } });
  t.app.db.$client.prepare("UPDATE orgs SET plan = 'unlimited', eori_number = 'DK12345678000', vat_number = 'DK12345678' WHERE id = ?").run(t.org.orgId);
  const address = await t.request('POST', `${orgPath()}/sender-addresses`, {
    body: senderAddressBody({ name: 'Acme Lager ApS', address1: 'Industrivej 12', zipcode: '8000', city: 'Aarhus', countryCode: 'DK', phone: '+4512345678' }),
  });
  expect(address.status).toBe(201);
  senderAddressId = address.body.id;
  carrierId = await createCarrier('DHL Express');
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.switches.clear();
  fake.state.paperlessAccount = true;
});

async function createCarrier(name: string, config: Record<string, unknown> = {}): Promise<string> {
  const res = await t.request('POST', `${orgPath()}/carriers`, {
    body: {
      name,
      carrierSlug: 'dhl_express',
      senderAddressId,
      config: { username: fake.username, password: fake.password, accountNumber: fake.accountNumber, testMode: true, apiBaseUrl: fake.url, ...config },
    },
  });
  if (res.status !== 201) throw new Error(`carrier: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

let referenceCounter = 0;
const danish = receiverParty({ name: 'Jens Hansen', address1: 'Nørregade 1', postalCode: '1165', city: 'København K', countryCode: 'DK' });
const norwegian = receiverParty({
  name: 'Kari Nordmann',
  attributes: [{ name: 'company', value: 'Nordmann AS' }],
  address1: 'Karl Johans gate 22',
  postalCode: '0159',
  city: 'Oslo',
  countryCode: 'NO',
  email: 'kari@example.no',
  phone: '+4722334455',
});
const american = receiverParty({
  name: 'Sam Smith',
  address1: '350 Fifth Avenue',
  postalCode: '10118',
  city: 'New York',
  countryCode: 'US',
  email: 'sam@example.com',
  phone: '+12125550100',
});

interface Line {
  sku: string;
  quantity: number;
  description?: string;
  unitPrice?: number;
  currency?: string;
  countryOfOrigin?: string;
  tarrifNumber?: string;
}
const mug: Line = {
  sku: 'MUG-1',
  quantity: 2,
  description: 'Stoneware mug',
  unitPrice: 120,
  currency: 'DKK',
  countryOfOrigin: 'DK',
  tarrifNumber: '6912.00.10',
};
const scarf: Line = { sku: 'SCARF-3', quantity: 1, description: 'Wool scarf', unitPrice: 450, currency: 'DKK', countryOfOrigin: 'PT', tarrifNumber: '611710' };
const parcel = (weight: number, orderLines: Line[] = []) => ({ weight, weightUnit: 'kg', dimensions: { length: 30, width: 20, height: 10 }, orderLines });

async function createShipment(
  options: {
    carrier?: string;
    productId?: string;
    services?: string[];
    parameters?: object;
    parcels?: ReturnType<typeof parcel>[];
    receiver?: object;
    extra?: object;
  } = {},
) {
  const res = await t.request('POST', `${orgPath()}/shipments`, {
    body: {
      type: 'outbound',
      reference: `DHL-TEST-${++referenceCounter}`,
      carrierSettings: {
        carrierId: options.carrier ?? carrierId,
        productId: options.productId ?? 'N',
        services: options.services ?? [],
        additionalParameters: options.parameters ?? {},
      },
      parties: [options.receiver ?? danish],
      parcels: options.parcels ?? [parcel(2.5)],
      ...options.extra,
    },
  });
  if (res.status !== 201) throw new Error(`shipment: ${JSON.stringify(res.body)}`);
  // The unit weight comes from the product catalogue, which these tests do not fill: set it on the lines.
  t.app.db.$client
    .prepare(
      "UPDATE parcel_order_lines SET unit_weight_kg = CASE sku WHEN 'MUG-1' THEN 0.4 ELSE 0.2 END WHERE parcel_id IN (SELECT id FROM parcels WHERE shipment_id = ?)",
    )
    .run(res.body.id);
  return res.body as { id: string; reference: string; parcels: { id: string }[] };
}

const exportShipment = (options: Parameters<typeof createShipment>[0] = {}) =>
  createShipment({ productId: 'P', receiver: norwegian, parcels: [parcel(1.5, [mug]), parcel(1, [scarf])], ...options });

const send = (id: string, body?: object) => t.request('POST', `${orgPath()}/shipments/${id}/send`, body ? { body } : {});
const get = async (id: string) => (await t.request('GET', `${orgPath()}/shipments/${id}`)).body;
const bookingsOf = (reference: string) => fake.state.shipments.filter((shipment) => shipment.references.includes(reference));
const lastBody = () => fake.state.bookingBodies.at(-1) as Record<string, any>;

function callFor(id: string) {
  const row = t.app.db.select().from(carriers).where(eq(carriers.id, id)).get();
  if (!row) throw new Error(`no carrier ${id}`);
  return carrierCall(t.app, row);
}

/** The shipment as the send would hand it to the adapter, customs declaration included. */
function requestFor(shipmentId: string, carrier: string): BookingRequest {
  const { adapter, context } = callFor(carrier);
  const record = loadShipmentRecord(t.app.db, t.org.orgId, shipmentId);
  return bookingRequest(record, adapter, context.config, { phone: false, email: false }, customsDeclarationOf(t.app.db, record, t.app.now()));
}

function labelOf(shipment: { documents: { id: string; content: string; format: string; size: string }[] }, parcelId: string) {
  const row = t.app.db.$client.prepare("SELECT id FROM documents WHERE parcel_id = ? AND document_type = 'label'").get(parcelId) as { id: string } | undefined;
  return shipment.documents.find((document) => document.id === row?.id);
}

async function track(shipmentIds: string[]) {
  const rows = t.app.db.select().from(shipments).where(inArray(shipments.id, shipmentIds)).all();
  const { adapter, context } = callFor(carrierId);
  return adapter.track!(
    context,
    rows.map((row) => bookedShipmentOf(t.app.db, row)),
  );
}

describe('DHL Express booking', () => {
  it('books a domestic shipment: the waybill, one piece id and one PDF label per parcel, the reference as customer reference', async () => {
    const shipment = await createShipment({ parcels: [parcel(2.5), parcel(4)] });
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    const [booked] = bookingsOf(shipment.reference);
    expect(booked).toBeDefined();
    expect(res.body.tracking.number).toBe(booked!.waybill);
    expect(res.body.tracking.url).toBe(`https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=${booked!.waybill}`);
    shipment.parcels.forEach((ours, index) => {
      expect(res.body.parcels[index]).toMatchObject({ id: ours.id, trackingNumber: booked!.pieces[index]!.trackingNumber });
      const label = labelOf(res.body, ours.id)!;
      expect(label).toMatchObject({ format: 'pdf', size: 'A6' });
      expect(label.content).toBe(booked!.labels[index]!.content);
      expect(Buffer.from(label.content, 'base64').subarray(0, 4).toString('latin1')).toBe('%PDF');
    });
    expect(fake.state.requests.find((request) => request.operation === 'book')?.path).toBe('/mydhlapi/test/shipments');

    const body = lastBody();
    expect(body).toMatchObject({
      productCode: 'N',
      pickup: { isRequested: false },
      accounts: [{ typeCode: 'shipper', number: fake.accountNumber }],
      customerReferences: [{ value: shipment.reference, typeCode: 'CU' }],
      outputImageProperties: {
        encodingFormat: 'pdf',
        imageOptions: [
          { typeCode: 'label', templateName: 'ECOM26_A6_002' },
          { typeCode: 'waybillDoc', isRequested: false },
        ],
      },
      customerDetails: {
        shipperDetails: { postalAddress: { postalCode: '8000', cityName: 'Aarhus', countryCode: 'DK', addressLine1: 'Industrivej 12' } },
        receiverDetails: {
          postalAddress: { postalCode: '1165', countryCode: 'DK' },
          contactInformation: { fullName: 'Jens Hansen', companyName: 'Jens Hansen' },
        },
      },
      content: { isCustomsDeclarable: false, incoterm: 'DAP', unitOfMeasurement: 'metric' },
    });
    expect(body.plannedShippingDateAndTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2} GMT\+00:00$/);
    expect(body.content.packages.map((pkg: { weight: number; referenceNumber: number }) => [pkg.weight, pkg.referenceNumber])).toEqual([
      [2.5, 1],
      [4, 2],
    ]);
    expect(body.content.exportDeclaration).toBeUndefined();
    expect(body.documentImages).toBeUndefined();

    const logs = JSON.stringify(res.body.logs);
    expect(logs).not.toContain(fake.password);
    expect(logs).not.toContain(Buffer.from(`${fake.username}:${fake.password}`).toString('base64'));
  });

  it('declares an export line by line: HS codes, quantities, prices, weights, origin, invoice and the exporter’s EORI and VAT', async () => {
    const shipment = await exportShipment();
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    expect(bookingsOf(shipment.reference)).toHaveLength(1);
    const body = lastBody();
    expect(body.productCode).toBe('P');
    expect(body.customerDetails.shipperDetails.registrationNumbers).toEqual([
      { typeCode: 'EOR', number: 'DK12345678000', issuerCountryCode: 'DK' },
      { typeCode: 'VAT', number: 'DK12345678', issuerCountryCode: 'DK' },
    ]);
    expect(body.customerDetails.receiverDetails).toMatchObject({
      typeCode: 'business',
      contactInformation: { companyName: 'Nordmann AS', fullName: 'Kari Nordmann' },
    });
    expect(body.content).toMatchObject({
      isCustomsDeclarable: true,
      declaredValue: 690,
      declaredValueCurrency: 'DKK',
      incoterm: 'DAP',
      description: 'Stoneware mug, Wool scarf',
    });
    expect(body.content.exportDeclaration).toEqual({
      lineItems: [
        {
          number: 1,
          description: 'Stoneware mug',
          price: 120,
          quantity: { value: 2, unitOfMeasurement: 'PCS' },
          commodityCodes: [{ typeCode: 'outbound', value: '69120010' }],
          exportReasonType: 'commercial_purpose_or_sale',
          manufacturerCountry: 'DK',
          weight: { netValue: 0.8, grossValue: 1.5 },
        },
        {
          number: 2,
          description: 'Wool scarf',
          price: 450,
          quantity: { value: 1, unitOfMeasurement: 'PCS' },
          commodityCodes: [{ typeCode: 'outbound', value: '611710' }],
          exportReasonType: 'commercial_purpose_or_sale',
          manufacturerCountry: 'PT',
          weight: { netValue: 0.2, grossValue: 1 },
        },
      ],
      invoice: { number: `INV-${shipment.reference}`, date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), totalNetWeight: 1, totalGrossWeight: 2.5 },
      exportReason: 'Sale',
      exportReasonType: 'commercial_purpose_or_sale',
      shipmentType: 'commercial',
    });
    // Paperless trade is off for this carrier: the invoice travels on paper.
    expect(body.valueAddedServices).toBeUndefined();
    expect(body.documentImages).toBeUndefined();
  });

  it('ships to the US with a gift declared as such, and to Norway with the sender paying duties (DDP)', async () => {
    const longStreet = 'Empire State Building, 350 Fifth Avenue, Floor 86, Suite 8600';
    const gift = await exportShipment({ receiver: { ...american, address1: longStreet }, parameters: { exportReason: 'gift' } });
    expect((await send(gift.id)).status).toBe(200);
    // DHL's address lines hold 45 characters: the rest goes on in the next line, between words.
    expect(lastBody().customerDetails.receiverDetails.postalAddress).toMatchObject({
      addressLine1: 'Empire State Building, 350 Fifth Avenue,',
      addressLine2: 'Floor 86, Suite 8600',
      countryCode: 'US',
    });
    expect(lastBody().content.exportDeclaration).toMatchObject({
      exportReasonType: 'gift',
      exportReason: 'Gift',
      shipmentType: 'personal',
      invoice: { number: `PRO-${gift.reference}` },
    });

    const ddp = await exportShipment({ services: ['dutiesTaxesPaid'], extra: { termOfTrade: 'DDP' } });
    expect((await send(ddp.id)).status).toBe(200);
    expect(lastBody()).toMatchObject({ valueAddedServices: [{ serviceCode: 'DD' }], content: { incoterm: 'DDP' } });
  });

  it('an export whose lines have no HS code is refused by DHL in its own words, nothing booked', async () => {
    const shipment = await exportShipment();
    const request = requestFor(shipment.id, carrierId);
    const withoutHs: BookingRequest = {
      ...request,
      customs: { ...request.customs!, lines: request.customs!.lines.map((line) => ({ ...line, tarrifNumber: '' })) },
    };
    const { adapter, context } = callFor(carrierId);
    await expect(adapter.book(context, withoutHs)).rejects.toMatchObject({
      kind: 'refused',
      errors: [{ code: '8044', message: 'Line item 1 has no outbound commodity code (HS code).' }],
    });
    expect(bookingsOf(shipment.reference)).toHaveLength(0);
  });

  it('asks for ZPL at the printer’s resolution and stores the ZPL as DHL sent it', async () => {
    const zplCarrier = await createCarrier('DHL ZPL', { labelFormat: 'zpl', printerDpi: '300' });
    const shipment = await createShipment({ carrier: zplCarrier, parcels: [parcel(2), parcel(3)] });
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    expect(lastBody().outputImageProperties).toMatchObject({
      encodingFormat: 'zpl',
      printerDPI: 300,
      imageOptions: [{ typeCode: 'label', templateName: 'ECOM26_A6_002' }, {}],
    });
    const [booked] = bookingsOf(shipment.reference);
    expect(res.body.documents).toHaveLength(2);
    for (const [index, ours] of shipment.parcels.entries()) {
      const document = labelOf(res.body, ours.id)!;
      expect(document).toMatchObject({ format: 'zpl', size: 'A6' });
      expect(document.content).toBe(booked!.labels[index]!.content);
      expect(Buffer.from(document.content, 'base64').toString('utf8')).toMatch(/^\^XA/);
    }
  });

  it('draws the PDF label on an A4 page when the carrier is set to A4', async () => {
    const a4Carrier = await createCarrier('DHL A4', { labelSize: 'A4' });
    const shipment = await createShipment({ carrier: a4Carrier });
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    expect(lastBody().outputImageProperties.imageOptions[0]).toEqual({ typeCode: 'label', templateName: 'ECOM26_84_A4_001' });
    const label = labelOf(res.body, shipment.parcels[0]!.id)!;
    expect(label).toMatchObject({ format: 'pdf', size: 'A4' });
    const page = (await PDFDocument.load(Buffer.from(label.content, 'base64'))).getPage(0);
    expect(Math.round(page.getWidth())).toBe(595);
  });

  it('sends the value-added services: insurance with its value, Saturday delivery; insurance without a value is refused here', async () => {
    const shipment = await createShipment({ services: ['insurance', 'saturdayDelivery'], parameters: { insuredValue: 2500, insuredCurrency: 'DKK' } });
    expect((await send(shipment.id)).status).toBe(200);
    expect(lastBody().valueAddedServices).toEqual([{ serviceCode: 'II', value: 2500, currency: 'DKK' }, { serviceCode: 'AA' }]);

    const unvalued = await createShipment({ services: ['insurance'] });
    const res = await send(unvalued.id);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ code: 'INSURED_VALUE_MISSING' })]);
    expect(bookingsOf(unvalued.reference)).toHaveLength(0);

    // Insurance of an export defaults to its declared value.
    const insuredExport = await exportShipment({ services: ['insurance'] });
    expect((await send(insuredExport.id)).status).toBe(200);
    expect(lastBody().valueAddedServices).toEqual([{ serviceCode: 'II', value: 690, currency: 'DKK' }]);
  });
});

describe('DHL Express paperless trade', () => {
  async function invoicePdf(): Promise<Buffer> {
    const pdf = await PDFDocument.create();
    pdf.addPage([595.28, 841.89]);
    pdf.setTitle('Commercial invoice');
    return Buffer.from(await pdf.save());
  }

  it('sends the invoice as a document image with WY when the account has paperless trade', async () => {
    const paperless = await createCarrier('DHL paperless', { paperlessTrade: true });
    const { adapter, context } = callFor(paperless);
    expect(adapter.paperlessInvoice!(context.config)).toBe(true);
    const shipment = await exportShipment({ carrier: paperless });
    const invoice = await invoicePdf();
    const request = requestFor(shipment.id, paperless);
    const result = await adapter.book(context, {
      ...request,
      customs: { ...request.customs!, invoice: { documentType: 'commercial_invoice', content: invoice } },
    });
    expect(result.booking).toMatchObject({ paperlessInvoice: true });
    const body = lastBody();
    expect(body.valueAddedServices).toEqual([{ serviceCode: 'WY' }]);
    expect(body.documentImages).toEqual([{ typeCode: 'INV', imageFormat: 'PDF', content: invoice.toString('base64') }]);
    expect(bookingsOf(shipment.reference)).toHaveLength(1);

    // A proforma invoice goes as DHL's proforma document type.
    const gift = await exportShipment({ carrier: paperless, parameters: { exportReason: 'gift' } });
    const giftRequest = requestFor(gift.id, paperless);
    await adapter.book(context, { ...giftRequest, customs: { ...giftRequest.customs!, invoice: { documentType: 'proforma_invoice', content: invoice } } });
    expect(lastBody().documentImages[0].typeCode).toBe('PNV');
  });

  it('through send: the invoice made before the call is the one DHL gets and the one kept with the shipment', async () => {
    const paperless = await createCarrier('DHL paperless via send', { paperlessTrade: true });
    const shipment = await exportShipment({ carrier: paperless });
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    const body = lastBody();
    expect(body.valueAddedServices).toEqual([{ serviceCode: 'WY' }]);
    expect(body.documentImages).toHaveLength(1);
    const stored = t.app.db.$client
      .prepare("SELECT content FROM documents WHERE shipment_id = ? AND document_type = 'commercial_invoice'")
      .all(shipment.id) as { content: Buffer }[];
    // Made once: the same bytes went to DHL and are the shipment's document.
    expect(stored).toHaveLength(1);
    expect(body.documentImages[0]).toEqual({ typeCode: 'INV', imageFormat: 'PDF', content: stored[0]!.content.toString('base64') });
    expect(bookingsOf(shipment.reference)).toHaveLength(1);
  });

  it('without paperless trade, or without an invoice made, nothing is sent electronically', async () => {
    const { adapter, context } = callFor(carrierId);
    expect(adapter.paperlessInvoice!(context.config)).toBe(false);
    const shipment = await exportShipment();
    const request = requestFor(shipment.id, carrierId);
    await adapter.book(context, { ...request, customs: { ...request.customs!, invoice: { documentType: 'commercial_invoice', content: await invoicePdf() } } });
    expect(lastBody().documentImages).toBeUndefined();
    expect(lastBody().valueAddedServices).toBeUndefined();

    const paperless = callFor(await createCarrier('DHL paperless, no invoice', { paperlessTrade: true }));
    const second = await exportShipment({ carrier: paperless.context.carrierId! });
    await paperless.adapter.book(paperless.context, requestFor(second.id, paperless.context.carrierId!));
    expect(lastBody().documentImages).toBeUndefined();
    expect(lastBody().valueAddedServices).toBeUndefined();
  });

  it('the fake refuses an image without WY, WY without an image, and WY on an account without paperless trade', async () => {
    const paperless = callFor(await createCarrier('DHL paperless 2', { paperlessTrade: true }));
    const shipment = await exportShipment({ carrier: paperless.context.carrierId! });
    const request = requestFor(shipment.id, paperless.context.carrierId!);
    const withInvoice = { ...request, customs: { ...request.customs!, invoice: { documentType: 'commercial_invoice' as const, content: await invoicePdf() } } };
    fake.state.paperlessAccount = false;
    await expect(paperless.adapter.book(paperless.context, withInvoice)).rejects.toMatchObject({ kind: 'refused', errors: [{ code: '7011' }] });
    fake.state.paperlessAccount = true;
    await paperless.adapter.book(paperless.context, withInvoice);
    const good = lastBody();

    const post = (body: object) =>
      fetch(`${fake.url}/mydhlapi/test/shipments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${fake.username}:${fake.password}`).toString('base64')}` },
        body: JSON.stringify(body),
      });
    const imageOnly = await post({ ...good, valueAddedServices: undefined });
    expect(imageOnly.status).toBe(400);
    expect(await imageOnly.json()).toMatchObject({ title: 'Bad request', status: '400', detail: expect.stringMatching(/^6021: /) });
    const wyOnly = await post({ ...good, documentImages: undefined });
    expect(wyOnly.status).toBe(400);
    expect(await wyOnly.json()).toMatchObject({ detail: expect.stringMatching(/^6020: /) });
    expect(bookingsOf(shipment.reference)).toHaveLength(1);
  });
});

describe('DHL Express refusals and failures', () => {
  it('the fake refuses as MyDHL does: no credentials, a wrong content type, an unknown key, a value outside an enum', async () => {
    const shipment = await createShipment();
    expect((await send(shipment.id)).status).toBe(200);
    const good = lastBody();
    const basic = `Basic ${Buffer.from(`${fake.username}:${fake.password}`).toString('base64')}`;
    const post = (body: string, headers: Record<string, string>) => fetch(`${fake.url}/mydhlapi/test/shipments`, { method: 'POST', headers, body });
    const before = fake.state.bookingsMade;

    const anonymous = await post(JSON.stringify(good), { 'content-type': 'application/json' });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ title: 'Unauthorized', detail: 'Invalid Credentials', status: '401' });
    expect((await post(JSON.stringify(good), { 'content-type': 'text/plain', authorization: basic })).status).toBe(415);
    const extraneous = await post(JSON.stringify({ ...good, shipmentId: 'x' }), { 'content-type': 'application/json', authorization: basic });
    expect(extraneous.status).toBe(422);
    expect(await extraneous.json()).toMatchObject({ title: 'Validation error', detail: '#/: extraneous key [shipmentId] is not permitted' });
    const badIncoterm = await post(JSON.stringify({ ...good, content: { ...good.content, incoterm: 'XYZ' } }), {
      'content-type': 'application/json',
      authorization: basic,
    });
    expect(badIncoterm.status).toBe(422);
    expect(((await badIncoterm.json()) as { detail: string }).detail).toMatch(/^#\/content\/incoterm: /);
    expect(fake.state.bookingsMade).toBe(before);
  });

  it('credentials refused: 422 CARRIER_AUTH_FAILED with what DHL said, nothing booked', async () => {
    const wrong = await createCarrier('DHL wrong password', { password: 'not-the-password' });
    const shipment = await createShipment({ carrier: wrong });
    const before = fake.state.bookingsMade;
    const res = await send(shipment.id);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CARRIER_AUTH_FAILED');
    expect(JSON.stringify(res.body)).toContain('Invalid Credentials');
    expect(fake.state.bookingsMade).toBe(before);
    expect((await get(shipment.id)).status).toBe('error');
  });

  it('a refusal: 422 CARRIER_ERROR with DHL’s error number and words, and a plain sentence', async () => {
    const shipment = await createShipment({ receiver: { ...danish, postalCode: '11650' } });
    const res = await send(shipment.id);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CARRIER_ERROR');
    expect(res.body.errors).toContainEqual({ code: '1001', message: 'The receiver postal code 11650 is not valid for the country DK.' });
    expect(res.body.message).toContain("does not know the receiver's postal code");
    expect(bookingsOf(shipment.reference)).toHaveLength(0);

    const wrongLane = await createShipment({ productId: 'N', receiver: norwegian, parcels: [parcel(1, [mug])] });
    const lane = await send(wrongLane.id);
    expect(lane.body.errors).toContainEqual({ code: '410138', message: 'The requested product N is not available for this origin and destination.' });
    expect(lane.body.message).toContain('does not offer this product');

    const noPhone = await createShipment({ receiver: { ...danish, phone: '' } });
    const phone = await send(noPhone.id);
    expect(phone.status).toBe(422);
    expect(phone.body.errors[0].message).toContain('/customerDetails/receiverDetails/contactInformation/phone');
    expect(phone.body.message).toContain("needs the receiver's phone number");
  });

  it('a timeout after DHL booked: CARRIER_OUTCOME_UNKNOWN; DHL cannot be asked, so a new send needs confirmRebook', async () => {
    const shipment = await createShipment();
    fake.switches.add('book', { kind: 'delay', ms: CALL_TIMEOUT_MS + 1000 });
    const first = await send(shipment.id);
    expect(first.status).toBe(422);
    expect(first.body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    expect(bookingsOf(shipment.reference)).toHaveLength(1);
    expect((await get(shipment.id)).status).toBe('error');

    const refused = await send(shipment.id);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    expect(bookingsOf(shipment.reference)).toHaveLength(1);

    const confirmed = await send(shipment.id, { confirmRebook: true });
    expect(confirmed.status).toBe(200);
    expect(bookingsOf(shipment.reference)).toHaveLength(2);
    expect(confirmed.body.tracking.number).toBe(bookingsOf(shipment.reference)[1]!.waybill);
  });

  it('booked, then the connection dropped, and a 5xx: both an unknown outcome, never sent twice by itself', async () => {
    const dropped = await createShipment();
    fake.switches.add('book', { kind: 'dropAfterBooking' });
    expect((await send(dropped.id)).body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    expect(bookingsOf(dropped.reference)).toHaveLength(1);

    const failed = await createShipment();
    const before = fake.state.counts.book;
    fake.switches.add('book', { kind: 'serverError', status: 500 });
    const res = await send(failed.id);
    expect(res.body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    expect(fake.state.counts.book).toBe(before + 1);
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
});

describe('DHL Express after booking', () => {
  it('cancel: DHL has no cancel call, so the shipment is cancelled here with what to do', async () => {
    const shipment = await createShipment();
    expect((await send(shipment.id)).status).toBe(200);
    const requestsBefore = fake.state.requests.length;
    const res = await t.request('POST', `${orgPath()}/shipments/${shipment.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
    expect(res.body.activities.at(-1).description).toContain('DHL does not charge for a shipment it never collects');
    expect(fake.state.requests.length).toBe(requestsBefore);
  });

  it('tracks several waybills in one call and turns DHL’s checkpoints into the status', async () => {
    const first = await createShipment({ parcels: [parcel(1), parcel(2)] });
    const second = await createShipment();
    const firstWaybill = (await send(first.id)).body.tracking.number as string;
    expect((await send(second.id)).status).toBe(200);
    const base = Math.ceil(Date.now() / 1000) * 1000;
    const hoursLater = (hours: number) => new Date(base + hours * 3_600_000);
    fake.state.scan(firstWaybill, 'PU', 'Shipment picked up', hoursLater(1), 'Aarhus - Denmark');
    fake.state.scan(firstWaybill, 'AF', 'Arrived at DHL Sort Facility', hoursLater(3), 'Copenhagen - Denmark');

    const callsBefore = fake.state.counts.track;
    let results = await track([first.id, second.id]);
    expect(fake.state.counts.track).toBe(callsBefore + 1);
    const query = new URLSearchParams(fake.state.requests.at(-1)!.query);
    expect(query.getAll('shipmentTrackingNumber')).toHaveLength(2);
    expect(query.get('trackingView')).toBe('all-checkpoints');
    expect(results.get(second.id)).toEqual({ status: 'pending', events: [] });
    expect(results.get(first.id)).toEqual({
      status: 'in_transit',
      events: [
        { at: hoursLater(3).toISOString(), code: 'AF', description: 'Arrived at DHL Sort Facility', location: 'Copenhagen - Denmark' },
        { at: hoursLater(1).toISOString(), code: 'PU', description: 'Shipment picked up', location: 'Aarhus - Denmark' },
      ],
    });

    fake.state.scan(firstWaybill, 'WC', 'With delivery courier', hoursLater(20));
    expect((await track([first.id])).get(first.id)?.status).toBe('out_for_delivery');
    fake.state.scan(firstWaybill, 'OK', 'Delivered', hoursLater(22));
    results = await track([first.id]);
    expect(results.get(first.id)?.status).toBe('delivered');
    expect(results.get(first.id)?.events[0]).toMatchObject({ code: 'OK', at: hoursLater(22).toISOString() });
  });

  it('a waybill DHL has no data for yet is unknown, not an error', async () => {
    const { adapter, context } = callFor(carrierId);
    const results = await adapter.track!(context, [
      { shipmentId: 'x', reference: 'r', trackingNumber: '9999999999', parcels: [], booking: {}, bookedAt: null },
    ]);
    expect(results.get('x')).toEqual({ status: 'unknown', events: [] });
  });

  it('books a pickup with its local ready and close time and cancels it with who and why', async () => {
    const { adapter, context } = callFor(carrierId);
    const address = {
      name: 'Acme Lager ApS',
      attention: 'Dispatch desk',
      company: null,
      address1: 'Industrivej 12',
      address2: null,
      postalCode: '8000',
      city: 'Aarhus',
      countryCode: 'DK',
      phone: '+4512345678',
      email: null,
    };
    const booked = await adapter.bookPickup!(context, {
      pickupId: 'pickup-1',
      date: '2026-12-01',
      from: '14:00',
      to: '17:30',
      address,
      parcelCount: 3,
      weightKg: 12,
      instruction: 'Ring at gate 2',
    });
    const stored = fake.state.pickups.at(-1)!;
    expect(booked.confirmationNumber).toBe(stored.dispatchConfirmationNumber);
    expect(booked.booking).toMatchObject({ dispatchConfirmationNumber: stored.dispatchConfirmationNumber, requestorName: 'Dispatch desk' });
    expect(stored.request).toMatchObject({
      plannedPickupDateAndTime: '2026-12-01T14:00:00 GMT+01:00',
      closeTime: '17:30',
      accounts: [{ typeCode: 'shipper', number: fake.accountNumber }],
      specialInstructions: [{ value: 'Ring at gate 2' }],
      customerDetails: { shipperDetails: { postalAddress: { postalCode: '8000', countryCode: 'DK' }, contactInformation: { companyName: 'Acme Lager ApS' } } },
    });
    expect(stored.request.shipmentDetails[0]!.packages).toEqual([{ weight: 4 }, { weight: 4 }, { weight: 4 }]);

    const pickup = { pickupId: 'pickup-1', date: '2026-12-01', confirmationNumber: booked.confirmationNumber, booking: booked.booking };
    await adapter.cancelPickup!(context, pickup);
    expect(stored.status).toBe('cancelled');
    expect(stored.cancelledBy).toEqual({ requestorName: 'Dispatch desk', reason: 'Pickup no longer needed' });
    // Again (an answer lost the first time): already cancelled is done.
    await expect(adapter.cancelPickup!(context, pickup)).resolves.toBeUndefined();
    await expect(adapter.cancelPickup!(context, { ...pickup, confirmationNumber: 'PRG000', booking: {} })).rejects.toMatchObject({
      kind: 'refused',
      errors: [{ message: 'Cancellation of booking was not successful. Requested Pickup was not found' }],
    });
  });

  it('a pickup DHL refuses is a refusal in its words', async () => {
    const { adapter, context } = callFor(carrierId);
    const address = {
      name: 'Acme',
      attention: null,
      company: null,
      address1: 'Industrivej 12',
      address2: null,
      postalCode: '8000',
      city: 'Aarhus',
      countryCode: 'DK',
      phone: '+4512345678',
      email: null,
    };
    await expect(
      adapter.bookPickup!(context, {
        pickupId: 'p2',
        date: '2026-12-01',
        from: '16:00',
        to: '15:00',
        address,
        parcelCount: null,
        weightKg: null,
        instruction: null,
      }),
    ).rejects.toMatchObject({ kind: 'refused', errors: [{ code: '8010' }] });
  });

  it('tests the connection with a read that books nothing; a wrong password is CARRIER_AUTH_FAILED', async () => {
    const { adapter, context } = callFor(carrierId);
    const bookingsBefore = fake.state.bookingsMade;
    await expect(adapter.testConnection!(context)).resolves.toContain(`DHL Express accepted username ${fake.username} in its test environment`);
    expect(fake.state.requests.at(-1)).toMatchObject({ operation: 'addressValidate', status: 200 });
    expect(fake.state.bookingsMade).toBe(bookingsBefore);

    const wrong = callFor(await createCarrier('DHL wrong user', { username: 'someone-else' }));
    await expect(wrong.adapter.testConnection!(wrong.context)).rejects.toMatchObject({ kind: 'auth', errors: [{ message: 'Invalid Credentials' }] });
    const res = await t.request('POST', `${orgPath()}/carriers/${wrong.context.carrierId}/test`);
    expect(res.body.ok).toBe(false);
  });

  it('an account number that is not digits is refused when the carrier is saved', async () => {
    const res = await t.request('POST', `${orgPath()}/carriers`, {
      body: { name: 'DHL bad account', carrierSlug: 'dhl_express', senderAddressId, config: { username: 'u', password: 'p', accountNumber: 'ABC-1' } },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('digits only');
  });
});
