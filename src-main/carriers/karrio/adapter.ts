import type { z } from 'zod';
import { documentFormats, type CarrierField, type CarrierProduct, type DocumentFormat, type LabelSize } from '../../../src-shared/schemas/carrier';
import type {
  BookedShipment,
  BookingRequest,
  BookingResult,
  CarrierAdapter,
  CarrierCallContext,
  CarrierConfig,
  CloseOutRequest,
  CloseOutResult,
  LabelDocument,
  BookedPickup,
  PickupBooking,
  PickupRequest,
  TrackingEvent,
  TrackingResult,
} from '../adapter';
import { carrierAuthFailed, carrierRefused, CarrierFailure } from '../errors';
import { gatewayUrl } from '../platform/origin';
import { labelDimensions } from '../../documents/labelSizes';
import { pdfLib } from '../../platform/lazyLibraries';
import {
  karrioAuthHeader,
  karrioConnectionListSchema,
  karrioConnectionSchema,
  karrioManifestSchema,
  karrioShipmentShipperSchema,
  karrioOptionsSchema,
  karrioPaths,
  karrioPickupSchema,
  karrioServicesSchema,
  karrioShipmentListSchema,
  karrioShipmentSchema,
  karrioShippingDocumentSchema,
  karrioTrackingStatusSchema,
  type KarrioAddressData,
  type KarrioConnection,
  type KarrioManifestData,
  type KarrioShipment,
} from './contract';
import {
  booleanOptions,
  connectionLabel,
  karrioAddress,
  eventTime,
  karrioErrors,
  karrioPickupData,
  karrioShipmentData,
  parcelTrackingNumbers,
  publicTrackingUrl,
  serviceName,
  trackingStatusFromKarrio,
} from './mapping';

/**
 * Karrio, the open-source multi-carrier gateway (decisions §13): one configured carrier is one
 * carrier connection on the user's own Karrio server. Products are that connection's services, read
 * from the server and kept with the carrier; a booking is Karrio's single-call label purchase with
 * the shipment's reference, so a booking whose answer was lost is found again by that reference.
 */

export const KARRIO_SLUG = 'karrio';

/** Karrio's labels come as 4 × 6 in unless the carrier's PDF says otherwise; ZPL carries no page size we read. */
const DEFAULT_LABEL_SIZE: LabelSize = '100X150';
/** Shipments Karrio holds as booked (not a draft awaiting purchase, not cancelled). */
const bookedStatuses = new Set(['created', 'shipped', 'in_transit', 'delivered', 'needs_attention', 'out_for_delivery', 'delivery_failed']);

const fields: readonly CarrierField[] = [
  {
    name: 'API key',
    key: 'apiKey',
    type: 'password',
    description: "Your Karrio server's private API key (Karrio dashboard → Developers → API keys). A test key sees test connections only.",
    options: [],
    required: true,
  },
  {
    name: 'Carrier connection',
    key: 'connectionId',
    type: 'select',
    description: 'The carrier account on your Karrio server to book with; listed from the server once its address and API key are typed.',
    // Read from the server with the typed credentials (fieldOptions), so none are known beforehand.
    options: [],
    required: true,
  },
  {
    name: 'Label format',
    key: 'labelFormat',
    type: 'select',
    description: 'PDF for office and label printers, ZPL for thermal label printers. Default PDF.',
    options: documentFormats.map((format) => ({ name: format.toUpperCase(), key: format, value: format })),
    required: false,
  },
];

const logoSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#5c37e6"/>' +
  '<path d="M20 16h7v14l12-14h9L35 31l14 17h-9L27 33v15h-7z" fill="#fff"/></svg>';

const stringOf = (value: unknown): string => (typeof value === 'string' ? value : '');
const labelFormatOf = (config: CarrierConfig): DocumentFormat => (config.labelFormat === 'zpl' ? 'zpl' : 'pdf');

interface KarrioCall {
  operation: string;
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  idempotent: boolean;
}

/**
 * One call to the Karrio server, read with `schema`. A 401/403 is the key refused; another 4xx is a
 * refusal in Karrio's (or the carrier's) own words; an answer we cannot read after a booking call
 * leaves its outcome unknown, since Karrio may have bought the label.
 */
async function karrio<T extends z.ZodType>(context: CarrierCallContext, call: KarrioCall, schema: T): Promise<z.output<T>> {
  const response = await context.http.request({
    operation: call.operation,
    method: call.method,
    url: gatewayUrl(context.config, call.path),
    query: call.query,
    headers: { authorization: karrioAuthHeader(stringOf(context.config.apiKey)) },
    json: call.json,
    idempotent: call.idempotent,
  });
  if (response.status === 401 || response.status === 403) {
    const errors = karrioErrors(response.json);
    throw carrierAuthFailed(`Karrio refused the API key (HTTP ${response.status})`, errors);
  }
  if (response.status >= 400) {
    const errors = karrioErrors(response.json);
    throw carrierRefused(
      errors.length ? errors : [{ code: `HTTP_${response.status}`, message: `Karrio answered HTTP ${response.status}: ${response.text.slice(0, 300)}` }],
    );
  }
  const parsed = schema.safeParse(response.json);
  if (!parsed.success) {
    const message = `Karrio's answer to ${call.operation} could not be read: ${parsed.error.issues[0]?.message ?? 'not JSON'}`;
    throw new CarrierFailure(call.idempotent ? 'unavailable' : 'outcome_unknown', message);
  }
  return parsed.data;
}

async function listConnections(context: CarrierCallContext, operation: string): Promise<KarrioConnection[]> {
  const list = await karrio(context, { operation, method: 'GET', path: karrioPaths.connections, idempotent: true }, karrioConnectionListSchema);
  return list.results;
}

async function chosenConnection(context: CarrierCallContext, operation: string): Promise<KarrioConnection> {
  const connectionId = stringOf(context.config.connectionId);
  const connection = await karrio(
    context,
    { operation, method: 'GET', path: karrioPaths.connection(connectionId), idempotent: true },
    karrioConnectionSchema,
  ).catch((error: unknown) => {
    if (error instanceof CarrierFailure && error.kind === 'refused' && error.errors.some((item) => item.code === 'not_found')) {
      throw carrierRefused([
        { code: 'KARRIO_CONNECTION_NOT_FOUND', message: `The Karrio server has no carrier connection ${connectionId}: choose the connection again` },
      ]);
    }
    throw error;
  });
  if (!connection.active) {
    throw carrierRefused([{ code: 'KARRIO_CONNECTION_INACTIVE', message: `The Karrio connection ${connectionLabel(connection)} is switched off in Karrio` }]);
  }
  return connection;
}

/** The label's page size as the carrier made it; a page that matches none of ours is taken as the nearest. */
async function pdfLabelSize(content: Buffer): Promise<LabelSize> {
  try {
    const page = (await pdfLib().PDFDocument.load(content, { updateMetadata: false })).getPage(0).getSize();
    const [width, height] = [Math.min(page.width, page.height), Math.max(page.width, page.height)];
    const sizes = Object.entries(labelDimensions) as [LabelSize, (typeof labelDimensions)[LabelSize]][];
    const distance = (size: (typeof labelDimensions)[LabelSize]) => Math.abs(size.widthPt - width) + Math.abs(size.heightPt - height);
    return sizes.reduce((best, candidate) => (distance(candidate[1]) < distance(best[1]) ? candidate : best))[0];
  } catch {
    return DEFAULT_LABEL_SIZE;
  }
}

/** One label file for the whole shipment (Karrio merges the parcels' labels), stored as Karrio returned it. */
async function labelOf(base64: string, format: string | null | undefined): Promise<LabelDocument> {
  const content = Buffer.from(base64, 'base64');
  const documentFormat: DocumentFormat = (format ?? '').toUpperCase() === 'ZPL' ? 'zpl' : 'pdf';
  const size = documentFormat === 'pdf' ? await pdfLabelSize(content) : DEFAULT_LABEL_SIZE;
  return { parcelId: null, format: documentFormat, size, content };
}

function bookingResultOf(shipment: KarrioShipment, request: BookingRequest, label: LabelDocument): BookingResult {
  const numbers = parcelTrackingNumbers(shipment, request.parcels.length);
  return {
    trackingNumber: shipment.tracking_number ?? '',
    trackingUrl: publicTrackingUrl(shipment),
    parcels: request.parcels.map((parcel, index) => ({ parcelId: parcel.parcelId, trackingNumber: numbers[index] ?? '', parcelNumber: null })),
    labels: [label],
    booking: {
      karrioShipmentId: shipment.id,
      carrierName: shipment.carrier_name ?? null,
      carrierId: shipment.carrier_id ?? null,
      trackerId: shipment.tracker_id ?? null,
      testMode: shipment.test_mode,
    },
  };
}

async function book(context: CarrierCallContext, request: BookingRequest): Promise<BookingResult> {
  const shipment = await karrio(
    context,
    {
      operation: 'book',
      method: 'POST',
      path: karrioPaths.shipments,
      json: karrioShipmentData(request, stringOf(context.config.connectionId)),
      idempotent: false,
    },
    karrioShipmentSchema,
  );
  const document = shipment.shipping_documents.find((doc) => doc.category === 'label' && doc.base64);
  if (!shipment.tracking_number || !document?.base64) {
    // Karrio answered without a bought label (a draft): nothing to ship, but the shipment exists there.
    throw carrierRefused([{ code: 'KARRIO_NO_LABEL', message: `Karrio created shipment ${shipment.id} (${shipment.status}) without a label` }]);
  }
  return bookingResultOf(shipment, request, await labelOf(document.base64, document.format ?? shipment.label_type));
}

/** After a lost answer: Karrio's shipments under this reference (it matches "contains"; we want it whole). */
async function findBooking(context: CarrierCallContext, request: BookingRequest): Promise<BookingResult | null> {
  const connectionId = stringOf(context.config.connectionId);
  const list = await karrio(
    context,
    { operation: 'findBooking', method: 'GET', path: karrioPaths.shipments, query: { reference: request.reference, limit: 100 }, idempotent: true },
    karrioShipmentListSchema,
  );
  const shipment = list.results.find((candidate) => {
    const byConnection = candidate.selected_rate?.meta?.carrier_connection_id ?? candidate.meta?.carrier_connection_id;
    return (
      candidate.reference === request.reference &&
      bookedStatuses.has(candidate.status) &&
      !!candidate.tracking_number &&
      (byConnection === undefined || byConnection === connectionId)
    );
  });
  if (!shipment) return null;
  // Listed shipments name their documents without content: the label is fetched on its own (a read).
  const document = await karrio(
    context,
    { operation: 'findBooking.label', method: 'POST', path: karrioPaths.shipmentDocument(shipment.id, 'label'), idempotent: true },
    karrioShippingDocumentSchema,
  );
  if (!document.base64) throw carrierRefused([{ code: 'KARRIO_NO_LABEL', message: `Karrio has shipment ${shipment.id} but no label for it` }]);
  return bookingResultOf(shipment, request, await labelOf(document.base64, document.format ?? shipment.label_type));
}

async function voidBooking(context: CarrierCallContext, booked: BookedShipment): Promise<{ voided: true } | { voided: false; instruction: string }> {
  const karrioShipmentId = stringOf(booked.booking.karrioShipmentId);
  if (!karrioShipmentId) {
    return { voided: false, instruction: `Karrio's shipment id of ${booked.trackingNumber} is not known here: cancel it in the Karrio dashboard.` };
  }
  try {
    await karrio(context, { operation: 'void', method: 'POST', path: karrioPaths.shipmentCancel(karrioShipmentId), idempotent: false }, karrioShipmentSchema);
    return { voided: true };
  } catch (error) {
    // Karrio no longer holds it: nothing to void there, but the carrier may still have the parcel.
    if (error instanceof CarrierFailure && error.kind === 'refused' && error.errors.some((item) => item.code === 'not_found')) {
      return {
        voided: false,
        instruction: `Karrio has no shipment ${karrioShipmentId} any more: check with the carrier that ${booked.trackingNumber} is not shipped.`,
      };
    }
    throw error;
  }
}

/** A pickup with the connection's carrier; the connection is read first for its carrier's name (`carrier_code`). */
async function bookPickup(context: CarrierCallContext, request: PickupRequest): Promise<PickupBooking> {
  const connection = await chosenConnection(context, 'bookPickup.connection');
  const pickup = await karrio(
    context,
    {
      operation: 'bookPickup',
      method: 'POST',
      path: karrioPaths.pickups,
      json: karrioPickupData(request, connection.carrier_name, connection.id),
      idempotent: false,
    },
    karrioPickupSchema,
  );
  return { confirmationNumber: pickup.confirmation_number, booking: { karrioPickupId: pickup.id } };
}

async function cancelPickup(context: CarrierCallContext, pickup: BookedPickup): Promise<void> {
  const karrioPickupId = stringOf(pickup.booking.karrioPickupId);
  if (!karrioPickupId) {
    throw carrierRefused([
      { code: 'KARRIO_PICKUP_UNKNOWN', message: `Karrio's id of pickup ${pickup.confirmationNumber} is not known here: cancel it in the Karrio dashboard` },
    ]);
  }
  await karrio(
    context,
    { operation: 'cancelPickup', method: 'POST', path: karrioPaths.pickupCancel(karrioPickupId), json: {}, idempotent: false },
    karrioPickupSchema,
  );
}

/**
 * Karrio tracks one number per call; the calls run side by side within the carrier's call slots. One
 * shipment Karrio cannot track is left out of the answer; a refused key or an unreachable server fails the round.
 */
async function track(context: CarrierCallContext, booked: readonly BookedShipment[]): Promise<Map<string, TrackingResult>> {
  const answers = await Promise.all(
    booked.map(async (shipment): Promise<[string, TrackingResult] | null> => {
      const carrierName = stringOf(shipment.booking.carrierName);
      if (!carrierName) return null;
      try {
        return [shipment.shipmentId, await trackOne(context, carrierName, shipment.trackingNumber)];
      } catch (error) {
        if (error instanceof CarrierFailure && error.kind === 'refused') return null;
        throw error;
      }
    }),
  );
  return new Map(answers.filter((answer): answer is [string, TrackingResult] => answer !== null));
}

async function trackOne(context: CarrierCallContext, carrierName: string, trackingNumber: string): Promise<TrackingResult> {
  const status = await karrio(
    context,
    {
      operation: 'track',
      method: 'GET',
      path: karrioPaths.tracker(carrierName, trackingNumber),
      // The OpenAPI names the carrier again in the query.
      query: { carrier_name: carrierName },
      idempotent: true,
    },
    karrioTrackingStatusSchema,
  );
  const events = (status.events ?? [])
    .map((event) => ({
      at: eventTime(event),
      code: event.code || event.status || 'event',
      description: event.description ?? '',
      location: event.location || null,
    }))
    .filter((event): event is TrackingEvent => event.at !== null)
    .sort((a, b) => a.at.localeCompare(b.at));
  return { status: trackingStatusFromKarrio[status.status], events };
}

/** Where a Karrio shipment left from, as Karrio keeps it: only the address fields a manifest takes. */
async function shipperOf(context: CarrierCallContext, karrioShipmentId: string): Promise<KarrioAddressData> {
  const { shipper } = await karrio(
    context,
    { operation: 'closeOut.shipper', method: 'GET', path: karrioPaths.shipment(karrioShipmentId), idempotent: true },
    karrioShipmentShipperSchema,
  );
  return {
    person_name: shipper.person_name ?? null,
    company_name: shipper.company_name ?? null,
    address_line1: shipper.address_line1 ?? null,
    address_line2: shipper.address_line2 ?? null,
    postal_code: shipper.postal_code ?? null,
    city: shipper.city ?? null,
    country_code: shipper.country_code.toUpperCase(),
    phone_number: shipper.phone_number ?? null,
    email: shipper.email ?? null,
  };
}

/**
 * The close-out as a Karrio manifest of the shipments' Karrio ids (`POST /v1/manifests`), from the
 * close-out's sender address, else from where the first shipment left (read back from Karrio). The
 * manifest's own document, when the carrier makes one, is kept beside the handover list.
 */
async function closeOut(context: CarrierCallContext, request: CloseOutRequest): Promise<CloseOutResult> {
  const unknown = request.shipments.filter((shipment) => !stringOf(shipment.booking.karrioShipmentId));
  if (unknown.length) {
    throw carrierRefused(
      unknown.map((shipment) => ({
        code: 'KARRIO_SHIPMENT_UNKNOWN',
        message: `Karrio's shipment id of ${shipment.reference} (${shipment.trackingNumber}) is not known here: add it to a manifest in the Karrio dashboard`,
      })),
    );
  }
  const ids = request.shipments.map((shipment) => stringOf(shipment.booking.karrioShipmentId));
  const carrierName = stringOf(request.shipments[0]?.booking.carrierName) || (await chosenConnection(context, 'closeOut')).carrier_name;
  const address: KarrioAddressData = request.senderAddress ? karrioAddress(request.senderAddress) : await shipperOf(context, ids[0] as string);
  const manifest = await karrio(
    context,
    {
      operation: 'closeOut',
      method: 'POST',
      path: karrioPaths.manifests,
      json: { carrier_name: carrierName, address, shipment_ids: ids, reference: request.closeOutId } satisfies KarrioManifestData,
      idempotent: false,
    },
    karrioManifestSchema,
  );
  // The manifest stands without its paper: a document that cannot be fetched is left out, not a failed close.
  const document = await karrio(
    context,
    { operation: 'closeOut.document', method: 'POST', path: karrioPaths.manifestDocument(manifest.id), idempotent: true },
    karrioShippingDocumentSchema,
  ).catch(() => null);
  return {
    carrierReference: manifest.id,
    document: document?.base64
      ? { format: (document.format ?? '').toUpperCase() === 'ZPL' ? 'zpl' : 'pdf', content: Buffer.from(document.base64, 'base64') }
      : null,
  };
}

/** The connection's services as products, its on/off options as their services. */
async function refreshProducts(context: CarrierCallContext): Promise<CarrierProduct[]> {
  const connection = await chosenConnection(context, 'refreshProducts');
  const carrierName = connection.carrier_name;
  const services = await karrio(
    context,
    { operation: 'refreshProducts', method: 'GET', path: karrioPaths.services(carrierName), idempotent: true },
    karrioServicesSchema,
  );
  const options = await karrio(
    context,
    { operation: 'refreshProducts', method: 'GET', path: karrioPaths.options(carrierName), idempotent: true },
    karrioOptionsSchema,
  ).catch((error: unknown) => {
    // A carrier without options is still bookable.
    if (error instanceof CarrierFailure && error.kind === 'refused') return {};
    throw error;
  });
  const productServices = booleanOptions(options).map((key) => ({ serviceId: key, name: serviceName(carrierName, key) }));
  const carrier = connection.display_name ?? carrierName;
  return Object.entries(services).map(([serviceKey, code]) => ({
    productId: serviceKey,
    name: `${carrier} ${serviceName(carrierName, serviceKey)}`,
    // Karrio names return services as such; everything else leaves the warehouse.
    type: /(^|_)returns?(_|$)/.test(serviceKey) ? 'inbound' : 'outbound',
    description: `${carrier} service ${typeof code === 'string' ? code : serviceKey} through Karrio (${connection.carrier_id})`,
    services: productServices,
    labelSizes: [DEFAULT_LABEL_SIZE],
    // Karrio offers no common service point lookup, so no product here can ask for one.
    servicePoint: 'none',
  }));
}

async function fieldOptions(context: CarrierCallContext, fieldKey: string): Promise<{ name: string; value: string }[]> {
  if (fieldKey !== 'connectionId') return [];
  const connections = await listConnections(context, 'fieldOptions');
  return connections.filter((connection) => connection.active).map((connection) => ({ name: connectionLabel(connection), value: connection.id }));
}

async function testConnection(context: CarrierCallContext): Promise<string> {
  const connections = await listConnections(context, 'testConnection');
  const connectionId = stringOf(context.config.connectionId);
  const active = connections.filter((connection) => connection.active);
  if (!connectionId) {
    return `Karrio accepted the API key; it has ${active.length} active carrier connection${active.length === 1 ? '' : 's'}${active.length ? `: ${active.map(connectionLabel).join(', ')}` : ''}.`;
  }
  const connection = connections.find((candidate) => candidate.id === connectionId);
  if (!connection) {
    throw carrierRefused([
      {
        code: 'KARRIO_CONNECTION_NOT_FOUND',
        message: `Karrio accepted the API key, but has no carrier connection ${connectionId} for it: choose the connection again`,
      },
    ]);
  }
  if (!connection.active) {
    throw carrierRefused([{ code: 'KARRIO_CONNECTION_INACTIVE', message: `The Karrio connection ${connectionLabel(connection)} is switched off in Karrio` }]);
  }
  const testMode = context.config.testMode !== false;
  if (connection.test_mode !== testMode) {
    // The TEST marking would lie: Karrio's key and connection decide where labels are bought.
    throw carrierRefused([
      {
        code: 'KARRIO_TEST_MODE_MISMATCH',
        message: connection.test_mode
          ? `The Karrio connection ${connectionLabel(connection)} is a test connection, but Test mode is off here: switch Test mode on, or use a live key and connection`
          : `The Karrio connection ${connectionLabel(connection)} is live, but Test mode is on here: switch Test mode off to buy real labels, or use a test key and connection`,
      },
    ]);
  }
  return `Connected to Karrio: ${connectionLabel(connection)} is active.`;
}

export const karrioCarrier: CarrierAdapter = {
  slug: KARRIO_SLUG,
  describe: {
    name: 'Karrio',
    group: 'Gateways',
    description: 'Book with any carrier account on your own Karrio server (the open-source multi-carrier gateway): labels, cancel, tracking and pickups.',
    learnMoreUrl: 'https://karrio.io',
    logoSvg,
    fields,
  },
  // Karrio has no documented host of its own: apiBaseUrl is the user's server, prefix included.
  remote: { origins: { production: 'https://api.karrio.io', sandbox: 'https://api.karrio.io' }, apiBaseUrlRequired: true },
  products: (_config, stored) => stored ?? [],
  refreshProducts,
  fieldOptions,
  testConnection,
  labelDefaults: (config) => ({ size: DEFAULT_LABEL_SIZE, format: labelFormatOf(config) }),
  book,
  findBooking,
  void: voidBooking,
  track,
  bookPickup,
  cancelPickup,
  closeOut,
};
