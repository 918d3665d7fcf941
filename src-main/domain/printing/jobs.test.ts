import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStartupChores } from '../../app/runtime/startup';
import { setupLocalCarrier, shipmentBody, shippingRuleBody, startTestServer, type TestOrg, type TestServer } from '../../testing/harness';
import { closedPort, createPrinter, sentShipment, startFakeZplPrinter, type FakeZplPrinter } from '../../testing/printing';
import { hasPoppler, pdfPages, pdfText } from '../../testing/shippingPapers';

let t: TestServer;
let other: TestOrg;
/** Books PDF labels (100X150). */
let pdfCarrierId: string;
/** Books ZPL labels. */
let zplCarrierId: string;
let senderAddressId: string;
const folder = mkdtempSync(join(tmpdir(), 'shipdesk-print-jobs-'));
const printers: FakeZplPrinter[] = [];

beforeAll(async () => {
  t = await startTestServer();
  t.app.db.$client.prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(t.org.orgId);
  ({ carrierId: pdfCarrierId, senderAddressId } = await setupLocalCarrier(t, t.org, { labelFormat: 'pdf', trackingPrefix: 'PDF' }));
  ({ carrierId: zplCarrierId } = await setupLocalCarrier(t, t.org, { labelFormat: 'zpl', trackingPrefix: 'ZPL' }));
  other = await t.createOrg('Other Warehouse');
});
afterAll(async () => {
  for (const printer of printers) await printer.close();
  await t.close();
  rmSync(folder, { recursive: true, force: true });
});

const orgPath = (org: TestOrg = t.org) => `/orgs/${org.orgId}`;
const print = (shipmentId: string, body?: Record<string, unknown>, token?: string) =>
  t.request('POST', `${orgPath()}/shipments/${shipmentId}/print`, { ...(body ? { body } : {}), ...(token ? { token } : {}) });
const retry = (jobId: string) => t.request('POST', `${orgPath()}/print-jobs/${jobId}/retry`);
const getShipment = async (id: string) => (await t.request('GET', `${orgPath()}/shipments/${id}`)).body;
const contentOf = async (shipmentId: string, documentId: string) =>
  (await t.request('GET', `${orgPath()}/shipments/${shipmentId}/documents/${documentId}/content`)).body as Buffer;
const sql = () => t.app.db.$client;

async function zplPrinterOnline(port = 0) {
  const printer = await startFakeZplPrinter(port);
  printers.push(printer);
  return printer;
}

function freshFolder(name: string) {
  const path = join(folder, name);
  mkdirSync(path);
  return path;
}

describe('raw ZPL printer', () => {
  it('the printer receives exactly the ZPL bytes of the label; the job is done and "printed" is recorded', async () => {
    const zebra = await zplPrinterOnline();
    const printer = await createPrinter(t, { name: 'Zebra dock 1', driver: 'raw', target: `127.0.0.1:${zebra.port}`, format: 'zpl' });
    const shipment = await sentShipment(t, shipmentBody(zplCarrierId));
    const [label] = shipment.documents;
    expect(label.format).toBe('zpl');

    const received = zebra.nextJob();
    const res = await print(shipment.id, { printerId: printer.id });
    expect(res.status).toBe(200);
    expect(res.body.jobs).toEqual([
      {
        id: expect.stringMatching(/^pjb_/),
        printerId: printer.id,
        documentId: label.id,
        shipmentId: shipment.id,
        status: 'done',
        error: null,
        attempts: 1,
        copies: 1,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    const bytes = await received;
    expect(bytes.equals(await contentOf(shipment.id, label.id))).toBe(true);
    expect(bytes.toString('latin1')).toMatch(/^\^XA[\s\S]*\^XZ\s*$/);

    const after = await getShipment(shipment.id);
    const printed = after.activities.filter((activity: { action: string }) => activity.action === 'printed');
    expect(printed).toHaveLength(1);
    expect(printed[0].description).toBe('Label printed on Zebra dock 1');
  });

  it('a closed port is a failed job with the message; retry after the printer is back: done, attempts 2', async () => {
    const port = await closedPort();
    const printer = await createPrinter(t, { name: 'Zebra dock 2', driver: 'raw', target: `127.0.0.1:${port}`, format: 'zpl' });
    const shipment = await sentShipment(t, shipmentBody(zplCarrierId));
    const res = await print(shipment.id, { printerId: printer.id });
    expect(res.status).toBe(200);
    const [job] = res.body.jobs;
    expect(job).toMatchObject({ status: 'failed', attempts: 1 });
    expect(job.error).toBe(
      `Printer at 127.0.0.1:${port} did not answer (connection refused); check that it is switched on and that the port is right, then retry`,
    );
    // Never a lost label: the document is still there, and nothing was recorded as printed.
    const unchanged = await getShipment(shipment.id);
    expect(unchanged.documents).toEqual(shipment.documents);
    expect(unchanged.activities.some((activity: { action: string }) => activity.action === 'printed')).toBe(false);

    const zebra = await zplPrinterOnline(port);
    const received = zebra.nextJob();
    const retried = await retry(job.id);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ id: job.id, status: 'done', error: null, attempts: 2, printerId: printer.id });
    expect((await received).equals(await contentOf(shipment.id, shipment.documents[0].id))).toBe(true);
  });

  it('a ZPL printer given a PDF label: the label is drawn as ZPL for it; a paper, which only exists as PDF, fails saying so', async () => {
    const zebra = await zplPrinterOnline();
    const printer = await createPrinter(t, { name: 'Zebra dock 3', driver: 'raw', target: `127.0.0.1:${zebra.port}`, format: 'zpl' });
    const rule = await t.request('POST', `${orgPath()}/shipping-rules`, {
      body: shippingRuleBody(pdfCarrierId, senderAddressId, {
        name: 'With packing list',
        receivingCountries: ['*'],
        conditions: [],
        generatePackingList: true,
      }),
    });
    const created = await t.request('POST', `${orgPath()}/shipments`, { body: shipmentBody(pdfCarrierId) });
    await t.request('PATCH', `${orgPath()}/shipments/${created.body.id}`, { body: { shippingRuleId: rule.body.id } });
    const shipment = (await t.request('POST', `${orgPath()}/shipments/${created.body.id}/send`)).body;
    const [label, packingList] = shipment.documents;
    expect([label.documentType, packingList.documentType]).toEqual(['label', 'packing_list']);

    const received = zebra.nextJob();
    const res = await print(shipment.id, { printerId: printer.id, documentIds: [label.id, packingList.id] });
    expect(res.status).toBe(200);
    expect(res.body.jobs.map((job: { status: string }) => job.status)).toEqual(['done', 'failed']);
    expect(res.body.jobs[1].error).toBe("Printer 'Zebra dock 3' prints ZPL and this document is PDF; choose a PDF printer");
    const program = (await received).toString('utf8');
    expect(program).toMatch(/^\^XA[\s\S]*\^XZ\s*$/);
    expect(program).toContain(shipment.tracking.number);
    expect(zebra.jobs).toHaveLength(1);
    const printed = (await getShipment(shipment.id)).activities.filter((a: { action: string }) => a.action === 'printed');
    expect(printed.map((a: { description: string }) => a.description)).toEqual(['Label printed on Zebra dock 3, drawn as ZPL for it']);
    // The stored label is still the PDF.
    expect((await contentOf(shipment.id, label.id)).subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('file printer (hot folder)', () => {
  it('writes <reference>-<documentId>-<jobId>-<attempt>.pdf per label, copies as extra files', async () => {
    const target = freshFolder('hot');
    const printer = await createPrinter(t, { name: 'Hot folder', driver: 'file', target, format: 'pdf' });
    const shipment = await sentShipment(
      t,
      shipmentBody(pdfCarrierId, { reference: 'WEB-2001', parcels: [...shipmentBody(pdfCarrierId).parcels, ...shipmentBody(pdfCarrierId).parcels] }),
    );
    expect(shipment.documents).toHaveLength(2);
    const res = await print(shipment.id, { printerId: printer.id, copies: 2 });
    expect(res.status).toBe(200);
    expect(res.body.jobs.map((job: { status: string; copies: number; documentId: string }) => [job.documentId, job.status, job.copies])).toEqual(
      shipment.documents.map((doc: { id: string }) => [doc.id, 'done', 2]),
    );
    const jobs: { id: string; documentId: string }[] = res.body.jobs;
    const expected = jobs.flatMap((job) => [`WEB-2001-${job.documentId}-${job.id}-1.pdf`, `WEB-2001-${job.documentId}-${job.id}-1-copy2.pdf`]);
    expect(readdirSync(target).sort()).toEqual(expected.sort());
    const first = jobs[0]!;
    expect(readFileSync(join(target, `WEB-2001-${first.documentId}-${first.id}-1.pdf`)).equals(await contentOf(shipment.id, first.documentId))).toBe(true);
    const printed = (await getShipment(shipment.id)).activities.filter((a: { action: string }) => a.action === 'printed');
    expect(printed.map((a: { description: string }) => a.description)).toEqual([
      'Label 1 of 2 printed on Hot folder (2 copies)',
      'Label 2 of 2 printed on Hot folder (2 copies)',
    ]);
  });

  it('a ZPL label on an office printer (the thermal one is down): the file is the label drawn as PDF', async () => {
    const target = freshFolder('office');
    const printer = await createPrinter(t, { name: 'Office laser', driver: 'file', target, format: 'pdf', labelSize: 'A4' });
    const shipment = await sentShipment(t, shipmentBody(zplCarrierId, { reference: 'ZPL-ON-PDF' }));
    const [label] = shipment.documents;
    expect(label.format).toBe('zpl');
    const res = await print(shipment.id, { printerId: printer.id });
    expect(res.body.jobs[0]).toMatchObject({ status: 'done', error: null });
    const [file] = readdirSync(target);
    expect(file).toBe(`ZPL-ON-PDF-${label.id}-${res.body.jobs[0].id}-1.pdf`);
    const bytes = readFileSync(join(target, file as string));
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // At the label's own size (100 × 150 mm), whatever paper the office printer holds.
    const [page] = await pdfPages(bytes);
    expect([page?.width, page?.height].map((points) => Math.round(((points ?? 0) * 25.4) / 72))).toEqual([100, 150]);
    if (hasPoppler) expect(pdfText(bytes)).toContain(shipment.tracking.number);
  });

  it('documentIds picks documents in the order given; a missing folder fails until it exists', async () => {
    const target = join(folder, 'not-yet');
    const printer = await createPrinter(t, { name: 'Later folder', driver: 'file', target, format: 'pdf' });
    const shipment = await sentShipment(
      t,
      shipmentBody(pdfCarrierId, { parcels: [...shipmentBody(pdfCarrierId).parcels, ...shipmentBody(pdfCarrierId).parcels] }),
    );
    const [a, b] = shipment.documents;
    const res = await print(shipment.id, { printerId: printer.id, documentIds: [b.id, a.id, b.id] });
    expect(res.body.jobs.map((job: { documentId: string }) => job.documentId)).toEqual([b.id, a.id]);
    expect(res.body.jobs[0]).toMatchObject({
      status: 'failed',
      error: `Folder '${target}' does not exist on this computer; create it or change the printer's folder`,
    });
    mkdirSync(target);
    const retried = await retry(res.body.jobs[0].id);
    expect(retried.body).toMatchObject({ status: 'done', attempts: 2 });
    expect(readdirSync(target)).toEqual([`${shipment.reference}-${b.id}-${res.body.jobs[0].id}-2.pdf`]);
  });

  it('every reprint is a file of its own: a second job and a retry never overwrite what a watcher has not read yet', async () => {
    const target = freshFolder('reprints');
    const printer = await createPrinter(t, { name: 'Reprint hot folder', driver: 'file', target, format: 'pdf' });
    const shipment = await sentShipment(t, shipmentBody(pdfCarrierId, { reference: 'WEB-3001' }));
    const [label] = shipment.documents;
    const [first] = (await print(shipment.id, { printerId: printer.id })).body.jobs;
    const [second] = (await print(shipment.id, { printerId: printer.id })).body.jobs;
    expect(second.id).not.toBe(first.id);
    expect((await retry(first.id)).body).toMatchObject({ status: 'done', attempts: 2 });
    expect(readdirSync(target).sort()).toEqual(
      [`WEB-3001-${label.id}-${first.id}-1.pdf`, `WEB-3001-${label.id}-${second.id}-1.pdf`, `WEB-3001-${label.id}-${first.id}-2.pdf`].sort(),
    );
    const content = await contentOf(shipment.id, label.id);
    for (const name of readdirSync(target)) expect(readFileSync(join(target, name)).equals(content), name).toBe(true);
  });
});

describe('choosing the printer', () => {
  it('no printer given and no default: 422 PRINTER_OFFLINE, no job written; with a default it is used', async () => {
    const org = await t.createOrg('No printers yet');
    const { carrierId } = await setupLocalCarrier(t, org);
    const shipment = await sentShipment(t, shipmentBody(carrierId), org);
    const path = `/orgs/${org.orgId}/shipments/${shipment.id}/print`;
    const refused = await t.request('POST', path, { token: org.token });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      code: 'PRINTER_OFFLINE',
      error: 'Unprocessable Entity',
      message: 'No printer chosen and no default printer for PDF documents; choose a printer, or mark one as the default for PDF',
    });
    expect((sql().prepare('SELECT COUNT(*) AS n FROM print_jobs WHERE org_id = ?').get(org.orgId) as { n: number }).n).toBe(0);

    // Without a default of the label's format, the default of the other takes it (the label drawn for it)…
    const zebra = await createPrinter(t, { name: 'Zebra', driver: 'raw', target: `127.0.0.1:${await closedPort()}`, format: 'zpl', isDefault: true }, org);
    const drawn = await t.request('POST', path, { token: org.token });
    expect(drawn.status).toBe(200);
    expect(drawn.body.jobs[0]).toMatchObject({ printerId: zebra.id, status: 'failed' });

    // …and a default of its own format is preferred.
    const target = freshFolder('default');
    const fallback = await createPrinter(t, { name: 'Default PDF', driver: 'file', target, format: 'pdf', isDefault: true }, org);
    const printed = await t.request('POST', path, { token: org.token, body: {} });
    expect(printed.status).toBe(200);
    expect(printed.body.jobs[0]).toMatchObject({ printerId: fallback.id, status: 'done' });
  });

  it('404s: unknown or deleted printer, unknown shipment, a document of another shipment; 409 without labels or when cancelled', async () => {
    const shipment = await sentShipment(t, shipmentBody(pdfCarrierId));
    const unknown = await print(shipment.id, { printerId: 'prn_unknown' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('PRINTER_NOT_FOUND');
    const gone = await createPrinter(t, { name: 'Gone', driver: 'file', target: folder, format: 'pdf' });
    await t.request('DELETE', `${orgPath()}/printers/${gone.id}`);
    expect((await print(shipment.id, { printerId: gone.id })).body.code).toBe('PRINTER_NOT_FOUND');
    const theirs = await createPrinter(t, { name: 'Theirs', driver: 'file', target: folder, format: 'pdf' }, other);
    expect((await print(shipment.id, { printerId: theirs.id })).body.code).toBe('PRINTER_NOT_FOUND');

    const printer = await createPrinter(t, { name: 'Any', driver: 'file', target: freshFolder('any'), format: 'pdf' });
    const missing = await print('shp_unknown', { printerId: printer.id });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('SHIPMENT_NOT_FOUND');
    const another = await sentShipment(t, shipmentBody(pdfCarrierId));
    const foreignDoc = await print(shipment.id, { printerId: printer.id, documentIds: [another.documents[0].id] });
    expect(foreignDoc.status).toBe(404);
    expect(foreignDoc.body.code).toBe('SHIPMENT_DOCUMENT_NOT_FOUND');

    const pending = await t.request('POST', `${orgPath()}/shipments`, { body: shipmentBody(pdfCarrierId) });
    const noLabels = await print(pending.body.id, { printerId: printer.id });
    expect(noLabels.status).toBe(409);
    expect(noLabels.body).toMatchObject({
      code: 'SHIPMENT_INVALID_STATE',
      message: `Shipment ${pending.body.id} has no labels to print (status pending); send it first`,
    });

    const cancelled = await t.request('POST', `${orgPath()}/shipments/${another.id}/cancel`);
    expect(cancelled.status).toBe(200);
    const voidLabel = await print(another.id, { printerId: printer.id });
    expect(voidLabel.status).toBe(409);
    expect(voidLabel.body.message).toContain('cancelled');
  });

  it('copies are 1 to 10; unknown fields are refused', async () => {
    const shipment = await sentShipment(t, shipmentBody(pdfCarrierId));
    for (const body of [{ copies: 0 }, { copies: 11 }, { copies: 1.5 }, { documentIds: [] }, { printer: 'x' }]) {
      const res = await print(shipment.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
  });

  it('scopes: 401 without a credential; read:printers cannot print; a packer (write:printers) can', async () => {
    const shipment = await sentShipment(t, shipmentBody(pdfCarrierId));
    const printer = await createPrinter(t, { name: 'Packing station', driver: 'file', target: freshFolder('station'), format: 'pdf' });
    expect((await t.request('POST', `${orgPath()}/shipments/${shipment.id}/print`, { token: null })).status).toBe(401);
    const reader = await t.tokenWithScopes(t.org, ['read:printers']);
    const refused = await print(shipment.id, { printerId: printer.id }, reader);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('write:printers');
    expect((await t.request('GET', `${orgPath()}/print-jobs`, { token: reader })).status).toBe(200);
    const packer = await t.tokenWithScopes(t.org, ['read:all', 'write:shipments', 'write:orders', 'write:printers']);
    const printed = await print(shipment.id, { printerId: printer.id }, packer);
    expect(printed.status).toBe(200);
    expect(printed.body.jobs[0].status).toBe('done');
    // Printing alone does not let a token change shipments.
    const printOnly = await t.tokenWithScopes(t.org, ['write:printers']);
    expect((await print(shipment.id, { printerId: printer.id }, printOnly)).status).toBe(200);
    expect((await t.request('POST', `${orgPath()}/shipments/${shipment.id}/cancel`, { token: printOnly })).status).toBe(403);
  });
});

describe('print jobs', () => {
  it('a reprint (retry of a done job) is a new attempt and never re-books: tracking, documents and sequence unchanged', async () => {
    const printer = await createPrinter(t, { name: 'Reprint folder', driver: 'file', target: freshFolder('reprint'), format: 'pdf' });
    const shipment = await sentShipment(t, shipmentBody(pdfCarrierId));
    const seq = () => (sql().prepare('SELECT tracking_seq AS n FROM orgs WHERE id = ?').get(t.org.orgId) as { n: number }).n;
    const seqBefore = seq();
    const [job] = (await print(shipment.id, { printerId: printer.id })).body.jobs;
    const again = await retry(job.id);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: job.id, status: 'done', attempts: 2 });
    const after = await getShipment(shipment.id);
    expect(after.tracking).toEqual(shipment.tracking);
    expect(after.documents).toEqual(shipment.documents);
    expect(after.status).toBe('dispatched');
    expect(after.logs).toHaveLength(shipment.logs.length);
    expect(seq()).toBe(seqBefore);
    expect(after.activities.filter((a: { action: string }) => a.action === 'printed')).toHaveLength(2);
  });

  it('retry: 409 while queued or printing, 404 for an unknown job or another organization’s; startup fails interrupted jobs', async () => {
    const printer = await createPrinter(t, { name: 'Busy folder', driver: 'file', target: freshFolder('busy'), format: 'pdf' });
    const shipment = await sentShipment(t, shipmentBody(pdfCarrierId));
    const [job] = (await print(shipment.id, { printerId: printer.id })).body.jobs;
    sql().prepare("UPDATE print_jobs SET status = 'printing' WHERE id = ?").run(job.id);
    const busy = await retry(job.id);
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ code: 'CONFLICT', message: `Print job ${job.id} is printing; wait for it to finish before printing it again` });

    runStartupChores(t.app);
    const recovered = sql().prepare('SELECT status, error FROM print_jobs WHERE id = ?').get(job.id) as { status: string; error: string };
    expect(recovered.status).toBe('failed');
    expect(recovered.error).toContain('Shipdesk stopped before this print job finished');
    expect((await retry(job.id)).body).toMatchObject({ status: 'done', attempts: 2 });

    expect((await retry('pjb_unknown')).body.code).toBe('PRINT_JOB_NOT_FOUND');
    const theirs = await t.request('POST', `${orgPath(other)}/print-jobs/${job.id}/retry`, { token: other.token });
    expect(theirs.status).toBe(404);
    expect(theirs.body.code).toBe('PRINT_JOB_NOT_FOUND');
  });

  it('a failed job whose document printed since on another printer is not retried (no second label), 409 naming the later job', async () => {
    const down = await createPrinter(t, { name: 'Down folder', driver: 'file', target: join(folder, 'unplugged'), format: 'pdf' });
    const spareTarget = freshFolder('spare');
    const spare = await createPrinter(t, { name: 'Spare folder', driver: 'file', target: spareTarget, format: 'pdf' });
    const shipment = await sentShipment(t, shipmentBody(pdfCarrierId));
    const [failed] = (await print(shipment.id, { printerId: down.id })).body.jobs;
    expect(failed.status).toBe('failed');
    const [elsewhere] = (await print(shipment.id, { printerId: spare.id })).body.jobs;
    expect(elsewhere.status).toBe('done');

    const refused = await retry(failed.id);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining(`printed since (print job ${elsewhere.id})`) });
    expect(readdirSync(spareTarget)).toHaveLength(1);
    expect(sql().prepare('SELECT status, attempts FROM print_jobs WHERE id = ?').get(failed.id) as { status: string; attempts: number }).toEqual({
      status: 'failed',
      attempts: 1,
    });
  });

  it('settled=false leaves out failures a later print of the same document settled (what the Failed view shows); settled=true lists only them', async () => {
    const down = await createPrinter(t, { name: 'Settled down', driver: 'file', target: join(folder, 'settled-unplugged'), format: 'pdf' });
    const spare = await createPrinter(t, { name: 'Settled spare', driver: 'file', target: freshFolder('settled-spare'), format: 'pdf' });
    const settledShipment = await sentShipment(t, shipmentBody(pdfCarrierId));
    const [settledJob] = (await print(settledShipment.id, { printerId: down.id })).body.jobs;
    const [elsewhere] = (await print(settledShipment.id, { printerId: spare.id })).body.jobs;
    expect([settledJob.status, elsewhere.status]).toEqual(['failed', 'done']);
    // Printed before the failure: a done job earlier than it settles nothing.
    const openShipment = await sentShipment(t, shipmentBody(pdfCarrierId));
    await print(openShipment.id, { printerId: spare.id });
    const [openJob] = (await print(openShipment.id, { printerId: down.id })).body.jobs;
    expect(openJob.status).toBe('failed');

    const ids = async (query: string) => (await t.request('GET', `${orgPath()}/print-jobs?limit=100&${query}`)).body.data.map((job: { id: string }) => job.id);
    const openFailures = await ids('status=failed&settled=false');
    expect(openFailures).toContain(openJob.id);
    expect(openFailures).not.toContain(settledJob.id);
    expect(await ids('settled=true')).toEqual(expect.arrayContaining([settledJob.id]));
    expect(await ids('settled=true')).not.toContain(openJob.id);
    // Without the filter nothing changes: the settled failure is still in the log, and its shipment's list has both jobs.
    expect(await ids('status=failed')).toEqual(expect.arrayContaining([settledJob.id, openJob.id]));
    expect(await ids(`shipmentId=${settledShipment.id}&settled=false`)).toEqual([elsewhere.id]);
    const counted = await t.request('GET', `${orgPath()}/print-jobs?shipmentId=${settledShipment.id}&status=failed&settled=false`);
    expect(counted.body).toMatchObject({ data: [], total: 0 });
    // Retry refuses exactly the jobs the filter calls settled.
    expect((await retry(settledJob.id)).status).toBe(409);
    expect((await t.request('GET', `${orgPath()}/print-jobs?settled=maybe`)).status).toBe(400);
  });

  it('retry after the printer was deleted falls back to the default printer for the format', async () => {
    const doomed = await createPrinter(t, { name: 'Doomed', driver: 'file', target: join(folder, 'never'), format: 'pdf' });
    const shipment = await sentShipment(t, shipmentBody(pdfCarrierId));
    const [job] = (await print(shipment.id, { printerId: doomed.id })).body.jobs;
    expect(job.status).toBe('failed');
    await t.request('DELETE', `${orgPath()}/printers/${doomed.id}`);
    const fallback = await createPrinter(t, { name: 'Fallback', driver: 'file', target: freshFolder('fallback'), format: 'pdf', isDefault: true });
    const retried = await retry(job.id);
    expect(retried.body).toMatchObject({ status: 'done', printerId: fallback.id, attempts: 2 });
  });

  it('lists newest first with status and shipment filters; other organizations see none', async () => {
    const printer = await createPrinter(t, { name: 'List folder', driver: 'file', target: freshFolder('list'), format: 'pdf' });
    const broken = await createPrinter(t, { name: 'List broken', driver: 'file', target: join(folder, 'missing-list'), format: 'pdf' });
    const shipment = await sentShipment(t, shipmentBody(pdfCarrierId));
    const ok = (await print(shipment.id, { printerId: printer.id })).body.jobs[0];
    const failed = (await print(shipment.id, { printerId: broken.id })).body.jobs[0];

    const all = await t.request('GET', `${orgPath()}/print-jobs?limit=100`);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 1, limit: 100 });
    const ids = all.body.data.map((job: { id: string }) => job.id);
    expect(ids.indexOf(failed.id)).toBeLessThan(ids.indexOf(ok.id));
    const sorted = [...all.body.data].sort((x, y) => (y.createdAt + y.id).localeCompare(x.createdAt + x.id));
    expect(ids).toEqual(sorted.map((job) => job.id));

    const forShipment = await t.request('GET', `${orgPath()}/print-jobs?shipmentId=${shipment.id}`);
    expect(forShipment.body.data).toEqual([failed, ok]);
    expect(forShipment.body.total).toBe(2);
    const onlyFailed = await t.request('GET', `${orgPath()}/print-jobs?shipmentId=${shipment.id}&status=failed`);
    expect(onlyFailed.body.data).toEqual([failed]);
    const everyFailed = await t.request('GET', `${orgPath()}/print-jobs?status=failed&limit=100`);
    expect(everyFailed.body.data.every((job: { status: string }) => job.status === 'failed')).toBe(true);
    const paged = await t.request('GET', `${orgPath()}/print-jobs?shipmentId=${shipment.id}&limit=1&page=2`);
    expect(paged.body).toMatchObject({ data: [ok], total: 2, page: 2, limit: 1, totalPages: 2 });

    for (const query of ['status=lost', 'limit=101', 'page=0', 'shipment=x']) {
      expect((await t.request('GET', `${orgPath()}/print-jobs?${query}`)).status, query).toBe(400);
    }
    const theirs = await t.request('GET', `${orgPath(other)}/print-jobs`, { token: other.token });
    expect(theirs.body).toMatchObject({ data: [], total: 0 });
    expect((await t.request('GET', `${orgPath()}/print-jobs`, { token: null })).status).toBe(401);
  });
});

describe('auto-print after send', () => {
  async function ruleWith(overrides: Record<string, unknown>, carrierId = pdfCarrierId) {
    const res = await t.request('POST', `${orgPath()}/shipping-rules`, {
      body: shippingRuleBody(carrierId, senderAddressId, { receivingCountries: ['*'], conditions: [], ...overrides }),
    });
    if (res.status !== 201) throw new Error(`rule: ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function pendingWithRule(ruleId: string, carrierId: string) {
    const created = await t.request('POST', `${orgPath()}/shipments`, { body: shipmentBody(carrierId) });
    const applied = await t.request('PATCH', `${orgPath()}/shipments/${created.body.id}`, { body: { shippingRuleId: ruleId } });
    expect(applied.status).toBe(200);
    return created.body.id as string;
  }

  async function sendWithRule(ruleId: string, carrierId: string, body?: Record<string, unknown>) {
    const id = await pendingWithRule(ruleId, carrierId);
    return t.request('POST', `${orgPath()}/shipments/${id}/send`, body ? { body } : {});
  }

  it("the sending station's printers take the rule's place: the one whose format and media fit, else a label drawn for one whose media fits; unknown ids are passed over", async () => {
    const ruleTarget = freshFolder('station-rule');
    const elsewhere = await createPrinter(t, { name: 'Station 1 labels', driver: 'file', target: ruleTarget, format: 'pdf' });
    const rule = await ruleWith({ name: 'Auto-print at the station', autoPrintLabels: true, labelPrinterId: elsewhere.id });
    const a4Target = freshFolder('station-a4');
    const labelTarget = freshFolder('station-labels');
    const a4 = await createPrinter(t, { name: 'Station 2 A4', driver: 'file', target: a4Target, format: 'pdf', labelSize: 'A4' });
    const labels = await createPrinter(t, { name: 'Station 2 labels', driver: 'file', target: labelTarget, format: 'pdf', labelSize: '100X150' });

    // A 100 × 150 PDF label: station 2's label printer, not the A4 one listed first, nor the rule's.
    const sent = await sendWithRule(rule.id, pdfCarrierId, { stationPrinterIds: ['prn_gone', a4.id, labels.id] });
    expect(sent.status).toBe(200);
    const jobs = (await t.request('GET', `${orgPath()}/print-jobs?shipmentId=${sent.body.id}`)).body.data;
    expect(jobs).toEqual([expect.objectContaining({ printerId: labels.id, status: 'done' })]);
    expect(readdirSync(labelTarget)).toHaveLength(1);
    expect(readdirSync(ruleTarget)).toEqual([]);

    // A ZPL label and only PDF printers at the station: drawn as PDF for the one with its media.
    const zplRule = await ruleWith({ name: 'Auto-print ZPL at the station', autoPrintLabels: true, labelPrinterId: elsewhere.id }, zplCarrierId);
    const zplSent = await sendWithRule(zplRule.id, zplCarrierId, { stationPrinterIds: [a4.id, labels.id] });
    const zplJobs = (await t.request('GET', `${orgPath()}/print-jobs?shipmentId=${zplSent.body.id}`)).body.data;
    expect(zplJobs).toEqual([expect.objectContaining({ printerId: labels.id, status: 'done' })]);
    expect(zplSent.body.activities.at(-1).description).toMatch(/printed on Station 2 labels, drawn as PDF for it$/);

    // Nothing at the station fits (only A4 media): the rule's printer, as without station printers.
    const fallback = await sendWithRule(rule.id, pdfCarrierId, { stationPrinterIds: [a4.id] });
    expect((await t.request('GET', `${orgPath()}/print-jobs?shipmentId=${fallback.body.id}`)).body.data).toEqual([
      expect.objectContaining({ printerId: elsewhere.id, status: 'done' }),
    ]);

    // Batch send carries them too; a malformed list is refused before anything is sent.
    const pending = await pendingWithRule(rule.id, pdfCarrierId);
    const batch = await t.request('POST', `${orgPath()}/shipments/batch-send`, { body: { shipmentIds: [pending], stationPrinterIds: [labels.id] } });
    expect(batch.body.summary).toEqual({ total: 1, sent: 1, failed: 0 });
    expect((await t.request('GET', `${orgPath()}/print-jobs?shipmentId=${pending}`)).body.data).toEqual([expect.objectContaining({ printerId: labels.id })]);
    const other = await pendingWithRule(rule.id, pdfCarrierId);
    const refused = await t.request('POST', `${orgPath()}/shipments/${other}/send`, { body: { stationPrinterIds: [] } });
    expect(refused.status).toBe(400);
    expect((await getShipment(other)).status).toBe('pending');
  });

  it('a rule with autoPrintLabels and a labelPrinterId prints the new labels (file driver)', async () => {
    const target = freshFolder('auto');
    const printer = await createPrinter(t, { name: 'Auto folder', driver: 'file', target, format: 'pdf' });
    const rule = await ruleWith({ name: 'Auto-print', autoPrintLabels: true, labelPrinterId: printer.id });
    const sent = await sendWithRule(rule.id, pdfCarrierId);
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe('dispatched');
    const [label] = sent.body.documents;
    expect(sent.body.activities.map((a: { action: string }) => a.action)).toContain('printed');
    expect(sent.body.errors).toEqual([]);
    const jobs = await t.request('GET', `${orgPath()}/print-jobs?shipmentId=${sent.body.id}`);
    expect(jobs.body.data).toEqual([expect.objectContaining({ printerId: printer.id, documentId: label.id, status: 'done', attempts: 1 })]);
    expect(readdirSync(target)).toEqual([`${sent.body.reference}-${label.id}-${jobs.body.data[0].id}-1.pdf`]);
  });

  it('an offline printer never fails the send: the job is failed, and the shipment says which label did not print where and why; a rule without the flag prints nothing', async () => {
    const port = await closedPort();
    const zebra = await createPrinter(t, { name: 'Offline Zebra', driver: 'raw', target: `127.0.0.1:${port}`, format: 'zpl' });
    const rule = await ruleWith({ name: 'Auto-print ZPL', autoPrintLabels: true, labelPrinterId: zebra.id }, zplCarrierId);
    const sent = await sendWithRule(rule.id, zplCarrierId);
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe('dispatched');
    const jobs = await t.request('GET', `${orgPath()}/print-jobs?shipmentId=${sent.body.id}&status=failed`);
    expect(jobs.body.data).toHaveLength(1);
    const [job] = jobs.body.data;
    expect(job.error).toContain(`Printer at 127.0.0.1:${port} did not answer`);
    const recorded = {
      id: expect.stringMatching(/^ser_/),
      code: 'AUTO_PRINT_FAILED',
      message: `Rule Auto-print ZPL asks to print the labels, but the label did not print on 'Offline Zebra': ${job.error} (print job ${job.id})`,
      createdAt: expect.any(String),
    };
    expect(sent.body.errors).toEqual([recorded]);
    expect((await getShipment(sent.body.id)).errors).toEqual([recorded]);

    const quiet = await ruleWith({ name: 'No auto-print', autoPrintLabels: false, labelPrinterId: zebra.id }, zplCarrierId);
    const silent = await sendWithRule(quiet.id, zplCarrierId);
    expect(silent.status).toBe(200);
    expect((await t.request('GET', `${orgPath()}/print-jobs?shipmentId=${silent.body.id}`)).body.total).toBe(0);
  });

  it('a missing hot folder: each failed label is recorded (label 1 of 2 …); retry once the folder exists prints it, and the record stays as history', async () => {
    const target = join(folder, 'auto-missing');
    const printer = await createPrinter(t, { name: 'Station hot folder', driver: 'file', target, format: 'pdf' });
    const rule = await ruleWith({ name: 'Auto-print to folder', autoPrintLabels: true, labelPrinterId: printer.id });
    const created = await t.request('POST', `${orgPath()}/shipments`, {
      body: shipmentBody(pdfCarrierId, { parcels: [...shipmentBody(pdfCarrierId).parcels, ...shipmentBody(pdfCarrierId).parcels] }),
    });
    await t.request('PATCH', `${orgPath()}/shipments/${created.body.id}`, { body: { shippingRuleId: rule.id } });
    const sent = await t.request('POST', `${orgPath()}/shipments/${created.body.id}/send`);
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe('dispatched');
    const jobs = (await t.request('GET', `${orgPath()}/print-jobs?shipmentId=${sent.body.id}`)).body.data.reverse();
    expect(jobs.map((job: { status: string; documentId: string }) => [job.documentId, job.status])).toEqual(
      sent.body.documents.map((doc: { id: string }) => [doc.id, 'failed']),
    );
    const reason = `Folder '${target}' does not exist on this computer; create it or change the printer's folder`;
    expect(sent.body.errors.map((error: { code: string; message: string }) => [error.code, error.message])).toEqual([
      [
        'AUTO_PRINT_FAILED',
        `Rule Auto-print to folder asks to print the labels, but label 1 of 2 did not print on 'Station hot folder': ${reason} (print job ${jobs[0].id})`,
      ],
      [
        'AUTO_PRINT_FAILED',
        `Rule Auto-print to folder asks to print the labels, but label 2 of 2 did not print on 'Station hot folder': ${reason} (print job ${jobs[1].id})`,
      ],
    ]);
    // No "printed" activity for a label that did not print.
    expect(sent.body.activities.some((activity: { action: string }) => activity.action === 'printed')).toBe(false);

    mkdirSync(target);
    expect((await retry(jobs[0].id)).body).toMatchObject({ status: 'done', attempts: 2, error: null });
    const after = await getShipment(sent.body.id);
    expect(after.activities.filter((activity: { action: string }) => activity.action === 'printed')).toHaveLength(1);
    // A retry is watched by whoever clicked it: it adds no error, and the send's record stays as it was.
    expect(after.errors).toEqual(sent.body.errors);
    expect(readdirSync(target)).toEqual([`${sent.body.reference}-${jobs[0].documentId}-${jobs[0].id}-2.pdf`]);
  });

  it('autoPrintLabels without a printer and without a default: the send succeeds, the shipment says why nothing printed, and the label waits in the log for a printer', async () => {
    const org = await t.createOrg('Auto-print without printers');
    const { carrierId, senderAddressId: sender } = await setupLocalCarrier(t, org);
    const rule = await t.request('POST', `/orgs/${org.orgId}/shipping-rules`, {
      token: org.token,
      body: shippingRuleBody(carrierId, sender, { name: 'Print please', receivingCountries: ['*'], conditions: [], autoPrintLabels: true }),
    });
    const created = await t.request('POST', `/orgs/${org.orgId}/shipments`, { token: org.token, body: shipmentBody(carrierId) });
    await t.request('PATCH', `/orgs/${org.orgId}/shipments/${created.body.id}`, { token: org.token, body: { shippingRuleId: rule.body.id } });
    const sent = await t.request('POST', `/orgs/${org.orgId}/shipments/${created.body.id}/send`, { token: org.token });
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe('dispatched');
    expect(sent.body.errors).toEqual([
      expect.objectContaining({
        code: 'AUTO_PRINT_FAILED',
        message: expect.stringMatching(
          /^Rule Print please asks to print the labels, but nothing was printed: No printer chosen and no default printer for PDF documents; choose a printer, or mark one as the default for PDF \(print jobs pjb_\w+, to retry once a printer is set up\)$/,
        ),
      }),
    ]);
    const label = sent.body.documents[0].id;
    const failed = await t.request('GET', `/orgs/${org.orgId}/print-jobs?status=failed&settled=false`, { token: org.token });
    expect(failed.body.data).toEqual([
      expect.objectContaining({
        printerId: null,
        documentId: label,
        shipmentId: sent.body.id,
        status: 'failed',
        attempts: 0,
        error: expect.stringContaining('no default printer for PDF'),
      }),
    ]);
    const jobId = failed.body.data[0].id;
    expect(sent.body.errors[0].message).toContain(jobId);

    // Still no printer: the retry fails and says what to do.
    const early = await t.request('POST', `/orgs/${org.orgId}/print-jobs/${jobId}/retry`, { token: org.token });
    expect(early.body).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: 'No printer to print on: choose a printer, or mark one as the default, and print again',
    });

    // Once a default printer exists, Retry prints the waiting label there.
    const target = mkdtempSync(join(tmpdir(), 'shipdesk-unprinted-'));
    const printer = await t.request('POST', `/orgs/${org.orgId}/printers`, {
      token: org.token,
      body: { name: 'Desk', driver: 'file', target, format: 'pdf', isDefault: true },
    });
    const retried = await t.request('POST', `/orgs/${org.orgId}/print-jobs/${jobId}/retry`, { token: org.token });
    expect(retried.body).toMatchObject({ status: 'done', printerId: printer.body.id, attempts: 2 });
    expect(readdirSync(target)).toHaveLength(1);
    expect((await t.request('GET', `/orgs/${org.orgId}/print-jobs?status=failed&settled=false`, { token: org.token })).body.data).toEqual([]);
  });
});
