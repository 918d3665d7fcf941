import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carriers } from '../../db/schema';
import { eq } from 'drizzle-orm';
import { carrierCall } from '../../domain/carriers/carrierCalls';
import { adapterConfigOf } from '../../domain/carriers/carriers';
import { bookingRequest } from '../../domain/shipments/booking';
import { loadShipmentRecord } from '../../domain/shipments/repository';
import { senderAddressBody, startTestServer, type TestServer } from '../../testing/harness';
import { hasPoppler, pdfText } from '../../testing/shippingPapers';
import { CarrierFailure } from '../errors';
import { fakePostnordApiKey, fakePostnordCustomerNumber, startFakePostnord, type FakePostnord } from './fake';

/**
 * Denmark to Norway through PostNord is an export (issue 21): the booking carries the customs
 * declaration (the customs invoice for a parcel, a CN22/CN23 for the postal parcel), and the fake
 * PostNord refuses an export without one, as PostNord does.
 */

let t: TestServer;
let fake: FakePostnord;
let carrierId: string;
const shipmentsPath = () => `/orgs/${t.org.orgId}/shipments`;

const oslo = {
  type: 'receiver',
  name: 'Kari Nordmann',
  address1: 'Karl Johans gate 1',
  postalCode: '0154',
  city: 'Oslo',
  countryCode: 'NO',
  email: 'kari@example.no',
  phone: '+4791234567',
};

const lines = [
  { sku: 'MUG-01', quantity: 2, description: 'Stoneware mug', unitPrice: 120, currency: 'DKK', tarrifNumber: '6912.00', countryOfOrigin: 'DK', weight: 0.35 },
  { sku: 'TEA-02', quantity: 3, description: 'Green tea, 100 g', unitPrice: 30, currency: 'DKK', tarrifNumber: '0902.10', countryOfOrigin: 'CN', weight: 0.1 },
];

beforeAll(async () => {
  fake = await startFakePostnord();
  t = await startTestServer({ carrierHttp: { timeoutMs: 1500, backoffMs: 5 } });
  expect((await t.request('PUT', `/orgs/${t.org.orgId}`, { body: { eoriNumber: 'DK12345678', vatNumber: 'DK87654321' } })).status).toBe(200);
  const address = await t.request('POST', `/orgs/${t.org.orgId}/sender-addresses`, { body: senderAddressBody() });
  const carrier = await t.request('POST', `/orgs/${t.org.orgId}/carriers`, {
    body: {
      name: 'PostNord DK',
      carrierSlug: 'postnord',
      config: { apiKey: fakePostnordApiKey, customerNumber: fakePostnordCustomerNumber, issuerCode: 'Z11', apiBaseUrl: fake.url },
      senderAddressId: address.body.id,
    },
  });
  expect(carrier.status).toBe(201);
  carrierId = carrier.body.id;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

let counter = 0;
async function exportShipment(productId: string, orderLines: unknown[] = lines) {
  const res = await t.request('POST', shipmentsPath(), {
    body: {
      type: 'outbound',
      reference: `DK-NO-${++counter}`,
      termOfTrade: 'DDP',
      carrierSettings: { carrierId, productId },
      parties: [oslo],
      parcels: [{ weight: 1.5, weightUnit: 'kg', dimensions: { length: 30, width: 20, height: 10 }, orderLines }],
    },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body;
}

function lastBooking(): any {
  const calls = fake.state.requests.filter((request) => /\/labels\/(pdf|zpl)$/.test(request.path) && !request.path.includes('/ids/'));
  return calls[calls.length - 1]?.body;
}

describe('PostNord: Denmark to Norway', () => {
  it('books a parcel with the customs invoice the declaration makes', async () => {
    const shipment = await exportShipment('postnord_parcel');
    const sent = await t.request('POST', `${shipmentsPath()}/${shipment.id}/send`);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const invoice = lastBooking().shipment[0].customsInvoice;
    expect(invoice).toMatchObject({
      declarationType: 'invoiceExportDeclaration',
      type: 'COMMERCIAL',
      seller: { name: 'Main warehouse', countryCode: 'DK', vatNo: 'DK87654321', eoriNo: 'DK12345678', partyIdentification: { partyIdType: '160' } },
      buyer: { name: 'Kari Nordmann', countryCode: 'NO', postalCode: '0154' },
      invoice: { invoiceNo: `INV-${shipment.reference}`, reasonForExportation: '1000', termsOfSale: 'DDP' },
      totalNetWeight: { value: 1, unit: 'KGM' },
      totalGrossWeight: { value: 1.5, unit: 'KGM' },
      invoiceTotal: { amount: 330, currency: 'DKK' },
    });
    expect(invoice.detailedDescription).toEqual([
      {
        quantity: 2,
        hsTariffNumber: '691200',
        content: 'Stoneware mug',
        countryOfOrigin: 'DK',
        netWeight: { value: 0.7, unit: 'KGM' },
        itemValue: { amount: 240, currency: 'DKK' },
        articleNumber: 'MUG-01',
      },
      {
        quantity: 3,
        hsTariffNumber: '090210',
        content: 'Green tea, 100 g',
        countryOfOrigin: 'CN',
        netWeight: { value: 0.3, unit: 'KGM' },
        itemValue: { amount: 90, currency: 'DKK' },
        articleNumber: 'TEA-02',
      },
    ]);
    expect(sent.body.status).toBe('dispatched');
  });

  it('books the postal parcel with a CN22 and makes the same CN22 here', async () => {
    const shipment = await exportShipment('postnord_postpaket_utrikes');
    const sent = await t.request('POST', `${shipmentsPath()}/${shipment.id}/send`);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const booked = lastBooking().shipment[0];
    expect(booked.customsInvoice).toBeUndefined();
    expect(booked.customsDeclarationCN22).toMatchObject({
      EORIorPersonalIdNumber: 'DK12345678',
      categoryOfItem: { categoryType: ['SALE OF GOODS'] },
      totalValue: { amount: 330, currency: 'DKK' },
    });
    const form = sent.body.documents.find((doc: { documentType: string }) => doc.documentType === 'cn22');
    expect(form).toBeDefined();
    if (hasPoppler) {
      const text = pdfText(Buffer.from(form.content, 'base64'));
      expect(text).toMatch(/Stoneware mug\s+2\s+0\.700\s+240\.00\s+691200\s+DK/);
      expect(text).toMatch(/Green tea, 100 g\s+3\s+0\.300\s+90\.00\s+090210\s+CN/);
      expect(text).toMatch(/Total value\s+330\.00 DKK/);
    }
  });

  it('declares a postal parcel above 300 SDR on a CN23', async () => {
    const shipment = await exportShipment('postnord_postpaket_utrikes', [{ ...lines[0], unitPrice: 2000 }]);
    const sent = await t.request('POST', `${shipmentsPath()}/${shipment.id}/send`);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(lastBooking().shipment[0].customsDeclarationCN23).toMatchObject({ totalValue: { amount: 4000, currency: 'DKK' }, postalCharges: { amount: 0 } });
    expect(sent.body.documents.map((doc: { documentType: string }) => doc.documentType)).toContain('cn23');
  });

  it('the fake refuses an export booked without its customs declaration, as PostNord does', async () => {
    const shipment = await exportShipment('postnord_parcel');
    const record = loadShipmentRecord(t.app.db, t.org.orgId, shipment.id);
    const row = t.app.db.select().from(carriers).where(eq(carriers.id, carrierId)).get()!;
    const { adapter, context } = carrierCall(t.app, row, adapterConfigOf(t.app, row));
    const withoutCustoms = bookingRequest(record, adapter, adapterConfigOf(t.app, row));
    const failure = await adapter.book(context, withoutCustoms).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(CarrierFailure);
    expect(JSON.stringify((failure as CarrierFailure).errors)).toContain('requires customsInvoice');
  });
});
