import type { CarrierField } from '../../../src-shared/schemas/carrier';
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
import { CarrierFailure, carrierRefused } from '../errors';
import { isTestMode } from '../platform/origin';
import { readAnswer, upsErrors, upsFailure } from './answers';
import { upsCall, upsCredentials, upsToken } from './auth';
import {
  PICKUP_VERSION,
  labelRecoveryResponseSchema,
  paperlessUploadResponseSchema,
  pickupCancelResponseSchema,
  pickupCreationResponseSchema,
  shipmentResponseSchema,
  trackResponseSchema,
  upsOrigins,
  upsPaths,
  voidResponseSchema,
  type UpsLabelRecoveryRequest,
  type UpsPaperlessUploadRequest,
  type UpsPickupCreationRequest,
  type UpsTrackPackage,
} from './contract';
import { gifLabelPdf } from './labelPage';
import { upsProducts } from './products';
import { accountNumberOf, shipmentRequest, upsLabelDefaults } from './shipmentRequest';
import { shipmentTracking } from './tracking';

/**
 * UPS through its own REST APIs (decisions §13): the Shipping API books with labels and voids, the
 * Paperless Document API takes the customs invoice made here, the Tracking API tracks, the Pickup API
 * books and cancels collections, and OAuth client credentials issue the token they all take.
 */

export const UPS_SLUG = 'ups';

/** Shipments per poller batch: UPS tracks one number a call, so a batch is kept small. */
const TRACK_BATCH_SIZE = 10;
/** The pickup piece's service: UPS Standard, as the Pickup API's three-digit service code. */
const PICKUP_SERVICE_CODE = '011';

const fields: readonly CarrierField[] = [
  {
    name: 'Client ID',
    key: 'clientId',
    type: 'string',
    description:
      'The client ID of your app on the UPS Developer Portal (developer.ups.com), with the Shipping, Tracking, Pickup and Paperless Documents APIs added.',
    options: [],
    required: true,
  },
  {
    name: 'Client secret',
    key: 'clientSecret',
    type: 'password',
    description: 'The client secret of the same app.',
    options: [],
    required: true,
  },
  {
    name: 'Account number',
    key: 'accountNumber',
    type: 'string',
    description: 'Your six-character UPS account number (shipper number); it is billed for the shipments and pickups.',
    options: [],
    required: true,
  },
  {
    name: 'Label format',
    key: 'labelFormat',
    type: 'select',
    description: "PDF: UPS's label image on a page of the label's own size, for office printers. ZPL for thermal label printers. Default PDF.",
    options: (['pdf', 'zpl'] as const).map((format) => ({ name: format.toUpperCase(), key: format, value: format })),
    required: false,
  },
  {
    name: 'Label size',
    key: 'labelSize',
    type: 'select',
    description: 'The label stock: 4 × 6 in (default) or 4 × 8 in.',
    options: [
      { name: '4 × 6 in (100 × 150 mm)', key: '100X150', value: '100X150' },
      { name: '4 × 8 in', key: '100X192', value: '100X192' },
    ],
    required: false,
  },
  {
    name: 'Paperless invoice',
    key: 'paperlessInvoice',
    type: 'boolean',
    description:
      'On when UPS has enabled Paperless Invoice (upload of forms created offline) for the account: the customs invoice is then sent to UPS electronically and need not travel with the parcel.',
    options: [],
    required: false,
  },
];

// UPS brown with its gold; inline so the catalogue needs no network.
const logoSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">' +
  '<rect width="64" height="64" rx="12" fill="#351c15"/>' +
  '<text x="32" y="40" font-family="Arial, sans-serif" font-size="22" font-weight="700" fill="#ffb500" text-anchor="middle">UPS</text>' +
  '</svg>';

export const trackingUrlOf = (trackingNumber: string) => `https://www.ups.com/track?tracknum=${encodeURIComponent(trackingNumber)}`;

function checkConfig(config: CarrierConfig): ConfigIssue[] {
  const account = accountNumberOf(config);
  if (account !== '' && !/^[A-Z0-9]{6}$/.test(account))
    return [{ key: 'accountNumber', message: 'A UPS account number has six letters and digits, e.g. A1B2C3' }];
  return [];
}

const paperlessInvoice = (config: CarrierConfig) => config.paperlessInvoice === true;

/** The invoice made here, uploaded to UPS's Forms History; its DocumentID is referenced by the shipment. */
async function uploadInvoice(context: CarrierCallContext, request: BookingRequest): Promise<string | null> {
  const invoice = request.customs?.invoice;
  if (!request.customs || !invoice || !paperlessInvoice(context.config)) return null;
  const account = accountNumberOf(context.config);
  const body: UpsPaperlessUploadRequest = {
    UploadRequest: {
      Request: { TransactionReference: { CustomerContext: request.reference } },
      ShipperNumber: account,
      UserCreatedForm: [
        {
          UserCreatedFormFileName: `${request.customs.invoiceNumber}.pdf`,
          UserCreatedFormFile: invoice.content.toString('base64'),
          UserCreatedFormFileFormat: 'pdf',
          // 002 is UPS's commercial invoice; a proforma invoice is the customs invoice of goods not sold.
          UserCreatedFormDocumentType: '002',
        },
      ],
    },
  };
  const response = await upsCall(context, {
    operation: 'paperlessUpload',
    method: 'POST',
    path: upsPaths.paperlessUpload,
    headers: { shippernumber: account },
    json: body,
    // An upload books nothing: a second copy in Forms History is never referenced, so it may be sent again.
    idempotent: true,
  });
  if (response.status >= 400) throw upsFailure(response, 'uploading the customs invoice');
  const answer = readAnswer(response, paperlessUploadResponseSchema, 'uploading the customs invoice', false);
  const documentId = answer.UploadResponse.FormsHistoryDocumentID.DocumentID[0];
  if (!documentId) throw carrierRefused([{ code: 'UPS_NO_DOCUMENT_ID', message: 'UPS took the customs invoice but gave no document ID for it' }]);
  return documentId;
}

async function book(context: CarrierCallContext, request: BookingRequest): Promise<BookingResult> {
  const documentId = await uploadInvoice(context, request);
  const body = shipmentRequest(context.config, request, documentId);
  const response = await upsCall(context, { operation: 'book', method: 'POST', path: upsPaths.ship, json: body, idempotent: false });
  if (response.status >= 400) throw upsFailure(response, 'booking');
  const results = readAnswer(response, shipmentResponseSchema, 'booking', true).ShipmentResponse.ShipmentResults;
  // UPS answers the packages in the order they were sent.
  const parcels: BookedParcel[] = request.parcels.flatMap((parcel, index) => {
    const result = results.PackageResults[index];
    return result ? [{ parcelId: parcel.parcelId, trackingNumber: result.TrackingNumber, parcelNumber: null }] : [];
  });
  if (results.PackageResults.length !== request.parcels.length) {
    throw new CarrierFailure(
      'outcome_unknown',
      `UPS booked shipment ${results.ShipmentIdentificationNumber} with ${results.PackageResults.length} package(s) for ${request.parcels.length} parcel(s): check it with UPS before sending again`,
    );
  }
  const { labels, gifLabels } = await labelsOf(
    request,
    parcels,
    results.PackageResults.map((result) => result.ShippingLabel && { format: result.ShippingLabel.ImageFormat.Code, image: result.ShippingLabel.GraphicImage }),
  );
  const first = parcels[0]!;
  return {
    trackingNumber: first.trackingNumber,
    trackingUrl: trackingUrlOf(first.trackingNumber),
    parcels,
    labels,
    booking: {
      shipmentIdentificationNumber: results.ShipmentIdentificationNumber,
      trackingNumbers: parcels.map((parcel) => parcel.trackingNumber),
      ...(documentId ? { paperlessDocumentId: documentId } : {}),
      ...(Object.keys(gifLabels).length ? { gifLabels } : {}),
    },
  };
}

/**
 * UPS's labels as documents: ZPL as it came, a GIF placed on a PDF page of its size with the GIF kept
 * for the booking record (documents are PDF or ZPL, decisions §8). `images` are in the parcels' order.
 */
async function labelsOf(
  request: BookingRequest,
  parcels: readonly BookedParcel[],
  images: readonly ({ format: string; image: string } | undefined)[],
): Promise<{ labels: LabelDocument[]; gifLabels: Record<string, string> }> {
  const labels: LabelDocument[] = [];
  const gifLabels: Record<string, string> = {};
  for (const [index, parcel] of parcels.entries()) {
    const label = images[index];
    if (!label) continue;
    const bytes = Buffer.from(label.image, 'base64');
    if (label.format.toUpperCase() === 'GIF') {
      const page = await gifLabelPdf(bytes).catch((error: unknown) => {
        // UPS has booked: a label we cannot read must not look like a refusal, or the next send would book again.
        throw new CarrierFailure(
          'outcome_unknown',
          `UPS booked parcel ${parcel.trackingNumber}, but its label image could not be read (${error instanceof Error ? error.message : String(error)}): switch the carrier's label format to ZPL and send again: Shipdesk then fetches this booking's labels from UPS`,
        );
      });
      labels.push({ parcelId: parcel.parcelId, format: 'pdf', size: page.size, content: page.pdf });
      gifLabels[parcel.trackingNumber] = label.image;
    } else {
      labels.push({ parcelId: parcel.parcelId, format: 'zpl', size: request.label.size, content: bytes });
    }
  }
  return { labels, gifLabels };
}

/** A lookup UPS answered with "there is none" rather than with a fault in the lookup itself. */
const NOTHING_FOUND = /not found|no (label|shipment|record)s?\b/i;

/**
 * After a booking call without an answer: Label Recovery by the shipment's reference and the account
 * number. Found, it hands back every package's label; "nothing found" means UPS did not book it.
 */
async function findBooking(context: CarrierCallContext, request: BookingRequest): Promise<BookingResult | null> {
  const body: UpsLabelRecoveryRequest = {
    LabelRecoveryRequest: {
      Request: { SubVersion: '1903', TransactionReference: { CustomerContext: `lookup ${request.reference}` } },
      LabelSpecification: {
        LabelImageFormat: { Code: request.label.format === 'zpl' ? 'ZPL' : 'GIF' },
        ...(request.label.format === 'zpl'
          ? { LabelStockSize: { Height: request.label.size === '100X192' ? '8' : '6', Width: '4' } }
          : { HTTPUserAgent: 'Mozilla/4.5' }),
      },
      ReferenceValues: { ReferenceNumber: { Value: request.reference.slice(0, 35) }, ShipperNumber: accountNumberOf(context.config) },
    },
  };
  const response = await upsCall(context, { operation: 'findBooking', method: 'POST', path: upsPaths.labelRecovery, json: body, idempotent: true });
  if (response.status === 400 || response.status === 404) {
    if (upsErrors(response).some((error) => NOTHING_FOUND.test(error.message))) return null;
  }
  if (response.status >= 400) throw upsFailure(response, 'looking for an earlier booking');
  const answer = readAnswer(response, labelRecoveryResponseSchema, 'looking for an earlier booking', false).LabelRecoveryResponse;
  if (answer.TrackingCandidate?.length) {
    throw new CarrierFailure(
      'outcome_unknown',
      `UPS has ${answer.TrackingCandidate.length} shipments under reference ${request.reference}: check them with UPS before sending again`,
    );
  }
  if (answer.LabelResults.length === 0) return null;
  if (answer.LabelResults.length !== request.parcels.length) {
    throw new CarrierFailure(
      'outcome_unknown',
      `UPS has ${answer.LabelResults.length} package(s) under reference ${request.reference}, the shipment has ${request.parcels.length}: check the booking with UPS before sending again`,
    );
  }
  const parcels: BookedParcel[] = request.parcels.map((parcel, index) => ({
    parcelId: parcel.parcelId,
    trackingNumber: answer.LabelResults[index]!.TrackingNumber,
    parcelNumber: null,
  }));
  const { labels, gifLabels } = await labelsOf(
    request,
    parcels,
    answer.LabelResults.map((result) => result.LabelImage && { format: result.LabelImage.LabelImageFormat.Code, image: result.LabelImage.GraphicImage }),
  );
  const first = parcels[0]!;
  return {
    trackingNumber: first.trackingNumber,
    trackingUrl: trackingUrlOf(first.trackingNumber),
    parcels,
    labels,
    booking: {
      shipmentIdentificationNumber: answer.ShipmentIdentificationNumber ?? first.trackingNumber,
      trackingNumbers: parcels.map((parcel) => parcel.trackingNumber),
      foundByReference: true,
      ...(Object.keys(gifLabels).length ? { gifLabels } : {}),
    },
  };
}

/** Voids the whole shipment by its identification number; UPS voids only what it has not yet picked up. */
async function voidBooking(context: CarrierCallContext, booked: BookedShipment): Promise<VoidResult> {
  const shipmentId = typeof booked.booking.shipmentIdentificationNumber === 'string' ? booked.booking.shipmentIdentificationNumber : booked.trackingNumber;
  // Voiding twice is refused the second time: after a lost answer the user is asked rather than UPS.
  const response = await upsCall(context, { operation: 'void', method: 'DELETE', path: upsPaths.void(shipmentId), idempotent: false });
  if (response.status === 401 || response.status === 403) throw upsFailure(response, 'voiding');
  if (response.status >= 400) {
    const words = upsErrors(response)
      .map((error) => error.message)
      .join('; ');
    return { voided: false, instruction: `UPS did not void shipment ${shipmentId} (${words}). If the parcels are already with UPS, ask UPS to return them.` };
  }
  const status = readAnswer(response, voidResponseSchema, 'voiding', true).VoidShipmentResponse.SummaryResult.Status;
  if (status.Code === '1') return { voided: true };
  return { voided: false, instruction: `UPS answered "${status.Description ?? status.Code}" to voiding shipment ${shipmentId}: check it with UPS.` };
}

/** The Tracking API takes one number a call: every parcel is asked about on its own. */
async function track(context: CarrierCallContext, booked: readonly BookedShipment[]): Promise<Map<string, TrackingResult>> {
  const results = new Map<string, TrackingResult>();
  for (const shipment of booked) {
    const numbers = shipment.parcels.length ? [...new Set(shipment.parcels.map((parcel) => parcel.trackingNumber))] : [shipment.trackingNumber];
    const packages: { number: string; pkg: UpsTrackPackage | undefined }[] = [];
    for (const number of numbers) {
      const response = await upsCall(context, {
        operation: 'track',
        method: 'GET',
        path: upsPaths.track(number),
        query: { locale: 'en_US', returnSignature: 'false' },
        idempotent: true,
      });
      // Not found yet: UPS knows a number only once the label is made and sent on.
      if (response.status === 404) {
        packages.push({ number, pkg: undefined });
        continue;
      }
      if (response.status >= 400) throw upsFailure(response, 'tracking');
      const answer = readAnswer(response, trackResponseSchema, 'tracking', false);
      const pkg = answer.trackResponse.shipment.flatMap((entry) => entry.package).find((candidate) => candidate.trackingNumber === number);
      packages.push({ number, pkg: pkg ?? answer.trackResponse.shipment[0]?.package[0] });
    }
    results.set(shipment.shipmentId, shipmentTracking(packages));
  }
  return results;
}

const hhmm = (time: string) => time.replace(':', '');

async function bookPickup(context: CarrierCallContext, request: PickupRequest): Promise<PickupBooking> {
  const address = request.address;
  const phone = (address.phone ?? '').replace(/\D/g, '');
  if (!phone) {
    throw carrierRefused([
      { code: 'UPS_PICKUP_PHONE_MISSING', message: 'UPS needs a phone number for the driver: add one to the sender address and book again' },
    ]);
  }
  const account = accountNumberOf(context.config);
  const body: UpsPickupCreationRequest = {
    PickupCreationRequest: {
      Request: { TransactionReference: { CustomerContext: request.pickupId } },
      RatePickupIndicator: 'N',
      Shipper: { Account: { AccountNumber: account, AccountCountryCode: address.countryCode.toUpperCase() } },
      PickupDateInfo: { ReadyTime: hhmm(request.from), CloseTime: hhmm(request.to), PickupDate: request.date.replaceAll('-', '') },
      PickupAddress: {
        // The Pickup API's own limits; the driver needs no more to find the dock.
        CompanyName: (address.company ?? address.name).slice(0, 27),
        ContactName: (address.attention ?? address.name).slice(0, 22),
        AddressLine: [[address.address1, address.address2].filter(Boolean).join(', ').slice(0, 73)],
        City: address.city,
        ...(address.postalCode ? { PostalCode: address.postalCode.replace(/\s+/g, '').slice(0, 8) } : {}),
        CountryCode: address.countryCode.toUpperCase(),
        ResidentialIndicator: 'N',
        Phone: { Number: phone.slice(-25) },
      },
      // The sender address is not necessarily the one in the account's profile.
      AlternateAddressIndicator: 'Y',
      PickupPiece: [
        {
          ServiceCode: PICKUP_SERVICE_CODE,
          Quantity: String(Math.min(999, Math.max(1, request.parcelCount ?? 1))),
          DestinationCountryCode: address.countryCode.toUpperCase(),
          ContainerCode: '01',
        },
      ],
      ...(request.weightKg ? { TotalWeight: { Weight: String(Math.max(0.1, Math.ceil(request.weightKg * 10) / 10)), UnitOfMeasurement: 'KGS' as const } } : {}),
      PaymentMethod: '01',
      ...(request.instruction ? { SpecialInstruction: request.instruction.slice(0, 57) } : {}),
      ReferenceNumber: request.pickupId.slice(0, 35),
    },
  };
  const response = await upsCall(context, { operation: 'bookPickup', method: 'POST', path: upsPaths.pickupCreate, json: body, idempotent: false });
  if (response.status >= 400) throw upsFailure(response, 'booking the pickup');
  const prn = readAnswer(response, pickupCreationResponseSchema, 'booking the pickup', true).PickupCreationResponse.PRN;
  return { confirmationNumber: prn, booking: { prn } };
}

async function cancelPickup(context: CarrierCallContext, pickup: BookedPickup): Promise<void> {
  const prn = typeof pickup.booking.prn === 'string' ? pickup.booking.prn : pickup.confirmationNumber;
  const response = await upsCall(context, {
    operation: 'cancelPickup',
    method: 'DELETE',
    path: upsPaths.pickupCancelByPrn,
    headers: { prn },
    idempotent: false,
  });
  if (response.status >= 400) throw upsFailure(response, 'cancelling the pickup');
  readAnswer(response, pickupCancelResponseSchema, 'cancelling the pickup', true);
}

/** A token, then a read every UPS app may make (the Pickup API's list of US states), without booking anything. */
async function testConnection(context: CarrierCallContext): Promise<string> {
  await upsToken(context, true);
  const response = await upsCall(context, { operation: 'testConnection', method: 'GET', path: `/api/pickup/${PICKUP_VERSION}/countries/US`, idempotent: true });
  if (response.status >= 400) throw upsFailure(response, 'testing the connection');
  const system = isTestMode(context.config) ? 'test system (CIE)' : 'production system';
  return `UPS accepted client ID ${upsCredentials(context).clientId} in its ${system}. Account ${accountNumberOf(context.config)} is checked with the first booking.`;
}

export const upsCarrier: CarrierAdapter = {
  slug: UPS_SLUG,
  describe: {
    name: 'UPS',
    group: 'Parcel carriers',
    description:
      'UPS through the UPS REST APIs: Standard, Express Saver, Express and more, with labels, customs data and paperless invoices, void, tracking and pickups.',
    learnMoreUrl: 'https://developer.ups.com',
    logoSvg,
    fields,
  },
  remote: { origins: upsOrigins },
  checkConfig,
  products: () => upsProducts,
  labelDefaults: upsLabelDefaults,
  testConnection,
  book,
  findBooking,
  void: voidBooking,
  track,
  trackBatchSize: TRACK_BATCH_SIZE,
  paperlessInvoice,
  bookPickup,
  cancelPickup,
};
