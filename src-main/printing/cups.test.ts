import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { labelDimensions } from '../documents/labelSizes';
import { setupLocalCarrier, shipmentBody, startTestServer, type TestServer } from '../testing/harness';
import { createPrinter, sentShipment } from '../testing/printing';
import { pdfFilesIn, waitForPrintedPdf } from '../testing/cupsPdf';
import { lpArguments } from './cups';
import { discoverCupsPrinters } from './discover';

/**
 * Against the REAL CUPS spooler with a cups-pdf queue (set up by src-main/testing/cupsSetup.ts): the
 * printed file shows the page size the printer was given. Skipped, with the reason, only on a machine
 * without CUPS; CI installs it.
 */
const cups = inject('cups');
const cupsMissing = cups.state === 'absent';
const why = cups.state === 'ready' ? '' : ` (${cups.reason})`;

function ready() {
  if (cups.state !== 'ready') throw new Error(cups.reason);
  return cups;
}

describe('lp arguments', () => {
  it('name the media of the document size and never scale; ZPL goes raw', () => {
    const request = { format: 'pdf', size: '100X150', copies: 2, target: 'Dock-1', jobName: 'R-doc_1', printJobId: 'pjb_1', attempt: 1 } as const;
    expect(lpArguments(request, '/tmp/x.pdf')).toEqual([
      '-d',
      'Dock-1',
      '-n',
      '2',
      '-t',
      'R-doc_1',
      '-o',
      'media=Custom.100x150mm',
      '-o',
      'fit-to-page=false',
      '--',
      '/tmp/x.pdf',
    ]);
    // A queue whose PPD takes custom sizes gets the size as its PageSize too, so CUPS cannot snap it to a near paper size.
    expect(lpArguments(request, '/tmp/x.pdf', { customPageSize: true })).toEqual([
      '-d',
      'Dock-1',
      '-n',
      '2',
      '-t',
      'R-doc_1',
      '-o',
      'media=Custom.100x150mm',
      '-o',
      'PageSize=Custom.100x150mm',
      '-o',
      'fit-to-page=false',
      '--',
      '/tmp/x.pdf',
    ]);
    const zpl = lpArguments({ format: 'zpl', size: '100X150', copies: 1, target: 'Zebra', jobName: 'R-doc_2', printJobId: 'pjb_2', attempt: 1 }, '/tmp/x.zpl');
    expect(zpl).toEqual(['-d', 'Zebra', '-n', '1', '-t', 'R-doc_2', '-o', 'raw', '--', '/tmp/x.zpl']);
  });
});

describe(`CUPS driver with a cups-pdf queue${why}`, () => {
  let t: TestServer;
  let carrierId: string;

  beforeAll(async () => {
    t = await startTestServer();
    ({ carrierId } = await setupLocalCarrier(t, t.org, { labelSize: '100X150', labelFormat: 'pdf' }));
  });
  afterAll(async () => t?.close());

  it.skipIf(cupsMissing)('discovers the ShipdeskPDF queue', async () => {
    const { queue } = ready();
    const found = await discoverCupsPrinters();
    expect(found).toContainEqual({ name: queue, driver: 'cups', target: queue, isDefault: expect.any(Boolean) });
    const res = await t.request('GET', `/orgs/${t.org.orgId}/printers/discover`);
    expect(res.status).toBe(200);
    expect(res.body.map((printer: { target: string }) => printer.target)).toContain(queue);
  });

  it.skipIf(cupsMissing)('prints a 100X150 label at its physical size (283.46 × 425.2 pt), not A4', async () => {
    const { queue, outputDir } = ready();
    const printer = await createPrinter(t, { name: 'Virtual PDF', driver: 'cups', target: queue, format: 'pdf' });
    const shipment = await sentShipment(t, shipmentBody(carrierId));
    const label = shipment.documents[0];
    expect(label.size).toBe('100X150');
    const before = pdfFilesIn(outputDir);

    const started = performance.now();
    const res = await t.request('POST', `/orgs/${t.org.orgId}/shipments/${shipment.id}/print`, { body: { printerId: printer.id } });
    const spooledMs = performance.now() - started;
    expect(res.status).toBe(200);
    expect(res.body.jobs).toHaveLength(1);
    expect(res.body.jobs[0]).toMatchObject({ status: 'done', error: null, attempts: 1, printerId: printer.id, documentId: label.id });

    // cups-pdf names the file after the job title; wait (up to 15 s) until it is complete.
    const printed = await waitForPrintedPdf(outputDir, label.id, before);
    const printedMs = performance.now() - started;
    console.info(`CUPS job: spooled (job done) in ${spooledMs.toFixed(0)} ms, PDF written after ${printedMs.toFixed(0)} ms`);
    rmSync(printed.file, { force: true });

    const [width, height] = [printed.widthPt, printed.heightPt];
    expect(Math.abs(width - labelDimensions['100X150'].widthPt)).toBeLessThanOrEqual(1);
    expect(Math.abs(height - labelDimensions['100X150'].heightPt)).toBeLessThanOrEqual(1);
  });

  it.skipIf(cupsMissing)('an unknown queue is a failed job with a readable message; the label stays', async () => {
    ready();
    const printer = await createPrinter(t, { name: 'Gone', driver: 'cups', target: 'NoSuchQueue', format: 'pdf' });
    const shipment = await sentShipment(t, shipmentBody(carrierId));
    const res = await t.request('POST', `/orgs/${t.org.orgId}/shipments/${shipment.id}/print`, { body: { printerId: printer.id } });
    expect(res.status).toBe(200);
    expect(res.body.jobs[0]).toMatchObject({ status: 'failed', attempts: 1, error: "Printer queue 'NoSuchQueue' does not exist on this computer" });
    const after = await t.request('GET', `/orgs/${t.org.orgId}/shipments/${shipment.id}`);
    expect(after.body.documents).toEqual(shipment.documents);
  });
});
