import { z } from 'zod';

/**
 * Our own schemas of what Shipdesk sends to GLS and reads back, written from GLS's published contracts:
 *  - ShipIT REST (OpenAPI "GLS ShipIT API v1" and the ShipIT REST documentation it points to for the
 *    field-level rules and samples): shipments, cancel, reprint, parcel search by reference, ParcelShops;
 *  - Authentication API v2: OAuth 2 client credentials, tokens valid up to four hours;
 *  - Track And Trace V1: status and events of up to 10 parcels per call.
 * Where the OpenAPI property names differ from GLS's documented wire samples (`Zipcode`/`Email` vs
 * `ZIPCode`/`eMail`, hours as date-time vs milliseconds), the wire samples win: they are what ShipIT sends.
 * Request schemas are strict (ShipIT's JSON binding refuses unknown fields); response schemas keep only
 * what we read and let the rest through.
 */

/** Documented origins; every path below is kept whole after them (decisions §13). */
export const glsOrigins = { production: 'https://api.gls-group.net', sandbox: 'https://api-sandbox.gls-group.net' } as const;

export const glsPaths = {
  token: '/oauth2/v2/token',
  shipments: '/shipit-farm/v1/backend/rs/shipments',
  cancel: (trackId: string) => `/shipit-farm/v1/backend/rs/shipments/cancel/${encodeURIComponent(trackId)}`,
  reprint: '/shipit-farm/v1/backend/rs/shipments/reprintparcel',
  findParcels: '/shipit-farm/v1/backend/rs/tracking/parcels',
  parcelShopsByAddress: '/shipit-farm/v1/backend/rs/parcelshop/address',
  /** The end-of-day report of one shipping date (`?date=YYYY-MM-DD`), POST without a body. */
  endOfDay: '/shipit-farm/v1/backend/rs/shipments/endofday',
  /** Track and Trace V1 takes up to 10 parcel numbers, comma separated. */
  trackParcels: (parcelNumbers: readonly string[]) => `/track-and-trace-v1/tracking/simple/trackids/${parcelNumbers.map(encodeURIComponent).join(',')}`,
} as const;

/** ShipIT's own media type, for the body sent and the answer accepted. */
export const GLS_MEDIA_TYPE = 'application/glsVersion1+json';
export const TRACK_BATCH_LIMIT = 10;

// ---------------------------------------------------------------- authentication (OAuth 2, v2)

export const tokenRequestSchema = z.strictObject({
  grant_type: z.literal('client_credentials'),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  scope: z.string().optional(),
});

export const tokenResponseSchema = z.object({
  token_type: z.literal('Bearer'),
  access_token: z.string().min(1),
  expires_in: z.coerce.number(),
});
export type GlsTokenResponse = z.infer<typeof tokenResponseSchema>;

/** The authentication API's error body. */
export const faultResponseSchema = z.object({ errors: z.array(z.object({ message: z.string().optional(), type: z.string().optional() })) });

/** The API gateway's error body (401 on a bad or expired token, 429 on a quota). */
export const gatewayFaultSchema = z.object({
  fault: z.object({ faultstring: z.string().optional(), detail: z.object({ errorcode: z.string().optional() }).optional() }),
});

// ---------------------------------------------------------------- ShipIT: create parcels

/** ShipIT's text fields are 40 characters at most, the e-mail 80 (its fault samples). */
const text40 = z.string().max(40);

export const glsAddressSchema = z.strictObject({
  Name1: text40.min(1),
  Name2: text40.optional(),
  Name3: text40.optional(),
  CountryCode: z.string().regex(/^[A-Z]{2}$/),
  Province: text40.optional(),
  ZIPCode: z.string().max(10).optional(),
  City: text40.min(1),
  Street: text40.min(1),
  StreetNumber: z.string().max(10).optional(),
  ContactPerson: text40.optional(),
  FixedLinePhonenumber: text40.optional(),
  MobilePhoneNumber: text40.optional(),
  eMail: z.string().max(80).optional(),
});
export type GlsAddress = z.infer<typeof glsAddressSchema>;

export const glsProducts = ['PARCEL', 'EXPRESS', 'FREIGHT', 'PHARMA', 'PHARMAPLUS'] as const;
export type GlsProduct = (typeof glsProducts)[number];

/** Services without attributes ride as `{Service: {ServiceName}}`; these are the names we send. */
export const glsFlagServiceNames = ['service_flexdelivery', 'service_addresseeonly', 'service_guaranteed24', 'service_Saturday'] as const;
export const SHOP_DELIVERY_SERVICE = 'service_shopdelivery';
export const DEPOSIT_SERVICE = 'service_deposit';

/** One entry of `Shipment.Service[]`: a wrapper named for the service, one per entry. */
export const glsShipmentServiceSchema = z.union([
  z.strictObject({ Service: z.strictObject({ ServiceName: z.string() }) }),
  z.strictObject({ ShopDelivery: z.strictObject({ ServiceName: z.string(), ParcelShopID: z.string().min(1) }) }),
  z.strictObject({ Deposit: z.strictObject({ ServiceName: z.string(), PlaceOfDeposit: z.string().min(1).max(121) }) }),
]);
export type GlsShipmentService = z.infer<typeof glsShipmentServiceSchema>;

export const glsShipmentUnitSchema = z.strictObject({
  /** We send the parcel's id, so a unit found later by reference maps back to its parcel. */
  ShipmentUnitReference: z.array(z.string().max(40)).optional(),
  Weight: z.number().positive(),
  Note1: z.string().max(50).optional(),
  Note2: z.string().max(50).optional(),
});

export const glsShipmentSchema = z.strictObject({
  ShipmentReference: z.array(z.string().max(40)).optional(),
  /** YYYY-MM-DD; the next working day when left out. */
  ShippingDate: z.iso.date().optional(),
  IncotermCode: z.string().optional(),
  Product: z.enum(glsProducts),
  Consignee: z.strictObject({
    ConsigneeID: z.string().max(40).optional(),
    Category: z.enum(['BUSINESS', 'PRIVATE']).optional(),
    Address: glsAddressSchema,
  }),
  Shipper: z.strictObject({
    ContactID: z.string().min(1),
    /** The sender's own address printed on the label, the account being the ContactID's. */
    AlternativeShipperAddress: glsAddressSchema.optional(),
  }),
  ShipmentUnit: z.array(glsShipmentUnitSchema).min(1),
  Service: z.array(glsShipmentServiceSchema).optional(),
});

export const glsTemplateSets = ['NONE', 'D_200', 'PF_4_I', 'PF_4_I_200', 'PF_4_I_300', 'PF_8_D_200', 'T_200_BF', 'T_300_BF', 'ZPL_200', 'ZPL_300'] as const;
export const glsLabelFormats = ['PDF', 'ZEBRA', 'INTERMEC', 'DATAMAX', 'TOSHIBA', 'PNG'] as const;
export type GlsTemplateSet = (typeof glsTemplateSets)[number];
export type GlsLabelFormat = (typeof glsLabelFormats)[number];

export const glsPrintingOptionsSchema = z.strictObject({
  ReturnLabels: z.strictObject({ TemplateSet: z.enum(glsTemplateSets), LabelFormat: z.enum(glsLabelFormats) }),
});

export const shipmentRequestSchema = z.strictObject({
  Shipment: glsShipmentSchema,
  PrintingOptions: glsPrintingOptionsSchema,
});
export type GlsShipmentRequest = z.infer<typeof shipmentRequestSchema>;

export const glsParcelDataSchema = z.object({
  TrackID: z.string(),
  ParcelNumber: z.string(),
  ShipmentUnitReference: z.array(z.string()).optional(),
});

/** A label file: base64 in `Data` (one string in the samples, a list of chunks in the OpenAPI). */
export const glsDocumentSchema = z.object({
  Data: z.union([z.string(), z.array(z.string())]),
  LabelFormat: z.string(),
});
export type GlsDocument = z.infer<typeof glsDocumentSchema>;

export const createdShipmentSchema = z.object({
  ShipmentReference: z.array(z.string()).optional(),
  ParcelData: z.array(glsParcelDataSchema).min(1),
  PrintData: z.array(glsDocumentSchema).default([]),
  CustomerID: z.string(),
  PickupLocation: z.string(),
});

export const createParcelsResponseSchema = z.object({ CreatedShipment: createdShipmentSchema });
export type GlsCreateParcelsResponse = z.infer<typeof createParcelsResponseSchema>;

// ---------------------------------------------------------------- ShipIT: cancel, reprint, find by reference

/** `Result` is free text in the contract; CANCELLED (or CANCELLATION_PENDING) means the parcel is off. */
export const cancelParcelResponseSchema = z.object({ TrackID: z.string(), Result: z.string() });
export const GLS_CANCELLED_RESULTS: readonly string[] = ['CANCELLED', 'CANCELLATION_PENDING'];

export const reprintRequestSchema = z.strictObject({
  TrackID: z.string().min(1),
  PrintingOptions: glsPrintingOptionsSchema,
});
export const reprintResponseSchema = z.object({ CreatedShipment: createdShipmentSchema });

/** Finds parcels by the shipment's reference within a date window (both ends required). */
export const findParcelsRequestSchema = z.strictObject({
  ShipmentReference: z.string().min(1),
  DateFrom: z.iso.datetime({ offset: true }),
  DateTo: z.iso.datetime({ offset: true }),
});

export const unitItemSchema = z.object({
  TrackID: z.string(),
  ParcelNumber: z.string().optional(),
  ShipmentReference: z.array(z.string()).optional(),
  ShipmentUnitReference: z.array(z.string()).optional(),
  InitialDate: z.string(),
  Status: z.string(),
});
export const findParcelsResponseSchema = z.object({ UnitItems: z.array(unitItemSchema).default([]) });
export type GlsUnitItem = z.infer<typeof unitItemSchema>;

// ---------------------------------------------------------------- ShipIT: end of day

/** The query of `getEndOfDayReport`: the shipping date it closes and reports. */
export const endOfDayQuerySchema = z.strictObject({ date: z.iso.date() });

/** `EndOfDayResponse`: the shipments GLS has for that date, with their parcels' TrackIDs. */
export const endOfDayResponseSchema = z.object({
  Shipments: z
    .array(
      z.object({
        ShipmentReference: z.array(z.string()).optional(),
        ShipmentUnit: z.array(z.object({ TrackID: z.string().optional(), ParcelNumber: z.string().optional() })).default([]),
      }),
    )
    .default([]),
});
export type GlsEndOfDayResponse = z.infer<typeof endOfDayResponseSchema>;

// ---------------------------------------------------------------- ShipIT: ParcelShops

export const parcelShopSearchSchema = z.strictObject({
  CountryCode: z.string().regex(/^[A-Z]{2}$/),
  ZIPCode: z.string().optional(),
  City: z.string().optional(),
  Street: z.string().optional(),
  StreetNumber: z.string().optional(),
  /** Both numbers travel as strings in the contract. */
  MaxNumberOfShops: z.string().regex(/^\d+$/).optional(),
  Distance: z.string().regex(/^\d+$/).optional(),
});
export type GlsParcelShopSearch = z.infer<typeof parcelShopSearchSchema>;

/** Hours are milliseconds since midnight shifted by one hour in ShipIT's REST samples; a date-time in the OpenAPI. */
const glsHour = z.union([z.number(), z.string()]);
const openingHoursListSchema = z.object({ OpeningHours: z.array(z.object({ From: glsHour, To: glsHour })).default([]) });

export const glsWeekdays = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;

export const parcelShopSchema = z.object({
  ParcelShopID: z.string(),
  Location: z.object({ Latitude: z.coerce.number().optional(), Longitude: z.coerce.number().optional() }).optional(),
  Address: z.object({
    Name1: z.string(),
    Name2: z.string().nullish(),
    CountryCode: z.string(),
    ZIPCode: z.string().nullish(),
    City: z.string(),
    Street: z.string(),
    StreetNumber: z.string().nullish(),
  }),
  WorkingDay: z
    .array(z.object({ DayOfWeek: z.enum(glsWeekdays), OpeningHours: openingHoursListSchema.optional(), Breaks: openingHoursListSchema.optional() }))
    .default([]),
  /** Metres as a string; absent in a lookup by id. */
  AirlineDistance: z.string().optional(),
});
export type GlsParcelShop = z.infer<typeof parcelShopSchema>;
export const parcelShopListSchema = z.object({ ParcelShop: z.array(parcelShopSchema).default([]) });

// ---------------------------------------------------------------- Track And Trace V1

export const glsParcelStatuses = [
  'PLANNEDPICKUP',
  'INPICKUP',
  'NOTPICKEDUP',
  'PREADVICE',
  'INTRANSIT',
  'INDELIVERY',
  'DELIVEREDPS',
  'DELIVERED',
  'INWAREHOUSE',
  'NOTDELIVERED',
  'CANCELED',
  'FINAL',
] as const;
export type GlsParcelStatus = (typeof glsParcelStatuses)[number];

export const trackEventSchema = z.object({
  code: z.string().default(''),
  city: z.string().nullish(),
  postalCode: z.string().nullish(),
  country: z.string().nullish(),
  description: z.string().default(''),
  /** ISO 8601 with a basic offset, e.g. 2024-10-07T10:46:14+0200. */
  eventDateTime: z.string(),
});
export type GlsTrackEvent = z.infer<typeof trackEventSchema>;

export const trackedParcelSchema = z.object({
  requested: z.string(),
  unitno: z.string().optional(),
  status: z.string().optional(),
  statusDateTime: z.string().optional(),
  events: z.array(trackEventSchema).default([]),
  /** E_404_01 and friends: the parcel is not known (yet). */
  errorCode: z.string().optional(),
  errorMessage: z.string().optional(),
});
export type GlsTrackedParcel = z.infer<typeof trackedParcelSchema>;
export const trackResponseSchema = z.object({ parcels: z.array(trackedParcelSchema).default([]) });

/** Track and Trace's own error body (400, 404). */
export const problemSchema = z.object({ title: z.string().optional(), status: z.number().optional(), detail: z.string().optional() });
