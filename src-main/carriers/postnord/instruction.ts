import type { BookingParty, BookingRequest, CustomsDeclaration, ExportReason } from '../adapter';
import { declaredGoods, totalNetGrams } from '../customsGoods';
import { postalFormFor } from '../postalForm';
import {
  additionalServiceCodes as adds,
  basicServiceCodes,
  consignorReferenceType,
  type customsCategoryTypes,
  type exportReasonCodes,
  type IssuerCode,
  type PostnordCn22,
  type PostnordCustomsInvoice,
  type PostnordEdiInstruction,
  type PostnordParty,
  type PostnordShipment,
} from './contract';

/**
 * The EDI instruction PostNord books from, built from a Shipdesk booking request per PostNord's
 * guideline ("Dependent information"): the services each product needs, the notices the rule asks
 * for, and the service point as the delivery party.
 */

export interface PostnordAccount {
  customerNumber: string;
  issuerCode: IssuerCode;
}

/** The shipment's reference as PostNord keeps it (35 characters at most), for the booking and the lookup alike. */
export const consignorReference = (reference: string) => reference.slice(0, 35);

export interface PostnordNotices {
  sms: boolean;
  email: boolean;
}

const nordic = new Set(['SE', 'NO', 'DK', 'FI', 'AX']);
const cut = (value: string, max: number) => value.slice(0, max);
const present = (value: string | null | undefined): value is string => typeof value === 'string' && value.trim() !== '';

function postnordParty(party: BookingParty, contact: { sms: boolean; email: boolean }): PostnordParty {
  const contactName = party.attention ?? party.name;
  return {
    nameIdentification: { name: cut(party.name, 60), ...(party.company ? { companyName: cut(party.company, 60) } : {}) },
    address: {
      streets: [party.address1, party.address2].filter(present),
      postalCode: party.postalCode.replace(/\s/g, ''),
      city: cut(party.city, 35),
      countryCode: party.countryCode,
    },
    contact: {
      contactName: cut(contactName, 50),
      ...(party.phone ? { phoneNo: cut(party.phone, 50) } : {}),
      // The mobile number and e-mail are PostNord's notice channels: sent only when a notice uses them.
      ...(contact.sms && party.phone ? { smsNo: cut(party.phone, 50) } : {}),
      ...(contact.email && party.email ? { emailAddress: cut(party.email, 70) } : {}),
    },
  };
}

/** The additional services a product needs besides what the rule asks (guideline: services 17, 19, 20). */
export function additionalServices(basicServiceCode: string, notices: PostnordNotices, receiver: BookingParty, servicePointId: string | null): string[] {
  const codes: string[] = [];
  const sms = notices.sms && present(receiver.phone);
  const email = notices.email && present(receiver.email);
  if (sms) codes.push(adds.notificationBySms);
  if (email) codes.push(adds.notificationByEmail);
  // MyPack Collect needs one notice; a letter when the rule asks none (not offered outside the Nordics).
  if (basicServiceCode === basicServiceCodes.myPackCollect && !sms && !email && nordic.has(receiver.countryCode)) codes.push(adds.notificationByLetter);
  // MyPack Home is booked with FlexChange (the receiver picks another day or place by SMS).
  if (basicServiceCode === basicServiceCodes.myPackHome) codes.push(adds.flexChange);
  if (servicePointId) codes.push(adds.optionalServicePoint);
  return codes;
}

export function ediInstruction(
  request: BookingRequest,
  account: PostnordAccount,
  basicServiceCode: string,
  notices: PostnordNotices,
  now: Date,
  /** The service point's own delivery address, when the shipment has no service_point party. */
  servicePointParty: BookingParty | null = null,
): PostnordEdiInstruction {
  const extra = additionalServices(basicServiceCode, notices, request.receiver, request.servicePointId);
  const receiverSms = extra.includes(adds.notificationBySms) || extra.includes(adds.flexChange);
  const receiverEmail = extra.includes(adds.notificationByEmail);
  const bothSms = basicServiceCode === basicServiceCodes.returnPickup;
  const isReturn = basicServiceCode === basicServiceCodes.returnDropOff || basicServiceCode === basicServiceCodes.returnPickup;
  const customer = { partyId: account.customerNumber, partyIdType: '160' as const };
  const servicePoint = request.otherParties.find((party) => party.type === 'service_point') ?? servicePointParty;

  const shipment: PostnordShipment = {
    service: { basicServiceCode, ...(extra.length > 0 ? { additionalServiceCode: extra } : {}) },
    // The consignor's reference is searchable with the customer number, so a lost answer can be found.
    references: [{ referenceNo: consignorReference(request.reference), referenceType: consignorReferenceType }],
    numberOfPackages: { value: request.parcels.length },
    totalGrossWeight: { value: round(request.parcels.reduce((sum, parcel) => sum + parcel.weightKg, 0)), unit: 'KGM' },
    parties: {
      consignor: { issuerCode: account.issuerCode, partyIdentification: customer, party: postnordParty(request.sender, { sms: isReturn, email: isReturn }) },
      consignee: {
        // A return is paid by the warehouse, which is its consignee (guideline: Return Drop Off).
        ...(isReturn ? { issuerCode: account.issuerCode, partyIdentification: customer } : {}),
        party: postnordParty(request.receiver, { sms: receiverSms || bothSms, email: receiverEmail }),
      },
      ...(request.servicePointId
        ? {
            deliveryParty: {
              partyIdentification: { partyId: request.servicePointId, partyIdType: '156' as const },
              party: postnordParty(servicePoint ?? request.receiver, { sms: false, email: false }),
            },
          }
        : {}),
    },
    goodsItem: request.parcels.map((parcel) => ({
      packageTypeCode: 'PC' as const,
      numberOfPackageTypeCodeItems: { value: 1 },
      items: [
        {
          // "0": PostNord allocates the item id, the parcel's tracking number.
          itemIdentification: { itemId: '0' },
          grossWeight: { value: round(parcel.weightKg), unit: 'KGM' as const },
          ...(parcel.length > 0 && parcel.width > 0 && parcel.height > 0
            ? {
                dimensions: {
                  length: { value: parcel.length, unit: 'CMT' as const },
                  width: { value: parcel.width, unit: 'CMT' as const },
                  height: { value: parcel.height, unit: 'CMT' as const },
                },
              }
            : {}),
        },
      ],
    })),
    ...(request.customs ? customsOf(request, account, basicServiceCode) : {}),
  };
  return {
    messageDate: now.toISOString(),
    messageFunction: 'Instruction',
    application: { name: 'Shipdesk', version: '1' },
    updateIndicator: 'Original',
    shipment: [shipment],
  };
}

const round = (kg: number) => Math.round(kg * 1000) / 1000;

// Customs ----------------------------------------------------------------------------------------

const categories: Record<ExportReason, (typeof customsCategoryTypes)[number]> = {
  sale: 'SALE OF GOODS',
  gift: 'GIFT',
  sample: 'COMMERCIAL SAMPLE',
  documents: 'DOCUMENT',
  return: 'RETURNED GOODS',
  repair: 'OTHER',
  other: 'OTHER',
};

/** Procedure codes: permanent export for sales, gifts and samples; return of goods; temporary export for repair. */
const reasonCodes: Record<ExportReason, (typeof exportReasonCodes)[number]> = {
  sale: '1000',
  gift: '1000',
  sample: '1000',
  documents: '1000',
  other: '1000',
  return: '1040',
  repair: '2100',
};

const kg = (grams: number) => ({ value: round(grams / 1000), unit: 'KGM' as const });
const money = (cents: number, currency: string) => ({ amount: cents / 100, currency });

function customsParty(party: BookingParty) {
  return {
    name: cut(party.name, 60),
    streets: [party.address1, party.address2].filter(present),
    city: cut(party.city, 35),
    postalCode: party.postalCode.replace(/\s/g, ''),
    countryCode: party.countryCode,
    contacts: {
      name: cut(party.attention ?? party.name, 60),
      phoneNo: cut(party.phone ?? '', 50),
      ...(party.email ? { emailAddress: cut(party.email, 70) } : {}),
    },
  };
}

/**
 * An export's declaration as PostNord takes it on the booking: a CN22 or CN23 for its postal parcel
 * (Postpaket Utrikes), the customs invoice for every other product. Values are the declaration's.
 */
export function customsOf(
  request: BookingRequest,
  account: PostnordAccount,
  basicServiceCode: string,
): Pick<PostnordShipment, 'customsInvoice' | 'customsDeclarationCN22' | 'customsDeclarationCN23'> {
  const customs = request.customs as CustomsDeclaration;
  const goods = declaredGoods(customs);
  const grossKg = { value: round(request.parcels.reduce((sum, parcel) => sum + parcel.weightKg, 0)), unit: 'KGM' as const };
  const totalValue = money(
    goods.reduce((sum, line) => sum + line.valueCents, 0),
    customs.currency,
  );
  if (basicServiceCode === basicServiceCodes.postpaketUtrikes) {
    const declaration: PostnordCn22 = {
      declarationType: 'exportDeclaration',
      ...(customs.exporter.eoriNumber ? { EORIorPersonalIdNumber: customs.exporter.eoriNumber } : {}),
      categoryOfItem: { categoryType: [categories[customs.exportReason]], ...(customs.exportReason === 'repair' ? { explanation: 'Repair' } : {}) },
      detailedDescription: goods.map((line) => ({
        content: line.description,
        quantity: { value: line.quantity },
        grossWeight: kg(line.netGrams),
        value: money(line.valueCents, line.currency),
        hsTariffNumber: line.tarrifNumber,
        countryCode: line.countryOfOrigin,
      })),
      totalGrossWeight: grossKg,
      totalValue,
    };
    return postalFormFor(customs) === 'cn22'
      ? { customsDeclarationCN22: declaration }
      : { customsDeclarationCN23: { ...declaration, postalCharges: money(0, customs.currency), dateOfPosting: customs.invoiceDate } };
  }
  const invoice: PostnordCustomsInvoice = {
    declarationType: 'invoiceExportDeclaration',
    type: customs.invoiceKind === 'commercial' ? 'COMMERCIAL' : 'PROFORMA',
    // PostNord requires the seller's VAT number: one missing is left out, and PostNord's refusal says so.
    seller: {
      ...customsParty(request.sender),
      partyIdentification: { partyId: account.customerNumber, partyIdType: '160' },
      ...(customs.exporter.vatNumber ? { vatNo: customs.exporter.vatNumber } : {}),
      ...(customs.exporter.eoriNumber ? { eoriNo: customs.exporter.eoriNumber } : {}),
    } as PostnordCustomsInvoice['seller'],
    buyer: customsParty(request.receiver),
    invoice: {
      invoiceNo: customs.invoiceNumber,
      shippingDate: customs.invoiceDate,
      reasonForExportation: reasonCodes[customs.exportReason],
      termsOfSale: request.termOfTrade,
    },
    detailedDescription: goods.map((line) => ({
      quantity: line.quantity,
      hsTariffNumber: line.tarrifNumber,
      content: line.description,
      countryOfOrigin: line.countryOfOrigin,
      netWeight: kg(line.netGrams),
      itemValue: money(line.valueCents, line.currency),
      articleNumber: line.sku,
    })),
    totalNetWeight: kg(totalNetGrams(goods)),
    totalGrossWeight: grossKg,
    totalNumberOfPackages: { value: request.parcels.length },
    invoiceTotal: totalValue,
  };
  return { customsInvoice: invoice };
}
