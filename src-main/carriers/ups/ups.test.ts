import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { receiverParty, senderAddressBody, startTestServer, type TestServer } from '../../testing/harness';
import { carriers, shipments } from '../../db/schema';
import { carrierCall } from '../../domain/carriers/carrierCalls';
import { bookedShipmentOf } from '../../domain/shipments/bookedShipment';
import type { BookingRequest, CustomsDeclaration, PickupRequest } from '../adapter';
import { upsCall } from './auth';
import { upsPaths } from './contract';
import { FAKE_GIF_SIZE, startFakeUps, type FakeUps } from './fake';
import { decodeGif, encodeGif } from './gif';
import { shipmentRequest } from './shipmentRequest';

/**
 * The UPS adapter through the real send and cancel operations (tracking, pickups and paperless upload
 * through the platform's carrier call), against the local fake UPS on a random port reached through
 * `apiBaseUrl` (decisions §13). Every booking the fake made is counted, so a doubled booking cannot hide.
 */

let t: TestServer;
let fake: FakeUps;
let senderAddressId: string;
let carrierId: string;

const CALL_TIMEOUT_MS = 1500;
const orgPath = () => `/orgs/${t.org.orgId}`;

beforeAll(async () => {
  fake = await startFakeUps();
  t = await startTestServer({ carrierHttp: { timeoutMs: CALL_TIMEOUT_MS, backoffMs: 10, maxRetryAfterMs: 5000 } });
  t.app.db.$client.prepare("UPDATE orgs SET plan = 'unlimited', eori_number = 'DK12345678', vat_number = 'DK12345678' WHERE id = ?").run(t.org.orgId);
  const address = await t.request('POST', `${orgPath()}/sender-addresses`, {
    body: senderAddressBody({ name: 'Acme Lager', address1: 'Industrivej 12', zipcode: '8000', city: 'Aarhus', countryCode: 'DK', phone: '+45 86 12 34 56' }),
  });
  expect(address.status).toBe(201);
  senderAddressId = address.body.id;
  carrierId = await createCarrier('UPS');
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
      carrierSlug: 'ups',
      senderAddressId,
      config: { clientId: fake.clientId, clientSecret: fake.clientSecret, accountNumber: fake.accountNumber, testMode: true, apiBaseUrl: fake.url, ...config },
    },
  });
  if (res.status !== 201) throw new Error(`carrier: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

let referenceCounter = 0;
const danish = receiverParty();
const norwegian = receiverParty({
  name: 'Kari Nordmann',
  address1: 'Karl Johans gate 1',
  postalCode: '0154',
  city: 'Oslo',
  countryCode: 'NO',
  phone: '+4722334455',
});
const parcel = (weight: number, orderLines: object[] = []) => ({ weight, weightUnit: 'kg', dimensions: { length: 30, width: 20, height: 10 }, orderLines });
const teapot = { sku: 'TEA-1', quantity: 2, description: 'Cast iron teapot', unitPrice: 24.5, currency: 'EUR', countryOfOrigin: 'CN', tarrifNumber: '7323.91' };
const cups = { sku: 'CUP-6', quantity: 6, description: 'Porcelain cup', unitPrice: 4, currency: 'EUR', countryOfOrigin: 'DK', tarrifNumber: '691110' };

async function createShipment(options: { carrier?: string; productId?: string; parcels?: object[]; receiver?: object; extra?: object } = {}) {
  const res = await t.request('POST', `${orgPath()}/shipments`, {
    body: {
      type: 'outbound',
      reference: `UPS-TEST-${++referenceCounter}`,
      carrierSettings: { carrierId: options.carrier ?? carrierId, productId: options.productId ?? '11', services: [], additionalParameters: {} },
      parties: [options.receiver ?? danish],
      parcels: options.parcels ?? [parcel(2.5)],
      ...options.extra,
    },
  });
  if (res.status !== 201) throw new Error(`shipment: ${JSON.stringify(res.body)}`);
  return res.body as { id: string; reference: string; parcels: { id: string }[] };
}

const send = (id: string, body?: object) => t.request('POST', `${orgPath()}/shipments/${id}/send`, body ? { body } : {});
const get = async (id: string) => (await t.request('GET', `${orgPath()}/shipments/${id}`)).body;
const bookingsOf = (reference: string) => fake.state.shipments.filter((shipment) => shipment.reference === reference);
const lastBody = () => fake.state.bookingBodies.at(-1) as { ShipmentRequest: { Shipment: Record<string, any>; LabelSpecification: Record<string, any> } };

function callFor(id: string) {
  const row = t.app.db.select().from(carriers).where(eq(carriers.id, id)).get();
  if (!row) throw new Error(`no carrier ${id}`);
  return carrierCall(t.app, row);
}

function labelOf(shipment: { documents: { id: string; content: string; format: string; size: string }[] }, parcelId: string) {
  const row = t.app.db.$client.prepare("SELECT id FROM documents WHERE parcel_id = ? AND document_type = 'label'").get(parcelId) as { id: string } | undefined;
  return shipment.documents.find((document) => document.id === row?.id);
}

function carrierBookingOf(shipmentId: string): Record<string, unknown> {
  return t.app.db.select().from(shipments).where(eq(shipments.id, shipmentId)).get()!.carrierBooking ?? {};
}

/** An export the adapter is handed directly: the booking path's customs helper is not needed for it. */
function exportRequest(customs: Partial<CustomsDeclaration> = {}): BookingRequest {
  const party = { attention: null, company: null, address2: null, email: null };
  return {
    shipmentId: 'shp_adapterlevel',
    reference: `UPS-DIRECT-${++referenceCounter}`,
    type: 'outbound',
    productId: '65',
    services: [],
    additionalParameters: {},
    sender: {
      ...party,
      name: 'Acme Lager',
      company: 'Acme ApS',
      address1: 'Industrivej 12',
      postalCode: '8000',
      city: 'Aarhus',
      countryCode: 'DK',
      phone: '+4586123456',
    },
    receiver: { ...party, name: 'Kari Nordmann', address1: 'Karl Johans gate 1', postalCode: '0154', city: 'Oslo', countryCode: 'NO', phone: '+4722334455' },
    otherParties: [],
    parcels: [{ parcelId: 'prc_one', weightKg: 1.2, length: 20, width: 15, height: 10 }],
    servicePointId: null,
    notify: { phone: false, email: false },
    pickup: null,
    termOfTrade: 'DAP',
    label: { format: 'zpl', size: '100X150' },
    customs: {
      exportReason: 'sale',
      invoiceNumber: 'INV-UPS-DIRECT',
      invoiceDate: '2026-11-27',
      invoiceKind: 'commercial',
      currency: 'EUR',
      totalValue: 49,
      exporter: { eoriNumber: 'DK12345678', vatNumber: null },
      lines: [{ parcelId: 'prc_one', ...teapot, unitWeightKg: 0.6 }],
      invoice: null,
      ...customs,
    },
  };
}

async function invoicePdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.addPage([595.28, 841.89]).drawText('Commercial invoice INV-UPS-DIRECT');
  return Buffer.from(await pdf.save());
}

describe('UPS booking', () => {
  it('books a domestic parcel: GIF label on a PDF page of its physical size, the GIF kept, the reference sent, secrets out of the logs', async () => {
    const shipment = await createShipment();
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    const [booked] = bookingsOf(shipment.reference);
    const pkg = booked!.packages[0]!;
    expect(res.body.status).toBe('dispatched');
    expect(res.body.tracking).toMatchObject({ number: pkg.trackingNumber, url: `https://www.ups.com/track?tracknum=${pkg.trackingNumber}`, status: 'pending' });
    expect(res.body.parcels[0]).toMatchObject({ trackingNumber: pkg.trackingNumber });

    const label = labelOf(res.body, shipment.parcels[0]!.id)!;
    expect(label).toMatchObject({ documentType: 'label', format: 'pdf', size: '100X150' });
    const pdf = await PDFDocument.load(Buffer.from(label.content, 'base64'));
    expect(pdf.getPageCount()).toBe(1);
    // 1200 × 800 pixels at 200 dpi lying on its side: a portrait page of 4 × 6 in, i.e. 288 × 432 points.
    const mediaBox = pdf.getPage(0).getMediaBox();
    expect(mediaBox).toEqual({ x: 0, y: 0, width: (FAKE_GIF_SIZE.height / 200) * 72, height: (FAKE_GIF_SIZE.width / 200) * 72 });
    expect(carrierBookingOf(shipment.id)).toEqual({
      shipmentIdentificationNumber: pkg.trackingNumber,
      trackingNumbers: [pkg.trackingNumber],
      gifLabels: { [pkg.trackingNumber]: pkg.label },
    });

    const body = lastBody().ShipmentRequest;
    expect(body.Shipment).toMatchObject({
      Shipper: { Name: 'Acme Lager', ShipperNumber: fake.accountNumber, Phone: { Number: '4586123456' }, Address: { PostalCode: '8000', CountryCode: 'DK' } },
      ShipTo: {
        Name: 'Jens Hansen',
        Address: { AddressLine: ['Nørregade 1'], City: 'København K', PostalCode: '1165', CountryCode: 'DK', ResidentialAddressIndicator: '' },
      },
      PaymentInformation: { ShipmentCharge: [{ Type: '01', BillShipper: { AccountNumber: fake.accountNumber } }] },
      ReferenceNumber: [{ Value: shipment.reference }],
      Service: { Code: '11' },
      Package: [
        {
          Packaging: { Code: '02' },
          Dimensions: { UnitOfMeasurement: { Code: 'CM' }, Length: '30', Width: '20', Height: '10' },
          PackageWeight: { UnitOfMeasurement: { Code: 'KGS' }, Weight: '2.5' },
        },
      ],
    });
    expect(body.Shipment.ShipmentServiceOptions).toBeUndefined();
    expect(body.LabelSpecification).toEqual({ LabelImageFormat: { Code: 'GIF' }, HTTPUserAgent: 'Mozilla/4.5', LabelStockSize: { Height: '6', Width: '4' } });

    const logs = JSON.stringify(res.body.logs);
    expect(res.body.logs.map((log: { request: { operation: string } }) => log.request.operation)).toEqual(expect.arrayContaining(['token', 'book']));
    expect(logs).not.toContain(fake.clientSecret);
    expect(logs).not.toContain(Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64'));
    expect(fake.state.issuedTokens.length).toBeGreaterThan(0);
    for (const token of fake.state.issuedTokens) expect(logs).not.toContain(token);
  });

  it('books several parcels in ZPL: the ZPL stored as UPS sent it, one 1Z number per parcel', async () => {
    const zplCarrier = await createCarrier('UPS ZPL', { labelFormat: 'zpl', labelSize: '100X192' });
    const shipment = await createShipment({ carrier: zplCarrier, productId: '65', parcels: [parcel(1), parcel(4.25), parcel(12)] });
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    expect(lastBody().ShipmentRequest.LabelSpecification).toEqual({ LabelImageFormat: { Code: 'ZPL' }, LabelStockSize: { Height: '8', Width: '4' } });
    expect(lastBody().ShipmentRequest.Shipment.Package.map((pkg: { PackageWeight: { Weight: string } }) => pkg.PackageWeight.Weight)).toEqual([
      '1',
      '4.3',
      '12',
    ]);
    const [booked] = bookingsOf(shipment.reference);
    for (const [index, ours] of shipment.parcels.entries()) {
      const theirs = booked!.packages[index]!;
      const document = labelOf(res.body, ours.id)!;
      expect(document).toMatchObject({ format: 'zpl', size: '100X192' });
      expect(document.content).toBe(theirs.label);
      expect(res.body.parcels[index]).toMatchObject({ id: ours.id, trackingNumber: theirs.trackingNumber });
    }
    expect(new Set(booked!.packages.map((pkg) => pkg.trackingNumber)).size).toBe(3);
    expect(carrierBookingOf(shipment.id)).not.toHaveProperty('gifLabels');
  });

  it('books an export with its customs lines as InternationalForms, which the fake checks like UPS', async () => {
    const shipment = await createShipment({
      productId: '65',
      receiver: norwegian,
      parcels: [parcel(2, [teapot]), parcel(1, [cups, { ...teapot, quantity: 1 }])],
    });
    t.app.db.$client
      .prepare('UPDATE parcel_order_lines SET unit_weight_kg = CASE sku WHEN ? THEN 0.6 ELSE 0.15 END WHERE sku IN (?, ?)')
      .run('TEA-1', 'TEA-1', 'CUP-6');
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    expect(bookingsOf(shipment.reference)).toHaveLength(1);
    const body = lastBody().ShipmentRequest.Shipment;
    expect(body.Description).toBe('Cast iron teapot, Porcelain cup');
    expect(body.ShipTo).toMatchObject({ AttentionName: 'Kari Nordmann', Phone: { Number: '4722334455' } });
    expect(body.GlobalTaxInformation).toEqual({
      AgentTaxIdentificationNumber: [
        {
          AgentRole: '20',
          TaxIdentificationNumber: [
            {
              IdentificationNumber: 'DK12345678',
              IDNumberTypeCode: '0002',
              IDNumberPurposeCode: '02',
              IDNumberCustomerRole: '06',
              IDNumberEncryptionIndicator: '0',
              IDNumberIssuingCntryCd: 'DK',
            },
            {
              IdentificationNumber: 'DK12345678',
              IDNumberTypeCode: '1002',
              IDNumberPurposeCode: '01',
              IDNumberCustomerRole: '06',
              IDNumberEncryptionIndicator: '0',
              IDNumberIssuingCntryCd: 'DK',
            },
          ],
        },
      ],
    });
    const forms = body.ShipmentServiceOptions.InternationalForms;
    expect(forms).toMatchObject({
      FormType: ['01'],
      InvoiceNumber: `INV-${shipment.reference}`,
      InvoiceDate: expect.stringMatching(/^\d{8}$/),
      PurchaseOrderNumber: shipment.reference,
      TermsOfShipment: 'DAP',
      ReasonForExport: 'SALE',
      CurrencyCode: 'EUR',
    });
    // The teapots of both parcels are one invoice line of three.
    expect(forms.Product).toEqual([
      {
        Description: ['Cast iron teapot'],
        Unit: { Number: '3', UnitOfMeasurement: { Code: 'PCS' }, Value: '24.5' },
        CommodityCode: '732391',
        PartNumber: 'TEA-1',
        OriginCountryCode: 'CN',
        ProductWeight: { UnitOfMeasurement: { Code: 'KGS' }, Weight: '1.8' },
      },
      {
        Description: ['Porcelain cup'],
        Unit: { Number: '6', UnitOfMeasurement: { Code: 'PCS' }, Value: '4' },
        CommodityCode: '691110',
        PartNumber: 'CUP-6',
        OriginCountryCode: 'DK',
        ProductWeight: { UnitOfMeasurement: { Code: 'KGS' }, Weight: '0.9' },
      },
    ]);
  });

  it('refuses, as UPS does, an export without declared goods or without commodity codes', async () => {
    const { adapter, context } = callFor(carrierId);
    const before = fake.state.bookingsMade;
    const withoutForms = shipmentRequest(context.config, { ...exportRequest(), customs: null }, null);
    const answer = await upsCall(context, { operation: 'book', method: 'POST', path: upsPaths.ship, json: withoutForms, idempotent: false });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({
      response: { errors: [{ code: '120501', message: 'InternationalForms are required for this shipment: the goods must be declared for customs' }] },
    });

    const withoutCode = exportRequest({ lines: [{ parcelId: 'prc_one', ...teapot, tarrifNumber: '', unitWeightKg: 0.6 }] });
    await expect(adapter.book(context, withoutCode)).rejects.toMatchObject({
      kind: 'refused',
      errors: [{ code: '120540', message: 'Product 1: a commodity code (HS code) is required' }],
    });
    expect(fake.state.bookingsMade).toBe(before);
  });

  it('describes the goods on a shipment within the EU between countries, as UPS wants for all but UPS Standard', async () => {
    const german = receiverParty({
      name: 'Tim Test',
      address1: 'Testallee 5',
      postalCode: '65760',
      city: 'Eschborn',
      countryCode: 'DE',
      phone: '+49612345678',
    });
    const saver = await createShipment({
      productId: '65',
      receiver: german,
      extra: { carrierSettings: { carrierId, productId: '65', services: [], additionalParameters: { goodsDescription: 'Books' } } },
    });
    expect((await send(saver.id)).status).toBe(200);
    expect(lastBody().ShipmentRequest.Shipment).toMatchObject({
      Description: 'Books',
      ShipTo: { AttentionName: 'Tim Test', Phone: { Number: '49612345678' } },
    });
    expect(lastBody().ShipmentRequest.Shipment).not.toHaveProperty('ShipmentServiceOptions');
    const domestic = await createShipment();
    expect((await send(domestic.id)).status).toBe(200);
    expect(lastBody().ShipmentRequest.Shipment).not.toHaveProperty('Description');

    // Without it UPS refuses an express shipment between EU countries.
    const { context } = callFor(carrierId);
    const request = exportRequest();
    const body = shipmentRequest(
      context.config,
      { ...request, receiver: { ...request.receiver, postalCode: '65760', city: 'Eschborn', countryCode: 'DE' }, customs: null },
      null,
    );
    delete body.ShipmentRequest.Shipment.Description;
    const answer = await upsCall(context, { operation: 'book', method: 'POST', path: upsPaths.ship, json: body, idempotent: false });
    expect(answer.json).toEqual({ response: { errors: [{ code: '120031', message: 'Description of goods is required for an international shipment' }] } });
  });

  it('books a return with the warehouse as the shipper that pays and the customer as where it ships from', async () => {
    const { adapter, context } = callFor(carrierId);
    const outbound = exportRequest();
    const customs = { ...outbound.customs!, exportReason: 'return' as const, exporter: { eoriNumber: 'DK12345678', vatNumber: 'DK12345678' } };
    await adapter.book(context, { ...outbound, type: 'inbound', customs, sender: outbound.receiver, receiver: outbound.sender });
    const body = lastBody().ShipmentRequest.Shipment;
    expect(body).toMatchObject({
      Shipper: { Name: 'Acme ApS', ShipperNumber: fake.accountNumber, Address: { CountryCode: 'DK' } },
      ShipFrom: { Name: 'Kari Nordmann', Address: { City: 'Oslo', CountryCode: 'NO', ResidentialAddressIndicator: '' } },
      ShipTo: { Name: 'Acme ApS', Address: { City: 'Aarhus', CountryCode: 'DK' } },
      ShipmentServiceOptions: { InternationalForms: { ReasonForExport: 'RETURN' } },
    });
    // Coming in, the organization is the importer: the consignee's company tax IDs, the EORI by its purpose.
    expect(body.GlobalTaxInformation.AgentTaxIdentificationNumber).toEqual([
      {
        AgentRole: '30',
        TaxIdentificationNumber: [
          {
            IdentificationNumber: 'DK12345678',
            IDNumberTypeCode: '1002',
            IDNumberPurposeCode: '02',
            IDNumberCustomerRole: '05',
            IDNumberEncryptionIndicator: '0',
            IDNumberIssuingCntryCd: 'DK',
          },
          {
            IdentificationNumber: 'DK12345678',
            IDNumberTypeCode: '1002',
            IDNumberPurposeCode: '01',
            IDNumberCustomerRole: '05',
            IDNumberEncryptionIndicator: '0',
            IDNumberIssuingCntryCd: 'DK',
          },
        ],
      },
    ]);
  });

  it('asks UPS to e-mail the receiver when the shipping rule asks for a notice; no e-mail address, no notice', async () => {
    const { adapter, context } = callFor(carrierId);
    const request = exportRequest();
    await adapter.book(context, { ...request, notify: { phone: false, email: true }, receiver: { ...request.receiver, email: 'kari@example.no' } });
    const email = { EMailAddress: ['kari@example.no'] };
    expect(lastBody().ShipmentRequest.Shipment.ShipmentServiceOptions.Notification).toEqual([
      { NotificationCode: '6', EMail: email },
      { NotificationCode: '8', EMail: email },
    ]);
    await adapter.book(context, { ...request, notify: { phone: false, email: true } });
    expect(lastBody().ShipmentRequest.Shipment.ShipmentServiceOptions).not.toHaveProperty('Notification');
  });

  it('uploads the invoice through Paperless first and references its DocumentID as a user-created form', async () => {
    const paperless = callFor(await createCarrier('UPS paperless', { paperlessInvoice: true }));
    expect(paperless.adapter.paperlessInvoice!(paperless.context.config)).toBe(true);
    const content = await invoicePdf();
    const request = exportRequest({ invoice: { documentType: 'commercial_invoice', content } });
    const uploadsBefore = fake.state.counts.paperlessUpload;
    const result = await paperless.adapter.book(paperless.context, request);
    expect(fake.state.counts.paperlessUpload).toBe(uploadsBefore + 1);
    const documentId = result.booking.paperlessDocumentId as string;
    expect(documentId).toHaveLength(26);
    expect(fake.state.documents.get(documentId)).toMatchObject({
      shipperNumber: fake.accountNumber,
      fileName: 'INV-UPS-DIRECT.pdf',
      documentType: '002',
      content,
    });
    expect(lastBody().ShipmentRequest.Shipment.ShipmentServiceOptions.InternationalForms).toMatchObject({
      FormType: ['07'],
      UserCreatedForm: { DocumentID: [documentId] },
      InvoiceNumber: 'INV-UPS-DIRECT',
    });
    expect(result.labels).toEqual([{ parcelId: 'prc_one', format: 'zpl', size: '100X150', content: expect.any(Buffer) }]);

    // Without the account's paperless switch the invoice stays on paper and UPS makes its own form.
    const plain = callFor(carrierId);
    const onPaper = await plain.adapter.book(plain.context, exportRequest({ invoice: { documentType: 'commercial_invoice', content } }));
    expect(onPaper.booking).not.toHaveProperty('paperlessDocumentId');
    expect(fake.state.counts.paperlessUpload).toBe(uploadsBefore + 1);
    expect(lastBody().ShipmentRequest.Shipment.ShipmentServiceOptions.InternationalForms.FormType).toEqual(['01']);

    // A DocumentID UPS does not have is refused.
    const unknown = shipmentRequest(plain.context.config, exportRequest(), 'X'.repeat(26));
    const answer = await upsCall(plain.context, { operation: 'book', method: 'POST', path: upsPaths.ship, json: unknown, idempotent: false });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.json)).toContain(`Document ${'X'.repeat(26)} was not found in Forms History`);
  });

  it('through send: the invoice made before the call is the one uploaded to UPS and the one kept with the shipment', async () => {
    const paperless = await createCarrier('UPS paperless via send', { paperlessInvoice: true });
    const shipment = await createShipment({ carrier: paperless, productId: '65', receiver: norwegian, parcels: [parcel(2, [teapot])] });
    t.app.db.$client.prepare("UPDATE parcel_order_lines SET unit_weight_kg = 0.6 WHERE sku = 'TEA-1'").run();
    const uploadsBefore = fake.state.counts.paperlessUpload;
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    expect(fake.state.counts.paperlessUpload).toBe(uploadsBefore + 1);
    const forms = lastBody().ShipmentRequest.Shipment.ShipmentServiceOptions.InternationalForms;
    expect(forms.FormType).toEqual(['07']);
    const uploaded = fake.state.documents.get(forms.UserCreatedForm.DocumentID[0]);
    const stored = t.app.db.$client
      .prepare("SELECT content FROM documents WHERE shipment_id = ? AND document_type = 'commercial_invoice'")
      .all(shipment.id) as { content: Buffer }[];
    // Made once: the same bytes went to UPS and are the shipment's document.
    expect(stored).toHaveLength(1);
    expect(uploaded?.content.equals(stored[0]!.content)).toBe(true);
  });
});

describe('UPS refusals and failures', () => {
  it('credentials refused: 422 CARRIER_AUTH_FAILED with what UPS said, nothing booked', async () => {
    const wrongSecret = await createCarrier('UPS wrong secret', { clientSecret: 'not-the-secret' });
    const shipment = await createShipment({ carrier: wrongSecret });
    const before = fake.state.counts.book;
    const res = await send(shipment.id);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CARRIER_AUTH_FAILED');
    expect(res.body.errors).toContainEqual({ code: '10401', message: 'ClientId is Invalid' });
    expect(fake.state.counts.book).toBe(before);
    expect((await get(shipment.id)).status).toBe('error');
  });

  it("a refusal: 422 CARRIER_ERROR with UPS's code and words and a plain sentence, nothing booked", async () => {
    const shipment = await createShipment({ receiver: { ...danish, postalCode: '11650' } });
    const res = await send(shipment.id);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CARRIER_ERROR');
    expect(res.body.errors).toEqual([{ code: '120208', message: 'Invalid ShipTo postal code' }]);
    expect(res.body.message).toContain("UPS does not know the receiver's postal code");
    expect(bookingsOf(shipment.reference)).toHaveLength(0);
  });

  it('a 5xx while booking leaves the outcome unknown; the next send asks UPS by the reference, finds nothing and books once', async () => {
    const shipment = await createShipment();
    fake.switches.add('book', { kind: 'serverError', status: 503 });
    const first = await send(shipment.id);
    expect(first.status).toBe(422);
    expect(first.body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    expect(bookingsOf(shipment.reference)).toHaveLength(0);

    const lookupsBefore = fake.state.counts.labelRecovery;
    const second = await send(shipment.id);
    expect(second.status).toBe(200);
    expect(fake.state.counts.labelRecovery).toBe(lookupsBefore + 1);
    expect(bookingsOf(shipment.reference)).toHaveLength(1);
  });

  it('a timeout after UPS booked: CARRIER_OUTCOME_UNKNOWN, then Label Recovery finds that booking and its labels, nothing booked twice', async () => {
    const shipment = await createShipment({ parcels: [parcel(2), parcel(3)] });
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
    expect(second.body.tracking.number).toBe(booked!.packages[0]!.trackingNumber);
    for (const [index, ours] of shipment.parcels.entries()) {
      expect(second.body.parcels[index]).toMatchObject({ id: ours.id, trackingNumber: booked!.packages[index]!.trackingNumber });
      expect(labelOf(second.body, ours.id)).toMatchObject({ format: 'pdf', size: '100X150' });
    }
    expect(carrierBookingOf(shipment.id)).toMatchObject({
      foundByReference: true,
      gifLabels: { [booked!.packages[1]!.trackingNumber]: booked!.packages[1]!.label },
    });
    expect(second.body.activities.at(-1).description).toContain('nothing booked twice');
  });

  it('booked, then the connection dropped: unknown; a lookup that fails leaves it unknown rather than booking again', async () => {
    const shipment = await createShipment();
    fake.switches.add('book', { kind: 'dropAfterBooking' });
    expect((await send(shipment.id)).body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    expect(bookingsOf(shipment.reference)).toHaveLength(1);

    fake.switches.add('labelRecovery', { kind: 'serverError' }, 5);
    const unanswered = await send(shipment.id);
    expect(unanswered.status).toBe(422);
    expect(unanswered.body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    expect(bookingsOf(shipment.reference)).toHaveLength(1);

    fake.switches.clear();
    const found = await send(shipment.id);
    expect(found.status).toBe(200);
    expect(bookingsOf(shipment.reference)).toHaveLength(1);
    expect(found.body.tracking.number).toBe(bookingsOf(shipment.reference)[0]!.shipmentId);
  });

  it('a label image that cannot be read after UPS booked leaves the outcome unknown; with ZPL the next send fetches that booking', async () => {
    const gifCarrier = await createCarrier('UPS broken labels');
    const shipment = await createShipment({ carrier: gifCarrier });
    fake.switches.add('book', { kind: 'unreadableLabel' });
    const first = await send(shipment.id);
    expect(first.status).toBe(422);
    expect(first.body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    expect(JSON.stringify(first.body.errors)).toContain("label image could not be read (Not a GIF image): switch the carrier's label format to ZPL");
    expect(bookingsOf(shipment.reference)).toHaveLength(1);

    const config = {
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      accountNumber: fake.accountNumber,
      testMode: true,
      apiBaseUrl: fake.url,
      labelFormat: 'zpl',
    };
    expect((await t.request('PATCH', `${orgPath()}/carriers/${gifCarrier}`, { body: { config } })).status).toBe(200);
    const second = await send(shipment.id);
    expect(second.status).toBe(200);
    expect(bookingsOf(shipment.reference)).toHaveLength(1);
    expect(labelOf(second.body, shipment.parcels[0]!.id)).toMatchObject({ format: 'zpl' });
  });

  it('a reference UPS holds under several shipments is not guessed at: the outcome stays unknown', async () => {
    const { adapter, context } = callFor(carrierId);
    const request = exportRequest();
    await adapter.book(context, request);
    await adapter.book(context, request);
    await expect(adapter.findBooking!(context, request)).rejects.toMatchObject({
      kind: 'outcome_unknown',
      message: `UPS has 2 shipments under reference ${request.reference}: check them with UPS before sending again`,
    });
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

  it('keeps the token while it lasts, replaces one UPS no longer accepts, and renews one about to expire', async () => {
    const first = await createShipment();
    const second = await createShipment();
    expect((await send(first.id)).status).toBe(200);
    const tokensBefore = fake.state.counts.token;
    expect((await send(second.id)).status).toBe(200);
    expect(fake.state.counts.token).toBe(tokensBefore);

    fake.state.expireTokens();
    const third = await createShipment();
    expect((await send(third.id)).status).toBe(200);
    expect(fake.state.counts.token).toBe(tokensBefore + 1);
    expect(bookingsOf(third.reference)).toHaveLength(1);

    // A UPS whose tokens last four minutes: each is within the renewal margin, so every call gets a new one.
    const shortLived = await startFakeUps({ tokenLifetimeSeconds: 240 });
    try {
      const shortCarrier = callFor(await createCarrier('UPS short tokens', { apiBaseUrl: shortLived.url }));
      const read = () => upsCall(shortCarrier.context, { operation: 'read', method: 'GET', path: '/api/pickup/v2409/countries/DK', idempotent: true });
      expect((await read()).status).toBe(200);
      expect((await read()).status).toBe(200);
      expect(shortLived.state.counts).toMatchObject({ token: 2, countries: 2 });
    } finally {
      await shortLived.close();
    }
  });
});

describe('UPS after booking', () => {
  it('voids with UPS; a shipment UPS has picked up is cancelled here with what to do', async () => {
    const shipment = await createShipment({ parcels: [parcel(1), parcel(2)] });
    expect((await send(shipment.id)).status).toBe(200);
    const res = await t.request('POST', `${orgPath()}/shipments/${shipment.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
    expect(bookingsOf(shipment.reference)[0]!.voided).toBe(true);
    expect(fake.state.requests.at(-1)).toMatchObject({ operation: 'void', method: 'DELETE', status: 200 });

    const collected = await createShipment();
    const sent = await send(collected.id);
    fake.state.scan(sent.body.tracking.number, 'P');
    const late = await t.request('POST', `${orgPath()}/shipments/${collected.id}/cancel`);
    expect(late.status).toBe(200);
    expect(late.body.status).toBe('cancelled');
    expect(late.body.activities.at(-1).description).toContain('Void period has expired');
    expect(bookingsOf(collected.reference)[0]!.voided).toBe(false);
  });

  it("turns UPS's activities into the shipment's status, one number a call", async () => {
    const shipment = await createShipment({ parcels: [parcel(1), parcel(2)] });
    const sent = (await send(shipment.id)).body;
    const [first, second] = sent.parcels as { trackingNumber: string }[];
    const base = Math.ceil(Date.now() / 1000) * 1000;
    const hoursLater = (hours: number) => new Date(base + hours * 3_600_000);
    fake.state.scan(first!.trackingNumber, 'I', hoursLater(1), { city: 'Hamburg', countryCode: 'DE' });
    fake.state.scan(second!.trackingNumber, 'O', hoursLater(2));

    const rows = t.app.db
      .select()
      .from(shipments)
      .where(inArray(shipments.id, [shipment.id]))
      .all();
    const { adapter, context } = callFor(carrierId);
    expect(adapter.trackBatchSize).toBe(10);
    const before = fake.state.counts.track;
    let results = await adapter.track!(
      context,
      rows.map((row) => bookedShipmentOf(t.app.db, row)),
    );
    expect(fake.state.counts.track).toBe(before + 2);
    expect(results.get(shipment.id)?.status).toBe('in_transit');
    expect(results.get(shipment.id)?.events).toContainEqual({
      at: hoursLater(1).toISOString(),
      code: 'AR',
      description: `Arrived at Facility (parcel ${first!.trackingNumber})`,
      location: 'Hamburg, DE',
    });

    fake.state.scan(first!.trackingNumber, 'D', hoursLater(3));
    fake.state.scan(second!.trackingNumber, 'D', hoursLater(4));
    results = await adapter.track!(context, [bookedShipmentOf(t.app.db, rows[0]!)]);
    expect(results.get(shipment.id)?.status).toBe('delivered');
    expect(results.get(shipment.id)?.events[0]).toMatchObject({ at: hoursLater(4).toISOString(), code: 'KB' });

    fake.state.scan(first!.trackingNumber, 'X');
    expect((await adapter.track!(context, [bookedShipmentOf(t.app.db, rows[0]!)])).get(shipment.id)?.status).toBe('exception');
  });

  it('books a pickup (the PRN is the confirmation number) and cancels it by the PRN', async () => {
    const { adapter, context } = callFor(carrierId);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const request: PickupRequest = {
      pickupId: 'pck_01testpickup',
      date: tomorrow,
      from: '14:00',
      to: '17:30',
      address: { ...exportRequest().sender, attention: 'Dispatch desk' },
      parcelCount: 12,
      weightKg: 48.25,
      instruction: 'Ring at gate 3',
    };
    const booking = await adapter.bookPickup!(context, request);
    const stored = fake.state.pickups.find((pickup) => pickup.prn === booking.confirmationNumber)!;
    expect(stored.request.PickupCreationRequest).toMatchObject({
      Shipper: { Account: { AccountNumber: fake.accountNumber, AccountCountryCode: 'DK' } },
      PickupDateInfo: { ReadyTime: '1400', CloseTime: '1730', PickupDate: tomorrow.replaceAll('-', '') },
      PickupAddress: {
        CompanyName: 'Acme ApS',
        ContactName: 'Dispatch desk',
        AddressLine: ['Industrivej 12'],
        PostalCode: '8000',
        Phone: { Number: '4586123456' },
      },
      PickupPiece: [{ ServiceCode: '011', Quantity: '12', DestinationCountryCode: 'DK', ContainerCode: '01' }],
      TotalWeight: { Weight: '48.3', UnitOfMeasurement: 'KGS' },
      PaymentMethod: '01',
      SpecialInstruction: 'Ring at gate 3',
      ReferenceNumber: 'pck_01testpickup',
    });
    expect(booking.booking).toEqual({ prn: booking.confirmationNumber });

    await adapter.cancelPickup!(context, {
      pickupId: request.pickupId,
      date: tomorrow,
      confirmationNumber: booking.confirmationNumber,
      booking: booking.booking,
    });
    expect(stored.cancelled).toBe(true);
    await expect(
      adapter.cancelPickup!(context, { pickupId: request.pickupId, date: tomorrow, confirmationNumber: booking.confirmationNumber, booking: booking.booking }),
    ).rejects.toMatchObject({ kind: 'refused', errors: [{ code: '9510113' }] });

    // A window UPS cannot serve is UPS refusing it.
    await expect(adapter.bookPickup!(context, { ...request, from: '16:30', to: '17:00' })).rejects.toMatchObject({
      kind: 'refused',
      errors: [{ code: '9500565', message: 'The close time must be at least 60 minutes after the ready time' }],
    });
  });

  it('tests the connection with a token and a read; refused credentials are CARRIER_AUTH_FAILED', async () => {
    const { adapter, context } = callFor(carrierId);
    const tokensBefore = fake.state.counts.token;
    await expect(adapter.testConnection!(context)).resolves.toContain(`UPS accepted client ID ${fake.clientId} in its test system`);
    expect(fake.state.counts.token).toBe(tokensBefore + 1);
    expect(fake.state.requests.at(-1)).toMatchObject({ operation: 'countries', status: 200 });

    const wrong = callFor(await createCarrier('UPS wrong id', { clientId: 'someone-else' }));
    await expect(wrong.adapter.testConnection!(wrong.context)).rejects.toMatchObject({
      kind: 'auth',
      errors: [{ code: '10401', message: 'ClientId is Invalid' }],
    });
  });

  it('decodes GIF labels exactly (the image UPS sends is what the PDF shows)', () => {
    const width = 37;
    const height = 23;
    const indices = new Uint8Array(width * height).map((_, index) => (index * 7 + (index >> 3)) % 4);
    const palette: [number, number, number][] = [
      [255, 255, 255],
      [0, 0, 0],
      [200, 30, 30],
      [30, 30, 200],
    ];
    const image = decodeGif(encodeGif(width, height, palette, indices));
    expect(image).toMatchObject({ width, height });
    expect([...image.pixels]).toEqual([...indices].flatMap((index) => palette[index]!));
  });
});
