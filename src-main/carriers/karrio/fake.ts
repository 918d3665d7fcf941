/**
 * A local Karrio server for tests (no carrier can be reached from here), written from Karrio's
 * OpenAPI document: it checks the API token, validates requests with the contract schemas and answers
 * with Karrio's own bodies and error shapes (`{errors: [...]}`, and `{messages: [...]}` for a
 * carrier's refusal). It serves under a path prefix, as a Karrio server behind a proxy does, and keeps
 * what it booked so cancel, list by reference, documents and trackers work. Switches make it fail the
 * ways a real server does; counters let tests prove that nothing was booked twice.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { z } from 'zod';
import {
  karrioPickupCancelDataSchema,
  karrioPickupDataSchema,
  karrioManifestDataSchema,
  karrioShipmentDataSchema,
  type KarrioPickup,
  type KarrioPickupData,
  type KarrioConnection,
  type KarrioManifest,
  type KarrioManifestData,
  type KarrioShipment,
  type KarrioShipmentData,
  type KarrioTrackingEvent,
  type KarrioTrackingStatus,
} from './contract';

export const fakeKarrioApiKey = 'key_fake_0123456789abcdef';

/** A failure the fake answers with, `times` requests in a row, on requests whose `METHOD /v1/path` starts with `route`. */
export interface FakeFault {
  times: number;
  route?: string;
}

export interface FakeKarrioSwitches {
  /** Answer 5xx (500 unless `status` says) in Karrio's error shape. */
  serverError: (FakeFault & { status?: number }) | null;
  /** Do the work, then answer only after `ms` milliseconds. */
  slow: (FakeFault & { ms: number }) | null;
  /** Answer 429 with `Retry-After: retryAfterSeconds`, as Karrio's throttling does. */
  rateLimit: (FakeFault & { retryAfterSeconds: number }) | null;
  /** Book the shipment, then drop the connection before answering. */
  dropAfterBooking: FakeFault | null;
  /** The carrier behind Karrio refuses the booking: 424 with its messages. */
  carrierRefusal: { code: string; message: string; times: number } | null;
  /** The carrier behind Karrio refuses a pickup: 424 with its messages. */
  pickupRefusal: { code: string; message: string; times: number } | null;
  /** The carrier behind Karrio refuses a manifest: 424 with its messages. */
  manifestRefusal: { code: string; message: string; times: number } | null;
}

export interface FakeTracking {
  status: KarrioTrackingStatus;
  events: KarrioTrackingEvent[];
}

export interface FakeKarrioState {
  connections: KarrioConnection[];
  /** Per carrier name: `{service_name: carrier_code}` as `/v1/carriers/{name}/services` answers. */
  services: Record<string, Record<string, string>>;
  /** Per carrier name: `{option_name: {code, type}}` as `/v1/carriers/{name}/options` answers. */
  options: Record<string, Record<string, { code: string; type: string }>>;
  /** Newest last; each with its label content (base64), which only the booking answer and the documents call show. */
  shipments: { shipment: KarrioShipment; label: string }[];
  trackers: Map<string, FakeTracking>;
  /** Every request as received. */
  /** Pickups scheduled, newest last, with the request they were scheduled with. */
  pickups: { pickup: KarrioPickup; data: KarrioPickupData }[];
  requests: { method: string; path: string; authorized: boolean; body: unknown }[];
  counters: { shipmentsBooked: number; cancels: number; trackerReads: number; pickupsScheduled: number; pickupCancels: number };
  /** Manifests made, newest last, with the request that made each. */
  manifests: { manifest: KarrioManifest; request: KarrioManifestData }[];
}

export interface FakeKarrio {
  /** The server's address with its path prefix: what `apiBaseUrl` is set to. */
  url: string;
  origin: string;
  prefix: string;
  apiKey: string;
  state: FakeKarrioState;
  switches: FakeKarrioSwitches;
  /** Adds a tracking event as the carrier would report it and sets the tracker's status. */
  addTrackingEvent(trackingNumber: string, event: KarrioTrackingEvent & { status: KarrioTrackingStatus }): void;
  close(): Promise<void>;
}

export interface FakeKarrioOptions {
  prefix?: string;
  apiKey?: string;
  connections?: KarrioConnection[];
  services?: Record<string, Record<string, string>>;
  options?: Record<string, Record<string, { code: string; type: string }>>;
}

export const fakeKarrioConnections: KarrioConnection[] = [
  {
    id: 'car_5f1a2b3c4d5e6f708192a3b4',
    object_type: 'carrier-connection',
    carrier_name: 'postnord',
    display_name: 'PostNord',
    carrier_id: 'postnord-main',
    capabilities: ['pickup', 'rating', 'shipping', 'tracking'],
    config: {},
    metadata: {},
    is_system: false,
    active: true,
    test_mode: true,
  },
  {
    id: 'car_0a9b8c7d6e5f4a3b2c1d0e9f',
    object_type: 'carrier-connection',
    carrier_name: 'dhl_parcel_de',
    display_name: 'DHL Parcel DE',
    carrier_id: 'dhl-de',
    capabilities: ['rating', 'shipping', 'tracking'],
    config: {},
    metadata: {},
    is_system: false,
    active: true,
    test_mode: true,
  },
  {
    id: 'car_1111aaaa2222bbbb3333cccc',
    object_type: 'carrier-connection',
    carrier_name: 'ups',
    display_name: 'UPS',
    carrier_id: 'ups-old',
    capabilities: ['shipping'],
    config: {},
    metadata: {},
    is_system: false,
    active: false,
    test_mode: false,
  },
];

export const fakeKarrioServices: Record<string, Record<string, string>> = {
  postnord: {
    postnord_parcel: '18',
    postnord_mypack_home: '17',
    postnord_mypack_collect: '19',
    postnord_return_pickup: '24',
  },
  dhl_parcel_de: { dhl_parcel_de_paket: 'V01PAK', dhl_parcel_de_kleinpaket: 'V62KP', dhl_parcel_de_europaket: 'V54EPAK' },
  ups: { ups_standard: '11', ups_express_saver: '65' },
};

export const fakeKarrioOptions: Record<string, Record<string, { code: string; type: string }>> = {
  postnord: {
    postnord_sms_notification: { code: 'sms_notification', type: 'boolean' },
    postnord_email_notification: { code: 'email_notification', type: 'boolean' },
    postnord_cash_on_delivery: { code: 'cash_on_delivery', type: 'float' },
  },
  dhl_parcel_de: { dhl_parcel_de_signature: { code: 'signature_confirmation', type: 'boolean' } },
  ups: {},
};

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Destroy the socket instead of answering (after the work was done). */
  drop?: boolean;
}

const errors = (status: number, list: { code: string; message: string; level?: string; details?: unknown }[], headers?: Record<string, string>): Answer => ({
  status,
  headers,
  body: { errors: list.map((e) => ({ level: status === 404 || status === 429 ? 'warning' : 'error', ...e })) },
});

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** A Karrio validation message: `path: message`, with list indexes as `parcels[0].weight`. */
function validationErrors(error: z.ZodError): Answer {
  return errors(
    400,
    error.issues.map((issue) => {
      const path = issue.path.reduce<string>((acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)), '');
      const missing = issue.input === undefined;
      const notAChoice = (issue.code === 'invalid_value' || issue.code === 'invalid_format') && typeof issue.input === 'string';
      const tooLong = issue.code === 'too_big' && issue.origin === 'string';
      const message = missing
        ? 'This field is required.'
        : notAChoice
          ? `"${String(issue.input)}" is not a valid choice.`
          : tooLong
            ? `Ensure this field has no more than ${String(issue.maximum)} characters.`
            : issue.message;
      return { code: 'validation', message: path ? `${path}: ${message}` : message };
    }),
  );
}

async function labelPdf(carrierName: string, trackingNumbers: readonly string[], reference: string | null): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const [index, number] of trackingNumbers.entries()) {
    // 4 x 6 in, the size most carriers' labels come in through Karrio.
    const page = pdf.addPage([288, 432]);
    page.drawText(`${carrierName.toUpperCase()} ${index + 1}/${trackingNumbers.length}`, { x: 20, y: 400, size: 14, font });
    page.drawText(number, { x: 20, y: 370, size: 16, font });
    if (reference) page.drawText(`Ref ${reference}`, { x: 20, y: 345, size: 10, font });
  }
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

function labelZpl(carrierName: string, trackingNumbers: readonly string[], reference: string | null): Buffer {
  const labels = trackingNumbers.map(
    (number, index) =>
      `^XA^CI28^PW812^LL1218^FO40,40^A0N,40,40^FD${carrierName.toUpperCase()} ${index + 1}/${trackingNumbers.length}^FS` +
      `^FO40,100^BCN,120,Y,N,N^FD${number}^FS${reference ? `^FO40,280^A0N,30,30^FDRef ${reference}^FS` : ''}^XZ`,
  );
  return Buffer.from(labels.join('\n'), 'utf8');
}

// The smallest valid PNG (1 x 1, white), for a `label_type: PNG` request.
/** The EU's members, the fake's own list: a shipment between two of them needs no customs. */
const euCountries = new Set('AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE'.split(' '));

const tinyPng = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==';

export async function startFakeKarrio(options: FakeKarrioOptions = {}): Promise<FakeKarrio> {
  const prefix = (options.prefix ?? '/karrio').replace(/\/$/, '');
  const apiKey = options.apiKey ?? fakeKarrioApiKey;
  const state: FakeKarrioState = {
    connections: structuredClone(options.connections ?? fakeKarrioConnections),
    services: structuredClone(options.services ?? fakeKarrioServices),
    options: structuredClone(options.options ?? fakeKarrioOptions),
    shipments: [],
    trackers: new Map(),
    pickups: [],
    requests: [],
    counters: { shipmentsBooked: 0, cancels: 0, trackerReads: 0, pickupsScheduled: 0, pickupCancels: 0 },
    manifests: [],
  };
  const switches: FakeKarrioSwitches = {
    serverError: null,
    slow: null,
    rateLimit: null,
    dropAfterBooking: null,
    carrierRefusal: null,
    pickupRefusal: null,
    manifestRefusal: null,
  };
  let trackingSequence = 0;

  /** Consumes one use of a fault when it applies to this request. */
  function fires(fault: FakeFault | null, route: string): boolean {
    if (!fault || fault.times <= 0 || (fault.route && !route.startsWith(fault.route))) return false;
    fault.times -= 1;
    return true;
  }

  /** The shipment as Karrio lists it: documents named, their content left out. */
  function listed(entry: { shipment: KarrioShipment }): KarrioShipment {
    return { ...entry.shipment, shipping_documents: entry.shipment.shipping_documents.map((doc) => ({ ...doc, base64: null })) };
  }

  async function book(data: KarrioShipmentData): Promise<Answer> {
    const wanted = data.carrier_ids ?? [];
    const connection = state.connections.find(
      (c) =>
        c.active && (wanted.length === 0 ? data.service in (state.services[c.carrier_name] ?? {}) : wanted.includes(c.id) || wanted.includes(c.carrier_id)),
    );
    if (!connection) return errors(404, [{ code: 'not_found', message: 'No active carrier connection found to process the request' }]);
    const services = state.services[connection.carrier_name] ?? {};
    if (!(data.service in services)) {
      return errors(400, [
        { code: 'validation', message: `service: '${data.service}' is not a service of the ${connection.carrier_name} connection '${connection.carrier_id}'` },
      ]);
    }
    // An international dutiable parcel needs its customs (Karrio's contract); within the EU none is asked.
    const crossing =
      data.shipper.country_code !== data.recipient.country_code &&
      !(euCountries.has(data.shipper.country_code) && euCountries.has(data.recipient.country_code));
    if (crossing && !data.customs?.commodities.length) {
      return errors(400, [
        { code: 'validation', message: 'customs: customs details with at least one commodity are required for an international dutiable shipment' },
      ]);
    }
    const refusal = switches.carrierRefusal;
    if (refusal && refusal.times > 0) {
      refusal.times -= 1;
      return {
        status: 424,
        body: {
          messages: [
            {
              carrier_name: connection.carrier_name,
              carrier_id: connection.carrier_id,
              code: refusal.code,
              message: refusal.message,
              level: 'error',
              details: {},
            },
          ],
        },
      };
    }

    const labelType = data.label_type ?? 'PDF';
    const trackingNumbers = data.parcels.map(() => `00${String(370_000_000_000 + ++trackingSequence * 7).padStart(16, '0')}`);
    const shipmentId = id('shp');
    const reference = data.reference ?? null;
    const label =
      labelType === 'PDF'
        ? (await labelPdf(connection.carrier_name, trackingNumbers, reference)).toString('base64')
        : labelType === 'ZPL'
          ? labelZpl(connection.carrier_name, trackingNumbers, reference).toString('base64')
          : tinyPng;
    const first = trackingNumbers[0] as string;
    const shipment: KarrioShipment = {
      id: shipmentId,
      object_type: 'shipment',
      status: 'created',
      carrier_name: connection.carrier_name,
      carrier_id: connection.carrier_id,
      service: data.service,
      services: [],
      tracking_number: first,
      shipment_identifier: first,
      tracking_url: `/v1/trackers/${connection.carrier_name}/${first}`,
      tracker_id: id('trk'),
      reference,
      label_type: labelType,
      test_mode: connection.test_mode,
      shipper: data.shipper,
      recipient: data.recipient,
      options: data.options ?? {},
      parcels: data.parcels.map((parcel, index) => ({ id: id('pcl'), object_type: 'parcel', ...parcel, reference_number: trackingNumbers[index] })),
      shipping_documents: [{ category: 'label', format: labelType, url: `/v1/shipments/${shipmentId}/label.${labelType.toLowerCase()}`, base64: label }],
      label_url: `/v1/shipments/${shipmentId}/label.${labelType.toLowerCase()}`,
      selected_rate: {
        id: id('rat'),
        object_type: 'rate',
        carrier_name: connection.carrier_name,
        carrier_id: connection.carrier_id,
        service: data.service,
        currency: 'EUR',
        total_charge: 9.5 * data.parcels.length,
        meta: { carrier_connection_id: connection.id, service_name: data.service.toUpperCase() },
        test_mode: connection.test_mode,
      },
      meta: {
        carrier: connection.carrier_name,
        rate_provider: connection.carrier_name,
        service_name: data.service.toUpperCase(),
        tracking_numbers: trackingNumbers,
        carrier_connection_id: connection.id,
      },
      metadata: data.metadata ?? {},
      messages: [],
      created_at: new Date().toISOString(),
    };
    state.shipments.push({ shipment, label });
    state.counters.shipmentsBooked += 1;
    state.trackers.set(first, { status: 'pending', events: [] });
    return { status: 201, body: shipment };
  }

  function cancel(shipmentId: string): Answer {
    const entry = state.shipments.find((e) => e.shipment.id === shipmentId);
    if (!entry) return errors(404, [{ code: 'not_found', message: 'Shipment not found' }]);
    if (entry.shipment.status === 'cancelled') return { status: 202, body: listed(entry) };
    if (entry.shipment.status !== 'created' && entry.shipment.status !== 'draft') {
      return errors(409, [{ code: 'state_error', message: `The shipment is '${entry.shipment.status}' and can not be cancelled anymore...` }]);
    }
    entry.shipment = { ...entry.shipment, status: 'cancelled' };
    state.counters.cancels += 1;
    return { status: 200, body: listed(entry) };
  }

  const carrierMessages = (connection: KarrioConnection, code: string, message: string): Answer => ({
    status: 424,
    body: { messages: [{ carrier_name: connection.carrier_name, carrier_id: connection.carrier_id, code, message, level: 'error', details: {} }] },
  });

  /** Karrio's `POST /v1/pickups`: the connection from `options.connection_id`, else the first active one of `carrier_code`. */
  function schedulePickup(data: KarrioPickupData): Answer {
    const wanted = typeof data.options?.connection_id === 'string' ? data.options.connection_id : null;
    const connection = state.connections.find((c) => c.active && c.carrier_name === data.carrier_code && (wanted === null || c.id === wanted));
    if (!connection) return errors(404, [{ code: 'not_found', message: 'No active carrier connection found to process the request' }]);
    if (!(connection.capabilities ?? []).includes('pickup')) {
      return carrierMessages(connection, 'pickup_not_supported', `${connection.carrier_name} does not support pickup scheduling`);
    }
    if (data.ready_time >= data.closing_time) return carrierMessages(connection, 'invalid_time_window', 'The ready time must be before the closing time');
    const refusal = switches.pickupRefusal;
    if (refusal && refusal.times > 0) {
      refusal.times -= 1;
      return carrierMessages(connection, refusal.code, refusal.message);
    }
    const pickup: KarrioPickup = {
      id: id('pck'),
      object_type: 'pickup',
      carrier_name: connection.carrier_name,
      carrier_id: connection.carrier_id,
      confirmation_number: `PRN${String(100_000 + state.pickups.length + 1)}`,
      status: 'scheduled',
      pickup_date: data.pickup_date,
      ready_time: data.ready_time,
      closing_time: data.closing_time,
      pickup_type: data.pickup_type ?? 'one_time',
      address: data.address,
      parcels: [],
      parcels_count: data.parcels_count ?? null,
      instruction: data.instruction ?? null,
      metadata: data.metadata ?? {},
      meta: { carrier_connection_id: connection.id },
      test_mode: connection.test_mode,
      messages: [],
    };
    state.pickups.push({ pickup, data });
    state.counters.pickupsScheduled += 1;
    return { status: 201, body: pickup };
  }

  function cancelPickup(pickupId: string): Answer {
    const entry = state.pickups.find((e) => e.pickup.id === pickupId);
    if (!entry) return errors(404, [{ code: 'not_found', message: 'Pickup not found' }]);
    if (entry.pickup.status !== 'scheduled') {
      return errors(409, [{ code: 'state_error', message: `The pickup is '${entry.pickup.status}' and can not be cancelled anymore...` }]);
    }
    entry.pickup = { ...entry.pickup, status: 'cancelled' };
    state.counters.pickupCancels += 1;
    return { status: 200, body: entry.pickup };
  }

  /** A manifest of booked shipments of one carrier; an unknown, cancelled or other carrier's shipment is refused. */
  async function manifest(data: KarrioManifestData): Promise<Answer> {
    const entries = data.shipment_ids.map((shipmentId) => state.shipments.find((e) => e.shipment.id === shipmentId));
    const problems = data.shipment_ids.flatMap((shipmentId, index) => {
      const entry = entries[index];
      if (!entry) return [{ code: 'validation', message: `shipment_ids: Shipment '${shipmentId}' not found` }];
      if (entry.shipment.status === 'cancelled' || entry.shipment.status === 'draft') {
        return [{ code: 'validation', message: `shipment_ids: Shipment '${shipmentId}' has no purchased label` }];
      }
      if (entry.shipment.carrier_name !== data.carrier_name) {
        return [{ code: 'validation', message: `shipment_ids: Shipment '${shipmentId}' is not a ${data.carrier_name} shipment` }];
      }
      return [];
    });
    if (problems.length) return errors(400, problems);
    const refusal = switches.manifestRefusal;
    if (refusal && refusal.times > 0) {
      refusal.times -= 1;
      return {
        status: 424,
        body: {
          messages: [
            { carrier_name: data.carrier_name, carrier_id: data.carrier_name, code: refusal.code, message: refusal.message, level: 'error', details: {} },
          ],
        },
      };
    }
    const first = entries[0]?.shipment;
    const manifestId = id('manifest');
    const body: KarrioManifest = {
      id: manifestId,
      object_type: 'manifest',
      carrier_name: data.carrier_name,
      carrier_id: first?.carrier_id ?? data.carrier_name,
      test_mode: first?.test_mode ?? true,
      address: data.address,
      shipment_identifiers: entries.map((entry) => entry?.shipment.tracking_number ?? ''),
      reference: data.reference ?? null,
      manifest_url: `/v1/manifests/${manifestId}/manifest.pdf`,
      options: data.options ?? {},
      metadata: {},
      meta: {},
      messages: [],
    };
    state.manifests.push({ manifest: body, request: data });
    return { status: 201, body };
  }

  async function manifestDocument(manifestId: string): Promise<Answer> {
    const entry = state.manifests.find((candidate) => candidate.manifest.id === manifestId);
    if (!entry) return errors(404, [{ code: 'not_found', message: 'Manifest not found' }]);
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([595, 842]);
    page.drawText(`${entry.manifest.carrier_name.toUpperCase()} manifest ${manifestId}`, { x: 40, y: 790, size: 14, font });
    entry.manifest.shipment_identifiers.forEach((number, index) => page.drawText(number, { x: 40, y: 760 - index * 16, size: 10, font }));
    return { status: 200, body: { category: 'manifest', format: 'PDF', base64: Buffer.from(await pdf.save()).toString('base64') } };
  }

  function listShipments(query: URLSearchParams): Answer {
    const reference = query.get('reference')?.toLowerCase();
    const trackingNumber = query.get('tracking_number');
    const status = query.get('status');
    // Karrio lists newest first; `reference` matches as "contains", case-insensitive.
    const matching = [...state.shipments]
      .reverse()
      .filter((e) => !reference || (e.shipment.reference ?? '').toLowerCase().includes(reference))
      .filter((e) => !trackingNumber || e.shipment.tracking_number === trackingNumber)
      .filter((e) => !status || e.shipment.status === status);
    const limit = Math.min(100, Number(query.get('limit') ?? '20') || 20);
    const offset = Number(query.get('offset') ?? '0') || 0;
    const page = matching.slice(offset, offset + limit);
    const next = offset + limit < matching.length ? `${prefix}/v1/shipments?limit=${limit}&offset=${offset + limit}` : null;
    return {
      status: 200,
      body: { count: matching.length, next, previous: offset > 0 ? `${prefix}/v1/shipments?limit=${limit}&offset=0` : null, results: page.map(listed) },
    };
  }

  function track(carrierName: string, trackingNumber: string): Answer {
    state.counters.trackerReads += 1;
    const entry = state.shipments.find((e) => e.shipment.tracking_number === trackingNumber && e.shipment.carrier_name === carrierName);
    const tracking = state.trackers.get(trackingNumber);
    if (!entry || !tracking) {
      return {
        status: 424,
        body: {
          messages: [
            {
              carrier_name: carrierName,
              carrier_id: carrierName,
              code: 'tracking_error',
              message: `No tracking information found for ${trackingNumber}`,
              level: 'error',
            },
          ],
        },
      };
    }
    // Karrio answers the tracker it created or refreshed with 202 Accepted.
    return {
      status: 202,
      body: {
        id: entry.shipment.tracker_id,
        object_type: 'tracker',
        carrier_name: carrierName,
        carrier_id: entry.shipment.carrier_id,
        tracking_number: trackingNumber,
        test_mode: entry.shipment.test_mode,
        delivered: tracking.status === 'delivered',
        status: tracking.status,
        events: [...tracking.events].reverse(),
        info: { carrier_tracking_link: null, shipment_service: entry.shipment.service },
        messages: [],
        metadata: {},
        meta: {},
      },
    };
  }

  async function route(method: string, path: string, query: URLSearchParams, body: unknown): Promise<Answer> {
    let match: RegExpMatchArray | null;
    if (method === 'GET' && path === '/v1/connections') {
      const active = query.get('active');
      const carrierName = query.get('carrier_name');
      const results = state.connections
        .filter((c) => active === null || String(c.active) === active)
        .filter((c) => !carrierName || c.carrier_name === carrierName);
      return { status: 200, body: { count: results.length, next: null, previous: null, results } };
    }
    if (method === 'GET' && (match = path.match(/^\/v1\/connections\/([^/]+)$/))) {
      const connection = state.connections.find((c) => c.id === decodeURIComponent(match?.[1] ?? ''));
      return connection ? { status: 200, body: connection } : errors(404, [{ code: 'not_found', message: 'Carrier connection not found' }]);
    }
    if (method === 'GET' && (match = path.match(/^\/v1\/carriers\/([^/]+)\/(services|options)$/))) {
      const carrierName = decodeURIComponent(match[1] ?? '');
      const table = match[2] === 'services' ? state.services[carrierName] : state.options[carrierName];
      return table ? { status: 200, body: table } : errors(404, [{ code: 'not_found', message: `Unknown carrier: ${carrierName}` }]);
    }
    if (method === 'POST' && path === '/v1/shipments') {
      const parsed = karrioShipmentDataSchema.safeParse(body, { reportInput: true });
      return parsed.success ? await book(parsed.data) : validationErrors(parsed.error);
    }
    if (method === 'GET' && path === '/v1/shipments') return listShipments(query);
    if (method === 'POST' && path === '/v1/pickups') {
      const parsed = karrioPickupDataSchema.safeParse(body, { reportInput: true });
      return parsed.success ? schedulePickup(parsed.data) : validationErrors(parsed.error);
    }
    if (method === 'POST' && (match = path.match(/^\/v1\/pickups\/([^/]+)\/cancel$/))) {
      const parsed = karrioPickupCancelDataSchema.safeParse(body ?? {}, { reportInput: true });
      return parsed.success ? cancelPickup(decodeURIComponent(match[1] ?? '')) : validationErrors(parsed.error);
    }
    if (method === 'GET' && (match = path.match(/^\/v1\/shipments\/([^/]+)$/))) {
      const entry = state.shipments.find((e) => e.shipment.id === decodeURIComponent(match?.[1] ?? ''));
      return entry ? { status: 200, body: listed(entry) } : errors(404, [{ code: 'not_found', message: 'Shipment not found' }]);
    }
    if (method === 'POST' && (match = path.match(/^\/v1\/shipments\/([^/]+)\/cancel$/))) return cancel(decodeURIComponent(match[1] ?? ''));
    if (method === 'POST' && (match = path.match(/^\/v1\/shipments\/([^/]+)\/documents\/([^/]+)$/))) {
      const [shipmentId, doc] = [decodeURIComponent(match[1] ?? ''), match[2]];
      if (doc !== 'label' && doc !== 'invoice') return { status: 400, body: { errors: [{ message: `Invalid document type: ${doc}` }] } };
      const entry = state.shipments.find((e) => e.shipment.id === shipmentId);
      if (!entry || doc === 'invoice') return { status: 404, body: { errors: [{ message: `Shipment '${shipmentId}' not found or has no ${doc}` }] } };
      const format = entry.shipment.label_type ?? 'PDF';
      return { status: 200, body: { category: 'label', format, base64: entry.label, url: `/v1/shipments/${shipmentId}/label.${format.toLowerCase()}` } };
    }
    if (method === 'POST' && path === '/v1/manifests') {
      const parsed = karrioManifestDataSchema.safeParse(body, { reportInput: true });
      return parsed.success ? await manifest(parsed.data) : validationErrors(parsed.error);
    }
    if (method === 'POST' && (match = path.match(/^\/v1\/manifests\/([^/]+)\/document$/))) return manifestDocument(decodeURIComponent(match[1] ?? ''));
    if (method === 'GET' && (match = path.match(/^\/v1\/trackers\/([^/]+)\/([^/]+)$/)))
      return track(decodeURIComponent(match[1] ?? ''), decodeURIComponent(match[2] ?? ''));
    return errors(404, [{ code: 'not_found', message: 'Not found.' }]);
  }

  const pendingTimers = new Set<NodeJS.Timeout>();
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        pendingTimers.delete(timer);
        resolve();
      }, ms);
      pendingTimers.add(timer);
    });

  async function answer(req: IncomingMessage, rawBody: string): Promise<Answer> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    if (!url.pathname.startsWith(`${prefix}/`)) return errors(404, [{ code: 'not_found', message: 'Not found.' }]);
    const path = url.pathname.slice(prefix.length);
    const routeKey = `${method} ${path}`;
    const authorization = req.headers.authorization ?? '';
    const basic = `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;
    const authorized = authorization === `Token ${apiKey}` || authorization === basic;
    let body: unknown = undefined;
    if (rawBody.length > 0) {
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = Symbol.for('unparsable');
      }
    }
    state.requests.push({ method, path: path + url.search, authorized, body });

    if (fires(switches.rateLimit, routeKey)) {
      const seconds = switches.rateLimit?.retryAfterSeconds ?? 1;
      return errors(429, [{ code: 'throttled', message: `Request was throttled. Expected available in ${seconds} seconds.` }], {
        'retry-after': String(seconds),
      });
    }
    if (fires(switches.serverError, routeKey)) return errors(switches.serverError?.status ?? 500, [{ code: 'server_error', message: 'Internal server error' }]);

    // The carrier references are public in Karrio; everything else needs the API token.
    const isReference = /^\/v1\/carriers(\/|$)/.test(path);
    if (!isReference && !authorization) return errors(401, [{ code: 'not_authenticated', message: 'Authentication credentials were not provided.' }]);
    if (!isReference && !authorized) return errors(401, [{ code: 'authentication_failed', message: 'Invalid token.' }]);

    if (method === 'POST' && rawBody.length > 0) {
      const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim();
      if (contentType !== 'application/json')
        return errors(415, [{ code: 'unsupported_media_type', message: `Unsupported media type "${contentType ?? ''}" in request.` }]);
      if (body === Symbol.for('unparsable')) return errors(400, [{ code: 'parse_error', message: 'JSON parse error' }]);
    }
    const result = await route(method, path, url.searchParams, body);
    // Slow after the work is done: a late answer to a booking that went through.
    if (fires(switches.slow, routeKey)) await wait(switches.slow?.ms ?? 0);
    if (method === 'POST' && path === '/v1/shipments' && result.status === 201 && fires(switches.dropAfterBooking, routeKey)) return { ...result, drop: true };
    return result;
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      answer(req, Buffer.concat(chunks).toString('utf8')).then(
        (result) => {
          if (result.drop) {
            res.socket?.destroy();
            return;
          }
          res.writeHead(result.status, { 'content-type': 'application/json', ...result.headers });
          res.end(result.body === undefined ? '' : JSON.stringify(result.body));
        },
        (error: unknown) => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ errors: [{ code: 'server_error', message: String(error), level: 'error' }] }));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: `${origin}${prefix}`,
    origin,
    prefix,
    apiKey,
    state,
    switches,
    addTrackingEvent(trackingNumber, event) {
      const tracking = state.trackers.get(trackingNumber);
      if (!tracking) throw new Error(`The fake Karrio booked no ${trackingNumber}`);
      tracking.events.push(event);
      tracking.status = event.status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of pendingTimers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
