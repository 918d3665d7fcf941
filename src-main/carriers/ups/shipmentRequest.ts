import type { DocumentFormat } from '../../../src-shared/schemas/carrier';
import type { BookingParty, BookingRequest, CarrierConfig, CustomsDeclaration, CustomsLine, ExportReason, LabelSpec } from '../adapter';
import { carrierRefused } from '../errors';
import {
  MAX_FORM_PRODUCTS,
  upsTermsOfShipment,
  type UpsAddress,
  type UpsInternationalForms,
  type UpsParty,
  type UpsProduct,
  type UpsShipment,
  type UpsShipmentRequest,
} from './contract';

/**
 * A booking turned into UPS's Shipping API request: parties, packages in cm and kg, the shipment's
 * reference, and for an export its customs declaration as InternationalForms (the invoice lines as
 * products, exporter EORI/VAT as global tax information).
 */

export function accountNumberOf(config: CarrierConfig): string {
  return typeof config.accountNumber === 'string' ? config.accountNumber.trim().toUpperCase() : '';
}

/** What the config asks for: GIF placed on a PDF page (default) or ZPL for thermal printers; 4 × 6 in. */
export function upsLabelDefaults(config: CarrierConfig): LabelSpec {
  const format: DocumentFormat = config.labelFormat === 'zpl' ? 'zpl' : 'pdf';
  return { format, size: config.labelSize === '100X192' ? '100X192' : '100X150' };
}

/** UPS takes phone numbers as digits only. */
const phoneDigits = (phone: string | null) => {
  const digits = (phone ?? '').replace(/\D/g, '');
  return digits ? digits.slice(-15) : null;
};

function upsAddress(party: BookingParty, residential: boolean): UpsAddress {
  const address: UpsAddress = {
    AddressLine: [party.address1, ...(party.address2 ? [party.address2] : [])],
    City: party.city,
    CountryCode: party.countryCode.toUpperCase(),
  };
  if (party.postalCode) address.PostalCode = party.postalCode.replace(/\s+/g, '');
  if (residential) address.ResidentialAddressIndicator = '';
  return address;
}

/** The company goes in Name and the person in AttentionName, as UPS prints them. */
function upsParty(party: BookingParty, residential: boolean): UpsParty {
  const result: UpsParty = {
    Name: party.company ?? party.name,
    AttentionName: party.attention ?? party.name,
    Address: upsAddress(party, residential),
  };
  const phone = phoneDigits(party.phone);
  if (phone) result.Phone = { Number: phone };
  if (party.email) result.EMailAddress = party.email;
  return result;
}

const reasonForExport: Record<ExportReason, string> = {
  sale: 'SALE',
  gift: 'GIFT',
  sample: 'SAMPLE',
  return: 'RETURN',
  repair: 'REPAIR',
  documents: 'DOCUMENTS',
  other: 'OTHER',
};

/** Kilograms with one decimal, rounded up so a declared weight is never below the real one. */
const kgText = (kg: number) => String(Math.max(0.1, Math.ceil(kg * 10) / 10));
const yyyymmdd = (isoDate: string) => isoDate.replaceAll('-', '');

/** The same goods in several parcels are one invoice line for customs. */
function mergedLines(lines: readonly CustomsLine[]): CustomsLine[] {
  const merged = new Map<string, CustomsLine>();
  for (const line of lines) {
    const key = [line.sku, line.description, line.unitPrice, line.currency, line.tarrifNumber, line.countryOfOrigin, line.unitWeightKg].join('|');
    const kept = merged.get(key);
    merged.set(key, kept ? { ...kept, quantity: kept.quantity + line.quantity } : { ...line });
  }
  return [...merged.values()];
}

/** A description in up to three pieces of 35 characters, as InternationalForms takes it. */
function descriptionPieces(text: string): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length && pieces.length < 3; at += 35) pieces.push(text.slice(at, at + 35));
  return pieces.length ? pieces : ['-'];
}

export function upsProductsOf(customs: CustomsDeclaration): UpsProduct[] {
  const lines = mergedLines(customs.lines);
  if (lines.length > MAX_FORM_PRODUCTS) {
    throw carrierRefused([
      {
        code: 'UPS_TOO_MANY_PRODUCTS',
        message: `UPS takes at most ${MAX_FORM_PRODUCTS} different goods on one customs invoice; this shipment has ${lines.length}: split it into several shipments`,
      },
    ]);
  }
  return lines.map((line) => {
    // A value missing here is left out rather than sent empty, so UPS names what is missing.
    const commodityCode = line.tarrifNumber.replace(/[^A-Za-z0-9]/g, '');
    return {
      Description: descriptionPieces(line.description || line.sku),
      Unit: { Number: String(line.quantity), UnitOfMeasurement: { Code: 'PCS' }, Value: String(Math.round(line.unitPrice * 100) / 100) },
      ...(commodityCode ? { CommodityCode: commodityCode } : {}),
      PartNumber: line.sku.slice(0, 35),
      ...(line.countryOfOrigin ? { OriginCountryCode: line.countryOfOrigin.toUpperCase() } : {}),
      ProductWeight: { UnitOfMeasurement: { Code: 'KGS' }, Weight: kgText(line.unitWeightKg * line.quantity) },
    };
  });
}

/**
 * The declaration as UPS's InternationalForms. With a paperless invoice uploaded, the form is that
 * user-created document (07) and UPS makes none of its own; otherwise UPS makes its invoice (01) from
 * the same lines. Either way every line travels electronically.
 */
export function internationalForms(request: BookingRequest, customs: CustomsDeclaration, paperlessDocumentId: string | null): UpsInternationalForms {
  const terms = (upsTermsOfShipment as readonly string[]).includes(request.termOfTrade)
    ? (request.termOfTrade as UpsInternationalForms['TermsOfShipment'])
    : undefined;
  return {
    FormType: paperlessDocumentId ? ['07'] : ['01'],
    ...(paperlessDocumentId ? { UserCreatedForm: { DocumentID: [paperlessDocumentId] } } : {}),
    Product: upsProductsOf(customs),
    InvoiceNumber: customs.invoiceNumber.slice(0, 35),
    InvoiceDate: yyyymmdd(customs.invoiceDate),
    PurchaseOrderNumber: request.reference.slice(0, 35),
    ...(terms ? { TermsOfShipment: terms } : {}),
    ReasonForExport: reasonForExport[customs.exportReason],
    CurrencyCode: customs.currency.toUpperCase(),
  };
}

/**
 * The organization's EORI and VAT numbers as UPS's global tax information: as the exporter at the
 * ship-from party (role 20) for an export; for a return coming in, as the importer at the consignee
 * (role 30), where the contract allows only company tax ID types (1002), the EORI told apart by its
 * purpose code.
 */
function globalTaxInformation(request: BookingRequest, customs: CustomsDeclaration): UpsShipment['GlobalTaxInformation'] {
  const inbound = request.type === 'inbound';
  const country = (inbound ? request.receiver : request.sender).countryCode.toUpperCase();
  const ids: NonNullable<UpsShipment['GlobalTaxInformation']>['AgentTaxIdentificationNumber'][number]['TaxIdentificationNumber'] = [];
  const common = { IDNumberCustomerRole: inbound ? '05' : '06', IDNumberEncryptionIndicator: '0', IDNumberIssuingCntryCd: country } as const;
  const { eoriNumber, vatNumber } = customs.exporter;
  if (eoriNumber) ids.push({ IdentificationNumber: eoriNumber, IDNumberTypeCode: inbound ? '1002' : '0002', IDNumberPurposeCode: '02', ...common });
  if (vatNumber) ids.push({ IdentificationNumber: vatNumber, IDNumberTypeCode: '1002', IDNumberPurposeCode: '01', ...common });
  return ids.length ? { AgentTaxIdentificationNumber: [{ AgentRole: inbound ? '30' : '20', TaxIdentificationNumber: ids }] } : undefined;
}

/** UPS prints shipment references on US and Puerto Rico domestic labels only as package references. */
const domesticUs = (request: BookingRequest) => {
  const from = request.sender.countryCode.toUpperCase();
  const to = request.receiver.countryCode.toUpperCase();
  return from === to && (from === 'US' || from === 'PR');
};

/** The shipment's additional parameter describing the goods, for UPS's Description of goods. */
export const GOODS_DESCRIPTION_PARAMETER = 'goodsDescription';

/**
 * UPS's Description of goods, which it wants on every shipment between countries: the customs lines'
 * descriptions, else the shipment's `goodsDescription` parameter, else "Goods".
 */
function goodsDescription(request: BookingRequest): string | null {
  if (request.sender.countryCode.toUpperCase() === request.receiver.countryCode.toUpperCase()) return null;
  const given = request.additionalParameters[GOODS_DESCRIPTION_PARAMETER];
  const names = request.customs?.lines.length
    ? [...new Set(request.customs.lines.map((line) => line.description || line.sku))]
    : [typeof given === 'string' && given.trim() ? given.trim() : 'Goods'];
  const text = names.join(', ');
  return text.length > 50 ? `${text.slice(0, 49)}…` : text;
}

export function shipmentRequest(config: CarrierConfig, request: BookingRequest, paperlessDocumentId: string | null): UpsShipmentRequest {
  const account = accountNumberOf(config);
  const customs = request.customs;
  // The shipper is the account holder: for a return that is the receiving warehouse, the customer ships from their address.
  const shipper = upsParty(request.type === 'inbound' ? request.receiver : request.sender, false);
  const shipFrom = request.type === 'inbound' ? upsParty(request.sender, request.sender.company === null) : shipper;
  const reference = { Value: request.reference.slice(0, 35) };
  const packageReference = domesticUs(request);
  const charges: UpsShipment['PaymentInformation']['ShipmentCharge'] = [{ Type: '01', BillShipper: { AccountNumber: account } }];
  // Delivered duty paid: the sender's account pays duties and taxes as well.
  if (customs && request.termOfTrade === 'DDP') charges.push({ Type: '02', BillShipper: { AccountNumber: account } });
  const description = goodsDescription(request);
  const shipment: UpsShipment = {
    ...(description ? { Description: description } : {}),
    Shipper: { ...shipper, ShipperNumber: account },
    ShipTo: upsParty(request.receiver, request.receiver.company === null),
    ShipFrom: shipFrom,
    PaymentInformation: { ShipmentCharge: charges },
    ...(packageReference ? {} : { ReferenceNumber: [reference] }),
    Service: { Code: request.productId },
    Package: request.parcels.map((parcel, index) => ({
      Packaging: { Code: '02' },
      ...(parcel.length > 0 && parcel.width > 0 && parcel.height > 0
        ? {
            Dimensions: {
              UnitOfMeasurement: { Code: 'CM' },
              Length: String(Math.ceil(parcel.length)),
              Width: String(Math.ceil(parcel.width)),
              Height: String(Math.ceil(parcel.height)),
            },
          }
        : {}),
      PackageWeight: { UnitOfMeasurement: { Code: 'KGS' }, Weight: kgText(parcel.weightKg) },
      ...(packageReference && index === 0 ? { ReferenceNumber: [reference] } : {}),
    })),
  };
  // The receiver's notice the shipping rule asks for: UPS e-mails when the parcel ships and when it is delivered.
  if (request.notify.email && request.receiver.email) {
    const email = { EMailAddress: [request.receiver.email] };
    shipment.ShipmentServiceOptions = {
      Notification: [
        { NotificationCode: '6', EMail: email },
        { NotificationCode: '8', EMail: email },
      ],
    };
  }
  if (customs) {
    const tax = globalTaxInformation(request, customs);
    if (tax) shipment.GlobalTaxInformation = tax;
    shipment.ShipmentServiceOptions = { ...shipment.ShipmentServiceOptions, InternationalForms: internationalForms(request, customs, paperlessDocumentId) };
  }
  return {
    ShipmentRequest: {
      Request: { RequestOption: 'nonvalidate', TransactionReference: { CustomerContext: request.reference } },
      Shipment: shipment,
      LabelSpecification: {
        LabelImageFormat: { Code: request.label.format === 'zpl' ? 'ZPL' : 'GIF' },
        ...(request.label.format === 'zpl' ? {} : { HTTPUserAgent: 'Mozilla/4.5' }),
        LabelStockSize: { Height: request.label.size === '100X192' ? '8' : '6', Width: '4' },
      },
    },
  };
}
