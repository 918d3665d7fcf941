import { documentFormats, labelSizes, type CarrierField, type CarrierProduct, type DocumentFormat, type LabelSize } from '../../src-shared/schemas/carrier';
import { renderLabel, type LabelRenderOptions } from '../documents/label';
import type {
  BookingRequest,
  BookingResult,
  CarrierAdapter,
  CarrierCallContext,
  CarrierCallLog,
  CarrierConfig,
  ConfigIssue,
  LabelDocument,
  LabelRedrawContext,
  LabelSpec,
  PickupBooking,
  PickupRequest,
} from './adapter';

/**
 * The built-in `local` carrier: the warehouse's own delivery, pallets and pick-ups. It books offline
 * (decisions §8): tracking numbers come from the organization's sequence and labels are rendered here.
 */

export const LOCAL_SLUG = 'local';

const DEFAULT_LABEL: LabelSpec = { size: '100X150', format: 'pdf' };
const DEFAULT_TRACKING_PREFIX = 'LOC';
const TRACKING_PLACEHOLDER = '{trackingNumber}';

const allSizes = [...labelSizes];

const products: readonly CarrierProduct[] = [
  {
    productId: 'local_parcel',
    name: 'Own delivery, parcel',
    type: 'outbound',
    description: 'Parcels delivered by your own drivers.',
    services: [
      { serviceId: 'signature', name: 'Signature on delivery' },
      { serviceId: 'call_ahead', name: 'Call before delivery' },
      { serviceId: 'evening', name: 'Evening delivery' },
    ],
    labelSizes: allSizes,
    servicePoint: 'none',
  },
  {
    productId: 'local_pallet',
    name: 'Own delivery, pallet',
    type: 'outbound',
    description: 'Pallets delivered by your own trucks.',
    services: [
      { serviceId: 'tail_lift', name: 'Tail-lift truck' },
      { serviceId: 'call_ahead', name: 'Call before delivery' },
      { serviceId: 'pallet_exchange', name: 'Pallet exchange' },
    ],
    labelSizes: allSizes,
    servicePoint: 'none',
  },
  {
    productId: 'local_pickup',
    name: 'Customer pick-up',
    type: 'outbound',
    description: 'The customer collects the goods at the warehouse.',
    services: [{ serviceId: 'notify_ready', name: 'Tell the customer when it is ready' }],
    labelSizes: allSizes,
    servicePoint: 'none',
  },
  {
    productId: 'local_return',
    name: 'Return to the warehouse',
    type: 'inbound',
    description: 'Goods coming back, brought by the customer or collected by your own drivers.',
    services: [{ serviceId: 'collect', name: 'Collected by own driver' }],
    labelSizes: allSizes,
    servicePoint: 'none',
  },
];

const fields: readonly CarrierField[] = [
  {
    name: 'Label format',
    key: 'labelFormat',
    type: 'select',
    description: 'File format of the labels: PDF for office printers, ZPL for thermal label printers. Default PDF.',
    options: documentFormats.map((format) => ({ name: format.toUpperCase(), key: format, value: format })),
    required: false,
  },
  {
    name: 'Label size',
    key: 'labelSize',
    type: 'select',
    description: `Paper size of the labels. Default ${DEFAULT_LABEL.size}.`,
    options: labelSizes.map((size) => ({ name: size, key: size, value: size })),
    required: false,
  },
  {
    name: 'Tracking number prefix',
    key: 'trackingPrefix',
    type: 'string',
    description: `Upper-case letters and digits (at most 10) put before the running number. Default ${DEFAULT_TRACKING_PREFIX}.`,
    options: [],
    required: false,
  },
  {
    name: 'Tracking page URL',
    key: 'trackingUrlTemplate',
    type: 'string',
    description: `Link to your own tracking page; ${TRACKING_PLACEHOLDER} is replaced by the tracking number. Without it, shipments have no tracking link.`,
    options: [],
    required: false,
  },
];

const oneOf = <T extends string>(allowed: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (allowed as readonly string[]).includes(value);

/** The label size a carrier's config asks for, or the default when it names none. */
export function labelSizeOf(config: CarrierConfig): LabelSize {
  return oneOf(labelSizes, config.labelSize) ? config.labelSize : DEFAULT_LABEL.size;
}

/** The label format a carrier's config asks for, or the default when it names none. */
export function labelFormatOf(config: CarrierConfig): DocumentFormat {
  return oneOf(documentFormats, config.labelFormat) ? config.labelFormat : DEFAULT_LABEL.format;
}

const nonEmpty = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** `LOC000000042`: the prefix and the organization's running number, fixed width so they sort. */
export function trackingNumberFor(config: CarrierConfig, sequence: number): string {
  return `${nonEmpty(config.trackingPrefix) ?? DEFAULT_TRACKING_PREFIX}${String(sequence).padStart(9, '0')}`;
}

export function trackingUrlFor(config: CarrierConfig, trackingNumber: string): string | null {
  const template = nonEmpty(config.trackingUrlTemplate);
  return template ? template.replaceAll(TRACKING_PLACEHOLDER, encodeURIComponent(trackingNumber)) : null;
}

function checkConfig(config: CarrierConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const prefix = nonEmpty(config.trackingPrefix);
  if (prefix !== null && !/^[A-Z0-9]{1,10}$/.test(prefix)) {
    issues.push({ key: 'trackingPrefix', message: 'Must be 1 to 10 upper-case letters or digits, e.g. ACME' });
  }
  const template = nonEmpty(config.trackingUrlTemplate);
  if (template !== null && !isTrackingTemplate(template)) {
    issues.push({
      key: 'trackingUrlTemplate',
      message: `Must be an http:// or https:// URL containing ${TRACKING_PLACEHOLDER}, e.g. https://example.com/track/${TRACKING_PLACEHOLDER}`,
    });
  }
  return issues;
}

function isTrackingTemplate(template: string): boolean {
  if (!template.includes(TRACKING_PLACEHOLDER)) return false;
  try {
    const url = new URL(template.replaceAll(TRACKING_PLACEHOLDER, 'X'));
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

// A delivery van on the brand green; inline so the catalogue needs no network.
const logoSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">' +
  '<rect width="64" height="64" rx="12" fill="#1f6f50"/>' +
  '<path d="M10 20h26v20H10zM38 27h9l7 7v6H38z" fill="#fff"/>' +
  '<circle cx="20" cy="43" r="5" fill="#fff" stroke="#1f6f50" stroke-width="3"/>' +
  '<circle cx="45" cy="43" r="5" fill="#fff" stroke="#1f6f50" stroke-width="3"/>' +
  '</svg>';

/**
 * Books offline: the tracking number is the organization's next running number, and each parcel gets
 * its own label in the size and format asked for. Nothing leaves the machine, so the one "call" logged
 * is the booking itself.
 */
async function book(context: CarrierCallContext, request: BookingRequest): Promise<BookingResult> {
  const started = performance.now();
  const trackingNumber = trackingNumberFor(context.config, context.nextTrackingSequence());
  const trackingUrl = trackingUrlFor(context.config, trackingNumber);
  const labels: LabelDocument[] = [];
  for (const parcel of request.parcels) {
    const content = await drawLabel({ config: context.config, trackingNumber, bookedAt: context.now }, request, parcel.parcelId, request.label);
    labels.push({ parcelId: parcel.parcelId, format: request.label.format, size: request.label.size, content });
  }
  const call: CarrierCallLog = {
    request: {
      operation: 'book',
      reference: request.reference,
      productId: request.productId,
      services: request.services,
      parcels: request.parcels.length,
      label: request.label,
    },
    response: {
      trackingNumber,
      trackingUrl,
      labels: labels.map((label) => ({ parcelId: label.parcelId, format: label.format, size: label.size, bytes: label.content.length })),
    },
    statusCode: null,
    error: null,
    durationMs: Math.round(performance.now() - started),
  };
  context.http.calls.push(call);
  // One number for the whole shipment: the warehouse's own van has no parcel numbers of its own.
  const parcels = request.parcels.map((parcel) => ({ parcelId: parcel.parcelId, trackingNumber, parcelNumber: null }));
  return { trackingNumber, trackingUrl, parcels, labels, booking: {} };
}

/** One parcel's label; the same drawing at booking and when it is drawn again in another format. */
async function drawLabel(
  context: LabelRedrawContext,
  request: BookingRequest,
  parcelId: string,
  label: LabelSpec,
  options: LabelRenderOptions = {},
): Promise<Buffer> {
  const index = request.parcels.findIndex((parcel) => parcel.parcelId === parcelId);
  const parcel = request.parcels[index];
  if (!parcel) throw new Error(`Parcel ${parcelId} is not part of shipment ${request.reference}`);
  const product = products.find((candidate) => candidate.productId === request.productId);
  return renderLabel(
    {
      carrierName: localCarrier.describe.name,
      productName: product?.name ?? request.productId,
      trackingNumber: context.trackingNumber,
      reference: request.reference,
      sender: request.sender,
      receiver: request.receiver,
      parcelNumber: index + 1,
      parcelCount: request.parcels.length,
      weightKg: parcel.weightKg,
      createdAt: context.bookedAt.toISOString(),
      servicePointId: request.servicePointId,
    },
    label.format,
    label.size,
    options,
  );
}

/**
 * The warehouse's own van or a haulier called by phone: the pickup is recorded here, numbered from
 * the organization's running sequence (as its tracking numbers are) so it has a number to quote.
 */
async function bookPickup(context: CarrierCallContext, request: PickupRequest): Promise<PickupBooking> {
  const confirmationNumber = `PU${String(context.nextTrackingSequence()).padStart(9, '0')}`;
  context.http.calls.push({
    request: { operation: 'bookPickup', pickupId: request.pickupId, date: request.date, from: request.from, to: request.to },
    response: { confirmationNumber },
    statusCode: null,
    error: null,
    durationMs: 0,
  });
  return { confirmationNumber, booking: {} };
}

export const localCarrier: CarrierAdapter = {
  slug: LOCAL_SLUG,
  describe: {
    name: 'Local delivery',
    group: 'Built-in',
    description: 'Your own delivery, pallets and customer pick-ups. Works offline: tracking numbers and labels are made here.',
    learnMoreUrl: '',
    logoSvg,
    fields,
  },
  checkConfig,
  products: () => products,
  labelDefaults: (config) => ({ size: labelSizeOf(config), format: labelFormatOf(config) }),
  book,
  // Drawn again for a screen or an office printer: its font embedded, so nothing is cut off.
  redrawLabel: (context, request, parcelId, label) => drawLabel(context, request, parcelId, label, { embedFont: true }),
  // Nobody else holds the booking: voiding it is only noted, in logs[] as the booking was.
  void: async (context, booked) => {
    context.http.calls.push({
      request: { operation: 'void', trackingNumber: booked.trackingNumber },
      response: { voided: true },
      statusCode: null,
      error: null,
      durationMs: 0,
    });
    return { voided: true };
  },
  bookPickup,
  // Nobody else holds the pickup: cancelling it is only noted.
  cancelPickup: async (context, pickup) => {
    context.http.calls.push({
      request: { operation: 'cancelPickup', confirmationNumber: pickup.confirmationNumber },
      response: { cancelled: true },
      statusCode: null,
      error: null,
      durationMs: 0,
    });
  },
  // No `track`: nobody else knows where the van is; its status is set by hand (decisions §13).
};
