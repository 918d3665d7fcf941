import { z } from 'zod';
import { countryCode, requiredText, text, timestamp, wholeNumberParam } from './common';
import { senderAddressSchema } from './senderAddress';

export const labelSizes = ['A4', 'A6', '100X150', '100X192'] as const;
export type LabelSize = (typeof labelSizes)[number];
export const documentFormats = ['pdf', 'zpl'] as const;
export type DocumentFormat = (typeof documentFormats)[number];

/** How a config field is entered and checked; `password` values are sealed at rest and masked in reads. */
export const carrierFieldTypes = ['string', 'password', 'select', 'boolean', 'number'] as const;
export type CarrierFieldType = (typeof carrierFieldTypes)[number];

export const carrierFieldSchema = z.strictObject({
  name: z.string(),
  key: z.string(),
  type: z.enum(carrierFieldTypes),
  description: z.string(),
  options: z.array(z.strictObject({ name: z.string(), key: z.string(), value: z.string() })),
  required: z.boolean(),
});
export type CarrierField = z.infer<typeof carrierFieldSchema>;

export const availableCarrierSchema = z.strictObject({
  name: z.string(),
  slug: z.string(),
  group: z.string(),
  description: z.string(),
  logo: z.string(),
  learnMoreUrl: z.string(),
  requiredFields: z.array(carrierFieldSchema),
  optionalFields: z.array(carrierFieldSchema),
});
export type AvailableCarrier = z.infer<typeof availableCarrierSchema>;

export const carrierConfigSchema = z.record(
  z.string(),
  z.union([z.string().max(1000), z.number(), z.boolean()], { error: 'Must be text, a number or true/false' }),
);

export const carrierSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  carrierSlug: z.string(),
  config: z.record(z.string(), z.unknown()),
  senderAddressId: z.string(),
  orgId: z.string(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
  senderAddress: senderAddressSchema,
});
export type Carrier = z.infer<typeof carrierSchema>;

export const carrierCreateBody = z.strictObject({
  name: requiredText(),
  carrierSlug: z.string().min(1).max(100),
  config: carrierConfigSchema.default({}),
  senderAddressId: z.string().min(1).max(64),
});
export type CarrierInput = z.output<typeof carrierCreateBody>;

/** PUT updates the fields it is given; a new `config` replaces the old one whole. */
export const carrierUpdateBody = z.strictObject({
  name: requiredText().optional(),
  config: carrierConfigSchema.optional(),
  senderAddressId: z.string().min(1).max(64).optional(),
});
export type CarrierUpdate = z.output<typeof carrierUpdateBody>;

export const carrierProductSchema = z.strictObject({
  productId: z.string(),
  name: z.string(),
  type: z.enum(['outbound', 'inbound']),
  description: z.string(),
  services: z.array(z.strictObject({ serviceId: z.string(), name: z.string() })),
  labelSizes: z.array(z.enum(labelSizes)),
  /** Whether it delivers to a service point (decisions §13). */
  servicePoint: z.enum(['required', 'optional', 'none']),
  /**
   * A postal product (letters and small parcels carried under the UPU's rules, issue 21): an export
   * with it gets a CN22 or CN23 made here. Left out for every other product.
   */
  postal: z.boolean().optional(),
});
export type CarrierProduct = z.infer<typeof carrierProductSchema>;

/** decisions §13: POST /carriers/{carrierId}/test. */
export const carrierTestResultSchema = z.strictObject({ ok: z.boolean(), message: z.string(), durationMs: z.number() });
export type CarrierTestResult = z.infer<typeof carrierTestResultSchema>;

/** A select field's choices read from the carrier with the config as typed (Karrio's connections). */
export const carrierFieldOptionsBody = z.strictObject({
  config: carrierConfigSchema.default({}),
  field: z.string().min(1).max(100),
});
export const carrierFieldOptionsSchema = z.strictObject({ options: z.array(z.strictObject({ name: z.string(), value: z.string() })) });
export type CarrierFieldOptions = z.infer<typeof carrierFieldOptionsSchema>;

export const openingHoursSchema = z.strictObject({
  /** ISO weekday name in English, lower case: monday … sunday. */
  day: z.string(),
  /** Local time HH:MM. */
  open: z.string(),
  close: z.string(),
});

export const servicePointSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  address1: z.string(),
  postalCode: z.string(),
  city: z.string(),
  countryCode: z.string(),
  distanceMeters: z.number().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  openingHours: z.array(openingHoursSchema),
});
export type ServicePoint = z.infer<typeof servicePointSchema>;

/** decisions §13: GET /carriers/{carrierId}/service-points; the address narrows the carrier's search to the nearest. */
export const servicePointQuerySchema = z.strictObject({
  countryCode: countryCode(),
  postalCode: z.string().trim().min(1).max(20),
  address1: text().optional(),
  city: text().optional(),
  limit: wholeNumberParam(1, 50).default(10),
});
export type ServicePointQueryInput = z.output<typeof servicePointQuerySchema>;

export const servicePointListSchema = z.strictObject({ data: z.array(servicePointSchema) });
export type ServicePointList = z.infer<typeof servicePointListSchema>;
