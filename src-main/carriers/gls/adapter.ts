import type { CarrierField, DocumentFormat, ServicePoint } from '../../../src-shared/schemas/carrier';
import type {
  BookedParcel,
  BookedShipment,
  BookingRequest,
  BookingResult,
  CarrierAdapter,
  CarrierCallContext,
  CloseOutRequest,
  CloseOutResult,
  LabelDocument,
  LabelSpec,
  ServicePointQuery,
  TrackingResult,
  VoidResult,
} from '../adapter';
import { CarrierFailure } from '../errors';
import { carrierUrl, isTestMode } from '../platform/origin';
import { glsFailure, readAnswer } from './answers';
import { glsCall, glsCredentials, glsToken } from './auth';
import {
  GLS_CANCELLED_RESULTS,
  GLS_MEDIA_TYPE,
  TRACK_BATCH_LIMIT,
  cancelParcelResponseSchema,
  createParcelsResponseSchema,
  endOfDayResponseSchema,
  findParcelsResponseSchema,
  glsOrigins,
  glsPaths,
  parcelShopListSchema,
  reprintResponseSchema,
  trackResponseSchema,
  type GlsDocument,
  type GlsTrackedParcel,
  type GlsUnitItem,
} from './contract';
import { servicePointsOf } from './parcelShops';
import { glsLabelDefaults, glsProducts, printingOptions, shipmentRequest, zplTemplateSets } from './shipmentRequest';
import { shipmentTracking } from './tracking';

/**
 * GLS through its own published APIs (decisions §13): ShipIT REST books, labels, cancels, finds a
 * booking by its reference and searches ParcelShops; Track and Trace V1 tracks; the Authentication
 * API v2 issues the token they all take.
 */

export const GLS_SLUG = 'gls';

/** How far back a booking is looked for after an unknown outcome; a send is retried within days. */
const LOOKUP_WINDOW_DAYS = 30;

const fields: readonly CarrierField[] = [
  {
    name: 'Client ID',
    key: 'clientId',
    type: 'string',
    description: 'The client ID (API key) of your app in the GLS Developer Portal, with ShipIT and Track and Trace added to the app.',
    options: [],
    required: true,
  },
  {
    name: 'Client secret',
    key: 'clientSecret',
    type: 'password',
    description: 'The client secret of the same app. Sandbox and production apps have different ones.',
    options: [],
    required: true,
  },
  {
    name: 'Contact ID',
    key: 'contactId',
    type: 'string',
    description: 'Your GLS shipper contact ID (ContactID), given by GLS with your customer account.',
    options: [],
    required: true,
  },
  {
    name: 'Label format',
    key: 'labelFormat',
    type: 'select',
    description: 'PDF (an A6 page) for office printers, ZPL for thermal label printers. Default PDF.',
    options: (['pdf', 'zpl'] as const).map((format) => ({ name: format.toUpperCase(), key: format, value: format })),
    required: false,
  },
  {
    name: 'ZPL resolution',
    key: 'zplTemplateSet',
    type: 'select',
    description: 'For ZPL labels: the resolution of your label printer. Default 200 dpi.',
    options: zplTemplateSets.map((template) => ({ name: template === 'ZPL_300' ? '300 dpi' : '200 dpi', key: template, value: template })),
    required: false,
  },
];

// The GLS blue with its yellow bar; inline so the catalogue needs no network.
const logoSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">' +
  '<rect width="64" height="64" rx="12" fill="#061ab1"/>' +
  '<text x="32" y="38" font-family="Arial, sans-serif" font-size="22" font-weight="700" fill="#fff" text-anchor="middle">GLS</text>' +
  '<rect x="14" y="44" width="36" height="5" fill="#ffd100"/>' +
  '</svg>';

const shipItHeaders = (withBody: boolean): Record<string, string> => ({
  accept: `${GLS_MEDIA_TYPE}, application/json`,
  ...(withBody ? { 'content-type': GLS_MEDIA_TYPE } : {}),
});

const url = (context: CarrierCallContext, path: string) => carrierUrl(context.config, glsOrigins, path);

export const trackingUrlOf = (trackId: string) => `https://gls-group.com/GROUP/en/parcel-tracking?match=${encodeURIComponent(trackId)}`;

function labelBytes(document: GlsDocument): Buffer {
  const chunks = typeof document.Data === 'string' ? [document.Data] : document.Data;
  return Buffer.concat(chunks.map((chunk) => Buffer.from(chunk, 'base64')));
}

function labelOf(document: GlsDocument, parcelId: string | null, asked: LabelSpec): LabelDocument {
  const format: DocumentFormat = document.LabelFormat === 'ZEBRA' ? 'zpl' : 'pdf';
  // GLS draws the size its template set names: A6 for PDF, 4 × 6 in for ZPL.
  return { parcelId, format, size: format === asked.format ? asked.size : format === 'zpl' ? '100X150' : 'A6', content: labelBytes(document) };
}

interface GlsParcel {
  TrackID: string;
  ParcelNumber?: string | undefined;
  ShipmentUnitReference?: string[] | undefined;
}

/** GLS's parcels matched to ours: by the parcel id each unit carries, else in the order they were sent. */
function matchParcels<T extends GlsParcel>(request: BookingRequest, units: readonly T[]): { parcelId: string; unit: T }[] {
  const left = [...units];
  const byReference = request.parcels.map((parcel) => {
    const index = left.findIndex((unit) => unit.ShipmentUnitReference?.includes(parcel.parcelId));
    return index < 0 ? null : left.splice(index, 1)[0]!;
  });
  return request.parcels.flatMap((parcel, index) => {
    const unit = byReference[index] ?? left.shift();
    return unit ? [{ parcelId: parcel.parcelId, unit }] : [];
  });
}

function bookedParcels(matched: { parcelId: string; unit: GlsParcel }[]): BookedParcel[] {
  return matched.map(({ parcelId, unit }) => ({ parcelId, trackingNumber: unit.TrackID, parcelNumber: unit.ParcelNumber ?? null }));
}

async function book(context: CarrierCallContext, request: BookingRequest): Promise<BookingResult> {
  const body = shipmentRequest(context.config, request);
  const response = await glsCall(context, {
    operation: 'book',
    method: 'POST',
    url: url(context, glsPaths.shipments),
    headers: shipItHeaders(true),
    json: body,
    idempotent: false,
  });
  if (response.status >= 400) throw glsFailure(response, 'booking');
  const created = readAnswer(response, createParcelsResponseSchema, 'booking', true).CreatedShipment;
  const matched = matchParcels(request, created.ParcelData);
  const parcels = bookedParcels(matched);
  // One label per parcel when GLS gives one per parcel; otherwise each file is for the whole shipment.
  const perParcel = created.PrintData.length === created.ParcelData.length;
  const labels = perParcel
    ? created.ParcelData.map((unit, index) => labelOf(created.PrintData[index]!, matched.find((entry) => entry.unit === unit)?.parcelId ?? null, request.label))
    : created.PrintData.map((document) => labelOf(document, null, request.label));
  const first = parcels[0]!;
  return {
    trackingNumber: first.trackingNumber,
    trackingUrl: trackingUrlOf(first.trackingNumber),
    parcels,
    labels,
    booking: { customerId: created.CustomerID, pickupLocation: created.PickupLocation, trackIds: parcels.map((parcel) => parcel.trackingNumber) },
  };
}

/**
 * After a booking call without an answer: ShipIT's parcel search by the shipment's reference, and each
 * parcel found reprinted for its label (both reads). Cancelled parcels do not count as a booking.
 */
async function findBooking(context: CarrierCallContext, request: BookingRequest): Promise<BookingResult | null> {
  const now = context.now.getTime();
  const response = await glsCall(context, {
    operation: 'findBooking',
    method: 'POST',
    url: url(context, glsPaths.findParcels),
    headers: shipItHeaders(true),
    json: {
      ShipmentReference: request.reference,
      DateFrom: new Date(now - LOOKUP_WINDOW_DAYS * 86_400_000).toISOString(),
      DateTo: new Date(now + 86_400_000).toISOString(),
    },
    idempotent: true,
  });
  if (response.status >= 400) throw glsFailure(response, 'looking for an earlier booking');
  const units = readAnswer(response, findParcelsResponseSchema, 'looking for an earlier booking', false).UnitItems.filter(
    (unit: GlsUnitItem) => (unit.ShipmentReference ?? [request.reference]).includes(request.reference) && !/^CANCEL/i.test(unit.Status),
  );
  if (units.length === 0) return null;
  const matched = matchParcels(request, units);
  if (matched.length !== request.parcels.length) {
    throw new CarrierFailure(
      'outcome_unknown',
      `GLS has ${units.length} parcel(s) under reference ${request.reference}, the shipment has ${request.parcels.length}: check the booking with GLS before sending again`,
    );
  }
  const labels: LabelDocument[] = [];
  for (const { parcelId, unit } of matched) {
    const reprint = await glsCall(context, {
      operation: 'findBooking',
      method: 'POST',
      url: url(context, glsPaths.reprint),
      headers: shipItHeaders(true),
      json: { TrackID: unit.TrackID, PrintingOptions: printingOptions(context.config, request.label) },
      idempotent: true,
    });
    if (reprint.status >= 400) throw glsFailure(reprint, `fetching the label of parcel ${unit.TrackID}`);
    const created = readAnswer(reprint, reprintResponseSchema, `fetching the label of parcel ${unit.TrackID}`, false).CreatedShipment;
    for (const document of created.PrintData) labels.push(labelOf(document, parcelId, request.label));
  }
  const parcels = bookedParcels(matched);
  const first = parcels[0]!;
  return {
    trackingNumber: first.trackingNumber,
    trackingUrl: trackingUrlOf(first.trackingNumber),
    parcels,
    labels,
    booking: { trackIds: parcels.map((parcel) => parcel.trackingNumber), foundByReference: true },
  };
}

/** Cancels every parcel by its TrackID; GLS cancels only parcels it has not scanned yet. */
async function voidBooking(context: CarrierCallContext, booked: BookedShipment): Promise<VoidResult> {
  const trackIds = booked.parcels.length ? [...new Set(booked.parcels.map((parcel) => parcel.trackingNumber))] : [booked.trackingNumber];
  const refused: string[] = [];
  for (const trackId of trackIds) {
    const response = await glsCall(context, {
      operation: 'void',
      method: 'POST',
      url: url(context, glsPaths.cancel(trackId)),
      headers: shipItHeaders(false),
      // Cancelling a parcel twice leaves it cancelled: safe to send again after a lost answer.
      idempotent: true,
    });
    if (response.status >= 400) throw glsFailure(response, `cancelling parcel ${trackId}`);
    const answer = readAnswer(response, cancelParcelResponseSchema, `cancelling parcel ${trackId}`, false);
    if (!GLS_CANCELLED_RESULTS.includes(answer.Result.toUpperCase())) refused.push(`${trackId} (${answer.Result})`);
  }
  if (refused.length === 0) return { voided: true };
  const done = trackIds.length - refused.length;
  return {
    voided: false,
    instruction:
      `GLS did not cancel parcel${refused.length === 1 ? '' : 's'} ${refused.join(', ')}: GLS has already scanned ${refused.length === 1 ? 'it' : 'them'}. ` +
      `Ask GLS customer service to stop the parcel or send it back${done ? `; the other ${done} parcel${done === 1 ? ' was' : 's were'} cancelled` : ''}.`,
  };
}

/** Track and Trace V1 takes 10 parcel numbers a call; every parcel of every shipment is asked about. */
async function track(context: CarrierCallContext, booked: readonly BookedShipment[]): Promise<Map<string, TrackingResult>> {
  const numbersOf = (shipment: BookedShipment) =>
    shipment.parcels.length ? shipment.parcels.map((parcel) => parcel.parcelNumber ?? parcel.trackingNumber) : [shipment.trackingNumber];
  const all = [...new Set(booked.flatMap(numbersOf))];
  const answers = new Map<string, GlsTrackedParcel>();
  for (let start = 0; start < all.length; start += TRACK_BATCH_LIMIT) {
    const batch = all.slice(start, start + TRACK_BATCH_LIMIT);
    const response = await glsCall(context, {
      operation: 'track',
      method: 'GET',
      url: url(context, glsPaths.trackParcels(batch)),
      headers: { accept: 'application/json', 'accept-language': 'EN' },
      idempotent: true,
    });
    if (response.status >= 400) throw glsFailure(response, 'tracking');
    for (const parcel of readAnswer(response, trackResponseSchema, 'tracking', false).parcels) answers.set(parcel.requested, parcel);
  }
  return new Map(
    booked.map((shipment) => [
      shipment.shipmentId,
      shipmentTracking(numbersOf(shipment).map((number) => answers.get(number) ?? { requested: number, events: [] })),
    ]),
  );
}

async function servicePoints(context: CarrierCallContext, query: ServicePointQuery): Promise<ServicePoint[]> {
  const search: Record<string, string> = { CountryCode: query.countryCode.toUpperCase(), MaxNumberOfShops: String(query.limit) };
  if (query.postalCode) search.ZIPCode = query.postalCode;
  if (query.city) search.City = query.city;
  if (query.address1) search.Street = query.address1;
  const response = await glsCall(context, {
    operation: 'servicePoints',
    method: 'POST',
    url: url(context, glsPaths.parcelShopsByAddress),
    headers: shipItHeaders(true),
    json: search,
    idempotent: true,
  });
  if (response.status >= 400) throw glsFailure(response, 'searching ParcelShops');
  return servicePointsOf(readAnswer(response, parcelShopListSchema, 'searching ParcelShops', false).ParcelShop, query.limit);
}

/**
 * ShipIT's end of day for each shipping date among the shipments handed over (a close-out may take
 * shipments booked on earlier days). GLS answers with its report of that date and no id or document of
 * its own, so the handover list made here is the paper. Asking for a date's report again changes
 * nothing, so the call may be retried.
 */
async function closeOut(context: CarrierCallContext, request: CloseOutRequest): Promise<CloseOutResult> {
  const today = context.now.toISOString().slice(0, 10);
  const dates = [...new Set(request.shipments.map((shipment) => shipment.bookedAt?.slice(0, 10) ?? today))].sort();
  for (const date of dates) {
    const response = await glsCall(context, {
      operation: 'closeOut',
      method: 'POST',
      url: url(context, glsPaths.endOfDay),
      query: { date },
      headers: shipItHeaders(false),
      idempotent: true,
    });
    if (response.status >= 400) throw glsFailure(response, `closing the day ${date}`);
    readAnswer(response, endOfDayResponseSchema, `closing the day ${date}`, false);
  }
  return { carrierReference: null, document: null };
}

async function testConnection(context: CarrierCallContext): Promise<string> {
  await glsToken(context, true);
  const system = isTestMode(context.config) ? 'sandbox' : 'production system';
  return `GLS accepted client ID ${glsCredentials(context).clientId} in its ${system}. Contact ID ${String(context.config.contactId ?? '')} is checked with the first booking.`;
}

export const glsCarrier: CarrierAdapter = {
  slug: GLS_SLUG,
  // ShipIT's shipment has no customs fields: an export's invoice is printed and goes with the parcel.
  customsOnPaper: true,
  describe: {
    name: 'GLS',
    group: 'Parcel carriers',
    description:
      'GLS parcels through the GLS ShipIT API: BusinessParcel, EuroBusinessParcel, ParcelShop delivery and Express, with labels, tracking and cancel.',
    learnMoreUrl: 'https://dev-portal.gls-group.net',
    logoSvg,
    fields,
  },
  remote: { origins: glsOrigins },
  products: () => glsProducts,
  labelDefaults: glsLabelDefaults,
  testConnection,
  book,
  findBooking,
  void: voidBooking,
  track,
  servicePoints,
  closeOut,
};
