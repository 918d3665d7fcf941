import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runStartupChores } from '../../app/runtime/startup';
import { encodeCode128 } from '../../documents/labelDrawing';
import { senderAddressBody, setupLocalCarrier, shipmentBody, startTestServer, type TestServer } from '../../testing/harness';
import { A4_POINTS, pdfText } from '../../testing/shippingPapers';

/**
 * Close-outs with the `local` carrier (no manifest call: the handover list is the whole close-out),
 * through real HTTP over a real SQLite file. The clock is the test's, so "dispatched 8 days ago" is a
 * shipment sent and then 8 days waited, not a row written by hand.
 */

let t: TestServer;
let clock = Date.parse('2026-11-20T09:00:00.000Z');
let carrierId: string;
let senderAddressId: string;
let otherAddressId: string;
let otherCarrierId: string;
let packer: string;
let viewer: string;

const orgPath = () => `/orgs/${t.org.orgId}`;
const day = 86_400_000;

beforeAll(async () => {
  t = await startTestServer({ now: () => new Date(clock) });
  t.app.db.$client.prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(t.org.orgId);
  ({ carrierId, senderAddressId } = await setupLocalCarrier(t));
  const other = await t.request('POST', `${orgPath()}/sender-addresses`, { body: senderAddressBody({ name: 'Second warehouse', address1: 'Havnevej 3' }) });
  otherAddressId = other.body.id;
  const second = await t.request('POST', `${orgPath()}/carriers`, { body: { name: 'Night van', carrierSlug: 'local', config: {}, senderAddressId } });
  otherCarrierId = second.body.id;
  // Made now: the owner's login that grants them expires while the test's clock runs on.
  packer = await t.tokenWithScopes(t.org, ['read:all', 'write:shipments']);
  viewer = await t.tokenWithScopes(t.org, ['read:all']);
});
afterAll(async () => t.close());

let counter = 0;
/** A dispatched shipment: created and sent through the API. */
async function dispatched(options: { carrier?: string; senderAddress?: string; parcels?: number[] } = {}) {
  const parcels = (options.parcels ?? [2.5]).map((weight) => ({ weight, weightUnit: 'kg', dimensions: { length: 30, width: 20, height: 10 }, orderLines: [] }));
  const created = await t.request('POST', `${orgPath()}/shipments`, {
    body: shipmentBody(options.carrier ?? carrierId, {
      reference: `CLOSE-${++counter}`,
      parcels,
      ...(options.senderAddress ? { senderAddressId: options.senderAddress } : {}),
    }),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const sent = await t.request('POST', `${orgPath()}/shipments/${created.body.id}/send`);
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return sent.body as { id: string; reference: string; tracking: { number: string } };
}

const closeOut = (body: object, token?: string) => t.request('POST', `${orgPath()}/close-outs`, { body, ...(token ? { token } : {}) });

/** Closes whatever waits, so each test starts from nothing waiting for the carriers. */
async function closeEverything() {
  for (const id of [carrierId, otherCarrierId]) {
    const res = await closeOut({ carrierId: id });
    expect([201, 409]).toContain(res.status);
  }
}

beforeEach(async () => {
  clock += day;
  await closeEverything();
});

describe('POST /close-outs', () => {
  it('closes every waiting shipment of the carrier with its parcels and weight, and answers 201 with the totals', async () => {
    const first = await dispatched({ parcels: [2.5, 1.25] });
    const second = await dispatched({ parcels: [4] });
    const otherCarrier = await dispatched({ carrier: otherCarrierId });
    const res = await closeOut({ carrierId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^clo_/),
      carrierId,
      senderAddressId: null,
      status: 'closed',
      carrierReference: null,
      createdAt: new Date(clock).toISOString(),
      shipments: [
        { id: first.id, reference: first.reference, trackingNumber: first.tracking.number, parcelCount: 2, weight: 3.75 },
        { id: second.id, reference: second.reference, trackingNumber: second.tracking.number, parcelCount: 1, weight: 4 },
      ],
      totals: { shipments: 2, parcels: 3, weight: 7.75 },
    });
    // The other carrier's shipment waits for its own close-out.
    expect((await t.request('GET', `${orgPath()}/close-outs/waiting`)).body.data).toEqual([
      { carrierId: otherCarrierId, shipments: 1, parcels: 1, weight: 2.5 },
    ]);
    expect((await t.request('GET', `${orgPath()}/close-outs/${res.body.id}`)).body).toEqual(res.body);
    // Each shipment says where it went.
    const read = (await t.request('GET', `${orgPath()}/shipments/${first.id}`)).body;
    expect(read.activities.at(-1).description).toBe(`Handed over to Own trucks in close-out ${res.body.id}`);
    expect(otherCarrier.id).toBeTruthy();
  });

  it('answers 409 NOTHING_TO_CLOSE when nothing waits, and 404 for an unknown carrier or sender address', async () => {
    const res = await closeOut({ carrierId });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'NOTHING_TO_CLOSE', error: 'Conflict' });
    expect(res.body.message).toBe(
      'No shipment of Own trucks is waiting to be handed over: every shipment dispatched in the last 7 days is in a close-out already',
    );
    expect((await closeOut({ carrierId: 'car_nope' })).body.code).toBe('CARRIER_NOT_FOUND');
    expect((await closeOut({ carrierId, senderAddressId: 'adr_nope' })).body.code).toBe('ADDRESS_NOT_FOUND');
    expect((await closeOut({ carrierId, extra: 1 })).status).toBe(400);
  });

  it('leaves out cancelled (voided) shipments, returns, shipments not yet sent and those dispatched more than 7 days ago', async () => {
    const old = await dispatched();
    clock += 8 * day;
    const voided = await dispatched();
    expect((await t.request('POST', `${orgPath()}/shipments/${voided.id}/cancel`)).status).toBe(200);
    const outbound = await dispatched();
    const returned = await t.request('POST', `${orgPath()}/shipments/${outbound.id}/create-return`);
    expect(returned.body).toMatchObject({ type: 'inbound', status: 'dispatched' });
    const draft = await t.request('POST', `${orgPath()}/shipments`, { body: shipmentBody(carrierId) });
    expect(draft.status).toBe(201);
    const res = await closeOut({ carrierId });
    expect(res.status).toBe(201);
    expect(res.body.shipments.map((shipment: { id: string }) => shipment.id)).toEqual([outbound.id]);
    expect(old.id).not.toBe(outbound.id);
  });

  it('closes only one sender address when asked, and the rest later', async () => {
    const here = await dispatched();
    const there = await dispatched({ senderAddress: otherAddressId });
    const first = await closeOut({ carrierId, senderAddressId: otherAddressId });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ senderAddressId: otherAddressId, totals: { shipments: 1 } });
    expect(first.body.shipments.map((shipment: { id: string }) => shipment.id)).toEqual([there.id]);
    expect((await closeOut({ carrierId, senderAddressId: otherAddressId })).status).toBe(409);
    const rest = await closeOut({ carrierId });
    expect(rest.body.shipments.map((shipment: { id: string }) => shipment.id)).toEqual([here.id]);
  });

  it('puts a shipment dispatched after a close-out into the next one', async () => {
    const before = await dispatched();
    const first = await closeOut({ carrierId });
    clock += 60_000;
    const after = await dispatched();
    const next = await closeOut({ carrierId });
    expect(first.body.shipments.map((shipment: { id: string }) => shipment.id)).toEqual([before.id]);
    expect(next.body.shipments.map((shipment: { id: string }) => shipment.id)).toEqual([after.id]);
    const list = await t.request('GET', `${orgPath()}/close-outs?carrierId=${carrierId}&limit=2`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((item: { id: string }) => item.id)).toEqual([next.body.id, first.body.id]);
    expect(list.body.data[0]).not.toHaveProperty('shipments');
    expect(list.body.limit).toBe(2);
    const otherCarrierList = await t.request('GET', `${orgPath()}/close-outs?carrierId=${otherCarrierId}`);
    expect(otherCarrierList.body.data.every((item: { carrierId: string }) => item.carrierId === otherCarrierId)).toBe(true);
  });

  it('refuses to cancel a shipment that was handed over', async () => {
    const shipment = await dispatched();
    const closed = await closeOut({ carrierId });
    const res = await t.request('POST', `${orgPath()}/shipments/${shipment.id}/cancel`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'SHIPMENT_INVALID_STATE' });
    expect(res.body.message).toContain(`handed over to the carrier in close-out ${closed.body.id}`);
    expect((await t.request('GET', `${orgPath()}/shipments/${shipment.id}`)).body.status).toBe('dispatched');
  });
});

describe('concurrency', () => {
  it('never puts a shipment in two close-outs nor leaves one out, with sends and close-outs in flight at once', async () => {
    // Shipments to send while close-outs run: created first, sent in the race below.
    const toSend = [];
    for (let i = 0; i < 12; i++) {
      const created = await t.request('POST', `${orgPath()}/shipments`, { body: shipmentBody(carrierId, { reference: `RACE-${i}` }) });
      toSend.push(created.body.id as string);
    }
    const already = [await dispatched(), await dispatched(), await dispatched()];
    const sends = toSend.map((id) => t.request('POST', `${orgPath()}/shipments/${id}/send`));
    const closes = Array.from({ length: 6 }, () => closeOut({ carrierId }));
    const [sent, closed] = await Promise.all([Promise.all(sends), Promise.all(closes)]);
    expect(sent.map((res) => res.status)).toEqual(toSend.map(() => 200));
    for (const res of closed) expect([201, 409]).toContain(res.status);
    // Whatever the race left is closed now.
    const last = await closeOut({ carrierId });
    expect([201, 409]).toContain(last.status);
    const all = [...closed, last].filter((res) => res.status === 201).flatMap((res) => res.body.shipments.map((shipment: { id: string }) => shipment.id));
    expect(all.length).toBe(new Set(all).size);
    expect(new Set(all)).toEqual(new Set([...toSend, ...already.map((shipment) => shipment.id)]));
    expect((await closeOut({ carrierId })).status).toBe(409);
  });

  it('releases a close-out left closing by a crash at start-up, so its shipments go into the next one', async () => {
    const shipment = await dispatched();
    // A crash between the claim and the carrier's answer leaves this behind.
    const sql = t.app.db.$client;
    sql
      .prepare(
        "INSERT INTO close_outs (id, org_id, carrier_id, status, shipment_count, parcel_count, weight, created_at, updated_at) VALUES (?, ?, ?, 'closing', 1, 1, 2.5, ?, ?)",
      )
      .run('clo_crashed', t.org.orgId, carrierId, new Date(clock).toISOString(), new Date(clock).toISOString());
    sql
      .prepare(
        'INSERT INTO close_out_shipments (shipment_id, close_out_id, position, reference, tracking_number, parcel_count, weight) VALUES (?, ?, 0, ?, ?, 1, 2.5)',
      )
      .run(shipment.id, 'clo_crashed', shipment.reference, shipment.tracking.number);
    expect((await closeOut({ carrierId })).status).toBe(409);
    expect((await t.request('GET', `${orgPath()}/close-outs/clo_crashed/content`)).status).toBe(409);
    runStartupChores(t.app);
    expect((await t.request('GET', `${orgPath()}/close-outs/clo_crashed`)).status).toBe(404);
    const res = await closeOut({ carrierId });
    expect(res.body.shipments.map((item: { id: string }) => item.id)).toEqual([shipment.id]);
  });
});

describe('the handover list', () => {
  it('is an A4 PDF served as application/pdf with the carrier, each reference and tracking number, the totals and a line for the driver', async () => {
    const shipments = [await dispatched({ parcels: [1, 2] }), await dispatched({ parcels: [0.5] })];
    const closed = await closeOut({ carrierId });
    const res = await t.request('GET', `${orgPath()}/close-outs/${closed.body.id}/content`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pdf = res.body as Buffer;
    const doc = await PDFDocument.load(pdf);
    const size = doc.getPage(0).getSize();
    expect(Math.abs(size.width - A4_POINTS.width)).toBeLessThan(0.5);
    expect(Math.abs(size.height - A4_POINTS.height)).toBeLessThan(0.5);
    const text = pdfText(pdf);
    expect(text).toContain('Handover list');
    expect(text).not.toContain('TEST');
    expect(text).toContain('Own trucks');
    for (const shipment of shipments) {
      expect(text).toContain(shipment.reference);
      expect(text).toContain(shipment.tracking.number);
    }
    expect(text).toMatch(/Total: 2 shipments, 3 parcels, 3\.5 kg/);
    expect(text).toContain("Driver's name");
    expect(text).toContain('Signature');
    expect(text).toContain('Date and time');
    // Each tracking number is a Code 128 barcode: the bars of the images are those of the numbers.
    expect(barcodeRuns(doc)).toEqual(shipments.map((shipment) => encodeCode128(shipment.tracking.number)));
  });

  it('flows a long close-out over several pages', async () => {
    for (let i = 0; i < 25; i++) await dispatched();
    const closed = await closeOut({ carrierId });
    expect(closed.body.totals.shipments).toBe(25);
    const pdf = (await t.request('GET', `${orgPath()}/close-outs/${closed.body.id}/content`)).body as Buffer;
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBeGreaterThan(1);
    const text = pdfText(pdf);
    for (const shipment of closed.body.shipments) expect(text).toContain(shipment.reference);
    expect(barcodeRuns(doc)).toHaveLength(25);
  });
});

describe('printing the handover list', () => {
  it('sends the stored list to the PDF printer named, or the default one; a ZPL printer or none at all is refused', async () => {
    await dispatched();
    const closed = await closeOut({ carrierId });
    const printPath = `${orgPath()}/close-outs/${closed.body.id}/print`;
    const none = await t.request('POST', printPath);
    expect(none.status).toBe(422);
    expect(none.body).toMatchObject({ code: 'PRINTER_OFFLINE' });
    const folder = mkdtempSync(join(tmpdir(), 'shipdesk-handover-'));
    try {
      const zpl = await t.request('POST', `${orgPath()}/printers`, {
        body: { name: 'Label printer', driver: 'file', target: folder, format: 'zpl', labelSize: '100X150' },
      });
      const refused = await t.request('POST', printPath, { body: { printerId: zpl.body.id } });
      expect(refused.status).toBe(400);
      const office = await t.request('POST', `${orgPath()}/printers`, {
        body: { name: 'Office laser', driver: 'file', target: folder, format: 'pdf', labelSize: 'A4', isDefault: true },
      });
      const printed = await t.request('POST', printPath, { token: packer });
      expect(printed.status, JSON.stringify(printed.body)).toBe(200);
      expect(printed.body).toMatchObject({
        printerId: office.body.id,
        printerName: 'Office laser',
        pageCount: 1,
        message: "The handover list for Own trucks (1 shipment, 1 page) went to 'Office laser'.",
      });
      const files = readdirSync(folder);
      expect(files).toHaveLength(1);
      // The paper the driver signs is the one made at close, byte for byte.
      const stored = (await t.request('GET', `${orgPath()}/close-outs/${closed.body.id}/content`)).body as Buffer;
      expect(readFileSync(join(folder, files[0] as string)).equals(stored)).toBe(true);
      expect((await t.request('POST', printPath, { token: viewer })).status).toBe(403);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('scope', () => {
  it('lets a packer close out and read, and a viewer only read', async () => {
    await dispatched();
    const refused = await closeOut({ carrierId }, viewer);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('write:shipments');
    const closed = await closeOut({ carrierId }, packer);
    expect(closed.status).toBe(201);
    expect((await t.request('GET', `${orgPath()}/close-outs/${closed.body.id}`, { token: viewer })).status).toBe(200);
    expect((await t.request('GET', `${orgPath()}/close-outs/${closed.body.id}/content`, { token: viewer })).status).toBe(200);
    clock = Date.now();
    const other = await t.createOrg();
    expect((await t.request('GET', `/orgs/${other.orgId}/close-outs/${closed.body.id}`, { token: other.token })).status).toBe(404);
  });
});

/** The bar widths of each barcode image on every page, in the order drawn. */
function barcodeRuns(doc: PDFDocument): number[][] {
  const all: number[][] = [];
  for (const page of doc.getPages()) {
    const xObjects = page.node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict);
    for (const [, ref] of xObjects?.entries() ?? []) {
      const stream = doc.context.lookup(ref);
      if (!(stream instanceof PDFRawStream) || stream.dict.get(PDFName.of('Subtype')) !== PDFName.of('Image')) continue;
      const row = [...stream.contents].map((byte) => byte === 0x00);
      const first = row.indexOf(true);
      const last = row.lastIndexOf(true);
      const runs: number[] = [];
      for (let i = first; i <= last;) {
        let j = i;
        while (j <= last && row[j] === row[i]) j += 1;
        runs.push(j - i);
        i = j;
      }
      all.push(runs);
    }
  }
  return all;
}
