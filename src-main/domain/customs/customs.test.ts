import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as registry from '../../carriers/registry';
import type { BookingRequest, CarrierAdapter } from '../../carriers/adapter';
import { receiverParty, senderAddressBody, shipmentBody, startTestServer, type TestServer } from '../../testing/harness';
import { hasPoppler, pdfPages, pdfText } from '../../testing/shippingPapers';
import { CN22_LIMIT_SDR, UNITS_PER_SDR, postalFormFor } from '../../carriers/postalForm';

// Two stand-ins built on `local`, so the booking path is the real one: a courier that takes the
// customs invoice electronically (paperless trade), and a postal operator whose product is postal.
const seen = vi.hoisted(() => ({ requests: [] as BookingRequest[] }));
vi.mock('../../carriers/registry', async (importOriginal) => {
  const original = await importOriginal<typeof registry>();
  const local = original.carrierAdapters[0] as CarrierAdapter;
  const recording: CarrierAdapter['book'] = async (context, request) => {
    seen.requests.push(request);
    return local.book(context, request);
  };
  const paperless: CarrierAdapter = {
    ...local,
    slug: 'test-paperless',
    describe: { ...local.describe, name: 'Paperless courier' },
    paperlessInvoice: () => true,
    book: recording,
  };
  const postal: CarrierAdapter = {
    ...local,
    slug: 'test-postal',
    describe: { ...local.describe, name: 'Postal operator' },
    products: (config, stored) => local.products(config, stored).map((product) => ({ ...product, postal: true })),
    book: recording,
  };
  return { carrierAdapters: [...original.carrierAdapters, paperless, postal] };
});

let t: TestServer;
const orgPath = () => `/orgs/${t.org.orgId}`;
const shipmentsPath = () => `${orgPath()}/shipments`;
const carriers: Record<'local' | 'paperless' | 'postal', string> = { local: '', paperless: '', postal: '' };
let senderAddressId = '';
let norwayAddressId = '';

const norway = receiverParty({ name: 'Kari Nordmann', address1: 'Karl Johans gate 1', postalCode: '0154', city: 'Oslo', countryCode: 'NO' });

/** A line with everything customs asks for. */
function customsLine(overrides: Record<string, unknown> = {}) {
  return {
    sku: 'MUG-01',
    quantity: 2,
    description: 'Stoneware mug',
    unitPrice: 120,
    currency: 'DKK',
    tarrifNumber: '6912.00',
    countryOfOrigin: 'DK',
    weight: 0.35,
    ...overrides,
  };
}

function exportBody(carrierId: string, lines: Record<string, unknown>[], overrides: Record<string, unknown> = {}) {
  return shipmentBody(carrierId, {
    senderAddressId,
    parties: [norway],
    parcels: [{ weight: 1.2, weightUnit: 'kg', dimensions: { length: 20, width: 15, height: 10 }, orderLines: lines }],
    ...overrides,
  });
}

async function create(body: Record<string, unknown>) {
  const res = await t.request('POST', shipmentsPath(), { body });
  if (res.status !== 201) throw new Error(`create: ${JSON.stringify(res.body)}`);
  return res.body;
}

const send = (id: string) => t.request('POST', `${shipmentsPath()}/${id}/send`);
const lastRequest = () => seen.requests[seen.requests.length - 1] as BookingRequest;
type Doc = { documentType: string; size: string; content: string };
const docsOf = (shipment: { documents: Doc[] }, type: string) => shipment.documents.filter((doc) => doc.documentType === type);
const bytes = (doc: Doc | undefined) => Buffer.from((doc as Doc).content, 'base64');

beforeAll(async () => {
  t = await startTestServer();
  t.app.db.$client.prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(t.org.orgId);
  const address = await t.request('POST', `${orgPath()}/sender-addresses`, { body: senderAddressBody() });
  senderAddressId = address.body.id;
  for (const [key, slug] of [
    ['local', 'local'],
    ['paperless', 'test-paperless'],
    ['postal', 'test-postal'],
  ] as const) {
    const carrier = await t.request('POST', `${orgPath()}/carriers`, { body: { name: `${key} carrier`, carrierSlug: slug, config: {}, senderAddressId } });
    if (carrier.status !== 201) throw new Error(JSON.stringify(carrier.body));
    carriers[key] = carrier.body.id;
  }
  // A sender address with its own export identifiers.
  const own = await t.request('POST', `${orgPath()}/sender-addresses`, {
    body: senderAddressBody({ name: 'Bonded store', customs: { eoriNumber: 'DK99999999', vatNumber: 'DK11112222', bondedWarehouse: 'B-7' } }),
  });
  expect(own.status).toBe(201);
  expect(own.body.customs).toEqual({ eoriNumber: 'DK99999999', vatNumber: 'DK11112222', bondedWarehouse: 'B-7' });
  norwayAddressId = own.body.id;
});
afterAll(async () => t.close());

describe('an export is checked complete before the carrier is called', () => {
  it('lists per line what customs needs, and the EORI number, as 422 SHIPMENT_INCOMPLETE; nothing changes', async () => {
    const shipment = await create(
      exportBody(carriers.local, [
        { sku: 'MUG-01', quantity: 2, description: 'Mug', unitPrice: 50, currency: 'DKK' },
        customLineWith({ tarrifNumber: '0902', currency: 'EUR' }),
      ]),
    );
    const before = seen.requests.length;
    const res = await send(shipment.id);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('SHIPMENT_INCOMPLETE');
    expect(res.body.details).toEqual([
      { path: 'parcels.0.orderLines.0.tarrifNumber', message: 'an HS code (tariff number, 6 to 10 digits) on line 1 (MUG-01) of parcel 1' },
      { path: 'parcels.0.orderLines.0.countryOfOrigin', message: 'a country of origin on line 1 (MUG-01) of parcel 1' },
      { path: 'parcels.0.orderLines.0.weight', message: 'a net weight per unit on line 1 (MUG-01) of parcel 1' },
      { path: 'parcels.0.orderLines.1.tarrifNumber', message: 'an HS code of 6 to 10 digits on line 2 (TEA-02) of parcel 1: "0902" is not one' },
      { path: 'parcels', message: 'one currency for every line of the customs declaration (the lines have DKK and EUR)' },
      {
        path: 'eoriNumber',
        message: "the exporter's EORI number (set it in the organization settings, or as eoriNumber in the sender address's customs)",
      },
    ]);
    // Plain words in the message too, never a field path.
    expect(res.body.message).toContain('a net weight per unit on line 1 (MUG-01) of parcel 1');
    expect(res.body.message).not.toContain('orderLines');
    const after = (await t.request('GET', `${shipmentsPath()}/${shipment.id}`)).body;
    expect(after.status).toBe('pending');
    expect(after.activities.map((activity: { action: string }) => activity.action)).toEqual(['created']);
    expect(seen.requests.length).toBe(before);
  });

  it('an export without any line is refused; the same shipment inside the EU is not', async () => {
    const empty = await create(exportBody(carriers.local, []));
    const res = await send(empty.id);
    expect(res.status).toBe(422);
    expect(res.body.details).toContainEqual({
      path: 'parcels',
      message: 'at least one order line saying what is in the parcels (customs declares every line of an export)',
    });
    const domestic = await create(exportBody(carriers.local, [], { parties: [receiverParty()] }));
    expect((await send(domestic.id)).status).toBe(200);
  });

  it('batch send lists the same for the export and sends the rest', async () => {
    const incomplete = await create(exportBody(carriers.local, [{ sku: 'MUG-01', quantity: 1 }]));
    const domestic = await create(shipmentBody(carriers.local, { senderAddressId }));
    const res = await t.request('POST', `${shipmentsPath()}/batch-send`, { body: { shipmentIds: [incomplete.id, domestic.id] } });
    expect(res.status).toBe(200);
    expect(res.body.summary).toEqual({ total: 2, sent: 1, failed: 1 });
    const failed = res.body.results.find((result: { shipmentId: string }) => result.shipmentId === incomplete.id);
    expect(failed).toMatchObject({ status: 'failed', code: 'SHIPMENT_INCOMPLETE' });
    expect(failed.message).toContain('a description of the goods on line 1 (MUG-01) of parcel 1');
  });
});

function customLineWith(overrides: Record<string, unknown>) {
  return customsLine({ sku: 'TEA-02', quantity: 3, description: 'Green tea, 100 g', unitPrice: 30, weight: 0.1, ...overrides });
}

describe('the declaration sent to the carrier', () => {
  it('takes the organization EORI and VAT numbers, and a sender address customs overrides both', async () => {
    expect((await t.request('PUT', orgPath(), { body: { eoriNumber: 'DK12345678', vatNumber: 'DK87654321' } })).status).toBe(200);
    const fromMain = await create(exportBody(carriers.paperless, [customsLine()]));
    expect((await send(fromMain.id)).status).toBe(200);
    expect(lastRequest().customs?.exporter).toEqual({ eoriNumber: 'DK12345678', vatNumber: 'DK87654321' });

    const fromBonded = await create(exportBody(carriers.paperless, [customsLine()], { senderAddressId: norwayAddressId }));
    expect((await send(fromBonded.id)).status).toBe(200);
    expect(lastRequest().customs?.exporter).toEqual({ eoriNumber: 'DK99999999', vatNumber: 'DK11112222' });
  });

  it('refuses an EORI number that is not one', async () => {
    const res = await t.request('PUT', orgPath(), { body: { eoriNumber: 'dk 123' } });
    expect(res.status).toBe(400);
    const address = await t.request('POST', `${orgPath()}/sender-addresses`, { body: senderAddressBody({ customs: { eoriNumber: 'no spaces please' } }) });
    expect(address.status).toBe(400);
  });

  it('is null for a shipment that stays inside the EU, and termOfTrade is sent as given', async () => {
    const domestic = await create(shipmentBody(carriers.paperless, { senderAddressId, termOfTrade: 'DDP' }));
    expect((await send(domestic.id)).status).toBe(200);
    expect(lastRequest().customs).toBeNull();
    expect(lastRequest().termOfTrade).toBe('DDP');
  });

  it('carries every line with its HS code as digits, unit weight, origin and one currency, and the total', async () => {
    const shipment = await create(exportBody(carriers.paperless, [customsLine(), customLineWith({ currency: 'DKK' })], { termOfTrade: 'EXW' }));
    expect(shipment.parcels[0].orderLines[0].weight).toBe(0.35);
    expect((await send(shipment.id)).status).toBe(200);
    const customs = lastRequest().customs;
    expect(customs).toMatchObject({
      exportReason: 'sale',
      invoiceKind: 'commercial',
      invoiceNumber: `INV-${shipment.reference}`,
      currency: 'DKK',
      totalValue: 330,
    });
    expect(customs?.lines.map((line) => [line.sku, line.quantity, line.tarrifNumber, line.unitWeightKg, line.countryOfOrigin])).toEqual([
      ['MUG-01', 2, '691200', 0.35, 'DK'],
      ['TEA-02', 3, '691200', 0.1, 'DK'],
    ]);
    expect(lastRequest().termOfTrade).toBe('EXW');
  });
});

describe('papers of an export', () => {
  it('paperless trade: the invoice is made before the call, sent, and kept once as the shipment document', async () => {
    // The rule asks for the same invoice: it is not made a second time.
    const rule = await t.request('POST', `${orgPath()}/shipping-rules`, {
      body: {
        name: 'Norway',
        carrierId: carriers.paperless,
        productId: 'local_parcel',
        services: [],
        senderAddressId,
        receivingCountries: ['NO'],
        conditions: [],
        generateCommercialInvoice: true,
      },
    });
    expect(rule.status).toBe(201);
    const shipment = await create(exportBody(carriers.paperless, [customsLine()]));
    expect((await t.request('PATCH', `${shipmentsPath()}/${shipment.id}`, { body: { shippingRuleId: rule.body.id } })).status).toBe(200);
    const sent = await send(shipment.id);
    expect(sent.status).toBe(200);
    const sentInvoice = lastRequest().customs?.invoice;
    expect(sentInvoice?.documentType).toBe('commercial_invoice');
    const kept = docsOf(sent.body, 'commercial_invoice');
    expect(kept).toHaveLength(1);
    expect(bytes(kept[0]).equals(sentInvoice?.content as Buffer)).toBe(true);
    expect(sent.body.errors).toEqual([]);
    if (hasPoppler) {
      const text = pdfText(bytes(kept[0]));
      for (const expected of [
        'Commercial invoice',
        `INV-${shipment.reference}`,
        'Exporter EORI',
        'DK12345678',
        'DK87654321',
        'Sale of goods',
        'Net kg',
        '0.700',
        '240.00',
      ]) {
        expect(text).toContain(expected);
      }
    }
  });

  it('a gift goes on a proforma invoice', async () => {
    const shipment = await create(
      exportBody(carriers.paperless, [customsLine()], {
        carrierSettings: { carrierId: carriers.paperless, productId: 'local_parcel', additionalParameters: { exportReason: 'gift' } },
      }),
    );
    const sent = await send(shipment.id);
    expect(sent.status).toBe(200);
    expect(lastRequest().customs).toMatchObject({ exportReason: 'gift', invoiceKind: 'proforma', invoiceNumber: `PRO-${shipment.reference}` });
    expect(docsOf(sent.body, 'proforma_invoice')).toHaveLength(1);
    expect(docsOf(sent.body, 'commercial_invoice')).toHaveLength(0);
  });

  it('a postal product gets a CN22 up to 300 SDR, A6, with the values sent to the carrier', async () => {
    const shipment = await create(exportBody(carriers.postal, [customsLine(), customLineWith({})]));
    const sent = await send(shipment.id);
    expect(sent.status).toBe(200);
    const forms = docsOf(sent.body, 'cn22');
    expect(forms).toHaveLength(1);
    expect(docsOf(sent.body, 'cn23')).toHaveLength(0);
    expect(forms[0]?.size).toBe('A6');
    const [page] = await pdfPages(bytes(forms[0]));
    expect(page?.width).toBeCloseTo((105 * 72) / 25.4, 1);
    const customs = lastRequest().customs;
    expect(customs?.totalValue).toBe(330);
    if (hasPoppler) {
      const text = pdfText(bytes(forms[0]));
      for (const expected of [
        'CUSTOMS DECLARATION CN 22',
        '[X] Sale of goods',
        'Kari Nordmann',
        'Stoneware mug',
        '691200',
        'DK12345678',
        sent.body.tracking.number,
      ]) {
        expect(text).toContain(expected);
      }
      // Each line's net weight and value, and the totals, as declared.
      expect(text).toMatch(/Stoneware mug\s+2\s+0\.700\s+240\.00\s+691200\s+DK/);
      expect(text).toMatch(/Green tea, 100 g\s+3\s+0\.300\s+90\.00\s+691200\s+DK/);
      expect(text).toMatch(/Total value\s+330\.00 DKK/);
      expect(text).toMatch(/Total net weight\s+1\.000 kg/);
    }
  });

  it('a postal export above 300 SDR gets a CN23 on A4 instead', async () => {
    const shipment = await create(exportBody(carriers.postal, [customsLine({ unitPrice: 2000, quantity: 2 })]));
    const sent = await send(shipment.id);
    expect(sent.status).toBe(200);
    expect(docsOf(sent.body, 'cn22')).toHaveLength(0);
    const forms = docsOf(sent.body, 'cn23');
    expect(forms).toHaveLength(1);
    expect(forms[0]?.size).toBe('A4');
    if (hasPoppler) {
      const text = pdfText(bytes(forms[0]));
      for (const expected of ['CUSTOMS DECLARATION CN 23', "Sender's EORI", 'DK12345678', `INV-${shipment.reference}`]) expect(text).toContain(expected);
      expect(text).toMatch(/Total value\s+4000\.00 DKK/);
    }
  });

  it('a non-postal export with no rule papers gets none; a postal one inside the EU gets no CN form', async () => {
    const plain = await create(exportBody(carriers.local, [customsLine()]));
    expect(docsOf((await send(plain.id)).body, 'cn22')).toHaveLength(0);
    const domestic = await create(shipmentBody(carriers.postal, { senderAddressId }));
    const sent = await send(domestic.id);
    expect(sent.status).toBe(200);
    expect(sent.body.documents.map((doc: Doc) => doc.documentType)).toEqual(['label']);
  });
});

describe('unit weight on parcel order lines', () => {
  it('is filled from the order line on an order-based create, in kg, and kept by a PATCH that leaves it out', async () => {
    const channel = await t.request('POST', `${orgPath()}/order-channels`, { body: { name: 'Shop', type: 'manual', config: {} } });
    const order = await t.request('POST', `${orgPath()}/orders`, {
      body: {
        orderNumber: 'EXP-1',
        orderChannelId: channel.body.id,
        shippingAddress: { name: 'Kari Nordmann', address1: 'Karl Johans gate 1', postalCode: '0154', city: 'Oslo', countryCode: 'NO' },
        orderLines: [
          {
            name: 'Stoneware mug',
            sku: 'MUG-01',
            quantity: 2,
            weight: 400,
            weightUnit: 'g',
            unitPrice: 120,
            currency: 'DKK',
            hsCode: '6912.00',
            countryOfOrigin: 'DK',
          },
        ],
      },
    });
    expect(order.status).toBe(201);
    const made = await t.request('POST', `${orgPath()}/orders/${order.body.id}/shipments`, {
      body: { carrierId: carriers.local, productId: 'local_parcel', senderAddressId },
    });
    expect(made.status).toBe(201);
    const [line] = made.body.parcels[0].orderLines;
    expect(line).toMatchObject({ sku: 'MUG-01', weight: 0.4, tarrifNumber: '6912.00', countryOfOrigin: 'DK' });

    // A script sends the parcels back without the weight: the kept line keeps it.
    const { weight: _weight, ...withoutWeight } = line;
    const parcel = made.body.parcels[0];
    const patched = await t.request('PATCH', `${shipmentsPath()}/${made.body.id}`, {
      body: { parcels: [{ id: parcel.id, weight: parcel.weight, weightUnit: parcel.weightUnit, dimensions: parcel.dimensions, orderLines: [withoutWeight] }] },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.parcels[0].orderLines[0].weight).toBe(0.4);
    // The order brought everything customs needs: it is sent as it is.
    expect((await send(made.body.id)).status).toBe(200);
  });
});

describe('CN22 or CN23', () => {
  it('CN22 up to 300 SDR by the table, CN23 above it and for a currency the table lacks', () => {
    const limitInDkk = CN22_LIMIT_SDR * (UNITS_PER_SDR.DKK as number);
    expect(postalFormFor({ totalValue: limitInDkk, currency: 'DKK' })).toBe('cn22');
    expect(postalFormFor({ totalValue: limitInDkk + 0.01, currency: 'DKK' })).toBe('cn23');
    expect(postalFormFor({ totalValue: 1, currency: 'XAF' })).toBe('cn23');
  });
});
