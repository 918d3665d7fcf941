import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { labelDimensions } from '../../documents/labelSizes';
import { TEST_LABEL_BARCODE } from '../../documents/testLabel';
import { pdfFilesIn, waitForPrintedPdf } from '../../testing/cupsPdf';
import { startTestServer, type TestOrg, type TestServer } from '../../testing/harness';
import { closedPort, createPrinter, startFakeZplPrinter, type FakeZplPrinter } from '../../testing/printing';
import { hasPoppler, pdfPages, pdfText } from '../../testing/shippingPapers';

/** POST …/printers/{id}/test through the real server, to a TCP listener, a folder and the real CUPS spooler. */
let t: TestServer;
let other: TestOrg;
let zebra: FakeZplPrinter;
const folder = mkdtempSync(join(tmpdir(), 'shipdesk-test-print-'));
const cups = inject('cups');

beforeAll(async () => {
  t = await startTestServer();
  other = await t.createOrg('Other Warehouse');
  zebra = await startFakeZplPrinter();
});
afterAll(async () => {
  await zebra.close();
  await t.close();
  rmSync(folder, { recursive: true, force: true });
});

const testPrint = (printerId: string, options: { token?: string; body?: unknown; org?: TestOrg } = {}) =>
  t.request('POST', `/orgs/${(options.org ?? t.org).orgId}/printers/${printerId}/test`, {
    ...(options.token ? { token: options.token } : {}),
    ...(options.body !== undefined ? { body: options.body } : {}),
  });
const printJobCount = async () => (await t.request('GET', `/orgs/${t.org.orgId}/print-jobs`)).body.total as number;

describe('test label', () => {
  it('a ZPL printer on port 9100 receives a label of its media size with the frame and the scanner barcode; no print job is written', async () => {
    const printer = await createPrinter(t, { name: 'Zebra dock 1', driver: 'raw', target: `127.0.0.1:${zebra.port}`, format: 'zpl', labelSize: '100X192' });
    const jobsBefore = await printJobCount();
    const received = zebra.nextJob();
    const res = await testPrint(printer.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      printerId: printer.id,
      format: 'zpl',
      labelSize: '100X192',
      printedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      message: expect.stringContaining("Test label sent to 'Zebra dock 1'"),
    });
    const zpl = (await received).toString('utf8');
    const size = labelDimensions['100X192'];
    expect(zpl.startsWith('^XA')).toBe(true);
    expect(zpl).toContain(`^PW${size.widthDots}`);
    expect(zpl).toContain(`^LL${size.heightDots}`);
    expect(zpl).toContain('^FDNOT A SHIPPING LABEL^FS');
    expect(zpl).toContain('^FDZebra dock 1^FS');
    expect(zpl).toContain(`^BCN,`);
    expect(zpl).toContain(`^FD${TEST_LABEL_BARCODE}^FS`);
    // The frame: four boxes 12 dots (1.5 mm) in from the edges.
    expect(zpl).toContain(`^FO12,12^GB${size.widthDots - 24},6,6^FS`);
    expect(zpl).toContain(`^FO12,12^GB6,${size.heightDots - 24},6^FS`);
    expect(zpl.trimEnd().endsWith('^XZ')).toBe(true);
    expect(await printJobCount()).toBe(jobsBefore);
  });

  it('a PDF hot folder gets one PDF page of the printer’s label size per test, never overwriting the last', async () => {
    const hotFolder = mkdtempSync(join(folder, 'hot-'));
    const printer = await createPrinter(t, { name: 'Office A6', driver: 'file', target: hotFolder, format: 'pdf', labelSize: 'A6' });
    expect((await testPrint(printer.id)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await testPrint(printer.id, { body: {} })).status).toBe(200);

    const files = readdirSync(hotFolder).sort();
    expect(files).toHaveLength(2);
    for (const file of files) expect(file).toMatch(new RegExp(`^Shipdesk-test-label-\\d+-${printer.id}-1\\.pdf$`));
    const pdf = readFileSync(join(hotFolder, files[0]!));
    const [page, ...more] = await pdfPages(pdf);
    expect(more).toEqual([]);
    expect(Math.abs(page!.width - labelDimensions.A6.widthPt)).toBeLessThan(0.01);
    expect(Math.abs(page!.height - labelDimensions.A6.heightPt)).toBeLessThan(0.01);
    if (hasPoppler) {
      const text = pdfText(pdf);
      expect(text).toContain('NOT A SHIPPING LABEL');
      expect(text).toContain('Office A6');
      expect(text).toContain('A6 (105 × 148 mm)');
    }
  });

  it('a printer that does not answer is 422 PRINTER_OFFLINE naming it and why', async () => {
    const port = await closedPort();
    const printer = await createPrinter(t, { name: 'Zebra dock 2', driver: 'raw', target: `127.0.0.1:${port}`, format: 'zpl' });
    const res = await testPrint(printer.id);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      code: 'PRINTER_OFFLINE',
      error: 'Unprocessable Entity',
      message: expect.stringMatching(/^Printer 'Zebra dock 2' did not take the test label: Printer at 127\.0\.0\.1:\d+ did not answer \(connection refused\)/),
    });

    const missing = await createPrinter(t, { name: 'Unmounted share', driver: 'file', target: join(folder, 'not-there'), format: 'pdf' });
    const gone = await testPrint(missing.id);
    expect(gone.status).toBe(422);
    expect(gone.body.message).toContain('does not exist on this computer');
  });

  it('unknown, deleted and other organizations’ printers are 404; a body with fields is 400; read-only credentials are 403', async () => {
    expect((await testPrint('prn_nope')).body.code).toBe('PRINTER_NOT_FOUND');
    const printer = await createPrinter(t, { name: 'Zebra dock 3', driver: 'raw', target: `127.0.0.1:${zebra.port}`, format: 'zpl' });
    expect((await testPrint(printer.id, { org: other, token: other.token })).status).toBe(404);

    const withField = await testPrint(printer.id, { body: { copies: 2 } });
    expect(withField.status).toBe(400);
    expect(withField.body.code).toBe('VALIDATION_FAILED');

    const viewer = await t.tokenWithScopes(t.org, ['read:all']);
    const refused = await testPrint(printer.id, { token: viewer });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('write:printers') });

    expect((await t.request('DELETE', `/orgs/${t.org.orgId}/printers/${printer.id}`)).status).toBe(200);
    expect((await testPrint(printer.id)).status).toBe(404);
  });

  // 100X192 is the one CUPS would snap to a near paper size of the queue (Monarch envelope, 98.4 × 190.5 mm)
  // when given only `media=`: the label then comes out cut at two edges.
  it.skipIf(cups.state === 'absent')(
    `the real CUPS spooler prints it at the label's physical size, in every size${cups.state === 'ready' ? '' : ` (${cups.reason})`}`,
    async () => {
      if (cups.state !== 'ready') throw new Error(cups.reason);
      for (const size of ['A4', 'A6', '100X150', '100X192'] as const) {
        const printer = await createPrinter(t, { name: `Virtual PDF ${size}`, driver: 'cups', target: cups.queue, format: 'pdf', labelSize: size });
        const before = pdfFilesIn(cups.outputDir);
        const res = await testPrint(printer.id);
        expect(res.status).toBe(200);
        // cups-pdf names the file after the job title, which carries the test's time.
        const stamp = (res.body.printedAt as string).replace(/[^0-9]/g, '');
        const printed = await waitForPrintedPdf(cups.outputDir, stamp, before);
        rmSync(printed.file, { force: true });
        // Within a point: a queue's named sizes are whole points (A6 is 297 × 419 in the cups-pdf PPD).
        expect(Math.abs(printed.widthPt - labelDimensions[size].widthPt), `${size} width ${printed.widthPt}`).toBeLessThanOrEqual(1);
        expect(Math.abs(printed.heightPt - labelDimensions[size].heightPt), `${size} height ${printed.heightPt}`).toBeLessThanOrEqual(1);
      }
    },
  );
});
