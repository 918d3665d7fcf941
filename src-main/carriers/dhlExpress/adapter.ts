import type { CarrierField, DocumentFormat } from '../../../src-shared/schemas/carrier';
import type {
  BookedParcel,
  BookedPickup,
  BookedShipment,
  BookingRequest,
  BookingResult,
  CarrierAdapter,
  CarrierCallContext,
  CarrierConfig,
  ConfigIssue,
  LabelDocument,
  PickupBooking,
  PickupRequest,
  TrackingResult,
  VoidResult,
} from '../adapter';
import type { CarrierRequest, CarrierResponse } from '../platform/carrierHttp';
import { carrierUrl, isTestMode } from '../platform/origin';
import { dhlErrors, dhlFailure, readAnswer } from './answers';
import {
  TRACK_BATCH_LIMIT,
  addressValidateResponseSchema,
  dhlOrigins,
  dhlPaths,
  pickupResponseSchema,
  shipmentResponseSchema,
  trackingResponseSchema,
  type DhlDocument,
  type DhlPickupRequest,
  type DhlTrackedShipment,
} from './contract';
import { dhlLabelDefaults, dhlProducts, drawnSize } from './products';
import { accountNumberOf, dhlParty, dhlTimestamp, paperlessTradeOn, shipmentRequest } from './shipmentRequest';
import { shipmentTracking } from './tracking';

/**
 * DHL Express through the MyDHL API 3.x (decisions §13): create shipment with labels and the customs
 * declaration (paperless trade where the account has it), tracking by waybill, pickups booked and
 * cancelled on their own. MyDHL has no call to cancel a shipment or to fetch a label again, so a
 * shipment is voided by not handing it over, and an unknown outcome needs the user's confirmRebook.
 */

export const DHL_EXPRESS_SLUG = 'dhl_express';

const fields: readonly CarrierField[] = [
  {
    name: 'Username',
    key: 'username',
    type: 'string',
    description: 'The MyDHL API username (API key) DHL Express gave you with your API access. Test and production access have different ones.',
    options: [],
    required: true,
  },
  {
    name: 'Password',
    key: 'password',
    type: 'password',
    description: 'The MyDHL API password (API secret) that goes with the username.',
    options: [],
    required: true,
  },
  {
    name: 'Account number',
    key: 'accountNumber',
    type: 'string',
    description: 'Your DHL Express shipper account number (9 digits), billed for the shipments.',
    options: [],
    required: true,
  },
  {
    name: 'Paperless trade',
    key: 'paperlessTrade',
    type: 'boolean',
    description:
      'On when DHL has enabled paperless trade (PLT) for your account: the customs invoice made here is sent with the booking, and no paper invoice needs to travel with the parcel. Off by default.',
    options: [],
    required: false,
  },
  {
    name: 'Label format',
    key: 'labelFormat',
    type: 'select',
    description: 'PDF for office printers, ZPL for thermal label printers. Default PDF.',
    options: (['pdf', 'zpl'] as const).map((format) => ({ name: format.toUpperCase(), key: format, value: format })),
    required: false,
  },
  {
    name: 'PDF page',
    key: 'labelSize',
    type: 'select',
    description: 'For PDF labels: the A6 label on its own, or DHL’s label on an A4 page. Default A6. ZPL labels are always A6.',
    options: (['A6', 'A4'] as const).map((size) => ({ name: size, key: size, value: size })),
    required: false,
  },
  {
    name: 'ZPL resolution',
    key: 'printerDpi',
    type: 'select',
    description: 'For ZPL labels: the resolution of your label printer. Default 200 dpi.',
    options: (['200', '300'] as const).map((dpi) => ({ name: `${dpi} dpi`, key: dpi, value: dpi })),
    required: false,
  },
];

// The DHL yellow with its red lettering; inline so the catalogue needs no network.
const logoSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">' +
  '<rect width="64" height="64" rx="12" fill="#ffcc00"/>' +
  '<text x="32" y="40" font-family="Arial, sans-serif" font-size="22" font-style="italic" font-weight="700" fill="#d40511" text-anchor="middle">DHL</text>' +
  '</svg>';

export const trackingUrlOf = (waybill: string) =>
  `https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=${encodeURIComponent(waybill)}`;

const url = (context: CarrierCallContext, path: string) => carrierUrl(context.config, dhlOrigins, path);

function credentials(config: CarrierConfig): { username: string; password: string } {
  return {
    username: typeof config.username === 'string' ? config.username : '',
    password: typeof config.password === 'string' ? config.password : '',
  };
}

/** Every MyDHL call carries the username and password as HTTP Basic authentication. */
function dhlCall(context: CarrierCallContext, request: CarrierRequest): Promise<CarrierResponse> {
  const { username, password } = credentials(context.config);
  const basic = Buffer.from(`${username}:${password}`, 'utf8').toString('base64');
  return context.http.request({ ...request, headers: { ...request.headers, authorization: `Basic ${basic}` } });
}

function checkConfig(config: CarrierConfig): ConfigIssue[] {
  const account = accountNumberOf(config);
  if (account !== '' && !/^\d{6,12}$/.test(account)) {
    return [{ key: 'accountNumber', message: 'Must be your DHL Express account number: digits only, e.g. 123456789' }];
  }
  return [];
}

const formatOf = (document: DhlDocument): DocumentFormat => (document.imageFormat.toLowerCase() === 'zpl' ? 'zpl' : 'pdf');

async function book(context: CarrierCallContext, request: BookingRequest): Promise<BookingResult> {
  const body = shipmentRequest(context.config, request, context.now);
  const response = await dhlCall(context, { operation: 'book', method: 'POST', url: url(context, dhlPaths.shipments), json: body, idempotent: false });
  if (response.status >= 400) throw dhlFailure(response, 'booking');
  const created = readAnswer(response, shipmentResponseSchema, 'booking', true);
  // Packages come back numbered as they were sent (referenceNumber), else in the order sent.
  const parcelOf = (referenceNumber: number | undefined, index: number) => request.parcels[(referenceNumber ?? index + 1) - 1]?.parcelId ?? null;
  const parcels: BookedParcel[] = created.packages.flatMap((piece, index) => {
    const parcelId = parcelOf(piece.referenceNumber, index);
    return parcelId ? [{ parcelId, trackingNumber: piece.trackingNumber, parcelNumber: null }] : [];
  });
  const size = drawnSize(request.label);
  const labelDocuments = created.documents.filter((document) => document.typeCode === 'label');
  const perParcel = labelDocuments.length === request.parcels.length && labelDocuments.every((document) => document.packageReferenceNumber !== undefined);
  const labels: LabelDocument[] = labelDocuments.map((document) => ({
    parcelId: perParcel ? parcelOf(document.packageReferenceNumber, 0) : null,
    format: formatOf(document),
    size,
    content: Buffer.from(document.content, 'base64'),
  }));
  return {
    trackingNumber: created.shipmentTrackingNumber,
    trackingUrl: trackingUrlOf(created.shipmentTrackingNumber),
    parcels,
    labels,
    booking: {
      waybill: created.shipmentTrackingNumber,
      pieceIds: created.packages.map((piece) => piece.trackingNumber),
      paperlessInvoice: body.documentImages !== undefined,
      ...(created.warnings?.length ? { warnings: created.warnings } : {}),
    },
  };
}

/** MyDHL 3.x has no call to cancel a created shipment: DHL bills only what it collects. */
function voidBooking(): Promise<VoidResult> {
  return Promise.resolve({
    voided: false,
    instruction:
      'DHL Express cannot cancel a shipment through its API. DHL does not charge for a shipment it never collects: do not hand the parcels to the DHL courier, ' +
      'and if a DHL pickup was booked only for them, cancel that pickup.',
  });
}

/** Up to 200 waybills a call, every checkpoint of each. */
async function track(context: CarrierCallContext, booked: readonly BookedShipment[]): Promise<Map<string, TrackingResult>> {
  const waybills = [...new Set(booked.map((shipment) => shipment.trackingNumber))];
  const answers = new Map<string, DhlTrackedShipment>();
  for (let start = 0; start < waybills.length; start += TRACK_BATCH_LIMIT) {
    const batch = waybills.slice(start, start + TRACK_BATCH_LIMIT);
    const target = new URL(url(context, dhlPaths.tracking));
    for (const waybill of batch) target.searchParams.append('shipmentTrackingNumber', waybill);
    const response = await dhlCall(context, {
      operation: 'track',
      method: 'GET',
      url: target.toString(),
      query: { trackingView: 'all-checkpoints', levelOfDetail: 'shipment' },
      headers: { 'accept-language': 'eng' },
      idempotent: true,
    });
    // 404: DHL has none of them yet (nothing scanned); each stays unknown.
    if (response.status === 404) continue;
    if (response.status >= 400) throw dhlFailure(response, 'tracking');
    for (const shipment of readAnswer(response, trackingResponseSchema, 'tracking', false).shipments) answers.set(shipment.shipmentTrackingNumber, shipment);
  }
  return new Map(booked.map((shipment) => [shipment.shipmentId, shipmentTracking(answers.get(shipment.trackingNumber))]));
}

/** The pickup address's offset from UTC as DHL knows it (address validation), in minutes east. */
async function pickupOffsetMinutes(context: CarrierCallContext, request: PickupRequest): Promise<number> {
  const response = await dhlCall(context, {
    operation: 'pickupAddress',
    method: 'GET',
    url: url(context, dhlPaths.addressValidate),
    query: {
      type: 'pickup',
      countryCode: request.address.countryCode.toUpperCase(),
      postalCode: request.address.postalCode || undefined,
      cityName: request.address.city.slice(0, 45),
    },
    idempotent: true,
  });
  if (response.status >= 400) throw dhlFailure(response, 'checking the pickup address');
  const answer = readAnswer(response, addressValidateResponseSchema, 'checking the pickup address', false);
  const offset = answer.address.map((address) => address.serviceArea?.GMTOffset).find((value) => value && /^[+-]\d{2}:\d{2}$/.test(value));
  if (!offset) return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  return sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
}

function pickupBody(context: CarrierCallContext, request: PickupRequest, offsetMinutes: number): DhlPickupRequest {
  // The ready time is local at the address: written as that wall-clock time with the address's offset.
  const wallClock = new Date(`${request.date}T${request.from}:00Z`);
  const readyAt = new Date(wallClock.getTime() - offsetMinutes * 60_000);
  const count = Math.max(1, request.parcelCount ?? 1);
  const weight = request.weightKg && request.weightKg > 0 ? request.weightKg : count;
  const party = dhlParty(request.address);
  return {
    plannedPickupDateAndTime: dhlTimestamp(readyAt, offsetMinutes),
    closeTime: request.to,
    locationType: 'business',
    accounts: [{ typeCode: 'shipper', number: accountNumberOf(context.config) }],
    ...(request.instruction ? { specialInstructions: [{ value: request.instruction.slice(0, 80), typeCode: 'TBD' }] } : {}),
    customerDetails: { shipperDetails: party, pickupDetails: party },
    shipmentDetails: [
      {
        productCode: 'P',
        isCustomsDeclarable: false,
        unitOfMeasurement: 'metric',
        packages: Array.from({ length: count }, () => ({ weight: Math.max(0.001, Math.round((weight / count) * 1000) / 1000) })),
      },
    ],
  };
}

async function bookPickup(context: CarrierCallContext, request: PickupRequest): Promise<PickupBooking> {
  const offset = await pickupOffsetMinutes(context, request);
  const body = pickupBody(context, request, offset);
  const response = await dhlCall(context, { operation: 'bookPickup', method: 'POST', url: url(context, dhlPaths.pickups), json: body, idempotent: false });
  if (response.status >= 400) throw dhlFailure(response, 'booking the pickup');
  const answer = readAnswer(response, pickupResponseSchema, 'booking the pickup', true);
  const confirmationNumber = answer.dispatchConfirmationNumbers[0]!;
  return {
    confirmationNumber,
    booking: {
      dispatchConfirmationNumber: confirmationNumber,
      requestorName: body.customerDetails.shipperDetails.contactInformation.fullName,
      ...(answer.readyByTime ? { readyByTime: answer.readyByTime } : {}),
      ...(answer.nextPickupDate ? { nextPickupDate: answer.nextPickupDate } : {}),
    },
  };
}

/** DHL wants who cancels and why; a repeat after a lost answer finds it already cancelled, which is done. */
async function cancelPickup(context: CarrierCallContext, pickup: BookedPickup): Promise<void> {
  const number = typeof pickup.booking.dispatchConfirmationNumber === 'string' ? pickup.booking.dispatchConfirmationNumber : pickup.confirmationNumber;
  const requestorName = typeof pickup.booking.requestorName === 'string' && pickup.booking.requestorName ? pickup.booking.requestorName : 'Shipdesk';
  const response = await dhlCall(context, {
    operation: 'cancelPickup',
    method: 'DELETE',
    url: url(context, dhlPaths.pickup(number)),
    query: { requestorName, reason: 'Pickup no longer needed' },
    idempotent: true,
  });
  if (response.status < 400) return;
  if (response.status === 400 && dhlErrors(response).some((error) => /already cancel/i.test(error.message))) return;
  throw dhlFailure(response, `cancelling pickup ${number}`);
}

/** An authenticated read that books nothing: can DHL deliver to its own Bonn head office's postal code. */
async function testConnection(context: CarrierCallContext): Promise<string> {
  const response = await dhlCall(context, {
    operation: 'testConnection',
    method: 'GET',
    url: url(context, dhlPaths.addressValidate),
    query: { type: 'delivery', countryCode: 'DE', postalCode: '53113', cityName: 'Bonn' },
    idempotent: true,
  });
  if (response.status >= 400) throw dhlFailure(response, 'testing the connection');
  const system = isTestMode(context.config) ? 'test environment' : 'production system';
  const { username } = credentials(context.config);
  return `DHL Express accepted username ${username} in its ${system}. Account number ${accountNumberOf(context.config)} is checked with the first booking.`;
}

export const dhlExpressCarrier: CarrierAdapter = {
  slug: DHL_EXPRESS_SLUG,
  describe: {
    name: 'DHL Express',
    group: 'Carriers',
    description:
      'DHL Express through the MyDHL API: EXPRESS WORLDWIDE, EXPRESS 9:00 and 12:00, DOMESTIC EXPRESS and ECONOMY SELECT, with customs declarations, paperless trade, labels, tracking and pickups.',
    learnMoreUrl: 'https://developer.dhl.com/api-reference/dhl-express-mydhl-api',
    logoSvg,
    fields,
  },
  remote: { origins: dhlOrigins },
  checkConfig,
  products: () => dhlProducts,
  labelDefaults: dhlLabelDefaults,
  testConnection,
  book,
  void: voidBooking,
  track,
  // DHL takes 200 waybills a call; 50 keeps the query string well inside what proxies pass.
  trackBatchSize: 50,
  paperlessInvoice: paperlessTradeOn,
  bookPickup,
  cancelPickup,
};
