import type { CarrierProduct, DocumentFormat, LabelSize } from '../../../src-shared/schemas/carrier';
import type { BookingParty, BookingRequest, CarrierConfig, LabelSpec } from '../adapter';
import { carrierRefused } from '../errors';
import {
  DEPOSIT_SERVICE,
  SHOP_DELIVERY_SERVICE,
  type GlsAddress,
  type GlsProduct,
  type GlsShipmentRequest,
  type GlsShipmentService,
  type GlsTemplateSet,
} from './contract';

/**
 * GLS's products and services as Shipdesk offers them, and a booking turned into ShipIT's
 * createParcels request. BusinessParcel (EuroBusinessParcel abroad) is ShipIT's PARCEL product; its
 * delivery to a ParcelShop is the same product with the ShopDeliveryService, offered as a product of
 * its own so the ParcelShop is required where it must be.
 */

export const GLS_PARCEL = 'PARCEL';
export const GLS_PARCEL_SHOP = 'PARCEL_SHOPDELIVERY';
export const GLS_EXPRESS = 'EXPRESS';

/** Our service ids, GLS's service names. Deposit needs the place, from the shipment's additional parameters. */
const flagServices: Record<string, { name: string; serviceName: string }> = {
  flexDelivery: { name: 'FlexDeliveryService (the receiver is told the delivery day and can change it)', serviceName: 'service_flexdelivery' },
  addresseeOnly: { name: 'AddresseeOnlyService (only to the receiver in person)', serviceName: 'service_addresseeonly' },
  guaranteed24: { name: 'Guaranteed24Service (next working day)', serviceName: 'service_guaranteed24' },
  saturday: { name: 'SaturdayService (delivery on Saturday)', serviceName: 'service_Saturday' },
};
const DEPOSIT = 'deposit';
/** The shipment's additional parameter naming where GLS may leave the parcel (e.g. "Garage"). */
export const PLACE_OF_DEPOSIT_PARAMETER = 'placeOfDeposit';

const service = (serviceId: string) => ({ serviceId, name: flagServices[serviceId]!.name });
const glsLabelSizes: LabelSize[] = ['A6', '100X150'];

export const glsProducts: readonly CarrierProduct[] = [
  {
    productId: GLS_PARCEL,
    name: 'GLS BusinessParcel / EuroBusinessParcel',
    type: 'outbound',
    description: 'Parcels up to 31.5 kg to a home or business address, in Germany (BusinessParcel) or elsewhere in Europe (EuroBusinessParcel).',
    services: [
      service('flexDelivery'),
      { serviceId: DEPOSIT, name: `DepositService (left at an agreed place; set the additional parameter ${PLACE_OF_DEPOSIT_PARAMETER})` },
      service('addresseeOnly'),
      service('guaranteed24'),
      service('saturday'),
    ],
    labelSizes: glsLabelSizes,
    servicePoint: 'none',
  },
  {
    productId: GLS_PARCEL_SHOP,
    name: 'GLS ShopDeliveryService (BusinessParcel to a ParcelShop)',
    type: 'outbound',
    description: 'The parcel goes to the GLS ParcelShop the receiver chose, who collects it there.',
    services: [service('flexDelivery')],
    labelSizes: glsLabelSizes,
    servicePoint: 'required',
  },
  {
    productId: GLS_EXPRESS,
    name: 'GLS Express',
    type: 'outbound',
    description: 'Express parcels, delivered the next working day.',
    services: [service('addresseeOnly'), service('saturday')],
    labelSizes: glsLabelSizes,
    servicePoint: 'none',
  },
];

const shipItProduct: Record<string, GlsProduct> = { [GLS_PARCEL]: 'PARCEL', [GLS_PARCEL_SHOP]: 'PARCEL', [GLS_EXPRESS]: 'EXPRESS' };

export const zplTemplateSets = ['ZPL_200', 'ZPL_300'] as const;

/** What the config asks for: PDF (A6 page) by default; ZPL at 200 or 300 dpi for thermal printers. */
export function glsLabelDefaults(config: CarrierConfig): LabelSpec {
  const format: DocumentFormat = config.labelFormat === 'zpl' ? 'zpl' : 'pdf';
  return { format, size: format === 'zpl' ? '100X150' : 'A6' };
}

export function printingOptions(config: CarrierConfig, label: LabelSpec): GlsShipmentRequest['PrintingOptions'] {
  if (label.format === 'zpl') {
    const template: GlsTemplateSet = config.zplTemplateSet === 'ZPL_300' ? 'ZPL_300' : 'ZPL_200';
    return { ReturnLabels: { TemplateSet: template, LabelFormat: 'ZEBRA' } };
  }
  return { ReturnLabels: { TemplateSet: 'NONE', LabelFormat: 'PDF' } };
}

/** ShipIT's address: up to three name lines, the street line whole (ShipIT takes the number in it). */
export function glsAddress(party: BookingParty): GlsAddress {
  const address: GlsAddress = {
    Name1: party.name,
    CountryCode: party.countryCode.toUpperCase(),
    City: party.city,
    Street: party.address1,
  };
  const second = party.company ?? party.attention;
  if (second) address.Name2 = second;
  if (party.address2) address.Name3 = party.address2;
  if (party.postalCode) address.ZIPCode = party.postalCode;
  if (party.attention) address.ContactPerson = party.attention;
  if (party.phone) address.MobilePhoneNumber = party.phone;
  if (party.email) address.eMail = party.email;
  return address;
}

function shipmentServices(request: BookingRequest): GlsShipmentService[] {
  const services: GlsShipmentService[] = [];
  if (request.productId === GLS_PARCEL_SHOP) {
    if (!request.servicePointId) {
      throw carrierRefused([{ code: 'PARCELSHOP_MISSING', message: 'GLS ShopDeliveryService needs a ParcelShop: choose the service point and send again' }]);
    }
    services.push({ ShopDelivery: { ServiceName: SHOP_DELIVERY_SERVICE, ParcelShopID: request.servicePointId } });
  }
  for (const serviceId of request.services) {
    if (serviceId === DEPOSIT) {
      const place = request.additionalParameters[PLACE_OF_DEPOSIT_PARAMETER];
      if (typeof place !== 'string' || place.trim() === '') {
        throw carrierRefused([
          {
            code: 'PLACE_OF_DEPOSIT_MISSING',
            message: `GLS DepositService needs the place to leave the parcel: set the additional parameter ${PLACE_OF_DEPOSIT_PARAMETER}`,
          },
        ]);
      }
      services.push({ Deposit: { ServiceName: DEPOSIT_SERVICE, PlaceOfDeposit: place.trim() } });
    } else {
      const flag = flagServices[serviceId];
      if (flag) services.push({ Service: { ServiceName: flag.serviceName } });
    }
  }
  return services;
}

/** The booking as ShipIT's createParcels body; the shipment's reference is GLS's customer reference. */
export function shipmentRequest(config: CarrierConfig, request: BookingRequest): GlsShipmentRequest {
  const contactId = typeof config.contactId === 'string' ? config.contactId : '';
  const services = shipmentServices(request);
  const receiver = glsAddress(request.receiver);
  return {
    Shipment: {
      ShipmentReference: [request.reference],
      Product: shipItProduct[request.productId] ?? 'PARCEL',
      Consignee: { Category: request.receiver.company ? 'BUSINESS' : 'PRIVATE', Address: receiver },
      Shipper: { ContactID: contactId, AlternativeShipperAddress: glsAddress(request.sender) },
      // Each unit carries its parcel's id, so a unit found later by reference maps back to its parcel.
      ShipmentUnit: request.parcels.map((parcel) => ({ ShipmentUnitReference: [parcel.parcelId], Weight: roundKg(parcel.weightKg) })),
      ...(services.length ? { Service: services } : {}),
    },
    PrintingOptions: printingOptions(config, request.label),
  };
}

/** ShipIT takes kilograms; more than two decimals is noise from unit conversion. */
const roundKg = (kg: number) => Math.max(0.01, Math.round(kg * 100) / 100);
