import { type CarrierField, type CarrierProduct, type LabelSize, type ServicePoint } from '../../../src-shared/schemas/carrier';
import type { CarrierErrorItem } from '../../../src-shared/errors';
import type {
  BookingParty,
  BookedParcel,
  BookedShipment,
  BookingRequest,
  BookingResult,
  CarrierAdapter,
  CarrierCallContext,
  CarrierConfig,
  ConfigIssue,
  LabelDocument,
  LabelSpec,
  ServicePointQuery,
  TrackingResult,
} from '../adapter';
import { carrierAuthFailed, carrierRefused, CarrierFailure } from '../errors';
import type { CarrierResponse } from '../platform/carrierHttp';
import { carrierUrl, isTestMode } from '../platform/origin';
import {
  basicServiceCodes,
  customerNumberDigits,
  issuerCodes,
  postnordEdiLabelResponseSchema,
  postnordErrorResponseSchema,
  postnordGatewayErrorSchema,
  postnordHealthSchema,
  postnordLabelsByIdsResponseSchema,
  postnordOrigins,
  postnordPaths,
  postnordServicePointsResponseSchema,
  postnordTrackingPage,
  postnordTrackingResponseSchema,
  servicePointCountries,
  type IssuerCode,
  type PdfPaperSize,
  type PostnordErrorResponse,
  type PostnordFault,
  type PostnordLabelPrintout,
  type PostnordServicePoint,
  type PostnordTrackedShipment,
} from './contract';
import { consignorReference, ediInstruction, type PostnordAccount } from './instruction';
import { shipmentEvents, shipmentStatus } from './tracking';

/**
 * PostNord (decisions §13): bookings with labels through PostNord's booking API (an EDI instruction
 * answered with the labels), service points from its service point API v5 and tracking from Track &
 * Trace v7, all authenticated by the `apikey` query parameter.
 */

export const POSTNORD_SLUG = 'postnord';

/** Our service ids for PostNord's SMS (A3) and e-mail (A4) notices, the words the shipping rules use. */
export const PHONE_NOTIFICATION = 'phoneNotification';
export const EMAIL_NOTIFICATION = 'emailNotification';

interface PostnordProduct extends CarrierProduct {
  basicServiceCode: string;
}

const notices = [
  { serviceId: PHONE_NOTIFICATION, name: "SMS notice to the receiver (PostNord's Notification by SMS, A3)" },
  { serviceId: EMAIL_NOTIFICATION, name: "E-mail notice to the receiver (PostNord's Notification by E-mail, A4)" },
];

const pdfSizes: LabelSize[] = ['A4', 'A6', '100X192'];

const productList: readonly PostnordProduct[] = [
  {
    productId: 'postnord_mypack_collect',
    basicServiceCode: basicServiceCodes.myPackCollect,
    name: 'MyPack Collect',
    type: 'outbound',
    description:
      'To a PostNord service point or parcel locker the receiver collects from. Without a chosen point PostNord picks the nearest (Sweden, Denmark).',
    services: notices,
    labelSizes: pdfSizes,
    servicePoint: 'optional',
  },
  {
    productId: 'postnord_mypack_home',
    basicServiceCode: basicServiceCodes.myPackHome,
    name: 'MyPack Home',
    type: 'outbound',
    description: "Delivered to the receiver's door, with FlexChange (the receiver can move it by SMS). Needs the receiver's mobile number.",
    services: notices,
    labelSizes: pdfSizes,
    servicePoint: 'none',
  },
  {
    productId: 'postnord_parcel',
    basicServiceCode: basicServiceCodes.parcel,
    name: 'Parcel',
    type: 'outbound',
    description: "Business parcel to the receiver's address. Needs a contact name and phone number.",
    services: notices,
    labelSizes: pdfSizes,
    servicePoint: 'none',
  },
  {
    productId: 'postnord_postpaket_utrikes',
    basicServiceCode: basicServiceCodes.postpaketUtrikes,
    name: 'Postpaket Utrikes',
    type: 'outbound',
    description:
      "PostNord's international postal parcel to countries outside the Nordics, delivered by the destination's post. Customs goes with it as a CN22 or CN23.",
    services: [],
    labelSizes: pdfSizes,
    servicePoint: 'none',
    // Carried under the UPU's rules: an export with it gets a CN22 or CN23 (issue 21).
    postal: true,
  },
  {
    productId: 'postnord_return_drop_off',
    basicServiceCode: basicServiceCodes.returnDropOff,
    name: 'Return Drop Off',
    type: 'inbound',
    description: 'A return label the customer hands in at any PostNord service point. Needs the customer’s mobile number and e-mail.',
    services: [],
    labelSizes: pdfSizes,
    servicePoint: 'none',
  },
  {
    productId: 'postnord_return_pickup',
    basicServiceCode: basicServiceCodes.returnPickup,
    name: 'Return Pickup',
    type: 'inbound',
    description: 'PostNord collects the return from the customer. Needs a mobile number for both the customer and the warehouse.',
    services: [],
    labelSizes: pdfSizes,
    servicePoint: 'none',
  },
];

const products: readonly CarrierProduct[] = productList.map(({ basicServiceCode: _code, ...product }) => product);

const issuerNames: Record<IssuerCode, string> = {
  Z11: 'PostNord Denmark',
  Z12: 'PostNord Sweden',
  Z13: 'PostNord Norway',
  Z14: 'PostNord Finland',
  ZDL: 'Direct Link',
};

const fields: readonly CarrierField[] = [
  {
    name: 'API key',
    key: 'apiKey',
    type: 'password',
    description: "The 32-character key of your application at PostNord's developer portal, enabled for booking, service points and tracking.",
    options: [],
    required: true,
  },
  {
    name: 'Customer number',
    key: 'customerNumber',
    type: 'string',
    description: 'Your PostNord customer number from the agreement: Sweden and Finland 8 or 10 digits, Denmark 9, Norway 7.',
    options: [],
    required: true,
  },
  {
    name: 'Agreement country',
    key: 'issuerCode',
    type: 'select',
    description: 'The PostNord company that issued the customer number. Default PostNord Sweden.',
    options: issuerCodes.filter((code) => code !== 'ZDL').map((code) => ({ name: issuerNames[code], key: code, value: code })),
    required: false,
  },
  {
    name: 'Label format',
    key: 'labelFormat',
    type: 'select',
    description: 'PDF for office and label printers, ZPL for thermal label printers (105 × 190 mm). Default PDF.',
    options: [
      { name: 'PDF', key: 'pdf', value: 'pdf' },
      { name: 'ZPL', key: 'zpl', value: 'zpl' },
    ],
    required: false,
  },
  {
    name: 'Label size',
    key: 'labelSize',
    type: 'select',
    description: 'Page of a PDF label: A4, A6, or 100X192 for the 105 × 190 mm label itself. Default A6. ZPL labels are always 105 × 190 mm.',
    options: pdfSizes.map((size) => ({ name: size, key: size, value: size })),
    required: false,
  },
];

const logoSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">' +
  '<rect width="64" height="64" rx="12" fill="#00a0d6"/>' +
  '<text x="32" y="40" font-family="Arial, sans-serif" font-size="17" font-weight="bold" fill="#fff" text-anchor="middle">PN</text>' +
  '</svg>';

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

function accountOf(config: CarrierConfig): PostnordAccount {
  const issuer = text(config.issuerCode);
  return {
    customerNumber: text(config.customerNumber) ?? '',
    issuerCode: issuer && (issuerCodes as readonly string[]).includes(issuer) ? (issuer as IssuerCode) : 'Z12',
  };
}

const apiKeyOf = (config: CarrierConfig) => text(config.apiKey) ?? '';

const url = (config: CarrierConfig, path: string) => carrierUrl(config, postnordOrigins, path);

function labelDefaults(config: CarrierConfig): LabelSpec {
  if (config.labelFormat === 'zpl') return { format: 'zpl', size: '100X192' };
  const size = text(config.labelSize);
  return { format: 'pdf', size: size && (pdfSizes as string[]).includes(size) ? (size as LabelSize) : 'A6' };
}

/** The PDF page PostNord lays the label on, and the size it then has; PostNord has no 100 × 150 page, A6 is the nearest. */
function pdfPage(size: LabelSize): { paperSize: PdfPaperSize; size: LabelSize } {
  if (size === 'A4') return { paperSize: 'A4', size: 'A4' };
  if (size === '100X192') return { paperSize: 'LABEL', size: '100X192' };
  return { paperSize: 'A6', size: 'A6' };
}

function productOf(productId: string): PostnordProduct {
  const product = productList.find((candidate) => candidate.productId === productId);
  if (!product) throw carrierRefused([{ code: 'UNKNOWN_PRODUCT', message: `PostNord has no product ${productId} in Shipdesk` }]);
  return product;
}

// Errors ---------------------------------------------------------------------------------------

function faultItems(body: PostnordErrorResponse): CarrierErrorItem[] {
  const faults = body.compositeFault?.faults ?? [];
  if (faults.length === 0) return [{ code: 'POSTNORD_ERROR', message: body.message }];
  return faults.map((fault: PostnordFault) => ({
    code: fault.faultReferences?.find((ref) => ref.key.endsWith('subType'))?.value ?? fault.faultCode ?? 'POSTNORD_ERROR',
    message: fault.explanationText,
  }));
}

/** A 4xx in PostNord's words: its gateway's envelope or its documented errorResponse. */
function failureOf(response: CarrierResponse, what: string): CarrierFailure {
  const gateway = postnordGatewayErrorSchema.safeParse(response.json);
  const documented = postnordErrorResponseSchema.safeParse(response.json);
  const errors: CarrierErrorItem[] = gateway.success
    ? [{ code: gateway.data.error.error_type ?? `HTTP_${response.status}`, message: gateway.data.error.message ?? `HTTP ${response.status}` }]
    : documented.success
      ? faultItems(documented.data)
      : [{ code: `HTTP_${response.status}`, message: response.text.slice(0, 300) || `HTTP ${response.status}` }];
  if (response.status === 401 || response.status === 403) {
    return carrierAuthFailed(`PostNord refused the API key for ${what}: ${errors.map((error) => error.message).join('; ')}`, errors);
  }
  return carrierRefused(errors);
}

/** A 2xx body that does not read as the contract says: PostNord acted, but we cannot tell on what. */
function unreadable(what: string, detail: string): CarrierFailure {
  return new CarrierFailure('outcome_unknown', `PostNord's answer to ${what} could not be read: ${detail}`);
}

// Booking ----------------------------------------------------------------------------------------

function labelsFrom(
  printouts: readonly PostnordLabelPrintout[],
  itemIds: readonly string[],
  parcels: readonly BookedParcel[],
  spec: LabelSpec,
): LabelDocument[] {
  return printouts.flatMap((printout) => {
    const data = printout.printout?.data;
    if (!data) return [];
    const covered = (printout.itemIds ?? []).map((item) => item.itemIds).filter((id): id is string => typeof id === 'string');
    // One file for one item is that parcel's label; a file covering several is the shipment's.
    const parcel = covered.length === 1 ? parcels[itemIds.indexOf(covered[0] as string)] : undefined;
    return [{ parcelId: parcel?.parcelId ?? null, format: spec.format, size: spec.size, content: Buffer.from(data, 'base64') }];
  });
}

function bookedParcels(request: BookingRequest, itemIds: readonly string[]): BookedParcel[] {
  // PostNord allocates the item ids in the order of the goods items, one goods item per parcel.
  return request.parcels.map((parcel, index) => ({ parcelId: parcel.parcelId, trackingNumber: itemIds[index] as string, parcelNumber: null }));
}

async function book(context: CarrierCallContext, request: BookingRequest): Promise<BookingResult> {
  const { config } = context;
  const account = accountOf(config);
  const product = productOf(request.productId);
  const isReturnDropOff = product.basicServiceCode === basicServiceCodes.returnDropOff;
  const format = request.label.format;
  const page = format === 'pdf' ? pdfPage(request.label.size) : null;
  const spec: LabelSpec = { format, size: page?.size ?? '100X192' };
  const instruction = ediInstruction(
    request,
    account,
    product.basicServiceCode,
    {
      sms: request.notify.phone || request.services.includes(PHONE_NOTIFICATION),
      email: request.notify.email || request.services.includes(EMAIL_NOTIFICATION),
    },
    context.now,
    await servicePointParty(context, request),
  );
  const path = isReturnDropOff ? postnordPaths.bookReturnWithLabels(format) : postnordPaths.bookWithLabels(format);
  const response = await context.http.request({
    operation: 'book',
    method: 'POST',
    url: url(config, path),
    query: page ? { apikey: apiKeyOf(config), paperSize: page.paperSize, multiPDF: false } : { apikey: apiKeyOf(config), multiZPL: false, dpmm: '8dpmm' },
    json: instruction,
    idempotent: false,
  });
  if (response.status >= 300) throw failureOf(response, 'booking');
  const parsed = postnordEdiLabelResponseSchema.safeParse(response.json);
  if (!parsed.success) throw unreadable('the booking', parsed.error.issues[0]?.message ?? 'not JSON');
  const information = parsed.data.bookingResponse?.idInformation ?? [];
  const refused = information.filter((info) => (info.status && info.status !== 'OK') || info.errorResponse);
  if (refused.length > 0) {
    throw carrierRefused(
      refused.flatMap((info) => (info.errorResponse ? faultItems(info.errorResponse) : [{ code: 'POSTNORD_ERROR', message: `Status ${info.status}` }])),
    );
  }
  const ids = information.flatMap((info) => info.ids ?? []);
  const itemIds = ids.filter((id) => id.idType === 'itemId' && id.value).map((id) => id.value as string);
  if (itemIds.length !== request.parcels.length) throw unreadable('the booking', `${itemIds.length} item ids for ${request.parcels.length} parcels`);
  const parcels = bookedParcels(request, itemIds);
  const trackingUrl =
    information.flatMap((info) => info.urls ?? []).find((link) => link.type === 'TRACKING' && link.url)?.url ?? postnordTrackingPage(itemIds[0] as string);
  return {
    trackingNumber: itemIds[0] as string,
    trackingUrl,
    parcels,
    labels: labelsFrom(parsed.data.labelPrintout ?? [], itemIds, parcels, spec),
    booking: {
      bookingId: parsed.data.bookingResponse?.bookingId ?? null,
      shipmentId: ids.find((id) => id.idType === 'shipmentId')?.value ?? null,
      itemIds,
      customerNumber: account.customerNumber,
      testMode: isTestMode(config),
    },
  };
}

/**
 * The delivery party of a parcel to a service point carries the point's own delivery address
 * (service points v5: "the delivery address should be used in the EDI and on the label"); asked by
 * id when the shipment has no service_point party filled from the lookup.
 */
async function servicePointParty(context: CarrierCallContext, request: BookingRequest): Promise<BookingParty | null> {
  if (!request.servicePointId || request.otherParties.some((party) => party.type === 'service_point')) return null;
  const countryCode = request.receiver.countryCode;
  const response = await context.http.request({
    operation: 'servicePoint',
    method: 'GET',
    url: url(context.config, postnordPaths.servicePointsByIds),
    query: { apikey: apiKeyOf(context.config), returnType: 'json', countryCode, ids: request.servicePointId },
    idempotent: true,
  });
  if (response.status >= 300) throw failureOf(response, 'the service point lookup');
  const parsed = postnordServicePointsResponseSchema.safeParse(response.json);
  const point = parsed.success
    ? parsed.data.servicePointInformationResponse.servicePoints?.find((candidate) => candidate.servicePointId === request.servicePointId)
    : undefined;
  if (!point) {
    throw carrierRefused([{ code: 'SERVICE_POINT', message: `PostNord has no service point ${request.servicePointId} in ${countryCode}` }]);
  }
  const address = point.deliveryAddress ?? point.visitingAddress ?? {};
  return {
    name: point.name ?? point.servicePointId,
    attention: null,
    company: null,
    address1: [address.streetName, address.streetNumber].filter(Boolean).join(' '),
    address2: null,
    postalCode: address.postalCode ?? '',
    city: address.city ?? '',
    countryCode: address.countryCode ?? countryCode,
    phone: null,
    email: null,
  };
}

/** After an unknown outcome: Track & Trace by the consignor's reference, then the labels by item id. */
async function findBooking(context: CarrierCallContext, request: BookingRequest): Promise<BookingResult | null> {
  const { config } = context;
  const account = accountOf(config);
  const response = await context.http.request({
    operation: 'findBooking',
    method: 'GET',
    url: url(config, postnordPaths.trackByReference(account.customerNumber, consignorReference(request.reference))),
    query: { apikey: apiKeyOf(config), locale: 'en' },
    idempotent: true,
  });
  if (response.status === 404) return null;
  if (response.status >= 300) throw failureOf(response, 'the lookup by reference');
  const parsed = postnordTrackingResponseSchema.safeParse(response.json);
  if (!parsed.success) throw new CarrierFailure('unavailable', `PostNord's Track & Trace answer could not be read: ${parsed.error.issues[0]?.message}`);
  const shipment = parsed.data.TrackingInformationResponse.shipments?.find((candidate) => (candidate.items ?? []).length > 0);
  if (!shipment) return null;
  const itemIds = (shipment.items ?? []).map((item) => item.itemId);
  if (itemIds.length !== request.parcels.length) {
    throw carrierRefused([
      {
        code: 'BOOKING_MISMATCH',
        message: `PostNord has shipment ${shipment.shipmentId} under reference ${request.reference} with ${itemIds.length} parcels, but this shipment has ${request.parcels.length}`,
      },
    ]);
  }
  const format = request.label.format;
  const page = format === 'pdf' ? pdfPage(request.label.size) : null;
  const labels = await context.http.request({
    operation: 'labels',
    method: 'POST',
    url: url(config, postnordPaths.labelsByIds(format)),
    query: page ? { apikey: apiKeyOf(config), paperSize: page.paperSize, multiPDF: false } : { apikey: apiKeyOf(config), multiZPL: false, dpmm: '8dpmm' },
    json: itemIds.map((id) => ({ id })),
    // Fetching labels again changes nothing at PostNord.
    idempotent: true,
  });
  if (labels.status >= 300) throw failureOf(labels, 'the labels');
  const printouts = postnordLabelsByIdsResponseSchema.safeParse(labels.json);
  if (!printouts.success) throw new CarrierFailure('unavailable', `PostNord's labels could not be read: ${printouts.error.issues[0]?.message}`);
  const parcels = bookedParcels(request, itemIds);
  return {
    trackingNumber: itemIds[0] as string,
    trackingUrl: postnordTrackingPage(itemIds[0] as string),
    parcels,
    labels: labelsFrom(printouts.data, itemIds, parcels, { format, size: page?.size ?? '100X192' }),
    booking: { bookingId: null, shipmentId: shipment.shipmentId, itemIds, customerNumber: account.customerNumber, testMode: isTestMode(config) },
  };
}

// Tracking ---------------------------------------------------------------------------------------

async function trackOne(context: CarrierCallContext, booked: BookedShipment): Promise<TrackingResult> {
  const id = text(booked.booking.shipmentId) ?? booked.trackingNumber;
  const response = await context.http.request({
    operation: 'track',
    method: 'GET',
    url: url(context.config, postnordPaths.trackById(id)),
    query: { apikey: apiKeyOf(context.config), locale: 'en' },
    idempotent: true,
  });
  if (response.status >= 300) throw failureOf(response, 'tracking');
  const parsed = postnordTrackingResponseSchema.safeParse(response.json);
  if (!parsed.success) throw new CarrierFailure('unavailable', `PostNord's Track & Trace answer could not be read: ${parsed.error.issues[0]?.message}`);
  const shipment: PostnordTrackedShipment | undefined = parsed.data.TrackingInformationResponse.shipments?.[0];
  if (!shipment) return { status: 'unknown', events: [] };
  return { status: shipmentStatus(shipment), events: shipmentEvents(shipment) };
}

/** Track & Trace takes one id per call: a call per shipment (its shipment id covers every parcel), run within the call slots. */
async function track(context: CarrierCallContext, booked: readonly BookedShipment[]): Promise<Map<string, TrackingResult>> {
  const settled = await Promise.allSettled(booked.map(async (shipment) => [shipment.shipmentId, await trackOne(context, shipment)] as const));
  const answered = settled.filter((result) => result.status === 'fulfilled').map((result) => result.value);
  const failed = settled.find((result) => result.status === 'rejected');
  // All failing is PostNord failing (a refused key, an outage): the poller backs off; some failing is those shipments'.
  if (failed && answered.length === 0) throw failed.reason;
  return new Map(answered);
}

// Service points ------------------------------------------------------------------------------------

const weekdayNames = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];

function servicePoint(point: PostnordServicePoint, countryCode: string): ServicePoint {
  const address = point.deliveryAddress ?? point.visitingAddress ?? {};
  const visiting = point.visitingAddress ?? address;
  const coordinate = point.coordinates?.find((candidate) => candidate.srId === 'EPSG:4326') ?? point.coordinates?.[0];
  return {
    id: point.servicePointId,
    name: point.name ?? point.servicePointId,
    address1: [visiting.streetName, visiting.streetNumber].filter(Boolean).join(' '),
    postalCode: visiting.postalCode ?? '',
    city: visiting.city ?? '',
    countryCode: visiting.countryCode ?? countryCode,
    distanceMeters: point.routeDistance ?? null,
    // The swagger's examples show northing as latitude and easting as longitude (WGS 84).
    latitude: coordinate?.northing ?? null,
    longitude: coordinate?.easting ?? null,
    openingHours: (point.openingHours?.postalServices ?? [])
      .filter((hours) => hours.openDay && weekdayNames.includes(hours.openDay) && hours.openTime && hours.closeTime)
      .map((hours) => ({ day: (hours.openDay as string).toLowerCase(), open: hours.openTime as string, close: hours.closeTime as string })),
  };
}

/** "Karlaplan 13" → street and number, as the nearest-by-address lookup takes them. */
function streetParts(address1: string | null): { streetName?: string; streetNumber?: string } {
  if (!address1) return {};
  const match = /^(.*?)[\s,]+(\d+\s?[A-Za-z]?)\b.*$/.exec(address1.trim());
  return match?.[1] ? { streetName: match[1], streetNumber: (match[2] as string).replace(/\s/g, '') } : { streetName: address1.trim() };
}

async function servicePoints(context: CarrierCallContext, query: ServicePointQuery): Promise<ServicePoint[]> {
  if (!(servicePointCountries as readonly string[]).includes(query.countryCode)) return [];
  const response = await context.http.request({
    operation: 'servicePoints',
    method: 'GET',
    url: url(context.config, postnordPaths.nearestServicePointsByAddress),
    query: {
      apikey: apiKeyOf(context.config),
      returnType: 'json',
      countryCode: query.countryCode,
      postalCode: query.postalCode.replace(/\s/g, ''),
      city: query.city ?? undefined,
      ...streetParts(query.address1),
      numberOfServicePoints: query.limit,
      context: 'optionalservicepoint',
    },
    idempotent: true,
  });
  if (response.status >= 300) throw failureOf(response, 'the service point lookup');
  const parsed = postnordServicePointsResponseSchema.safeParse(response.json);
  if (!parsed.success) throw new CarrierFailure('unavailable', `PostNord's service point answer could not be read: ${parsed.error.issues[0]?.message}`);
  return (parsed.data.servicePointInformationResponse.servicePoints ?? []).map((point) => servicePoint(point, query.countryCode));
}

// Connection and config -------------------------------------------------------------------------------

async function testConnection(context: CarrierCallContext): Promise<string> {
  const response = await context.http.request({
    operation: 'testConnection',
    method: 'GET',
    url: url(context.config, postnordPaths.bookingHealth),
    query: { apikey: apiKeyOf(context.config) },
    idempotent: true,
  });
  if (response.status >= 300) throw failureOf(response, 'the booking API');
  const health = postnordHealthSchema.safeParse(response.json);
  const where = isTestMode(context.config) ? "PostNord's test system" : 'PostNord production';
  if (health.success && health.data.status !== 'UP')
    return `${where} accepted the API key, but its booking API reports ${health.data.status}; bookings may fail for now.`;
  return `${where} accepted the API key; its booking API is up.`;
}

function checkConfig(config: CarrierConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const { customerNumber, issuerCode } = accountOf(config);
  const digits = issuerCode === 'ZDL' ? null : customerNumberDigits[issuerCode];
  if (customerNumber && digits && !(/^\d+$/.test(customerNumber) && digits.includes(customerNumber.length))) {
    issues.push({ key: 'customerNumber', message: `A ${issuerNames[issuerCode]} customer number has ${digits.join(' or ')} digits` });
  }
  const size = text(config.labelSize);
  if (size && !(pdfSizes as string[]).includes(size)) issues.push({ key: 'labelSize', message: `PostNord's PDF labels come in ${pdfSizes.join(', ')}` });
  return issues;
}

function voidBooking(_context: CarrierCallContext, booked: BookedShipment): Promise<{ voided: false; instruction: string }> {
  // PostNord's booking API has no cancel of a booked EDI instruction (no delete route; "Deletion" re-books).
  const numbers = booked.parcels.map((parcel) => parcel.trackingNumber).filter(Boolean);
  const list = numbers.length > 0 ? numbers.join(', ') : booked.trackingNumber;
  return Promise.resolve({
    voided: false,
    instruction: `PostNord cannot cancel a booked parcel through its API. Do not hand parcel ${list} to PostNord and discard its label; if it was already handed over, call PostNord customer service with the tracking number to stop it.`,
  });
}

export const postnordCarrier: CarrierAdapter = {
  slug: POSTNORD_SLUG,
  describe: {
    name: 'PostNord',
    group: 'Carriers',
    description:
      'PostNord parcels in the Nordics: MyPack Collect to a service point, MyPack Home, Parcel and returns, booked with labels through PostNord’s own API.',
    learnMoreUrl: 'https://developer.postnord.com',
    logoSvg,
    fields,
  },
  remote: { origins: postnordOrigins },
  checkConfig,
  products: () => products,
  labelDefaults,
  testConnection,
  book,
  findBooking,
  void: voidBooking,
  track,
  servicePoints,
};
