import type { BookingParty, BookingRequest, CarrierConfig, CustomsDeclaration, ExportReason } from '../adapter';
import { carrierRefused } from '../errors';
import {
  PAPERLESS_TRADE_SERVICE,
  type DhlExportDeclaration,
  type DhlExportReasonType,
  type DhlLineItem,
  type DhlParty,
  type DhlShipmentRequest,
  type DhlValueAddedService,
} from './contract';
import { DOCUMENT_PRODUCTS, INSURED_CURRENCY_PARAMETER, INSURED_VALUE_PARAMETER, dhlServices, drawnSize, labelTemplates, printerDpiOf } from './products';

/** A booking turned into MyDHL's create-shipment body. */

export const accountNumberOf = (config: CarrierConfig): string => (typeof config.accountNumber === 'string' ? config.accountNumber.trim() : '');

/** The account allows paperless trade: the invoice goes with the booking as a document image. */
export const paperlessTradeOn = (config: CarrierConfig): boolean => config.paperlessTrade === true;

const clip = (value: string, max: number) => (value.length > max ? value.slice(0, max) : value);
const optional = (value: string | null | undefined, max: number) => (value && value.trim() ? clip(value.trim(), max) : undefined);

/** `2026-11-27T19:30:00 GMT+00:00`: the time written in the given offset (minutes east of UTC). */
export function dhlTimestamp(at: Date, offsetMinutes = 0): string {
  const local = new Date(at.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local} GMT${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** MyDHL's address lines hold 45 characters: a longer line goes on in the next, broken between words. */
export function addressLines(address1: string, address2: string | null): [string, ...string[]] {
  const lines: string[] = [];
  for (const text of [address1, address2 ?? '']) {
    let rest = text.trim().replace(/\s+/g, ' ');
    while (rest.length > 45) {
      const cut = rest.lastIndexOf(' ', 45);
      const at = cut > 0 ? cut : 45;
      lines.push(rest.slice(0, at).trim());
      rest = rest.slice(at).trim();
    }
    if (rest) lines.push(rest);
  }
  return [lines[0] ?? '', ...lines.slice(1, 3)];
}

/** MyDHL's party: the company is required, so a private receiver's own name stands in for it. */
export function dhlParty(party: BookingParty): Pick<DhlParty, 'postalAddress' | 'contactInformation'> {
  const [line1, line2, line3] = addressLines(party.address1, party.address2);
  return {
    postalAddress: {
      postalCode: clip(party.postalCode, 12),
      cityName: clip(party.city, 45),
      countryCode: party.countryCode.toUpperCase(),
      addressLine1: line1,
      ...(line2 ? { addressLine2: line2 } : {}),
      ...(line3 ? { addressLine3: line3 } : {}),
    },
    contactInformation: {
      // An empty phone goes as it is: DHL requires one and says so in its own words.
      phone: clip(party.phone ?? '', 70),
      companyName: clip(party.company ?? party.name, 100),
      fullName: clip(party.attention ?? party.name, 255),
      ...(optional(party.email, 70) ? { email: optional(party.email, 70) } : {}),
    },
  };
}

const exportReasonTypeOf: Record<ExportReason, DhlExportReasonType> = {
  sale: 'commercial_purpose_or_sale',
  gift: 'gift',
  sample: 'sample',
  return: 'return_to_origin',
  repair: 'temporary',
  documents: 'permanent',
  other: 'permanent',
};
const exportReasonText: Record<ExportReason, string> = {
  sale: 'Sale',
  gift: 'Gift',
  sample: 'Commercial sample',
  return: 'Return',
  repair: 'Repair',
  documents: 'Documents',
  other: 'Other',
};

/** EORI and VAT numbers begin with their issuing country's code; DHL wants it apart. */
function issuer(number: string, fallback: string): string {
  const prefix = /^[A-Z]{2}/.exec(number.toUpperCase())?.[0];
  // Greece's VAT numbers begin with EL, its country code is GR.
  return prefix === 'EL' ? 'GR' : (prefix ?? fallback.toUpperCase());
}

function registrationNumbers(customs: CustomsDeclaration, senderCountry: string): DhlParty['registrationNumbers'] {
  const numbers: NonNullable<DhlParty['registrationNumbers']> = [];
  if (customs.exporter.eoriNumber) {
    numbers.push({ typeCode: 'EOR', number: clip(customs.exporter.eoriNumber, 35), issuerCountryCode: issuer(customs.exporter.eoriNumber, senderCountry) });
  }
  if (customs.exporter.vatNumber) {
    numbers.push({ typeCode: 'VAT', number: clip(customs.exporter.vatNumber, 35), issuerCountryCode: issuer(customs.exporter.vatNumber, senderCountry) });
  }
  return numbers.length ? numbers : undefined;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/**
 * The declaration's lines as DHL's line items. Net weight is the line's unit weight; the gross weight
 * shares out its parcel's weight by the lines' net weights (by quantity when none has a weight).
 */
function lineItems(request: BookingRequest, customs: CustomsDeclaration): DhlLineItem[] {
  const reasonType = exportReasonTypeOf[customs.exportReason];
  return customs.lines.map((line, index) => {
    const parcel = request.parcels.find((candidate) => candidate.parcelId === line.parcelId);
    const siblings = customs.lines.filter((other) => other.parcelId === line.parcelId);
    const net = line.unitWeightKg * line.quantity;
    const siblingsNet = siblings.reduce((sum, other) => sum + other.unitWeightKg * other.quantity, 0);
    const siblingsUnits = siblings.reduce((sum, other) => sum + other.quantity, 0);
    const share = siblingsNet > 0 ? net / siblingsNet : line.quantity / siblingsUnits;
    const gross = parcel ? Math.max(parcel.weightKg * share, net) : net;
    return {
      number: index + 1,
      description: clip(line.description || line.sku, 512),
      price: line.unitPrice,
      quantity: { value: line.quantity, unitOfMeasurement: 'PCS' },
      ...(line.tarrifNumber ? { commodityCodes: [{ typeCode: 'outbound' as const, value: clip(line.tarrifNumber.replace(/[\s.]/g, ''), 18) }] } : {}),
      exportReasonType: reasonType,
      manufacturerCountry: line.countryOfOrigin.toUpperCase(),
      weight: { netValue: round3(net), grossValue: round3(gross) },
    };
  });
}

function exportDeclaration(request: BookingRequest, customs: CustomsDeclaration): DhlExportDeclaration {
  const items = lineItems(request, customs);
  return {
    lineItems: items,
    invoice: {
      number: clip(customs.invoiceNumber, 35),
      date: customs.invoiceDate,
      totalNetWeight: round3(items.reduce((sum, item) => sum + (item.weight.netValue ?? 0), 0)),
      totalGrossWeight: round3(request.parcels.reduce((sum, parcel) => sum + parcel.weightKg, 0)),
    },
    exportReason: exportReasonText[customs.exportReason],
    exportReasonType: exportReasonTypeOf[customs.exportReason],
    shipmentType: customs.exportReason === 'sale' ? 'commercial' : 'personal',
  };
}

function valueAddedServices(request: BookingRequest, paperless: boolean): DhlValueAddedService[] {
  const services: DhlValueAddedService[] = [];
  for (const serviceId of request.services) {
    const known = dhlServices[serviceId];
    if (!known) continue;
    if (serviceId === 'insurance') {
      const given = Number(request.additionalParameters[INSURED_VALUE_PARAMETER]);
      const value = Number.isFinite(given) && given > 0 ? given : (request.customs?.totalValue ?? 0);
      const currencyGiven = request.additionalParameters[INSURED_CURRENCY_PARAMETER];
      const currency = typeof currencyGiven === 'string' && /^[A-Z]{3}$/.test(currencyGiven) ? currencyGiven : request.customs?.currency;
      if (!(value > 0) || !currency) {
        throw carrierRefused([
          {
            code: 'INSURED_VALUE_MISSING',
            message: `DHL insurance needs the value to insure: set the additional parameters ${INSURED_VALUE_PARAMETER} and ${INSURED_CURRENCY_PARAMETER} (e.g. 250 and EUR)`,
          },
        ]);
      }
      services.push({ serviceCode: known.serviceCode, value, currency });
    } else {
      services.push({ serviceCode: known.serviceCode });
    }
  }
  if (paperless) services.push({ serviceCode: PAPERLESS_TRADE_SERVICE });
  return services;
}

function contentDescription(request: BookingRequest): string {
  const described = [...new Set((request.customs?.lines ?? []).map((line) => line.description.trim()).filter(Boolean))].join(', ');
  const text = described || (DOCUMENT_PRODUCTS.has(request.productId) ? 'Documents' : `Goods, shipment ${request.reference}`);
  return clip(text.replace(/^\s+/, ''), 70);
}

/** The booking as MyDHL's create-shipment body; the shipment's reference is DHL's customer reference. */
export function shipmentRequest(config: CarrierConfig, request: BookingRequest, now: Date): DhlShipmentRequest {
  const customs = DOCUMENT_PRODUCTS.has(request.productId) ? null : request.customs;
  const paperless = paperlessTradeOn(config) && customs?.invoice != null;
  const shipper: DhlParty = dhlParty(request.sender);
  const registration = customs ? registrationNumbers(customs, request.sender.countryCode) : undefined;
  if (registration) shipper.registrationNumbers = registration;
  const receiver: DhlParty = { ...dhlParty(request.receiver), typeCode: request.receiver.company ? 'business' : 'private' };
  const services = valueAddedServices(request, paperless);
  const size = drawnSize(request.label);
  const body: DhlShipmentRequest = {
    plannedShippingDateAndTime: dhlTimestamp(now),
    // Pickups are booked on their own (POST /pickups), never with a shipment.
    pickup: { isRequested: false },
    productCode: request.productId,
    accounts: [{ typeCode: 'shipper', number: accountNumberOf(config) }],
    ...(services.length ? { valueAddedServices: services } : {}),
    outputImageProperties: {
      encodingFormat: request.label.format,
      ...(request.label.format === 'zpl' ? { printerDPI: printerDpiOf(config) } : {}),
      imageOptions: [
        { typeCode: 'label', templateName: labelTemplates[size] },
        { typeCode: 'waybillDoc', isRequested: false },
      ],
    },
    customerReferences: [{ value: clip(request.reference, 35), typeCode: 'CU' }],
    customerDetails: { shipperDetails: shipper, receiverDetails: receiver },
    content: {
      packages: request.parcels.map((parcel, index) => {
        const sized = parcel.length > 0 && parcel.width > 0 && parcel.height > 0;
        return {
          weight: Math.max(0.001, round3(parcel.weightKg)),
          ...(sized ? { dimensions: { length: round3(parcel.length), width: round3(parcel.width), height: round3(parcel.height) } } : {}),
          customerReferences: [{ value: clip(request.reference, 35), typeCode: 'CU' }],
          referenceNumber: index + 1,
        };
      }),
      isCustomsDeclarable: customs !== null,
      ...(customs
        ? { declaredValue: customs.totalValue, declaredValueCurrency: customs.currency, exportDeclaration: exportDeclaration(request, customs) }
        : {}),
      description: contentDescription(request),
      incoterm: request.termOfTrade as DhlShipmentRequest['content']['incoterm'],
      unitOfMeasurement: 'metric',
    },
    ...(paperless && customs?.invoice
      ? {
          documentImages: [
            {
              typeCode: customs.invoice.documentType === 'proforma_invoice' ? ('PNV' as const) : ('INV' as const),
              imageFormat: 'PDF' as const,
              content: customs.invoice.content.toString('base64'),
            },
          ],
        }
      : {}),
    ...(request.notify.email && request.receiver.email
      ? { shipmentNotification: [{ typeCode: 'email' as const, receiverId: clip(request.receiver.email, 50) }] }
      : {}),
    // Each label comes back tied to its package, so every parcel gets its own.
    getAdditionalInformation: [{ typeCode: 'linkLabelsByPieces', isRequested: true }],
  };
  return body;
}
