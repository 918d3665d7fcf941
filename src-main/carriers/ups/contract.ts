import { z } from 'zod';

/**
 * Our own schemas of what Shipdesk sends to UPS and reads back, written from UPS's published OpenAPI
 * files (Shipping, Tracking, Pickup, Paperless, OAuth Client Credentials). Request schemas are strict
 * and hold the contract's lengths and enums for the fields we send, so the fake refuses what UPS would;
 * response schemas keep what we read and let the rest through. UPS writes every number as a string.
 */

/** Documented origins (the Customer Integration Environment is UPS's test system). */
export const upsOrigins = { production: 'https://onlinetools.ups.com', sandbox: 'https://wwwcie.ups.com' } as const;

/** The versions in the paths are the ones the contract lists as valid today. */
export const SHIP_VERSION = 'v2409';
export const PAPERLESS_VERSION = 'v2';
export const PICKUP_VERSION = 'v2409';

export const upsPaths = {
  token: '/security/v1/oauth/token',
  ship: `/api/shipments/${SHIP_VERSION}/ship`,
  void: (shipmentId: string) => `/api/shipments/${SHIP_VERSION}/void/cancel/${encodeURIComponent(shipmentId)}`,
  /** v1: labels only (the later versions add forms and Roadie shipments, which we do not read). */
  labelRecovery: '/api/labels/v1/recovery',
  track: (inquiryNumber: string) => `/api/track/v1/details/${encodeURIComponent(inquiryNumber)}`,
  paperlessUpload: `/api/paperlessdocuments/${PAPERLESS_VERSION}/upload`,
  pickupCreate: `/api/pickupcreation/${PICKUP_VERSION}/pickup`,
  /** CancelBy 02: by the pickup request number, sent in the `Prn` header. */
  pickupCancelByPrn: `/api/shipments/${PICKUP_VERSION}/pickup/02`,
} as const;

// ---------------------------------------------------------------- OAuth client credentials

export const tokenRequestSchema = z.strictObject({ grant_type: z.literal('client_credentials') });

/** `expires_in` is a string of seconds in the contract. */
export const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.coerce.number().positive(),
});

/** Every UPS API's error body: `{response: {errors: [{code, message}]}}`. */
export const errorResponseSchema = z.object({
  response: z.object({ errors: z.array(z.object({ code: z.string().optional(), message: z.string().optional() })).default([]) }),
});

// ---------------------------------------------------------------- Shipping: ship

const text = (max: number, min = 1) => z.string().min(min).max(max);
const digits = (max: number) => z.string().regex(new RegExp(`^\\d{1,${max}}$`));
/** A decimal written as a string, as UPS writes weights and values. */
const decimal = (maxLength: number) =>
  z
    .string()
    .max(maxLength)
    .regex(/^\d+(\.\d+)?$/);
const country = z.string().regex(/^[A-Z]{2}$/);
const yyyymmdd = z.string().regex(/^\d{8}$/);

export const upsAddressSchema = z.strictObject({
  AddressLine: z.array(text(35)).min(1).max(3),
  City: text(30),
  StateProvinceCode: text(5).optional(),
  PostalCode: text(9).optional(),
  CountryCode: country,
  ResidentialAddressIndicator: z.string().optional(),
});
export type UpsAddress = z.infer<typeof upsAddressSchema>;

const phoneSchema = z.strictObject({ Number: text(15), Extension: text(4).optional() });

export const upsShipperSchema = z.strictObject({
  Name: text(35),
  AttentionName: text(35).optional(),
  TaxIdentificationNumber: text(15).optional(),
  Phone: phoneSchema.optional(),
  ShipperNumber: z.string().length(6),
  EMailAddress: text(50).optional(),
  Address: upsAddressSchema,
});

export const upsShipToSchema = z.strictObject({
  Name: text(35),
  AttentionName: text(35).optional(),
  Phone: phoneSchema.optional(),
  EMailAddress: text(50).optional(),
  Address: upsAddressSchema,
});
export type UpsParty = z.infer<typeof upsShipToSchema>;

export const shipmentChargeTypes = ['01', '02', '03'] as const;
const shipmentChargeSchema = z.strictObject({
  Type: z.enum(shipmentChargeTypes),
  BillShipper: z.strictObject({ AccountNumber: z.string().length(6) }).optional(),
  BillReceiver: z.strictObject({ AccountNumber: z.string().length(6).optional() }).optional(),
});

export const upsPackagingCodes = ['01', '02', '03', '04', '21', '24', '25', '30', '2a', '2b', '2c'] as const;
export const upsWeightUnits = ['KGS', 'LBS', 'OZS'] as const;

export const upsPackageSchema = z.strictObject({
  Description: text(35).optional(),
  Packaging: z.strictObject({ Code: z.enum(upsPackagingCodes), Description: text(35).optional() }),
  Dimensions: z
    .strictObject({
      UnitOfMeasurement: z.strictObject({ Code: z.enum(['CM', 'IN']), Description: text(35).optional() }),
      Length: digits(3),
      Width: digits(3),
      Height: digits(3),
    })
    .optional(),
  PackageWeight: z.strictObject({
    UnitOfMeasurement: z.strictObject({ Code: z.enum(upsWeightUnits), Description: text(35).optional() }),
    Weight: decimal(5),
  }),
  ReferenceNumber: z
    .array(z.strictObject({ Code: text(2).optional(), Value: text(35) }))
    .max(5)
    .optional(),
});

/** ReasonForExport: the contract's values, "any other reason" being free text up to 20 characters. */
export const upsExportReasons = ['SALE', 'GIFT', 'SAMPLE', 'RETURN', 'REPAIR', 'INTERCOMPANYDATA'] as const;
/** The Incoterms the contract lists for TermsOfShipment. */
export const upsTermsOfShipment = ['CFR', 'CIF', 'CIP', 'CPT', 'DAF', 'DDP', 'DAP', 'DEQ', 'DES', 'EXW', 'FAS', 'FCA', 'FOB'] as const;
/** 01 Invoice, 03 CO, 04 USMCA, 05 Partial Invoice, 06 Packinglist, 07 Customer Generated Forms, 08, 09 CN22, 10, 11 EEI. */
export const upsFormTypes = ['01', '03', '04', '05', '06', '07', '08', '09', '10', '11'] as const;
/** The contract allows 50 products in the InternationalForms container. */
export const MAX_FORM_PRODUCTS = 50;

export const upsProductSchema = z.strictObject({
  Description: z.array(text(35)).min(1).max(3),
  Unit: z
    .strictObject({
      Number: digits(7),
      UnitOfMeasurement: z.strictObject({ Code: text(3), Description: text(3).optional() }),
      Value: z
        .string()
        .max(19)
        .regex(/^\d+(\.\d{1,6})?$/),
    })
    .optional(),
  CommodityCode: z
    .string()
    .min(6)
    .max(15)
    .regex(/^[A-Za-z0-9]+$/)
    .optional(),
  PartNumber: text(35).optional(),
  OriginCountryCode: country.optional(),
  ProductWeight: z
    .strictObject({
      UnitOfMeasurement: z.strictObject({ Code: z.enum(['KGS', 'LBS']), Description: text(20).optional() }),
      Weight: z
        .string()
        .max(5)
        .regex(/^\d+(\.\d)?$/),
    })
    .optional(),
});
export type UpsProduct = z.infer<typeof upsProductSchema>;

export const upsInternationalFormsSchema = z.strictObject({
  FormType: z.array(z.enum(upsFormTypes)).min(1).max(6),
  UserCreatedForm: z.strictObject({ DocumentID: z.array(z.string().length(26)).min(1).max(13) }).optional(),
  Product: z.array(upsProductSchema).min(1).max(MAX_FORM_PRODUCTS),
  InvoiceNumber: text(35).optional(),
  InvoiceDate: yyyymmdd.optional(),
  PurchaseOrderNumber: text(35).optional(),
  TermsOfShipment: z.enum(upsTermsOfShipment).optional(),
  ReasonForExport: text(20).optional(),
  CurrencyCode: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
  Comments: text(150).optional(),
});
export type UpsInternationalForms = z.infer<typeof upsInternationalFormsSchema>;

const taxIdSchema = z.strictObject({
  IdentificationNumber: text(35),
  IDNumberTypeCode: z.enum(['0000', '0001', '0002', '0005', '1001', '1002', '1003', '1004', '1005', '1006']),
  IDNumberPurposeCode: z.enum(['00', '01', '02', '99']),
  IDNumberCustomerRole: z.enum(['05', '06', '18', '37']),
  IDNumberEncryptionIndicator: z.enum(['0', '1']),
  IDNumberIssuingCntryCd: country.optional(),
});

export const upsGlobalTaxInformationSchema = z.strictObject({
  AgentTaxIdentificationNumber: z
    .array(z.strictObject({ AgentRole: z.enum(['20', '30']), TaxIdentificationNumber: z.array(taxIdSchema).min(1).max(8) }))
    .min(1)
    .max(4),
});

export const upsShipmentSchema = z.strictObject({
  Description: text(50).optional(),
  Shipper: upsShipperSchema,
  ShipTo: upsShipToSchema,
  ShipFrom: upsShipToSchema.optional(),
  PaymentInformation: z.strictObject({ ShipmentCharge: z.array(shipmentChargeSchema).min(1).max(3) }),
  GlobalTaxInformation: upsGlobalTaxInformationSchema.optional(),
  ReferenceNumber: z
    .array(z.strictObject({ Code: text(2, 2).optional(), Value: text(35) }))
    .max(2)
    .optional(),
  Service: z.strictObject({ Code: z.string().length(2), Description: text(35).optional() }),
  ShipmentServiceOptions: z
    .strictObject({
      InternationalForms: upsInternationalFormsSchema.optional(),
      /** Quantum View notices; 6 is the ship notification, 8 the delivery notification. */
      Notification: z
        .array(
          z.strictObject({
            NotificationCode: z.enum(['2', '5', '6', '7', '8']),
            EMail: z.strictObject({ EMailAddress: z.array(z.email().max(50)).min(1).max(5) }),
          }),
        )
        .optional(),
    })
    .optional(),
  /** The contract allows 200 packages a shipment. */
  Package: z.array(upsPackageSchema).min(1).max(200),
});
export type UpsShipment = z.infer<typeof upsShipmentSchema>;

export const upsLabelImageFormats = ['GIF', 'ZPL', 'EPL', 'SPL'] as const;

export const shipmentRequestSchema = z.strictObject({
  ShipmentRequest: z.strictObject({
    Request: z.strictObject({
      RequestOption: z.enum(['nonvalidate', 'validate']),
      SubVersion: z.string().length(4).optional(),
      TransactionReference: z.strictObject({ CustomerContext: text(512) }).optional(),
    }),
    Shipment: upsShipmentSchema,
    LabelSpecification: z.strictObject({
      LabelImageFormat: z.strictObject({ Code: z.enum(upsLabelImageFormats), Description: text(35).optional() }),
      HTTPUserAgent: text(64).optional(),
      /** 4 × 6 or 4 × 8 inches: the only stock the contract names for thermal labels. */
      LabelStockSize: z.strictObject({ Height: z.enum(['6', '8']), Width: z.literal('4') }),
    }),
  }),
});
export type UpsShipmentRequest = z.infer<typeof shipmentRequestSchema>;

/** One object or an array, as UPS answered before v2403; read as an array either way. */
const listOf = <T extends z.ZodType>(item: T) => z.union([z.array(item), item.transform((one) => [one])]);

export const packageResultSchema = z.object({
  TrackingNumber: z.string(),
  ShippingLabel: z.object({ ImageFormat: z.object({ Code: z.string() }), GraphicImage: z.string() }).optional(),
});

export const shipmentResponseSchema = z.object({
  ShipmentResponse: z.object({
    Response: z.object({ ResponseStatus: z.object({ Code: z.string(), Description: z.string().optional() }) }),
    ShipmentResults: z.object({
      ShipmentIdentificationNumber: z.string(),
      PackageResults: listOf(packageResultSchema),
    }),
  }),
});

// ---------------------------------------------------------------- Shipping: void

export const voidResponseSchema = z.object({
  VoidShipmentResponse: z.object({
    SummaryResult: z.object({ Status: z.object({ Code: z.string(), Description: z.string().optional() }) }),
  }),
});

// ---------------------------------------------------------------- Shipping: label recovery

/**
 * Label Recovery by the shipment's reference and the shipper number (or by a tracking number). The
 * contract marks `TrackingNumbers` and `ReferenceValues` required while describing both as needed only
 * for Roadie shipments; its field descriptions win: one of TrackingNumber or ReferenceValues.
 */
export const labelRecoveryRequestSchema = z
  .strictObject({
    LabelRecoveryRequest: z.strictObject({
      Request: z.strictObject({
        SubVersion: z.string().length(4).optional(),
        TransactionReference: z.strictObject({ CustomerContext: text(512, 5) }).optional(),
      }),
      LabelSpecification: z.strictObject({
        LabelImageFormat: z.strictObject({ Code: z.enum(['GIF', 'PDF', 'ZPL', 'EPL', 'SPL']) }),
        HTTPUserAgent: text(64).optional(),
        LabelStockSize: z.strictObject({ Height: z.enum(['6', '8']), Width: z.literal('4') }).optional(),
      }),
      TrackingNumber: text(18).optional(),
      ReferenceValues: z.strictObject({ ReferenceNumber: z.strictObject({ Value: text(35) }), ShipperNumber: z.string().length(6) }).optional(),
    }),
  })
  .refine((body) => body.LabelRecoveryRequest.TrackingNumber !== undefined || body.LabelRecoveryRequest.ReferenceValues !== undefined, {
    message: 'TrackingNumber or ReferenceValues is required',
    path: ['LabelRecoveryRequest', 'TrackingNumber'],
  });
export type UpsLabelRecoveryRequest = z.infer<typeof labelRecoveryRequestSchema>;

export const labelRecoveryResponseSchema = z.object({
  LabelRecoveryResponse: z.object({
    ShipmentIdentificationNumber: z.string().optional(),
    LabelResults: listOf(
      z.object({
        TrackingNumber: z.string(),
        LabelImage: z.object({ LabelImageFormat: z.object({ Code: z.string() }), GraphicImage: z.string() }).optional(),
      }),
    ).default([]),
    /** Several shipments carry the reference: UPS lists them instead of a label. */
    TrackingCandidate: listOf(z.object({ TrackingNumber: z.string().optional() })).optional(),
  }),
});

// ---------------------------------------------------------------- Paperless: upload

/** The document types the contract lists; 002 is the commercial invoice. */
export const upsPaperlessDocumentTypes = ['001', '002', '003', '004', '005', '006', '007', '008', '009', '010', '011', '012', '013'] as const;
export const upsPaperlessFileFormats = ['bmp', 'doc', 'gif', 'jpg', 'pdf', 'png', 'rtf', 'tif', 'txt', 'xls', 'docx', 'xlsx'] as const;

export const paperlessUploadRequestSchema = z.strictObject({
  UploadRequest: z.strictObject({
    Request: z.strictObject({ TransactionReference: z.strictObject({ CustomerContext: text(512) }).optional() }),
    ShipperNumber: z.string().length(6),
    UserCreatedForm: z
      .array(
        z.strictObject({
          UserCreatedFormFileName: text(300),
          UserCreatedFormFile: z.string().min(1),
          UserCreatedFormFileFormat: z.enum(upsPaperlessFileFormats),
          UserCreatedFormDocumentType: z.enum(upsPaperlessDocumentTypes),
        }),
      )
      .min(1)
      .max(13),
  }),
});
export type UpsPaperlessUploadRequest = z.infer<typeof paperlessUploadRequestSchema>;

export const paperlessUploadResponseSchema = z.object({
  UploadResponse: z.object({ FormsHistoryDocumentID: z.object({ DocumentID: listOf(z.string()) }) }),
});

// ---------------------------------------------------------------- Pickup: create, cancel

export const pickupCreationRequestSchema = z.strictObject({
  PickupCreationRequest: z.strictObject({
    Request: z.strictObject({ TransactionReference: z.strictObject({ CustomerContext: text(512) }).optional() }),
    RatePickupIndicator: z.enum(['Y', 'N']),
    Shipper: z.strictObject({ Account: z.strictObject({ AccountNumber: text(10, 6), AccountCountryCode: country }) }).optional(),
    PickupDateInfo: z.strictObject({
      /** HHmm; the contract's length limits on PickupDate contradict its own yyyyMMdd format, which wins. */
      CloseTime: z.string().regex(/^([01]\d|2[0-3])[0-5]\d$/),
      ReadyTime: z.string().regex(/^([01]\d|2[0-3])[0-5]\d$/),
      PickupDate: yyyymmdd,
    }),
    PickupAddress: z.strictObject({
      CompanyName: text(27),
      ContactName: text(22),
      AddressLine: z.array(text(73)).min(1).max(1),
      City: text(50),
      StateProvince: text(50).optional(),
      PostalCode: text(8).optional(),
      CountryCode: country,
      ResidentialIndicator: z.enum(['Y', 'N']),
      PickupPoint: text(11).optional(),
      Phone: z.strictObject({ Number: text(25), Extension: text(10).optional() }),
    }),
    AlternateAddressIndicator: z.enum(['Y', 'N']),
    PickupPiece: z
      .array(
        z.strictObject({
          ServiceCode: z.string().regex(/^[0-9A-Z]{3}$/),
          Quantity: digits(3),
          DestinationCountryCode: country,
          ContainerCode: z.enum(['01', '02', '03']),
        }),
      )
      .min(1),
    /** One decimal, e.g. "10.9" (the contract's minLength 6 contradicts its own example). */
    TotalWeight: z.strictObject({ Weight: z.string().regex(/^\d{1,5}(\.\d)?$/), UnitOfMeasurement: z.enum(['KGS', 'LBS']) }).optional(),
    OverweightIndicator: z.enum(['Y', 'N']).optional(),
    PaymentMethod: z.enum(['00', '01', '03', '04', '05', '06', '07']),
    SpecialInstruction: text(57).optional(),
    ReferenceNumber: text(35).optional(),
  }),
});
export type UpsPickupCreationRequest = z.infer<typeof pickupCreationRequestSchema>;

export const pickupCreationResponseSchema = z.object({ PickupCreationResponse: z.object({ PRN: z.string().min(1) }) });

export const pickupCancelResponseSchema = z.object({
  PickupCancelResponse: z.object({ Response: z.object({ ResponseStatus: z.object({ Code: z.string() }) }) }),
});

// ---------------------------------------------------------------- Tracking

export const trackActivitySchema = z.object({
  date: z.string().optional(),
  time: z.string().optional(),
  gmtDate: z.string().optional(),
  gmtTime: z.string().optional(),
  gmtOffset: z.string().optional(),
  location: z
    .object({
      address: z.object({ city: z.string().optional(), postalCode: z.string().optional(), countryCode: z.string().optional() }).optional(),
    })
    .optional(),
  status: z
    .object({ type: z.string().optional(), code: z.string().optional(), description: z.string().optional(), statusCode: z.string().optional() })
    .optional(),
});
export type UpsTrackActivity = z.infer<typeof trackActivitySchema>;

export const trackPackageSchema = z.object({
  trackingNumber: z.string().optional(),
  currentStatus: z.object({ type: z.string().optional(), code: z.string().optional(), description: z.string().optional() }).optional(),
  activity: z.array(trackActivitySchema).default([]),
});
export type UpsTrackPackage = z.infer<typeof trackPackageSchema>;

export const trackResponseSchema = z.object({
  trackResponse: z.object({
    shipment: z
      .array(
        z.object({
          inquiryNumber: z.string().optional(),
          package: z.array(trackPackageSchema).default([]),
          warnings: z.array(z.object({ code: z.string().optional(), message: z.string().optional() })).optional(),
        }),
      )
      .default([]),
  }),
});
