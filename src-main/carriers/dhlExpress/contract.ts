import { z } from 'zod';

/**
 * Our own schemas of what Shipdesk sends to DHL Express and reads back, written from DHL's published
 * MyDHL API 3.1 OpenAPI document: create shipment, tracking, pickups (create, cancel) and address
 * validation, all under HTTP Basic authentication. Request schemas are strict (MyDHL answers 422 for
 * an extraneous key); response schemas keep only what we read and let the rest through.
 */

/** Documented servers; every path below is kept whole after them (decisions §13). */
export const dhlOrigins = { production: 'https://express.api.dhl.com/mydhlapi', sandbox: 'https://express.api.dhl.com/mydhlapi/test' } as const;

export const dhlPaths = {
  shipments: '/shipments',
  tracking: '/tracking',
  pickups: '/pickups',
  pickup: (dispatchConfirmationNumber: string) => `/pickups/${encodeURIComponent(dispatchConfirmationNumber)}`,
  addressValidate: '/address-validate',
} as const;

/** The tracking call takes up to 200 waybill numbers (repeated `shipmentTrackingNumber`). */
export const TRACK_BATCH_LIMIT = 200;

/** `2022-11-11T19:19:40 GMT+01:00`: MyDHL's planned shipping and pickup time. */
export const DHL_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2} GMT[+-]\d{2}:\d{2}$/;

// ---------------------------------------------------------------- enums

export const incoterms = ['EXW', 'FCA', 'CPT', 'CIP', 'DPU', 'DAP', 'DDP', 'FAS', 'FOB', 'CFR', 'CIF', 'DAF', 'DAT', 'DDU', 'DEQ', 'DES'] as const;
export const exportReasonTypes = [
  'permanent',
  'temporary',
  'return',
  'used_exhibition_goods_to_origin',
  'intercompany_use',
  'commercial_purpose_or_sale',
  'personal_belongings_or_personal_use',
  'sample',
  'gift',
  'return_to_origin',
  'warranty_replacement',
  'diplomatic_goods',
  'defence_material',
] as const;
export type DhlExportReasonType = (typeof exportReasonTypes)[number];
export const quantityUnits = (
  'BOX 2GM M3 DPR DOZ PCS GM GRS KG M 3GM X NO PRS CM2 2M2 3M2 M2 4M2 CM CONE CT EA LBS RILL ROLL SET TU KM IN FT YD MI LTR MMQ CM3 DMQ ' +
  'MLT CLT DLT INQ FT3 YD3 GLI GLL PT PTI QTI PTL QTL PTD OZI J57 NM3 SM3 TNE LB ONZ CEL'
).split(' ');
export const registrationTypes = [
  'VAT',
  'EIN',
  'GST',
  'SSN',
  'EOR',
  'DUN',
  'FED',
  'STA',
  'CNP',
  'IE',
  'INN',
  'KPP',
  'OGR',
  'OKP',
  'MRN',
  'SDT',
  'FTZ',
] as const;
export const documentImageTypes = ['INV', 'PNV', 'COO', 'CIN', 'DCL', 'AWB', 'NAF'] as const;
export const encodingFormats = ['pdf', 'zpl', 'lp2', 'epl'] as const;
export const imageOptionTypes = ['label', 'waybillDoc', 'invoice', 'qr-code', 'shipmentReceipt'] as const;
export const partyTypes = ['business', 'direct_consumer', 'government', 'other', 'private', 'reseller'] as const;

/** DHL's value-added service for paperless trade: the invoice travels as a document image. */
export const PAPERLESS_TRADE_SERVICE = 'WY';

// ---------------------------------------------------------------- parties

const text = (max: number) => z.string().min(1).max(max);
const country = z.string().regex(/^[A-Z]{2}$/);

export const postalAddressSchema = z.strictObject({
  postalCode: z.string().max(12),
  cityName: text(45),
  countryCode: country,
  provinceCode: z.string().min(2).max(35).optional(),
  addressLine1: text(45),
  addressLine2: text(45).optional(),
  addressLine3: text(45).optional(),
  countyName: text(45).optional(),
});
export type DhlPostalAddress = z.infer<typeof postalAddressSchema>;

export const contactInformationSchema = z.strictObject({
  email: text(70).optional(),
  phone: text(70),
  mobilePhone: text(70).optional(),
  companyName: text(100),
  fullName: text(255),
});
export type DhlContactInformation = z.infer<typeof contactInformationSchema>;

export const registrationNumberSchema = z.strictObject({ typeCode: z.enum(registrationTypes), number: text(35), issuerCountryCode: country });

export const partySchema = z.strictObject({
  postalAddress: postalAddressSchema,
  contactInformation: contactInformationSchema,
  registrationNumbers: z.array(registrationNumberSchema).max(50).optional(),
  typeCode: z.enum(partyTypes).optional(),
});
export type DhlParty = z.infer<typeof partySchema>;

const accountSchema = z.strictObject({ typeCode: z.enum(['shipper', 'payer', 'duties-taxes']), number: text(12) });

// ---------------------------------------------------------------- create shipment

const valueAddedServiceSchema = z.strictObject({
  serviceCode: text(6),
  value: z.number().min(0).optional(),
  currency: z.string().length(3).optional(),
  method: z.string().optional(),
});
export type DhlValueAddedService = z.infer<typeof valueAddedServiceSchema>;

const dimensionsSchema = z.strictObject({ length: z.number().min(0.001), width: z.number().min(0.001), height: z.number().min(0.001) });

export const packageSchema = z.strictObject({
  typeCode: z.string().min(2).max(3).optional(),
  weight: z.number().min(0.001),
  dimensions: dimensionsSchema.optional(),
  customerReferences: z
    .array(z.strictObject({ value: text(35), typeCode: z.string().optional() }))
    .min(1)
    .optional(),
  description: text(70).optional(),
  labelDescription: text(80).optional(),
  referenceNumber: z.number().int().min(1).max(999).optional(),
});

export const lineItemSchema = z.strictObject({
  number: z.number().int().min(1).max(999),
  description: text(512),
  price: z.number().min(0),
  quantity: z.strictObject({ value: z.number().int().min(1), unitOfMeasurement: z.string().refine((unit) => quantityUnits.includes(unit)) }),
  commodityCodes: z
    .array(z.strictObject({ typeCode: z.enum(['outbound', 'inbound']), value: z.string().min(2).max(18) }))
    .max(2)
    .optional(),
  exportReasonType: z.enum(exportReasonTypes).optional(),
  manufacturerCountry: country,
  weight: z.strictObject({ netValue: z.number().min(0).optional(), grossValue: z.number().min(0).optional() }),
  isTaxesPaid: z.boolean().optional(),
});
export type DhlLineItem = z.infer<typeof lineItemSchema>;

export const exportDeclarationSchema = z.strictObject({
  lineItems: z.array(lineItemSchema).min(1).max(999),
  invoice: z
    .strictObject({
      number: text(35),
      date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      totalNetWeight: z.number().min(0).optional(),
      totalGrossWeight: z.number().min(0).optional(),
    })
    .optional(),
  exportReason: text(30).optional(),
  exportReasonType: z.enum(exportReasonTypes).optional(),
  shipmentType: z.enum(['personal', 'commercial']).optional(),
});
export type DhlExportDeclaration = z.infer<typeof exportDeclarationSchema>;

export const documentImageSchema = z.strictObject({
  typeCode: z.enum(documentImageTypes).optional(),
  imageFormat: z.enum(['PDF', 'PNG', 'GIF', 'TIFF', 'JPEG']).optional(),
  content: z.string().min(1),
});

export const imageOptionSchema = z.strictObject({
  typeCode: z.enum(imageOptionTypes),
  templateName: z.string().max(25).optional(),
  isRequested: z.boolean().optional(),
});

export const shipmentRequestSchema = z.strictObject({
  plannedShippingDateAndTime: z.string().min(1).max(29),
  pickup: z.strictObject({ isRequested: z.boolean() }),
  productCode: text(6),
  accounts: z.array(accountSchema).min(1).max(3),
  valueAddedServices: z.array(valueAddedServiceSchema).max(99).optional(),
  outputImageProperties: z
    .strictObject({
      printerDPI: z.union([z.literal(200), z.literal(300)]).optional(),
      encodingFormat: z.enum(encodingFormats).optional(),
      imageOptions: z.array(imageOptionSchema).max(20).optional(),
    })
    .optional(),
  customerReferences: z
    .array(z.strictObject({ value: text(35), typeCode: z.string().min(2).max(3).optional() }))
    .max(999)
    .optional(),
  customerDetails: z.strictObject({ shipperDetails: partySchema, receiverDetails: partySchema }),
  content: z.strictObject({
    packages: z.array(packageSchema).min(1).max(999),
    isCustomsDeclarable: z.boolean(),
    declaredValue: z.number().min(0).optional(),
    declaredValueCurrency: z.string().length(3).optional(),
    exportDeclaration: exportDeclarationSchema.optional(),
    description: z.string().min(1).max(70).regex(/^\S/),
    incoterm: z.enum(incoterms),
    unitOfMeasurement: z.enum(['metric', 'imperial']),
  }),
  documentImages: z.array(documentImageSchema).min(1).max(999).optional(),
  shipmentNotification: z
    .array(z.strictObject({ typeCode: z.literal('email'), receiverId: text(50), languageCode: z.string().length(3).optional() }))
    .max(5)
    .optional(),
  getAdditionalInformation: z
    .array(
      z.strictObject({ typeCode: z.enum(['pickupDetails', 'optionalShipmentData', 'barcodeInformation', 'linkLabelsByPieces']), isRequested: z.boolean() }),
    )
    .max(5)
    .optional(),
});
export type DhlShipmentRequest = z.infer<typeof shipmentRequestSchema>;

const documentSchema = z.object({ imageFormat: z.string(), content: z.string(), typeCode: z.string(), packageReferenceNumber: z.number().optional() });
export type DhlDocument = z.infer<typeof documentSchema>;

export const shipmentResponseSchema = z.object({
  shipmentTrackingNumber: z.string().min(1),
  trackingUrl: z.string().optional(),
  dispatchConfirmationNumber: z.string().optional(),
  packages: z.array(z.object({ referenceNumber: z.number().optional(), trackingNumber: z.string().min(1), trackingUrl: z.string().optional() })).min(1),
  documents: z.array(documentSchema).default([]),
  warnings: z.array(z.string()).optional(),
});
export type DhlShipmentResponse = z.infer<typeof shipmentResponseSchema>;

// ---------------------------------------------------------------- errors

/** MyDHL's problem body; `status` is a string in its samples, a number in some answers. */
export const errorResponseSchema = z.object({
  instance: z.string().optional(),
  detail: z.string().optional(),
  title: z.string().optional(),
  message: z.string().optional(),
  status: z.union([z.string(), z.number()]).optional(),
  additionalDetails: z.array(z.string()).optional(),
});
export type DhlErrorResponse = z.infer<typeof errorResponseSchema>;

// ---------------------------------------------------------------- tracking

const trackingEventSchema = z.object({
  date: z.string(),
  time: z.string(),
  GMTOffset: z.string().optional(),
  typeCode: z.string().optional(),
  description: z.string().optional(),
  serviceArea: z.array(z.object({ code: z.string().optional(), description: z.string().optional() })).optional(),
  signedBy: z.string().optional(),
});
export type DhlTrackingEvent = z.infer<typeof trackingEventSchema>;

export const trackingResponseSchema = z.object({
  shipments: z
    .array(
      z.object({
        shipmentTrackingNumber: z.string(),
        status: z.string().optional(),
        events: z.array(trackingEventSchema).default([]),
        pieces: z.array(z.object({ trackingNumber: z.string().optional(), events: z.array(trackingEventSchema).default([]) })).optional(),
      }),
    )
    .default([]),
});
export type DhlTrackedShipment = z.infer<typeof trackingResponseSchema>['shipments'][number];

// ---------------------------------------------------------------- pickups

const pickupPartySchema = z.strictObject({ postalAddress: postalAddressSchema, contactInformation: contactInformationSchema });

export const pickupRequestSchema = z.strictObject({
  plannedPickupDateAndTime: z.string().min(1).max(29),
  closeTime: z
    .string()
    .regex(/^([0-1][0-9]|2[0-3]):[0-5][0-9]$/)
    .optional(),
  location: z.string().max(80).optional(),
  locationType: z.enum(['business', 'residence']).optional(),
  accounts: z.array(accountSchema).min(1).max(5),
  specialInstructions: z
    .array(z.strictObject({ value: z.string().max(80), typeCode: z.string().min(2).max(3).optional() }))
    .max(4)
    .optional(),
  remark: z.string().optional(),
  customerDetails: z.strictObject({ shipperDetails: pickupPartySchema, pickupDetails: pickupPartySchema.optional() }),
  shipmentDetails: z
    .array(
      z.strictObject({
        productCode: text(6),
        isCustomsDeclarable: z.boolean(),
        unitOfMeasurement: z.enum(['metric', 'imperial']),
        packages: z.array(z.strictObject({ weight: z.number().min(0.001), dimensions: dimensionsSchema.optional() })).min(1),
      }),
    )
    .min(1),
});
export type DhlPickupRequest = z.infer<typeof pickupRequestSchema>;

export const pickupResponseSchema = z.object({
  dispatchConfirmationNumbers: z.array(z.string()).min(1),
  readyByTime: z.string().optional(),
  nextPickupDate: z.string().optional(),
  warnings: z.array(z.string()).optional(),
});

// ---------------------------------------------------------------- address validation

export const addressValidateResponseSchema = z.object({
  address: z
    .array(
      z.object({
        countryCode: z.string().optional(),
        postalCode: z.string().optional(),
        cityName: z.string().optional(),
        serviceArea: z.object({ code: z.string().optional(), description: z.string().optional(), GMTOffset: z.string().optional() }).optional(),
      }),
    )
    .default([]),
  warnings: z.array(z.string()).optional(),
});
