import type { BookingParty, BookingRequest } from '../adapter';
import {
  additionalServiceCodes as adds,
  basicServiceCodes,
  consignorReferenceType,
  type IssuerCode,
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
