import { z } from 'zod';

/**
 * PostNord's published API contract, as far as Shipdesk sends and reads it. Written from PostNord's
 * own swagger documents (Booking APIs 3.5, Service Points V5 5.0.14, Track & Trace v7 FindByIdentifier
 * and FindByReference) and its "General descriptions" EDI guideline; the fake PostNord validates
 * requests with the same schemas, so a request the real service refuses fails the tests too.
 */

/** Hosts of every PostNord API (booking swagger `host`, service points `servers`); the sandbox uses test data. */
export const postnordOrigins = { production: 'https://api2.postnord.com', sandbox: 'https://atapi2.postnord.com' } as const;

/** Documented paths, whole: each API's base path (`/rest/shipment`, `/rest/businesslocation`) included. */
export const postnordPaths = {
  /** Book an EDI instruction and answer with its labels; `format` is the label file format. */
  bookWithLabels: (format: 'pdf' | 'zpl') => `/rest/shipment/v3/edi/labels/${format}`,
  /** The same for Return Drop Off / Varubrev Return / Rek Return (their own endpoint, the same body). */
  bookReturnWithLabels: (format: 'pdf' | 'zpl') => `/rest/shipment/v3/returns/edi/labels/${format}`,
  /** Labels of items booked before, by item id (a lost answer's labels are fetched again from here). */
  labelsByIds: (format: 'pdf' | 'zpl') => `/rest/shipment/v3/labels/ids/${format}`,
  /** Health of the booking API; answers only a known apikey, books nothing. */
  bookingHealth: '/rest/shipment/v3/edi/labels/manage/health',
  nearestServicePointsByAddress: '/rest/businesslocation/v5/servicepoints/nearest/byaddress',
  /** Service points by id (comma separated), within one country. */
  servicePointsByIds: '/rest/businesslocation/v5/servicepoints/ids',
  /** One shipment or item id per call (10-35 letters and digits). */
  trackById: (id: string) => `/rest/shipment/v7/trackandtrace/id/${encodeURIComponent(id)}/public`,
  /** The consignor's reference (CU) together with the customer number finds the shipment. */
  trackByReference: (customerNumber: string, reference: string) =>
    `/rest/shipment/v7/trackandtrace/customernumber/${encodeURIComponent(customerNumber)}/reference/${encodeURIComponent(reference)}/public`,
} as const;

/** PostNord's public tracking page (the booking answer's TRACKING url has this shape). */
export const postnordTrackingPage = (itemId: string) => `https://tracking.postnord.com/se/?id=${encodeURIComponent(itemId)}`;

/** The credential: every PostNord API takes the 32-character `apikey` as a query parameter. */
export const apikeyParameter = 'apikey';

// ---------------------------------------------------------------------------------------------
// Codes (General descriptions: Services, Additional Services, Issuer Codes, Checks)
// ---------------------------------------------------------------------------------------------

/** The PostNord company that issued the customer number. */
export const issuerCodes = ['Z11', 'Z12', 'Z13', 'Z14', 'ZDL'] as const;
export type IssuerCode = (typeof issuerCodes)[number];
export const issuerCodeCountry: Record<Exclude<IssuerCode, 'ZDL'>, string> = { Z11: 'DK', Z12: 'SE', Z13: 'NO', Z14: 'FI' };

/** Digits of a customer number per issuer (guideline "Checks"): SE and FI 8 or 10, DK 9 (parcels), NO 7. */
export const customerNumberDigits: Record<Exclude<IssuerCode, 'ZDL'>, readonly number[]> = { Z11: [9, 8], Z12: [8, 10], Z13: [7], Z14: [8, 10] };

/** Basic service codes Shipdesk books. */
export const basicServiceCodes = {
  myPackHome: '17',
  parcel: '18',
  myPackCollect: '19',
  returnPickup: '20',
  returnDropOff: '24',
  pallet: '52',
  /** Postpaket Utrikes: PostNord's international postal parcel, carried under the UPU's rules (CN22/CN23). */
  postpaketUtrikes: '91',
} as const;

/** Additional service codes Shipdesk sends. */
export const additionalServiceCodes = {
  cashOnDelivery: 'A1',
  notificationByLetter: 'A2',
  notificationBySms: 'A3',
  notificationByEmail: 'A4',
  deliveryWithoutPod: 'A6',
  optionalServicePoint: 'A7',
  flexChange: 'C7',
  sameDay: 'F1',
} as const;

/** Party id qualifiers: 160 customer number, 167 VAT customer number, 156 service point id (delivery party), 229 geographic location. */
export const partyIdTypes = ['160', '167', '156', '229'] as const;

/** Reference qualifier of the consignor's own reference, searchable with the customer number in Track & Trace. */
export const consignorReferenceType = 'CU';

export const packageTypeCodes = ['PC', 'PE', 'AF', 'OA', 'OF', 'CW', 'BX', 'EN', 'PO'] as const;

// ---------------------------------------------------------------------------------------------
// Booking: POST /rest/shipment/v3/edi/labels/{pdf|zpl} (operationIds createEDILabelPDF / createEDILabelZPL)
// ---------------------------------------------------------------------------------------------

const text = (max: number) => z.string().min(1).max(max);
const countryCode = z.string().length(2);
const weight = z.object({ value: z.number().positive(), unit: z.enum(['KGM', 'GRM', 'TON']) });
const dimensionUnit = z.enum(['MTR', 'DTM', 'DMT', 'CMT']);
const dimension = z.object({ value: z.number().positive(), unit: dimensionUnit.optional() });
const reference = z.object({ referenceNo: text(35), referenceType: text(3), referenceDesc: z.string().max(50).optional() });
const partyIdentification = z.object({ partyId: text(17), partyIdType: z.enum(partyIdTypes) });

export const postnordAddressSchema = z.object({
  streets: z.array(z.string().min(1)).optional(),
  postalCode: z.string().min(1),
  placeName: text(60).optional(),
  state: text(35).optional(),
  city: text(35),
  countryCode,
});

export const postnordContactSchema = z.object({
  contactName: text(50).optional(),
  emailAddress: z.string().max(70).optional(),
  phoneNo: text(50).optional(),
  smsNo: text(50).optional(),
});

export const postnordPartySchema = z.object({
  nameIdentification: z.object({ name: text(60), companyName: text(60).optional(), careOfName: text(60).optional() }),
  address: postnordAddressSchema,
  contact: postnordContactSchema.optional(),
});

export const postnordItemSchema = z.object({
  itemIdentification: z.object({
    /** "0" asks PostNord to allocate the item id (the parcel's tracking number). */
    itemId: text(35),
    itemIdType: z.enum(['SSCC', 'S10', 'DPD', 'OTHER', 'CUSTOMER']).optional(),
  }),
  grossWeight: weight.optional(),
  dimensions: z.object({ height: dimension.optional(), width: dimension.optional(), length: dimension.optional() }).optional(),
  references: z.array(reference).optional(),
});

export const postnordGoodsItemSchema = z.object({
  packageTypeCode: z.enum(packageTypeCodes).optional(),
  numberOfPackageTypeCodeItems: z.object({ value: z.number().int().positive() }).optional(),
  goodsDescription: text(35).optional(),
  items: z.array(postnordItemSchema).min(1).max(200),
});

// Customs (booking swagger: customsInvoice, customsDeclarationCN22, customsDeclarationCN23 on the
// EDI instruction's shipment). An export from the EU is declared on one of them.
const amount = z.object({ amount: z.number(), currency: z.string().length(3) });
const count = z.object({ value: z.number().int().positive().max(999999) });
export const customsCategoryTypes = ['GIFT', 'DOCUMENT', 'RETURNED GOODS', 'COMMERCIAL SAMPLE', 'OTHER', 'SALE OF GOODS'] as const;
/** Procedure codes of `reasonForExportation`: permanent export (gifts, samples, sales), return, temporary export (repair). */
export const exportReasonCodes = ['1000', '1040', '2100', '2300', '3151', '3153', '3171'] as const;

const customsContacts = z.object({ name: text(60), phoneNo: text(50), emailAddress: z.string().max(70).optional() });
const customsParty = {
  partyIdentification: partyIdentification.optional(),
  vatNo: z.string().max(18).optional(),
  name: text(60),
  streets: z.array(z.string().min(1)),
  city: text(35),
  postalCode: z.string().min(1),
  countryCode,
  contacts: customsContacts,
  eoriNo: text(35).optional(),
};

export const postnordCustomsInvoiceSchema = z.object({
  declarationType: z
    .enum(['invoiceExportDeclaration', 'invoiceImportDeclaration', 'invoiceImportDeclarationCeov', 'exportDeclaration', 'importDeclaration'])
    .optional(),
  type: z.enum(['PROFORMA', 'COMMERCIAL']),
  seller: z.object({ ...customsParty, partyIdentification, vatNo: z.string().min(1).max(18) }),
  buyer: z.object(customsParty),
  invoice: z.object({
    invoiceNo: z.string().min(1),
    shippingDate: z.iso.date().optional(),
    reasonForExportation: z.enum(exportReasonCodes),
    termsOfSale: z.string().optional(),
  }),
  detailedDescription: z
    .array(
      z.object({
        quantity: z.number().int().positive(),
        hsTariffNumber: z.string().regex(/^\d{6,10}$/),
        content: z.string().min(1).max(1025),
        countryOfOrigin: countryCode,
        netWeight: weight,
        itemValue: amount,
        articleNumber: z.string().optional(),
      }),
    )
    .min(1),
  totalNetWeight: weight.optional(),
  totalGrossWeight: weight,
  totalNumberOfPackages: count.optional(),
  invoiceTotal: amount,
});
export type PostnordCustomsInvoice = z.infer<typeof postnordCustomsInvoiceSchema>;

const postalDeclaration = {
  declarationType: z.enum(['exportDeclaration', 'importDeclaration']).optional(),
  EORIorPersonalIdNumber: z.string().min(1).max(17).optional(),
  categoryOfItem: z.object({ categoryType: z.array(z.enum(customsCategoryTypes)), explanation: z.string().optional() }).optional(),
  detailedDescription: z
    .array(
      z.object({
        content: z.string().min(1).max(1025),
        quantity: count.optional(),
        grossWeight: weight.optional(),
        value: amount.optional(),
        hsTariffNumber: z.string().optional(),
        countryCode: countryCode.optional(),
      }),
    )
    .min(1),
  totalGrossWeight: weight.optional(),
  totalValue: amount,
};
export const postnordCn22Schema = z.object({ ...postalDeclaration, postalCharges: amount.optional() });
export const postnordCn23Schema = z.object({ ...postalDeclaration, postalCharges: amount, dateOfPosting: z.iso.date().optional() });
export type PostnordCn22 = z.infer<typeof postnordCn22Schema>;
export type PostnordCn23 = z.infer<typeof postnordCn23Schema>;

export const postnordShipmentSchema = z.object({
  shipmentIdentification: z.object({ shipmentId: text(35) }).optional(),
  dateAndTimes: z.object({ loadingDate: z.string().optional() }).optional(),
  service: z.object({ basicServiceCode: text(10), additionalServiceCode: z.array(z.string().min(1)).optional() }),
  numberOfPackages: z.object({ value: z.number().int().positive() }).optional(),
  totalGrossWeight: weight.optional(),
  references: z.array(reference).optional(),
  freeText: z.array(z.object({ usageCode: z.string().length(3), text: text(1000) })).optional(),
  parties: z.object({
    consignor: z.object({
      issuerCode: z.enum(issuerCodes),
      partyIdentification,
      party: postnordPartySchema,
      reference: reference.optional(),
    }),
    consignee: z
      .object({ issuerCode: z.enum(issuerCodes).optional(), partyIdentification: partyIdentification.optional(), party: postnordPartySchema })
      .optional(),
    /** The service point, when the parcel goes there (partyIdType 156 with the point's id, its delivery address). */
    deliveryParty: z.object({ partyIdentification: partyIdentification.optional(), party: postnordPartySchema }).optional(),
    returnParty: z.object({ party: postnordPartySchema }).optional(),
  }),
  goodsItem: z.array(postnordGoodsItemSchema).min(1).max(200),
  customsInvoice: postnordCustomsInvoiceSchema.optional(),
  customsDeclarationCN22: postnordCn22Schema.optional(),
  customsDeclarationCN23: postnordCn23Schema.optional(),
});

export const postnordEdiInstructionSchema = z.object({
  messageDate: z.iso.datetime({ offset: true }),
  messageFunction: z.enum(['Instruction', 'PickupBooking']).optional(),
  messageId: text(36).optional(),
  application: z.object({ applicationId: z.number().int().optional(), name: text(35), version: text(35).optional() }).optional(),
  language: z.string().length(2).optional(),
  updateIndicator: z.enum(['Original', 'Update', 'Deletion']),
  /** true: validated against the business rules only, a "Test" label, no EDI sent to PostNord. */
  testIndicator: z.boolean().optional(),
  shipment: z.array(postnordShipmentSchema).min(1).max(200),
});
export type PostnordEdiInstruction = z.infer<typeof postnordEdiInstructionSchema>;
export type PostnordShipment = z.infer<typeof postnordShipmentSchema>;
export type PostnordParty = z.infer<typeof postnordPartySchema>;

/** The query of a PDF booking; `paperSize` is the page the labels are laid on. */
export const pdfPaperSizes = ['A4', 'A5', 'A6', 'LETTER', 'LABEL'] as const;
export type PdfPaperSize = (typeof pdfPaperSizes)[number];
/** Label types: standard 190×105 mm, small 75×105 mm (not for every label; standard is then used). */
export const labelTypes = ['standard', 'small', 'ste'] as const;

const booleanQuery = z.enum(['true', 'false']);
export const postnordPdfQuerySchema = z.object({
  apikey: z.string().min(1),
  paperSize: z.enum(pdfPaperSizes).optional(),
  rotate: z.enum(['0', '90', '180', '270']).optional(),
  multiPDF: booleanQuery.optional(),
  labelType: z.enum(labelTypes).optional(),
  locale: z.enum(['sv', 'da', 'no', 'fi', 'en']).optional(),
});
export const postnordZplQuerySchema = z.object({
  apikey: z.string().min(1),
  multiZPL: booleanQuery.optional(),
  dpmm: z.enum(['8dpmm']).optional(),
  labelType: z.enum(labelTypes).optional(),
  labelLength: z.string().regex(/^\d+$/).optional(),
  locale: z.enum(['sv', 'da', 'no', 'fi', 'en']).optional(),
});

// Error bodies -------------------------------------------------------------------------------

export const postnordFaultSchema = z.object({
  faultCode: z.string().optional(),
  explanationText: z.string(),
  paramValues: z.array(z.object({ param: z.string().optional(), value: z.string().optional() })).optional(),
  faultReferences: z.array(z.object({ key: z.string(), value: z.string() })).optional(),
});
export type PostnordFault = z.infer<typeof postnordFaultSchema>;

/** PostNord's standard error body (`errorResponse`): a high level message and the faults behind it. */
export const postnordErrorResponseSchema = z.object({
  message: z.string(),
  compositeFault: z
    .object({ faults: z.array(postnordFaultSchema).optional() })
    .loose()
    .optional(),
});
export type PostnordErrorResponse = z.infer<typeof postnordErrorResponseSchema>;

/**
 * The API gateway's own refusal (an unknown key, or a key not subscribed to that API product); not in
 * the swagger files, seen from the live sandbox: `{"error": {"status_code": 403, "error_type": "Forbidden", "message": "Invalid API Key"}}`.
 */
export const postnordGatewayErrorSchema = z.object({
  error: z.object({ status_code: z.number().optional(), error_type: z.string().optional(), message: z.string().optional(), xrequestid: z.string().optional() }),
});
export type PostnordGatewayError = z.infer<typeof postnordGatewayErrorSchema>;

// Booking answer ---------------------------------------------------------------------------------

const referencesOut = z.object({ shipment: z.array(reference).optional(), item: z.array(reference).optional() }).optional();

export const postnordIdInformationSchema = z.object({
  status: z.string().optional(),
  references: referencesOut,
  /** idType itemId (one per parcel), shipmentId, returnId, …; printId reprints the label. */
  ids: z.array(z.object({ idType: z.string().optional(), value: z.string().optional(), printId: z.string().optional() })).nullish(),
  urls: z.array(z.object({ type: z.string().optional(), url: z.string().optional() })).nullish(),
  errorResponse: postnordErrorResponseSchema.nullish(),
});

export const postnordLabelPrintoutSchema = z.object({
  itemIds: z
    .array(
      z.object({
        itemIds: z.string().optional(),
        printId: z.string().optional(),
        basicServiceCode: z.string().optional(),
        status: z.string().optional(),
        errorResponse: postnordErrorResponseSchema.nullish(),
      }),
    )
    .nullish(),
  printout: z
    .object({
      id: z.string().optional(),
      type: z.string().optional(),
      labelFormat: z.string().optional(),
      encoding: z.string().optional(),
      uriResource: z.string().optional(),
      /** The label file, base64. */
      data: z.string().optional(),
    })
    .nullish(),
});
export type PostnordLabelPrintout = z.infer<typeof postnordLabelPrintoutSchema>;

export const postnordEdiLabelResponseSchema = z.object({
  bookingResponse: z
    .object({
      bookingId: z.string().optional(),
      idInformation: z.array(postnordIdInformationSchema).nullish(),
      handlingResponse: postnordErrorResponseSchema.nullish(),
    })
    .optional(),
  labelPrintout: z.array(postnordLabelPrintoutSchema).nullish(),
});
export type PostnordEdiLabelResponse = z.infer<typeof postnordEdiLabelResponseSchema>;

// Labels by ids: POST /rest/shipment/v3/labels/ids/{pdf|zpl} ---------------------------------------

export const postnordLabelsByIdsRequestSchema = z.array(z.object({ id: z.string().min(1).max(35), labelType: z.enum(labelTypes).optional() })).min(1);
export const postnordLabelsByIdsResponseSchema = z.array(postnordLabelPrintoutSchema);

// Health: GET /rest/shipment/v3/edi/labels/manage/health -------------------------------------------

export const postnordHealthSchema = z.object({ status: z.enum(['UP', 'FATAL', 'DOWN']), name: z.string().optional() });

// ---------------------------------------------------------------------------------------------
// Service points: GET /rest/businesslocation/v5/servicepoints/nearest/byaddress
// ---------------------------------------------------------------------------------------------

export const servicePointCountries = [
  'SE',
  'NO',
  'FI',
  'DK',
  'DE',
  'BE',
  'NL',
  'LU',
  'EE',
  'LV',
  'LT',
  'AT',
  'FR',
  'ES',
  'AX',
  'PL',
  'PT',
  'CZ',
  'IE',
  'SK',
  'SI',
] as const;

export const postnordNearestByAddressQuerySchema = z
  .object({
    apikey: z.string().min(1),
    returnType: z.enum(['json', 'xml']),
    countryCode: z.enum(servicePointCountries),
    agreementCountry: z.enum(['SE', 'NO', 'DK', 'FI']).optional(),
    /** One of postalCode and city is mandatory. */
    postalCode: z.string().min(1).optional(),
    city: z.string().min(1).optional(),
    streetName: z.string().min(1).optional(),
    streetNumber: z.string().min(1).optional(),
    numberOfServicePoints: z.string().regex(/^\d+$/).optional(),
    srId: z.string().optional(),
    context: z.string().optional(),
    responseFilter: z.enum(['public', 'internal']).optional(),
    typeId: z.string().optional(),
  })
  .refine((query) => query.postalCode !== undefined || query.city !== undefined, { message: 'postalCode or city is mandatory', path: ['postalCode'] });

export const postnordServicePointsByIdsQuerySchema = z.object({
  apikey: z.string().min(1),
  returnType: z.enum(['json', 'xml']),
  countryCode: z.enum(servicePointCountries),
  ids: z.string().regex(/^[^,]+(,[^,]+)*$/),
  responseFilter: z.enum(['public', 'internal']).optional(),
});

const servicePointAddress = z.object({
  countryCode: z.string().optional(),
  city: z.string().optional(),
  streetName: z.string().optional(),
  streetNumber: z.string().optional(),
  postalCode: z.string().optional(),
  addressType: z.string().optional(),
});

export const weekdays = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] as const;

export const postnordServicePointSchema = z.object({
  /** Unique only together with the country code (service points v5 description). */
  servicePointId: z.string(),
  name: z.string().optional(),
  routeDistance: z.number().optional(),
  visitingAddress: servicePointAddress.optional(),
  /** The address to put in the EDI and on the label. */
  deliveryAddress: servicePointAddress.optional(),
  /** WGS 84; `northing` is the latitude and `easting` the longitude (the swagger's descriptions have them swapped, its examples do not). */
  coordinates: z.array(z.object({ countryCode: z.string().optional(), northing: z.number(), easting: z.number(), srId: z.string() })).optional(),
  openingHours: z
    .object({
      postalServices: z
        .array(z.object({ openDay: z.string().optional(), openTime: z.string().optional(), closeDay: z.string().optional(), closeTime: z.string().optional() }))
        .optional(),
    })
    .optional(),
  type: z.object({ typeId: z.number().optional(), typeName: z.string().optional() }).optional(),
});
export type PostnordServicePoint = z.infer<typeof postnordServicePointSchema>;

export const postnordServicePointsResponseSchema = z.object({
  servicePointInformationResponse: z.object({
    servicePoints: z.array(postnordServicePointSchema).optional(),
    compositeFault: z
      .object({ faults: z.array(postnordFaultSchema).optional() })
      .loose()
      .optional(),
  }),
});

// ---------------------------------------------------------------------------------------------
// Track & Trace v7: findByIdentifier and findByReference (the same answer)
// ---------------------------------------------------------------------------------------------

/** Item and shipment statuses of Track & Trace v7 (`ItemStatus`; shipments also have SPLIT). */
export const trackingStatuses = [
  'CREATED',
  'AVAILABLE_FOR_DELIVERY',
  'AVAILABLE_FOR_DELIVERY_PAR_LOC',
  'DELAYED',
  'DELIVERED',
  'DELIVERY_IMPOSSIBLE',
  'DELIVERY_REFUSED',
  'EXPECTED_DELAY',
  'INFORMED',
  'EN_ROUTE',
  'OTHER',
  'RETURNED',
  'STOPPED',
  'SPLIT',
] as const;
export type PostnordTrackingStatus = (typeof trackingStatuses)[number];

export const trackingLocales = ['en', 'sv', 'no', 'da', 'fi'] as const;

/** Valid characters of a tracked id: A-Z, a-z, 0-9, 10-35 of them. */
export const trackableId = /^[A-Za-z0-9]{10,35}$/;

export const postnordTrackingEventSchema = z.object({
  eventTime: z.string(),
  eventCode: z.string(),
  status: z.string().optional(),
  eventDescription: z.string().optional(),
  location: z
    .object({
      locationId: z.string().optional(),
      name: z.string().optional(),
      displayName: z.string().optional(),
      city: z.string().optional(),
      postcode: z.string().optional(),
      countryCode: z.string().optional(),
      locationType: z.string().optional(),
    })
    .optional(),
});
export type PostnordTrackingEvent = z.infer<typeof postnordTrackingEventSchema>;

export const postnordTrackedItemSchema = z.object({
  itemId: z.string(),
  status: z.enum(trackingStatuses).optional(),
  eventStatus: z.string().optional(),
  deliveryDate: z.string().optional(),
  events: z.array(postnordTrackingEventSchema).optional(),
  references: z.array(z.object({ value: z.string(), type: z.string(), name: z.string().optional() })).optional(),
});

export const postnordTrackedShipmentSchema = z.object({
  shipmentId: z.string(),
  uri: z.string().optional(),
  customerNumber: z.string().optional(),
  status: z.enum(trackingStatuses).optional(),
  service: z.object({ code: z.string(), name: z.string().optional() }).loose().optional(),
  shipmentReferences: z.array(z.object({ value: z.string(), type: z.string(), name: z.string().optional() })).optional(),
  items: z.array(postnordTrackedItemSchema).optional(),
});
export type PostnordTrackedShipment = z.infer<typeof postnordTrackedShipmentSchema>;

export const postnordTrackingResponseSchema = z.object({
  TrackingInformationResponse: z.object({
    shipments: z.array(postnordTrackedShipmentSchema).optional(),
    compositeFault: z
      .object({ faults: z.array(postnordFaultSchema).optional() })
      .loose()
      .optional(),
  }),
});
export type PostnordTrackingResponse = z.infer<typeof postnordTrackingResponseSchema>;
