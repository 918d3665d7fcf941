import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderInvoice } from '../../documents/invoice';
import { lpArguments } from '../../printing/cups';
import type { PrintRequest } from '../../printing/driver';
import { nodePrinting } from '../../printing/services';
import { setupLocalCarrier, shipmentBody, shippingRuleBody, startTestServer, type TestServer } from '../../testing/harness';
import { createPrinter } from '../../testing/printing';
import { A4_POINTS, hasPoppler, pdfPages, pdfText } from '../../testing/shippingPapers';
import type * as invoiceModule from '../../documents/invoice';

// The real renderer, wrapped so one test can make a single invoice fail.
vi.mock('../../documents/invoice', async (importOriginal) => {
  const original = await importOriginal<typeof invoiceModule>();
  return { ...original, renderInvoice: vi.fn(original.renderInvoice) };
});

let t: TestServer;
let carrierId: string;
let senderAddressId: string;
const folder = mkdtempSync(join(tmpdir(), 'shipdesk-shipping-documents-'));
/** What the print drivers were asked to print, in order. */
const printed: PrintRequest[] = [];

const sql = () => t.app.db.$client;
const orgPath = () => `/orgs/${t.org.orgId}`;
const shipmentsPath = () => `${orgPath()}/shipments`;

beforeAll(async () => {
  t = await startTestServer();
  sql().prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(t.org.orgId);
  ({ carrierId, senderAddressId } = await setupLocalCarrier(t));
  // The real drivers, watched: what reaches a driver is what reaches the spooler.
  const real = nodePrinting();
  const watched = (driver: keyof typeof real.drivers) => ({
    print: async (content: Uint8Array, request: PrintRequest) => {
      printed.push(request);
      return real.drivers[driver].print(content, request);
    },
  });
  t.app.printing = { ...real, drivers: { cups: watched('cups'), raw: watched('raw'), file: watched('file') } };
});
afterAll(async () => {
  await t.close();
  rmSync(folder, { recursive: true, force: true });
});

type Document = { id: string; shipmentId: string; documentType: string; format: string; size: string; content: string; createdAt: string };

async function rule(overrides: Record<string, unknown>) {
  const res = await t.request('POST', `${orgPath()}/shipping-rules`, {
    body: shippingRuleBody(carrierId, senderAddressId, { receivingCountries: ['*'], conditions: [], ...overrides }),
  });
  if (res.status !== 201) throw new Error(`rule: ${JSON.stringify(res.body)}`);
  return res.body as { id: string; name: string };
}

const allPapers = { generatePackingList: true, generateProformaInvoice: true, generateCommercialInvoice: true };

/** A pending shipment with `ruleId` applied through PATCH, as a packer would. */
async function pendingWithRule(ruleId: string | null, overrides: Record<string, unknown> = {}) {
  const created = await t.request('POST', shipmentsPath(), { body: shipmentBody(carrierId, overrides) });
  if (created.status !== 201) throw new Error(`create: ${JSON.stringify(created.body)}`);
  if (ruleId === null) return created.body;
  const applied = await t.request('PATCH', `${shipmentsPath()}/${created.body.id}`, { body: { shippingRuleId: ruleId } });
  if (applied.status !== 200) throw new Error(`apply rule: ${JSON.stringify(applied.body)}`);
  return applied.body;
}

async function sendWithRule(ruleId: string | null, overrides: Record<string, unknown> = {}) {
  const shipment = await pendingWithRule(ruleId, overrides);
  const sent = await t.request('POST', `${shipmentsPath()}/${shipment.id}/send`);
  expect(sent.status).toBe(200);
  return sent.body;
}

const types = (documents: Document[]) => documents.map((document) => document.documentType);
const bytesOf = (document: Document) => Buffer.from(document.content, 'base64');
const paper = (documents: Document[], type: string) => documents.find((document) => document.documentType === type) as Document;

function eventsFor(shipmentId: string) {
  return (
    sql().prepare('SELECT type, payload FROM outbox_events WHERE org_id = ? ORDER BY created_at, id').all(t.org.orgId) as { type: string; payload: string }[]
  )
    .map((row) => ({ type: row.type, payload: JSON.parse(row.payload) }))
    .filter((event) => event.payload.data?.id === shipmentId);
}

function lines(count: number) {
  return Array.from({ length: count }, (_, n) => ({
    sku: `SKU-${String(n + 1).padStart(3, '0')}`,
    quantity: 1,
    description: `Tea tin no. ${n + 1}`,
    unitPrice: 4,
    currency: 'EUR',
    countryOfOrigin: 'CN',
    tarrifNumber: '0902.10',
  }));
}

describe('papers on send', () => {
  it('a rule asking for all three: one label per parcel, then a packing list, a proforma and a commercial invoice, A4 PDFs', async () => {
    const all = await rule({ name: 'Export papers', ...allPapers });
    const parcels = [
      {
        weight: 2.5,
        weightUnit: 'kg',
        dimensions: { length: 30, width: 20, height: 10 },
        orderLines: [{ sku: 'MUG-01', quantity: 2, description: 'Mug', unitPrice: 50, currency: 'DKK', tarrifNumber: '6912.00', countryOfOrigin: 'DK' }],
      },
      {
        weight: 1500,
        weightUnit: 'g',
        dimensions: { length: 10, width: 10, height: 10 },
        orderLines: [{ sku: 'TEA-02', quantity: 3, description: 'Tea', unitPrice: 30, currency: 'DKK', tarrifNumber: '0902.10', countryOfOrigin: 'CN' }],
      },
    ];
    const sent = await sendWithRule(all.id, { reference: 'EXPORT-1', parcels, termOfTrade: 'DDP' });
    expect(sent.status).toBe('dispatched');
    expect(types(sent.documents)).toEqual(['label', 'label', 'packing_list', 'proforma_invoice', 'commercial_invoice']);
    expect(sent.errors).toEqual([]);
    expect(sent.activities.at(-1).description).toBe(
      `Booked with Own trucks: tracking number ${sent.tracking.number}, 2 labels, packing list, proforma invoice, commercial invoice`,
    );
    for (const document of sent.documents.slice(2) as Document[]) {
      expect(document).toMatchObject({ shipmentId: sent.id, format: 'pdf', size: 'A4' });
      const pages = await pdfPages(bytesOf(document));
      expect(pages).toHaveLength(1);
      expect(pages[0]!.width).toBeCloseTo(A4_POINTS.width, 1);
      expect(pages[0]!.height).toBeCloseTo(A4_POINTS.height, 1);
    }
    // The papers belong to the shipment, not to a parcel.
    const parcelIds = sql().prepare("SELECT parcel_id FROM documents WHERE shipment_id = ? AND document_type != 'label'").all(sent.id);
    expect(parcelIds).toEqual([{ parcel_id: null }, { parcel_id: null }, { parcel_id: null }]);

    if (hasPoppler) {
      const packing = pdfText(bytesOf(paper(sent.documents, 'packing_list')));
      for (const expected of [
        'Packing list',
        'EXPORT-1',
        sent.tracking.number,
        'Jens Hansen',
        'Parcel 1/2: 2.5 kg',
        'Parcel 2/2: 1.5 kg',
        'MUG-01',
        'TEA-02',
      ]) {
        expect(packing).toContain(expected);
      }
      const proforma = pdfText(bytesOf(paper(sent.documents, 'proforma_invoice')));
      expect(proforma).toContain('Proforma invoice — no commercial value / for customs purposes');
      expect(proforma).toContain('PRO-EXPORT-1');
      const commercial = pdfText(bytesOf(paper(sent.documents, 'commercial_invoice')));
      for (const expected of ['Commercial invoice', 'INV-EXPORT-1', 'DDP', 'Jens Hansen', 'Total DKK', '190.00', '4 kg', '6912.00', '0902.10']) {
        expect(commercial).toContain(expected);
      }
      expect(commercial).not.toContain('no commercial value');
    }

    // GET shows what the send answered (less the print jobs it started), and the dispatched event carries the same documents.
    const { printJobs: _started, ...shipmentFields } = sent;
    expect((await t.request('GET', `${shipmentsPath()}/${sent.id}`)).body).toEqual(shipmentFields);
    const dispatched = eventsFor(sent.id).find((event) => event.type === 'shipment.dispatched');
    expect(dispatched?.payload.data.documents).toEqual(sent.documents);
  });

  it('serves each paper as application/pdf with the same bytes as its content', async () => {
    const all = await rule({ name: 'Papers to download', ...allPapers });
    const sent = await sendWithRule(all.id, { reference: 'DL-1' });
    for (const document of sent.documents.filter((item: Document) => item.documentType !== 'label') as Document[]) {
      const file = await t.request('GET', `${shipmentsPath()}/${sent.id}/documents/${document.id}/content`);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('application/pdf');
      expect(file.headers.get('content-disposition')).toBe(`inline; filename="DL-1-${document.documentType}-${document.id}.pdf"`);
      expect(Buffer.compare(file.body, bytesOf(document))).toBe(0);
    }
  });

  it('only the papers the rule asks for; none without flags, without a rule, or when the rule was deleted', async () => {
    const packingOnly = await rule({ name: 'Packing list only', generatePackingList: true });
    expect(types((await sendWithRule(packingOnly.id)).documents)).toEqual(['label', 'packing_list']);
    const invoiceOnly = await rule({ name: 'Commercial only', generateCommercialInvoice: true });
    expect(types((await sendWithRule(invoiceOnly.id)).documents)).toEqual(['label', 'commercial_invoice']);

    const noFlags = await rule({ name: 'No papers' });
    const plain = await sendWithRule(noFlags.id);
    expect(types(plain.documents)).toEqual(['label']);
    expect(plain.activities.at(-1).description).toMatch(/, 1 label$/);
    expect(types((await sendWithRule(null)).documents)).toEqual(['label']);

    const gone = await rule({ name: 'Deleted before send', ...allPapers });
    const shipment = await pendingWithRule(gone.id);
    expect((await t.request('DELETE', `${orgPath()}/shipping-rules/${gone.id}`)).status).toBe(200);
    const sent = await t.request('POST', `${shipmentsPath()}/${shipment.id}/send`);
    expect(types(sent.body.documents)).toEqual(['label']);
  });

  it('150 lines flow onto further A4 pages', async () => {
    const all = await rule({ name: 'Big export', ...allPapers });
    const small = await sendWithRule(all.id);
    const big = await sendWithRule(all.id, {
      parcels: [{ weight: 20, weightUnit: 'kg', dimensions: { length: 60, width: 40, height: 40 }, orderLines: lines(150) }],
    });
    for (const type of ['packing_list', 'proforma_invoice', 'commercial_invoice']) {
      const smallPages = await pdfPages(bytesOf(paper(small.documents, type)));
      const pages = await pdfPages(bytesOf(paper(big.documents, type)));
      expect(pages.length).toBeGreaterThan(smallPages.length + 1);
      for (const page of pages) {
        expect(page.width).toBeCloseTo(A4_POINTS.width, 1);
        expect(page.height).toBeCloseTo(A4_POINTS.height, 1);
      }
      if (hasPoppler) {
        const text = pdfText(bytesOf(paper(big.documents, type)));
        expect(text).toContain('SKU-150');
        expect(text).toContain(`Page ${pages.length} of ${pages.length}`);
      }
    }
    if (hasPoppler) expect(pdfText(bytesOf(paper(big.documents, 'commercial_invoice')))).toMatch(/Total EUR\s+600\.00/);
  });

  it('non-Latin-1 text and long text never stop the papers', async () => {
    const all = await rule({ name: 'Unicode papers', ...allPapers });
    // Beijing is an export: the exporter's EORI and each line's customs data are needed (issue 21).
    expect((await t.request('PUT', orgPath(), { body: { eoriNumber: 'DK12345678' } })).status).toBe(200);
    const sent = await sendWithRule(all.id, {
      reference: 'ŁÓDŹ-北京-😀',
      parties: [{ type: 'receiver', name: '王小明 Łukasz', address1: '北京市朝阳区 '.repeat(30), postalCode: '100000', city: 'Beijing', countryCode: 'CN' }],
      parcels: [
        {
          weight: 1,
          weightUnit: 'kg',
          dimensions: { length: 1, width: 1, height: 1 },
          orderLines: [
            {
              sku: 'Ж'.repeat(200),
              quantity: 1,
              description: '茶叶 — green tea 🍵 '.repeat(50),
              unitPrice: 1,
              currency: 'CNY',
              tarrifNumber: '0902.10',
              countryOfOrigin: 'DK',
              weight: 0.5,
            },
          ],
        },
      ],
    });
    expect(sent.errors).toEqual([]);
    expect(types(sent.documents)).toEqual(['label', 'packing_list', 'proforma_invoice', 'commercial_invoice']);
    if (hasPoppler) expect(pdfText(bytesOf(paper(sent.documents, 'commercial_invoice')))).toContain('INV-ŁÓDŹ-??-😀');
  });

  it('a paper that cannot be made is a DOCUMENT_FAILED entry; the booking, the label and the other papers stay', async () => {
    const all = await rule({ name: 'Fragile papers', ...allPapers });
    // Papers are made in order: packing list, proforma, commercial. The first invoice is the proforma.
    vi.mocked(renderInvoice).mockRejectedValueOnce(new Error('font table broken'));
    const sent = await sendWithRule(all.id);
    expect(sent.status).toBe('dispatched');
    expect(types(sent.documents)).toEqual(['label', 'packing_list', 'commercial_invoice']);
    expect(sent.errors).toEqual([
      expect.objectContaining({
        code: 'DOCUMENT_FAILED',
        message:
          'Rule Fragile papers asks for a proforma invoice, but it could not be made: font table broken. The shipment was booked and dispatched without it.',
      }),
    ]);
    const events = eventsFor(sent.id).map((event) => event.type);
    expect(events).toContain('shipment.dispatched');
    expect(events).not.toContain('shipment.error');
  });
  it('papers that cannot be saved are dropped with DOCUMENT_FAILED; the booking is still written', async () => {
    const all = await rule({ name: 'Unsavable papers', generatePackingList: true, generateCommercialInvoice: true });
    sql().exec(
      "CREATE TEMP TRIGGER refuse_packing_lists BEFORE INSERT ON documents WHEN NEW.document_type = 'packing_list' BEGIN SELECT RAISE(ABORT, 'disk quota exceeded'); END",
    );
    try {
      const sent = await sendWithRule(all.id);
      expect(sent.status).toBe('dispatched');
      expect(sent.tracking.number).toMatch(/^LOC\d+$/);
      expect(types(sent.documents)).toEqual(['label']);
      expect(sent.errors.map((error: { code: string; message: string }) => [error.code, error.message])).toEqual([
        [
          'DOCUMENT_FAILED',
          'Rule Unsavable papers asks for a packing list; it was made but could not be saved: disk quota exceeded. The shipment was booked and dispatched without it.',
        ],
        [
          'DOCUMENT_FAILED',
          'Rule Unsavable papers asks for a commercial invoice; it was made but could not be saved: disk quota exceeded. The shipment was booked and dispatched without it.',
        ],
      ]);
    } finally {
      sql().exec('DROP TRIGGER refuse_packing_lists');
    }
  });
});

describe('papers in batch send and returns', () => {
  it('batch-send makes each shipment’s papers from its own rule', async () => {
    const all = await rule({ name: 'Batch papers', ...allPapers });
    const none = await rule({ name: 'Batch plain' });
    const withPapers = await pendingWithRule(all.id);
    const plain = await pendingWithRule(none.id);
    const res = await t.request('POST', `${shipmentsPath()}/batch-send`, { body: { shipmentIds: [withPapers.id, plain.id] } });
    expect(res.body.summary).toEqual({ total: 2, sent: 2, failed: 0 });
    expect(types((await t.request('GET', `${shipmentsPath()}/${withPapers.id}`)).body.documents)).toEqual([
      'label',
      'packing_list',
      'proforma_invoice',
      'commercial_invoice',
    ]);
    expect(types((await t.request('GET', `${shipmentsPath()}/${plain.id}`)).body.documents)).toEqual(['label']);
  });

  it('a return sent at once follows its own rule, not the outbound one', async () => {
    const returnRule = await rule({ name: 'Returns with a commercial invoice', productId: 'local_return', generateCommercialInvoice: true });
    const outboundRule = await rule({
      name: 'Packing list, auto return',
      generatePackingList: true,
      returnShippingRuleId: returnRule.id,
      autoCreateReturnShipment: true,
    });
    const sent = await sendWithRule(outboundRule.id, { reference: 'OUT-7' });
    expect(types(sent.documents)).toEqual(['label', 'packing_list']);
    const [returned] = sql().prepare('SELECT id FROM shipments WHERE return_for_shipment_id = ?').all(sent.id) as { id: string }[];
    const back = (await t.request('GET', `${shipmentsPath()}/${returned!.id}`)).body;
    expect(back).toMatchObject({ reference: 'RET-OUT-7', type: 'inbound', status: 'dispatched', shippingRuleId: returnRule.id });
    expect(types(back.documents)).toEqual(['label', 'commercial_invoice']);
    if (hasPoppler) {
      const text = pdfText(bytesOf(paper(back.documents, 'commercial_invoice')));
      expect(text).toContain('INV-RET-OUT-7');
      // Sender and receiver are swapped on a return: the customer sells back to the warehouse.
      expect(text).toMatch(/Seller \/ exporter\s+Buyer \/ consignee\s+Jens Hansen/);
    }

    // A return created by hand from a rule without papers gets labels only.
    const plainReturnRule = await rule({ name: 'Plain returns', productId: 'local_return' });
    const plainOutbound = await rule({ name: 'Papers out, plain back', ...allPapers, returnShippingRuleId: plainReturnRule.id });
    const out = await sendWithRule(plainOutbound.id);
    const manual = await t.request('POST', `${shipmentsPath()}/${out.id}/create-return`);
    expect(manual.status).toBe(200);
    expect(types(manual.body.documents)).toEqual(['label']);
  });
});

describe('auto-print of the papers', () => {
  it('autoPrintDocuments prints the three papers on the document printer as A4, and the labels only when asked', async () => {
    const target = join(folder, 'papers');
    mkdirSync(target);
    const printer = await createPrinter(t, { name: 'Office laser', driver: 'file', target, format: 'pdf', labelSize: 'A4' });
    const all = await rule({ name: 'Print the papers', ...allPapers, autoPrintDocuments: true, documentPrinterId: printer.id });
    printed.length = 0;
    const sent = await sendWithRule(all.id, { reference: 'PRINT-1' });
    expect(sent.status).toBe('dispatched');
    expect(sent.errors).toEqual([]);
    const papers = (sent.documents as Document[]).filter((document) => document.documentType !== 'label');
    expect(printed).toEqual(
      papers.map((document) => ({
        format: 'pdf',
        size: 'A4',
        copies: 1,
        target,
        jobName: `PRINT-1-${document.id}`,
        printJobId: expect.stringMatching(/^pjb_/),
        attempt: 1,
      })),
    );
    expect(readdirSync(target).sort()).toEqual(printed.map((request) => `${request.jobName}-${request.printJobId}-1.pdf`).sort());
    // What the CUPS driver would pass the spooler for these jobs: A4 media, never scaled.
    expect(lpArguments(printed[0]!, '/tmp/paper.pdf')).toEqual(expect.arrayContaining(['-o', 'media=A4', '-o', 'fit-to-page=false']));

    const jobs = (await t.request('GET', `${orgPath()}/print-jobs?shipmentId=${sent.id}`)).body.data;
    expect(jobs).toHaveLength(3);
    for (const job of jobs) expect(job).toMatchObject({ printerId: printer.id, status: 'done' });
    const printedActivities = sent.activities.filter((activity: { action: string }) => activity.action === 'printed');
    expect(printedActivities.map((activity: { description: string }) => activity.description.replace(/ printed on .*/, ''))).toEqual([
      'Packing list',
      'Proforma invoice',
      'Commercial invoice',
    ]);
  });
});
