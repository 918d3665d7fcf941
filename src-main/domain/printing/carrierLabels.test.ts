import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { labelDimensions } from '../../documents/labelSizes';
import { setupLocalCarrier, shipmentBody, startTestServer, type TestServer } from '../../testing/harness';
import { pdfFilesIn, waitForPrintedPdf } from '../../testing/cupsPdf';
import { pdfPageSizes, pdfWords, sheetPdf, wordIn, type ReadWord, type SheetPage } from '../../testing/labelPdfs';
import { createPrinter, sentShipment } from '../../testing/printing';

/**
 * A carrier's PDF label printed through the API (decisions §13): an A6 label on an A4 page comes out
 * of an A6 label printer cropped to A6 with its text at 100 %, never shrunk; a label that fits comes
 * out unchanged. The stored label stands in for a carrier's: the local carrier books, then its label's
 * bytes are swapped for the carrier-like file, as a real adapter would have stored them.
 */

const cups = inject('cups');
const cupsMissing = cups.state === 'absent';
const why = cups.state === 'ready' ? '' : ` (${cups.reason})`;

let t: TestServer;
let carrierId: string;
const folder = mkdtempSync(join(tmpdir(), 'shipdesk-carrier-labels-'));

beforeAll(async () => {
  t = await startTestServer();
  t.app.db.$client.prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(t.org.orgId);
  ({ carrierId } = await setupLocalCarrier(t, t.org, { labelFormat: 'pdf', trackingPrefix: 'CRP' }));
});
afterAll(async () => {
  await t?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** PostNord's "A4" paper or GLS: an A6 label in the top-left quarter, something else below. */
const a4WithA6Label: SheetPage = {
  widthMm: 210,
  heightMm: 297,
  frame: { xMm: 4, topMm: 4, widthMm: 97, heightMm: 140 },
  words: [
    { text: 'RECEIVER', xMm: 10, baselineMm: 22, sizePt: 20 },
    { text: '00370712345678901234', xMm: 10, baselineMm: 130, sizePt: 12 },
    { text: 'RETURNSLIP', xMm: 10, baselineMm: 200, sizePt: 16 },
  ],
};
const a6Label: SheetPage = { widthMm: 105, heightMm: 148, frame: { xMm: 4, topMm: 4, widthMm: 97, heightMm: 140 }, words: a4WithA6Label.words.slice(0, 2) };

/** A sent shipment whose one label is `content`, stored as the carrier said its size was. */
async function shipmentWithLabel(content: Uint8Array, size: string, reference: string) {
  const shipment = await sentShipment(t, shipmentBody(carrierId, { reference }));
  const [label] = shipment.documents as { id: string }[];
  if (!label) throw new Error('no label');
  t.app.db.$client.prepare('UPDATE documents SET content = ?, size = ? WHERE id = ?').run(Buffer.from(content), size, label.id);
  return { shipmentId: shipment.id as string, labelId: label.id };
}

async function printOn(shipmentId: string, printerId: string) {
  const res = await t.request('POST', `/orgs/${t.org.orgId}/shipments/${shipmentId}/print`, { body: { printerId } });
  expect(res.status).toBe(200);
  expect(res.body.jobs).toEqual([expect.objectContaining({ status: 'done', error: null })]);
}

function freshFolder(name: string) {
  const path = join(folder, name);
  mkdirSync(path);
  return path;
}

const within = (actual: number, expected: number, points: number) => Math.abs(actual - expected) <= points;

function expectPageOf(size: { widthPt: number; heightPt: number } | undefined, label: keyof typeof labelDimensions, points: number) {
  const { widthPt, heightPt } = labelDimensions[label];
  expect(size && within(size.widthPt, widthPt, points) && within(size.heightPt, heightPt, points), `${JSON.stringify(size)} is not ${label}`).toBe(true);
}

/** Where a word sits and how wide it is, compared with the carrier's page, to `points`. */
function expectSameBox(printed: ReadWord, original: ReadWord, points: number) {
  const box = (word: ReadWord) => ({ x: word.xMin, top: word.yMin, width: word.xMax - word.xMin });
  const [got, want] = [box(printed), box(original)];
  const same = within(got.x, want.x, points) && within(got.top, want.top, points) && within(got.width, want.width, want.width * 0.01);
  expect(same, `${printed.text}: printed ${JSON.stringify(got)}, on the carrier's page ${JSON.stringify(want)}`).toBe(true);
}

describe('hot folder printer', () => {
  it('an A6 label on an A4 page, to an A6 label printer: the file is an A6 page with the label at 100 %', async () => {
    const target = freshFolder('a6-printer');
    const printer = await createPrinter(t, { name: 'A6 labels (folder)', driver: 'file', target, format: 'pdf', labelSize: 'A6' });
    const sheet = await sheetPdf([a4WithA6Label]);
    const { shipmentId } = await shipmentWithLabel(sheet, 'A4', 'CROP-FILE-1');
    await printOn(shipmentId, printer.id);

    const [file] = readdirSync(target);
    const printed = readFileSync(join(target, file as string));
    expectPageOf(pdfPageSizes(printed)[0], 'A6', 0.01);
    const [before, after] = [pdfWords(sheet), pdfWords(printed)];
    expect(after.map((word) => word.text)).toEqual(['RECEIVER', '00370712345678901234']);
    for (const text of ['RECEIVER', '00370712345678901234']) expectSameBox(wordIn(after, text), wordIn(before, text), 0.05);
    // The stored label is the carrier's file, untouched: only what is printed is cropped.
    const stored = await t.request('GET', `/orgs/${t.org.orgId}/shipments/${shipmentId}`);
    const content = await t.request('GET', `/orgs/${t.org.orgId}/shipments/${shipmentId}/documents/${stored.body.documents[0].id}/content`);
    expect(Buffer.compare(content.body as Buffer, Buffer.from(sheet))).toBe(0);
  });

  it('a label the carrier called A6 on an A4 page, to an A4 printer: cropped to its own size, A6', async () => {
    const target = freshFolder('a4-printer');
    const printer = await createPrinter(t, { name: 'Office (folder)', driver: 'file', target, format: 'pdf', labelSize: 'A4' });
    const sheet = await sheetPdf([a4WithA6Label]);
    const { shipmentId } = await shipmentWithLabel(sheet, 'A6', 'CROP-FILE-2');
    await printOn(shipmentId, printer.id);
    const printed = readFileSync(join(target, readdirSync(target)[0] as string));
    expectPageOf(pdfPageSizes(printed)[0], 'A6', 0.01);
    expectSameBox(wordIn(pdfWords(printed), 'RECEIVER'), wordIn(pdfWords(sheet), 'RECEIVER'), 0.05);
  });

  it('a label that fits the printer is printed unchanged, byte for byte', async () => {
    const target = freshFolder('fits');
    const printer = await createPrinter(t, { name: 'A6 labels (fits)', driver: 'file', target, format: 'pdf', labelSize: 'A6' });
    const label = await sheetPdf([a6Label]);
    const { shipmentId } = await shipmentWithLabel(label, 'A6', 'CROP-FILE-3');
    await printOn(shipmentId, printer.id);
    const printed = readFileSync(join(target, readdirSync(target)[0] as string));
    expect(Buffer.compare(printed, Buffer.from(label))).toBe(0);
  });
});

describe(`CUPS with the cups-pdf queue${why}`, () => {
  function ready() {
    if (cups.state !== 'ready') throw new Error(cups.reason);
    return cups;
  }

  it.skipIf(cupsMissing)('an A6 label on an A4 page, to an A6 label printer, comes out an A6 page with the label at 100 %, not shrunk', async () => {
    const { queue, outputDir } = ready();
    const printer = await createPrinter(t, { name: 'A6 labels (CUPS)', driver: 'cups', target: queue, format: 'pdf', labelSize: 'A6' });
    const sheet = await sheetPdf([a4WithA6Label]);
    const { shipmentId, labelId } = await shipmentWithLabel(sheet, 'A4', 'CROP-CUPS-1');
    const before = pdfFilesIn(outputDir);
    await printOn(shipmentId, printer.id);

    const printed = await waitForPrintedPdf(outputDir, labelId, before);
    try {
      // cups-pdf writes whole points.
      expectPageOf({ widthPt: printed.widthPt, heightPt: printed.heightPt }, 'A6', 1);
      const [original, out] = [pdfWords(sheet), pdfWords(printed.file)];
      expect(out.map((word) => word.text)).toEqual(['RECEIVER', '00370712345678901234']);
      // Ghostscript re-sets the text: its place moves by under a point or two, its width stays (a shrunk label is half as wide).
      for (const text of ['RECEIVER', '00370712345678901234']) expectSameBox(wordIn(out, text), wordIn(original, text), 2);
    } finally {
      rmSync(printed.file, { force: true });
    }
  });

  it.skipIf(cupsMissing)('a label that already fits comes out at its size, its text where it was', async () => {
    const { queue, outputDir } = ready();
    const printer = await createPrinter(t, { name: 'A6 labels (CUPS, fits)', driver: 'cups', target: queue, format: 'pdf', labelSize: 'A6' });
    const label = await sheetPdf([a6Label]);
    const { shipmentId, labelId } = await shipmentWithLabel(label, 'A6', 'CROP-CUPS-2');
    const before = pdfFilesIn(outputDir);
    await printOn(shipmentId, printer.id);
    const printed = await waitForPrintedPdf(outputDir, labelId, before);
    try {
      expectPageOf({ widthPt: printed.widthPt, heightPt: printed.heightPt }, 'A6', 1);
      const [original, out] = [pdfWords(label), pdfWords(printed.file)];
      for (const text of ['RECEIVER', '00370712345678901234']) expectSameBox(wordIn(out, text), wordIn(original, text), 2);
    } finally {
      rmSync(printed.file, { force: true });
    }
  });
});
