import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { labelDimensions } from '../../documents/labelSizes';
import { LabelRenderError, renderLabel } from '../../documents/label';
import { runStartupChores } from '../../app/runtime/startup';
import { receiverParty, senderAddressBody, setupLocalCarrier, shipmentBody, startTestServer, type TestServer } from '../../testing/harness';
import type * as registry from '../../carriers/registry';
import type * as labelModule from '../../documents/label';
import type { CarrierAdapter } from '../../carriers/adapter';

// The real renderer, wrapped so one test can make a single booking fail the way a broken label would.
vi.mock('../../documents/label', async (importOriginal) => {
  const original = await importOriginal<typeof labelModule>();
  return { ...original, renderLabel: vi.fn(original.renderLabel) };
});

// `local` has no secret; a stand-in courier books like it but logs its API key, so masking is tested.
vi.mock('../../carriers/registry', async (importOriginal) => {
  const original = await importOriginal<typeof registry>();
  const local = original.carrierAdapters[0] as CarrierAdapter;
  const secretCourier: CarrierAdapter = {
    ...local,
    slug: 'test-secret',
    checkConfig: undefined,
    describe: {
      ...local.describe,
      name: 'Secret courier',
      fields: [{ name: 'API key', key: 'apiKey', type: 'password', description: '', options: [], required: true }],
    },
    book: async (context, request) => {
      const result = await local.book(context, request);
      const apiKey = String(context.config.apiKey);
      // In place of the local carrier's own entry: a call that echoes the key every way a carrier might.
      context.http.calls.splice(0, context.http.calls.length, {
        request: { apiKey, headers: { authorization: `Bearer ${apiKey}` }, reference: request.reference },
        response: { echo: `key ${apiKey} accepted` },
        statusCode: 201,
        error: null,
        durationMs: 7,
      });
      return result;
    },
  };
  return { carrierAdapters: [...original.carrierAdapters, secretCourier] };
});

let t: TestServer;
let carrierId: string;

const sql = () => t.app.db.$client;
const shipmentsPath = () => `/orgs/${t.org.orgId}/shipments`;

beforeAll(async () => {
  t = await startTestServer();
  // Every label size gets its own carrier; the plan's carrier limit is not what is tested here.
  sql().prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(t.org.orgId);
  ({ carrierId } = await setupLocalCarrier(t, t.org, { trackingPrefix: 'ACME', trackingUrlTemplate: 'https://track.example/{trackingNumber}' }));
});
afterAll(async () => t.close());

async function create(body: Record<string, unknown>) {
  const res = await t.request('POST', shipmentsPath(), { body });
  if (res.status !== 201) throw new Error(`create: ${JSON.stringify(res.body)}`);
  return res.body;
}

const send = (id: string) => t.request('POST', `${shipmentsPath()}/${id}/send`);
const get = async (id: string) => (await t.request('GET', `${shipmentsPath()}/${id}`)).body;
const trackingSeq = () => (sql().prepare('SELECT tracking_seq AS n FROM orgs WHERE id = ?').get(t.org.orgId) as { n: number }).n;

function parcel(weight: number) {
  return { weight, weightUnit: 'kg', dimensions: { length: 30, width: 20, height: 10 }, orderLines: [{ sku: 'MUG-01', quantity: 1 }] };
}

async function pageSizeOf(base64: string) {
  const pdf = await PDFDocument.load(Buffer.from(base64, 'base64'));
  expect(pdf.getPageCount()).toBe(1);
  return (pdf.getPage(0) as ReturnType<PDFDocument['getPage']>).getSize();
}

function eventsFor(shipmentId: string) {
  return (
    sql().prepare('SELECT type, payload FROM outbox_events WHERE org_id = ? ORDER BY created_at, id').all(t.org.orgId) as { type: string; payload: string }[]
  )
    .map((row) => ({ type: row.type, payload: JSON.parse(row.payload) }))
    .filter((event) => event.payload.data?.id === shipmentId || event.payload.data?.shipmentId === shipmentId);
}

describe('send', () => {
  it('books: dispatched, tracking, one label per parcel, activities, logs and events', async () => {
    const shipment = await create(shipmentBody(carrierId, { parcels: [parcel(2.5), parcel(4)] }));
    const seqBefore = trackingSeq();
    const res = await send(shipment.id);
    expect(res.status).toBe(200);
    const sent = res.body;
    expect(sent.status).toBe('dispatched');
    expect(trackingSeq()).toBe(seqBefore + 1);
    expect(sent.tracking.number).toBe(`ACME${String(seqBefore + 1).padStart(9, '0')}`);
    expect(sent.tracking.url).toBe(`https://track.example/${sent.tracking.number}`);

    expect(sent.documents).toHaveLength(2);
    for (const document of sent.documents) {
      expect(document).toMatchObject({ shipmentId: shipment.id, documentType: 'label', format: 'pdf', size: '100X150' });
      expect(Buffer.from(document.content, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    }
    const rows = sql().prepare('SELECT parcel_id FROM documents WHERE shipment_id = ? ORDER BY created_at, id').all(shipment.id) as { parcel_id: string }[];
    expect(rows.map((row) => row.parcel_id).sort()).toEqual(shipment.parcels.map((p: { id: string }) => p.id).sort());

    expect(sent.activities.map((a: { action: string }) => a.action)).toEqual(['created', 'status_changed', 'sent']);
    expect(sent.activities[1].description).toContain('pending → processing');
    expect(sent.activities[2].description).toContain(sent.tracking.number);
    expect(sent.errors).toEqual([]);
    expect(sent.logs).toHaveLength(1);
    expect(sent.logs[0]).toMatchObject({ direction: 'carrier', statusCode: null, error: null });
    expect(sent.logs[0].request).toMatchObject({ operation: 'book', productId: 'local_parcel', parcels: 2, label: { size: '100X150', format: 'pdf' } });
    expect(sent.logs[0].response).toMatchObject({ trackingNumber: sent.tracking.number });

    const events = eventsFor(shipment.id);
    expect(events.map((event) => event.type)).toEqual(['shipment.created', 'shipment.dispatched', 'tracking.updated']);
    expect(events[1]!.payload.data.status).toBe('dispatched');
    expect(events[2]!.payload.data.tracking).toEqual(sent.tracking);

    // The answer is the shipment as read, plus the print jobs the send started (none without a rule).
    const { printJobs, ...shipmentFields } = sent;
    expect(printJobs).toEqual([]);
    expect(await get(shipment.id)).toEqual(shipmentFields);
  });

  it('leaves the tracking url empty when the carrier has no tracking page', async () => {
    const plain = await setupLocalCarrier(t);
    const shipment = await create(shipmentBody(plain.carrierId));
    const sent = (await send(shipment.id)).body;
    expect(sent.tracking).toMatchObject({ number: expect.stringMatching(/^LOC\d{9}$/), url: '' });
  });

  it.each(['A4', 'A6', '100X150', '100X192'] as const)('renders %s labels at their physical size', async (labelSize) => {
    const sized = await setupLocalCarrier(t, t.org, { labelSize });
    const shipment = await create(shipmentBody(sized.carrierId));
    const sent = (await send(shipment.id)).body;
    expect(sent.documents[0]).toMatchObject({ format: 'pdf', size: labelSize });
    const { width, height } = await pageSizeOf(sent.documents[0].content);
    expect(width).toBeCloseTo(labelDimensions[labelSize].widthPt, 1);
    expect(height).toBeCloseTo(labelDimensions[labelSize].heightPt, 1);
  });

  it('renders ZPL when the carrier asks for it, served as application/zpl', async () => {
    const thermal = await setupLocalCarrier(t, t.org, { labelFormat: 'zpl', labelSize: '100X150' });
    const shipment = await create(shipmentBody(thermal.carrierId));
    const sent = (await send(shipment.id)).body;
    const document = sent.documents[0];
    expect(document).toMatchObject({ format: 'zpl', size: '100X150' });
    const zpl = Buffer.from(document.content, 'base64').toString('utf8');
    expect(zpl.startsWith('^XA')).toBe(true);
    expect(zpl).toContain('^PW800');
    expect(zpl).toContain(sent.tracking.number);
    const file = await t.request('GET', `${shipmentsPath()}/${shipment.id}/documents/${document.id}/content`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/zpl');
    expect(Buffer.compare(file.body, Buffer.from(document.content, 'base64'))).toBe(0);
  });

  it('refuses an incomplete shipment with everything missing listed, changing nothing', async () => {
    // No parties given: only the sender party is built from the address, so there is no receiver.
    const noReceiver = await create(shipmentBody(carrierId, { parties: undefined }));
    const zeroWeight = await create(shipmentBody(carrierId, { parcels: [parcel(1), parcel(0)] }));
    const noParcels = await create(shipmentBody(carrierId, { parcels: undefined }));
    const neither = await create(shipmentBody(carrierId, { parties: undefined, parcels: undefined }));
    const seqBefore = trackingSeq();
    const eventsBefore = (sql().prepare('SELECT count(*) AS n FROM outbox_events').get() as { n: number }).n;

    const cases: [string, RegExp[]][] = [
      [noReceiver.id, [/receiver/]],
      [zeroWeight.id, [/weight above 0 for parcel 2/]],
      [noParcels.id, [/at least one parcel/]],
      [neither.id, [/receiver/, /at least one parcel/]],
    ];
    for (const [id, expected] of cases) {
      const before = await get(id);
      const res = await send(id);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('SHIPMENT_INCOMPLETE');
      for (const pattern of expected) expect(res.body.message).toMatch(pattern);
      expect(res.body.details.length).toBe(expected.length);
      expect(await get(id)).toEqual(before);
    }
    expect(res422Paths((await send(zeroWeight.id)).body)).toEqual(['parcels.1.weight']);
    expect(trackingSeq()).toBe(seqBefore);
    expect((sql().prepare('SELECT count(*) AS n FROM outbox_events').get() as { n: number }).n).toBe(eventsBefore);
  });

  it('refuses a product the carrier does not offer', async () => {
    const shipment = await create(shipmentBody(carrierId));
    sql().prepare("UPDATE shipments SET product_id = 'gone_product' WHERE id = ?").run(shipment.id);
    const res = await send(shipment.id);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('SHIPMENT_INCOMPLETE');
    expect(res.body.message).toContain('gone_product');
    expect(res422Paths(res.body)).toEqual(['carrierSettings.productId']);
  });

  it('sends only from pending or error', async () => {
    for (const status of ['draft', 'cancelled', 'on_hold']) {
      const shipment = await create(shipmentBody(carrierId, { status }));
      const res = await send(shipment.id);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('SHIPMENT_INVALID_STATE');
      expect(res.body.message).toContain(`is ${status}`);
      expect((await get(shipment.id)).status).toBe(status);
    }
    const once = await create(shipmentBody(carrierId));
    expect((await send(once.id)).status).toBe(200);
    const twice = await send(once.id);
    expect(twice.status).toBe(409);
    expect(twice.body.message).toContain('is dispatched');
    expect((await get(once.id)).documents).toHaveLength(1);

    const failed = await create(shipmentBody(carrierId, { status: 'error' }));
    const retried = await send(failed.id);
    expect(retried.status).toBe(200);
    expect(retried.body.status).toBe('dispatched');
    expect(retried.body.activities[1].description).toContain('error → processing');

    expect((await send('shp_unknown')).body.code).toBe('SHIPMENT_NOT_FOUND');
  });

  it('puts the shipment in error with the carrier errors when booking fails, and sends again later', async () => {
    const shipment = await create(shipmentBody(carrierId));
    vi.mocked(renderLabel).mockRejectedValueOnce(new LabelRenderError('LABEL_BARCODE_FAILED', 'Code 128 of ACME1 failed: no bars'));
    const res = await send(shipment.id);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'CARRIER_ERROR',
      errors: [{ code: 'LABEL_BARCODE_FAILED', message: 'Code 128 of ACME1 failed: no bars' }],
    });

    const failed = await get(shipment.id);
    expect(failed.status).toBe('error');
    expect(failed.documents).toEqual([]);
    expect(failed).not.toHaveProperty('tracking');
    expect(failed.errors).toEqual([expect.objectContaining({ code: 'LABEL_BARCODE_FAILED', message: 'Code 128 of ACME1 failed: no bars' })]);
    expect(failed.activities.map((a: { action: string }) => a.action)).toEqual(['created', 'status_changed', 'send_failed']);
    expect(failed.logs).toEqual([expect.objectContaining({ direction: 'carrier', error: 'Code 128 of ACME1 failed: no bars', response: null })]);
    expect(eventsFor(shipment.id).map((event) => event.type)).toEqual(['shipment.created', 'shipment.error']);

    const again = await send(shipment.id);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('dispatched');
    expect(again.body.errors).toHaveLength(1);
  });

  it('never writes a carrier secret into the logs', async () => {
    const address = (await t.request('POST', `/orgs/${t.org.orgId}/sender-addresses`, { body: senderAddressBody() })).body;
    const apiKey = 'sk_live_very_secret_4242';
    const courier = await t.request('POST', `/orgs/${t.org.orgId}/carriers`, {
      body: { name: 'Secret courier', carrierSlug: 'test-secret', config: { apiKey }, senderAddressId: address.id },
    });
    expect(courier.status).toBe(201);
    const shipment = await create(shipmentBody(courier.body.id));
    const sent = (await send(shipment.id)).body;
    expect(sent.status).toBe('dispatched');
    expect(sent.logs[0]).toMatchObject({
      statusCode: 201,
      request: { apiKey: '••••', headers: { authorization: 'Bearer ••••' } },
      response: { echo: 'key •••• accepted' },
    });
    const stored = sql().prepare('SELECT request, response FROM shipment_logs WHERE shipment_id = ?').all(shipment.id);
    expect(JSON.stringify(stored)).not.toContain(apiKey);
  });

  it('derives the order status from the send', async () => {
    const channel = await t.request('POST', `/orgs/${t.org.orgId}/order-channels`, { body: { name: 'Webshop', type: 'manual' } });
    const newOrder = async (orderNumber: string) => {
      const res = await t.request('POST', `/orgs/${t.org.orgId}/orders`, {
        body: {
          orderNumber,
          orderChannelId: channel.body.id,
          orderLines: [{ name: 'Mug', sku: 'MUG-01', quantity: 2, weight: 0.4, weightUnit: 'kg' }],
          shippingAddress: { name: 'Jens Hansen', address1: 'Nørregade 1', city: 'København K', postalCode: '1165', countryCode: 'DK' },
        },
      });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const orderStatus = async (orderId: string) => (await t.request('GET', `/orgs/${t.org.orgId}/orders/${orderId}`)).body.status;

    const fulfilledOrder = await newOrder('SEND-1');
    const ok = await create({ type: 'outbound', carrierSettings: { carrierId, productId: 'local_parcel' }, orderId: fulfilledOrder });
    expect(await orderStatus(fulfilledOrder)).toBe('processing');
    expect((await send(ok.id)).status).toBe(200);
    expect(await orderStatus(fulfilledOrder)).toBe('fulfilled');

    const failingOrder = await newOrder('SEND-2');
    const bad = await create({ type: 'outbound', carrierSettings: { carrierId, productId: 'local_parcel' }, orderId: failingOrder });
    vi.mocked(renderLabel).mockRejectedValueOnce(new Error('renderer crashed'));
    const failed = await send(bad.id);
    expect(failed.body.errors).toEqual([{ code: 'BOOKING_FAILED', message: 'renderer crashed' }]);
    expect(await orderStatus(failingOrder)).toBe('error');
  });
});

describe('crash recovery', () => {
  it('moves shipments left in processing by a send to error at start-up, with an explanation', async () => {
    const shipment = await create(shipmentBody(carrierId));
    const untouched = await create(shipmentBody(carrierId));
    // A send that stops inside the carrier call, as a crash would leave it.
    let interrupt!: (error: Error) => void;
    vi.mocked(renderLabel).mockReturnValueOnce(new Promise((_, reject) => (interrupt = reject)));
    const inFlight = send(shipment.id);
    await vi.waitFor(async () => expect((await get(shipment.id)).status).toBe('processing'));
    expect((await send(shipment.id)).status).toBe(409);

    runStartupChores(t.app);

    const recovered = await get(shipment.id);
    expect(recovered.status).toBe('error');
    expect(recovered.errors).toEqual([expect.objectContaining({ code: 'SEND_INTERRUPTED', message: expect.stringContaining('Check with the carrier') })]);
    expect(recovered.activities.at(-1)).toMatchObject({ action: 'send_failed' });
    expect(eventsFor(shipment.id).at(-1)?.type).toBe('shipment.error');
    expect((await get(untouched.id)).status).toBe('pending');
    expect(sql().prepare("SELECT count(*) AS n FROM shipments WHERE status = 'processing'").get()).toEqual({ n: 0 });

    // (In a real restart the process that was sending is gone; here its call is ended.)
    interrupt(new Error('the process is gone'));
    await inFlight;
    // Recovered shipments can be sent again.
    expect((await send(shipment.id)).body.status).toBe('dispatched');
  });

  it('leaves a shipment created as processing (history from another system) as it is', async () => {
    const imported = await create(shipmentBody(carrierId, { status: 'processing' }));
    expect(imported.status).toBe('processing');

    runStartupChores(t.app);

    const after = await get(imported.id);
    expect(after.status).toBe('processing');
    expect(after.errors).toEqual([]);
    expect(eventsFor(imported.id).map((event) => event.type)).toEqual(['shipment.created']);
  });
});

describe('batch send', () => {
  it('sends each shipment on its own and reports every result', async () => {
    const ok = await create(shipmentBody(carrierId));
    const incomplete = await create(shipmentBody(carrierId, { parties: [receiverParty()], parcels: [parcel(0)] }));
    const alsoOk = await create(shipmentBody(carrierId));
    const res = await t.request('POST', `${shipmentsPath()}/batch-send`, { body: { shipmentIds: [ok.id, incomplete.id, 'shp_nope', alsoOk.id] } });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { shipmentId: ok.id, status: 'sent' },
      { shipmentId: incomplete.id, status: 'failed', code: 'SHIPMENT_INCOMPLETE', message: expect.stringContaining('weight above 0') },
      { shipmentId: 'shp_nope', status: 'failed', code: 'SHIPMENT_NOT_FOUND', message: expect.any(String) },
      { shipmentId: alsoOk.id, status: 'sent' },
    ]);
    expect(res.body.summary).toEqual({ total: 4, sent: 2, failed: 2 });
    expect((await get(ok.id)).status).toBe('dispatched');
    expect((await get(incomplete.id)).status).toBe('pending');
    expect((await get(alsoOk.id)).status).toBe('dispatched');
  });

  it('reports carrier errors with their codes and validates the body', async () => {
    const shipment = await create(shipmentBody(carrierId));
    vi.mocked(renderLabel).mockRejectedValueOnce(new LabelRenderError('LABEL_TRACKING_NUMBER_INVALID', 'not printable'));
    const res = await t.request('POST', `${shipmentsPath()}/batch-send`, { body: { shipmentIds: [shipment.id] } });
    expect(res.body.results[0]).toMatchObject({
      status: 'failed',
      code: 'CARRIER_ERROR',
      message: expect.stringContaining('LABEL_TRACKING_NUMBER_INVALID: not printable'),
    });
    expect(res.body.summary).toEqual({ total: 1, sent: 0, failed: 1 });
    expect((await t.request('POST', `${shipmentsPath()}/batch-send`, { body: { shipmentIds: [] } })).status).toBe(400);
  });
});

describe('document content', () => {
  it('serves the raw PDF with its type and a file name; the bytes are the base64 of the read', async () => {
    const sent = (await send((await create(shipmentBody(carrierId, { reference: 'ORD 7/"x"' }))).id)).body;
    const document = sent.documents[0];
    const file = await t.request('GET', `${shipmentsPath()}/${sent.id}/documents/${document.id}/content`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toBe(`inline; filename="ORD_7_x_-label-${document.id}.pdf"`);
    expect(Buffer.compare(file.body, Buffer.from(document.content, 'base64'))).toBe(0);
  });

  it('answers 404 for unknown documents and for documents of another shipment or organization', async () => {
    const sent = (await send((await create(shipmentBody(carrierId))).id)).body;
    const other = await create(shipmentBody(carrierId));
    const documentId = sent.documents[0].id;
    const unknown = await t.request('GET', `${shipmentsPath()}/${sent.id}/documents/doc_unknown/content`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('SHIPMENT_DOCUMENT_NOT_FOUND');
    const wrongShipment = await t.request('GET', `${shipmentsPath()}/${other.id}/documents/${documentId}/content`);
    expect(wrongShipment.body.code).toBe('SHIPMENT_DOCUMENT_NOT_FOUND');

    const orgB = await t.createOrg();
    const carrierB = await setupLocalCarrier(t, orgB);
    const shipmentB = (await t.request('POST', `/orgs/${orgB.orgId}/shipments`, { token: orgB.token, body: shipmentBody(carrierB.carrierId) })).body;
    const viaOwnShipment = await t.request('GET', `/orgs/${orgB.orgId}/shipments/${shipmentB.id}/documents/${documentId}/content`, { token: orgB.token });
    expect(viaOwnShipment.status).toBe(404);
    expect(viaOwnShipment.body.code).toBe('SHIPMENT_DOCUMENT_NOT_FOUND');
    const viaForeignShipment = await t.request('GET', `/orgs/${orgB.orgId}/shipments/${sent.id}/documents/${documentId}/content`, { token: orgB.token });
    expect(viaForeignShipment.status).toBe(404);
    expect(viaForeignShipment.body.code).toBe('SHIPMENT_NOT_FOUND');
    const sendForeign = await t.request('POST', `/orgs/${orgB.orgId}/shipments/${other.id}/send`, { token: orgB.token });
    expect(sendForeign.body.code).toBe('SHIPMENT_NOT_FOUND');
    expect((await get(other.id)).status).toBe('pending');
  });
});

function res422Paths(body: { details?: { path: string }[] }): string[] {
  return (body.details ?? []).map((detail) => detail.path);
}
