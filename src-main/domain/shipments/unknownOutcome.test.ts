/**
 * decisions §13, never-doubled booking, through the real send with a stand-in carrier that books
 * over HTTP with a small carrier server of this test: a booking whose answer is lost leaves the
 * shipment in error with CARRIER_OUTCOME_UNKNOWN; the next send asks the carrier for the reference
 * and takes the booking it finds; a carrier that cannot be asked needs `confirmRebook`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { recoverInterruptedBookings } from './booking';
import { senderAddressBody, shipmentBody, startTestServer, type TestServer } from '../../testing/harness';
import type * as registry from '../../carriers/registry';
import type { BookingRequest, BookingResult, CarrierAdapter, CarrierCallContext } from '../../carriers/adapter';
import { carrierAuthFailed, carrierRefused } from '../../carriers/errors';

/** What the carrier server holds, and how it misbehaves next. */
const carrier = {
  bookings: new Map<string, { number: string; parcels: number }>(),
  bookCalls: 0,
  /** Book, then never answer: the client's time limit ends the call. */
  swallowNextAnswer: false,
  failNext: null as null | 400 | 401 | 503,
};

function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => resolve(text ? (JSON.parse(text) as Record<string, unknown>) : {}));
  });
}

async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://carrier');
  const reply = (status: number, body: unknown): void => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  if (request.method === 'POST' && url.pathname === '/bookings') {
    const body = await readBody(request);
    carrier.bookCalls++;
    const failure = carrier.failNext;
    carrier.failNext = null;
    if (failure === 400) return reply(400, { errors: [{ code: 'E_POSTCODE', message: 'Unknown postal code 0000' }] });
    if (failure === 401) return reply(401, { message: 'API key not valid' });
    if (failure === 503) return reply(503, { message: 'busy' });
    const reference = String(body.reference);
    const number = `TC${String(carrier.bookings.size + 1).padStart(8, '0')}`;
    carrier.bookings.set(reference, { number, parcels: Number(body.parcels) });
    if (carrier.swallowNextAnswer) {
      carrier.swallowNextAnswer = false;
      return; // Booked, but the answer never comes.
    }
    return reply(201, { number });
  }
  if (request.method === 'GET' && url.pathname === '/bookings') {
    const found = carrier.bookings.get(url.searchParams.get('reference') ?? '');
    return reply(200, { bookings: found ? [found] : [] });
  }
  return reply(404, { message: 'no such path' });
}

let server: Server;
let carrierUrl = '';

function resultOf(request: BookingRequest, number: string): BookingResult {
  return {
    trackingNumber: number,
    trackingUrl: null,
    parcels: request.parcels.map((parcel, index) => ({ parcelId: parcel.parcelId, trackingNumber: `${number}-${index + 1}`, parcelNumber: null })),
    labels: [{ parcelId: null, format: 'zpl', size: '100X150', content: Buffer.from(`^XA^FD${number}^FS^XZ`) }],
    booking: { number },
  };
}

async function book(context: CarrierCallContext, request: BookingRequest): Promise<BookingResult> {
  const response = await context.http.request({
    operation: 'book',
    method: 'POST',
    url: `${carrierUrl}/bookings`,
    json: { reference: request.reference, parcels: request.parcels.length },
    idempotent: false,
  });
  if (response.status === 401) throw carrierAuthFailed('API key not valid');
  if (response.status >= 400) throw carrierRefused((response.json as { errors: { code: string; message: string }[] }).errors);
  return resultOf(request, (response.json as { number: string }).number);
}

async function findBooking(context: CarrierCallContext, request: BookingRequest): Promise<BookingResult | null> {
  const response = await context.http.request({
    operation: 'findBooking',
    method: 'GET',
    url: `${carrierUrl}/bookings`,
    query: { reference: request.reference },
    idempotent: true,
  });
  const found = (response.json as { bookings: { number: string }[] }).bookings[0];
  return found ? resultOf(request, found.number) : null;
}

vi.mock('../../carriers/registry', async (importOriginal) => {
  const original = await importOriginal<typeof registry>();
  const local = original.carrierAdapters[0] as CarrierAdapter;
  const remote = { origins: { production: 'https://carrier.example', sandbox: 'https://sandbox.carrier.example' } };
  const askable: CarrierAdapter = {
    ...local,
    slug: 'test-askable',
    checkConfig: undefined,
    remote,
    describe: { ...local.describe, name: 'Askable courier', fields: [] },
    book,
    findBooking,
    redrawLabel: undefined,
  };
  const unaskable: CarrierAdapter = { ...askable, slug: 'test-unaskable', describe: { ...askable.describe, name: 'Unaskable courier' } };
  delete unaskable.findBooking;
  return { carrierAdapters: [...original.carrierAdapters, askable, unaskable] };
});

let t: TestServer;
const carriers: Record<string, string> = {};
const base = () => `/orgs/${t.org.orgId}/shipments`;

beforeAll(async () => {
  server = createServer((request, response) => void serve(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  carrierUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await startTestServer({ carrierHttp: { timeoutMs: 400, backoffMs: 5 } });
  t.app.db.$client.prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(t.org.orgId);
  const address = (await t.request('POST', `/orgs/${t.org.orgId}/sender-addresses`, { body: senderAddressBody() })).body;
  for (const slug of ['test-askable', 'test-unaskable']) {
    const created = await t.request('POST', `/orgs/${t.org.orgId}/carriers`, {
      body: { name: slug, carrierSlug: slug, config: {}, senderAddressId: address.id },
    });
    expect(created.status).toBe(201);
    carriers[slug] = created.body.id;
  }
});
afterAll(async () => {
  await t.close();
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  carrier.swallowNextAnswer = false;
  carrier.failNext = null;
});

async function newShipment(slug: string, parcels = 2) {
  const parcel = { weight: 1, weightUnit: 'kg', dimensions: { length: 10, width: 10, height: 10 }, orderLines: [] };
  const res = await t.request('POST', base(), { body: shipmentBody(carriers[slug] as string, { parcels: Array(parcels).fill(parcel) }) });
  expect(res.status).toBe(201);
  return res.body as { id: string; reference: string };
}
const send = (id: string, body?: unknown) => t.request('POST', `${base()}/${id}/send`, body === undefined ? {} : { body });
const get = async (id: string) => (await t.request('GET', `${base()}/${id}`)).body;

describe('a booking whose answer is lost', () => {
  it('is 422 CARRIER_OUTCOME_UNKNOWN; the next send finds it by reference and books nothing twice', async () => {
    const shipment = await newShipment('test-askable');
    carrier.swallowNextAnswer = true;
    const first = await send(shipment.id);
    expect(first.status).toBe(422);
    expect(first.body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    const inError = await get(shipment.id);
    expect(inError.status).toBe('error');
    expect(inError.errors.map((error: { code: string }) => error.code)).toContain('CARRIER_OUTCOME_UNKNOWN');
    expect(inError.logs).toEqual([expect.objectContaining({ direction: 'carrier', statusCode: null, error: expect.stringContaining('time limit') })]);

    // Meanwhile it is neither deleted, cancelled nor renamed: the reference is what the carrier is asked for.
    for (const [method, path, body] of [
      ['DELETE', `${base()}/${shipment.id}`, undefined],
      ['POST', `${base()}/${shipment.id}/cancel`, undefined],
      ['PATCH', `${base()}/${shipment.id}`, { reference: 'RENAMED-1' }],
    ] as const) {
      const refused = await t.request(method, path, body === undefined ? {} : { body });
      expect(refused.status, `${method} ${path}`).toBe(409);
      expect(refused.body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    }

    const callsBefore = carrier.bookCalls;
    const again = await send(shipment.id);
    expect(again.status).toBe(200);
    expect(carrier.bookCalls).toBe(callsBefore);
    const booked = carrier.bookings.get(shipment.reference);
    expect(again.body).toMatchObject({ status: 'dispatched', tracking: { number: booked?.number, status: 'pending' } });
    expect(again.body.parcels.map((parcel: { trackingNumber: string }) => parcel.trackingNumber)).toEqual([`${booked?.number}-1`, `${booked?.number}-2`]);
    expect(again.body.activities.at(-1).description).toContain('Found the earlier booking');
    // One file for the whole shipment, kept as the carrier sent it.
    expect(again.body.documents).toEqual([expect.objectContaining({ documentType: 'label', format: 'zpl' })]);
    expect(Buffer.from(again.body.documents[0].content, 'base64').toString()).toBe(`^XA^FD${booked?.number}^FS^XZ`);
  });

  it('is booked when the carrier says it has no such booking', async () => {
    const shipment = await newShipment('test-askable', 1);
    carrier.failNext = 503;
    const first = await send(shipment.id);
    expect(first.status).toBe(422);
    expect(first.body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    expect(carrier.bookings.has(shipment.reference)).toBe(false);
    const again = await send(shipment.id);
    expect(again.status).toBe(200);
    expect(again.body.tracking.number).toBe(carrier.bookings.get(shipment.reference)?.number);
  });

  it('needs confirmRebook where the carrier cannot be asked (409), then books', async () => {
    const shipment = await newShipment('test-unaskable', 1);
    carrier.swallowNextAnswer = true;
    expect((await send(shipment.id)).body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    const callsBefore = carrier.bookCalls;
    const refused = await send(shipment.id);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'CARRIER_OUTCOME_UNKNOWN', message: expect.stringContaining('confirmRebook') });
    expect(carrier.bookCalls).toBe(callsBefore);
    expect((await get(shipment.id)).status).toBe('error');

    // In a batch: refused the same way unless that shipment is confirmed.
    const batch = (ids: string[], confirmRebook?: unknown) =>
      t.request('POST', `${base()}/batch-send`, { body: confirmRebook === undefined ? { shipmentIds: ids } : { shipmentIds: ids, confirmRebook } });
    expect((await batch([shipment.id])).body.results).toEqual([expect.objectContaining({ status: 'failed', code: 'CARRIER_OUTCOME_UNKNOWN' })]);
    const confirmed = await batch([shipment.id], [shipment.id]);
    expect(confirmed.body.results).toEqual([{ shipmentId: shipment.id, status: 'sent' }]);
    expect(carrier.bookCalls).toBe(callsBefore + 1);
  });
});

describe('carrier refusals', () => {
  it('a 4xx is 422 CARRIER_ERROR in the carrier words with a plain sentence; nothing is left unknown', async () => {
    const shipment = await newShipment('test-askable', 1);
    carrier.failNext = 400;
    const res = await send(shipment.id);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'CARRIER_ERROR', errors: [{ code: 'E_POSTCODE', message: 'Unknown postal code 0000' }] });
    expect(res.body.message).toContain('postal code');
    // A clear refusal: deleting is allowed again.
    expect((await t.request('DELETE', `${base()}/${shipment.id}`)).status).toBe(200);
  });

  it('refused credentials are 422 CARRIER_AUTH_FAILED', async () => {
    const shipment = await newShipment('test-askable', 1);
    carrier.failNext = 401;
    const res = await send(shipment.id);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'CARRIER_AUTH_FAILED', errors: [{ code: 'CARRIER_AUTH_FAILED', message: 'API key not valid' }] });
    expect(res.body.message).toContain('Test connection');
  });
});

describe('a restart during a booking', () => {
  it('leaves a remote carrier shipment with an unknown outcome, asked about on the next send', async () => {
    const shipment = await newShipment('test-askable', 1);
    t.app.db.$client.prepare("UPDATE shipments SET status = 'processing', booking_started_at = ? WHERE id = ?").run(new Date().toISOString(), shipment.id);
    expect(recoverInterruptedBookings(t.app)).toBe(1);
    const after = await get(shipment.id);
    expect(after.status).toBe('error');
    expect((await t.request('DELETE', `${base()}/${shipment.id}`)).body.code).toBe('CARRIER_OUTCOME_UNKNOWN');
    expect((await send(shipment.id)).status).toBe(200);
  });
});
