/**
 * What Shipdesk sends to and reads from a Karrio server, written from Karrio's OpenAPI 3 document
 * (`schemas/openapi.yml` of karrioapi/karrio, API version 2026.1.x). Only the fields we use are
 * named; responses are loose objects so the fields we do not read can come and go between versions.
 * The fake server checks requests with the same schemas, so a request Karrio would refuse fails a test.
 */
import { z } from 'zod';

/** `Authorization: Token <key>` (the OpenAPI's `Token` security scheme). */
export const karrioAuthHeader = (apiKey: string): string => `Token ${apiKey}`;

export const karrioPaths = {
  connections: '/v1/connections',
  connection: (id: string) => `/v1/connections/${encodeURIComponent(id)}`,
  services: (carrierName: string) => `/v1/carriers/${encodeURIComponent(carrierName)}/services`,
  options: (carrierName: string) => `/v1/carriers/${encodeURIComponent(carrierName)}/options`,
  shipments: '/v1/shipments',
  shipment: (id: string) => `/v1/shipments/${encodeURIComponent(id)}`,
  manifests: '/v1/manifests',
  manifestDocument: (id: string) => `/v1/manifests/${encodeURIComponent(id)}/document`,
  shipmentCancel: (id: string) => `/v1/shipments/${encodeURIComponent(id)}/cancel`,
  shipmentDocument: (id: string, doc: 'label' | 'invoice') => `/v1/shipments/${encodeURIComponent(id)}/documents/${doc}`,
  tracker: (carrierName: string, trackingNumber: string) => `/v1/trackers/${encodeURIComponent(carrierName)}/${encodeURIComponent(trackingNumber)}`,
  pickups: '/v1/pickups',
  pickupCancel: (id: string) => `/v1/pickups/${encodeURIComponent(id)}/cancel`,
} as const;

// ---- errors: ErrorResponse (400, 401, 404, 409, 429, 500) and ErrorMessages (424, the carrier's own words)

export const karrioApiErrorSchema = z.looseObject({
  code: z.string().nullish(),
  message: z.string().nullish(),
  level: z.string().nullish(),
  details: z.unknown().optional(),
});
export const karrioErrorResponseSchema = z.looseObject({ errors: z.array(karrioApiErrorSchema) });
export type KarrioErrorResponse = z.infer<typeof karrioErrorResponseSchema>;

export const karrioMessageSchema = karrioApiErrorSchema.extend({
  carrier_name: z.string().nullish(),
  carrier_id: z.string().nullish(),
});
export const karrioErrorMessagesSchema = z.looseObject({ messages: z.array(karrioMessageSchema) });
export type KarrioErrorMessages = z.infer<typeof karrioErrorMessagesSchema>;

// ---- connections

export const karrioConnectionSchema = z.looseObject({
  id: z.string(),
  carrier_name: z.string(),
  carrier_id: z.string(),
  display_name: z.string().nullish(),
  capabilities: z.array(z.string()).nullish(),
  is_system: z.boolean(),
  active: z.boolean(),
  test_mode: z.boolean(),
});
export type KarrioConnection = z.infer<typeof karrioConnectionSchema>;

export const karrioConnectionListSchema = z.looseObject({
  count: z.number().int().nullish(),
  next: z.string().nullish(),
  previous: z.string().nullish(),
  results: z.array(karrioConnectionSchema),
});

// ---- carrier references: services are `{service_name: carrier_code}`, options `{option_name: {code, type}}`

export const karrioServicesSchema = z.record(z.string(), z.unknown());
export const karrioOptionSchema = z.looseObject({ code: z.string().optional(), type: z.string().optional() });
export const karrioOptionsSchema = z.record(z.string(), z.unknown());

// ---- shipment request (ShipmentData, AddressData, ParcelData)

const text = (max: number) => z.string().max(max);

export const karrioAddressDataSchema = z.strictObject({
  person_name: text(100).nullish(),
  company_name: text(100).nullish(),
  address_line1: text(100).nullish(),
  address_line2: text(100).nullish(),
  postal_code: text(20).nullish(),
  city: text(50).nullish(),
  state_code: text(50).nullish(),
  // The OpenAPI lists the ISO 3166-1 alpha-2 codes.
  country_code: z.string().regex(/^[A-Z]{2}$/),
  phone_number: text(50).nullish(),
  email: z.string().nullish(),
  residential: z.boolean().nullish(),
});
export type KarrioAddressData = z.infer<typeof karrioAddressDataSchema>;

export const karrioWeightUnits = ['KG', 'LB', 'OZ', 'G'] as const;
export const karrioDimensionUnits = ['CM', 'IN'] as const;
export const karrioLabelTypes = ['PDF', 'ZPL', 'PNG'] as const;

export const karrioParcelDataSchema = z.strictObject({
  weight: z.number().positive(),
  weight_unit: z.enum(karrioWeightUnits),
  length: z.number().nullish(),
  width: z.number().nullish(),
  height: z.number().nullish(),
  dimension_unit: z.enum(karrioDimensionUnits).nullish(),
  packaging_type: text(100).nullish(),
  reference_number: text(100).nullish(),
  description: text(250).nullish(),
});
export type KarrioParcelData = z.infer<typeof karrioParcelDataSchema>;

// ---- customs (CustomsData, CommodityData): "required for the shipment of an international dutiable parcel"

export const karrioContentTypes = ['documents', 'gift', 'sample', 'merchandise', 'return_merchandise', 'other'] as const;
export const karrioIncoterms = ['CFR', 'CIF', 'CIP', 'CPT', 'DAP', 'DAF', 'DDP', 'DDU', 'DEQ', 'DES', 'EXW', 'FAS', 'FCA', 'FOB'] as const;

export const karrioCommodityDataSchema = z.strictObject({
  /** The weight of one unit. */
  weight: z.number(),
  weight_unit: z.enum(karrioWeightUnits),
  title: text(200).nullish(),
  description: text(200).nullish(),
  quantity: z.number().int().optional(),
  sku: text(100).nullish(),
  hs_code: text(100).nullish(),
  value_amount: z.number().nullish(),
  value_currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .nullish(),
  origin_country: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
export type KarrioCommodityData = z.infer<typeof karrioCommodityDataSchema>;

export const karrioCustomsDataSchema = z.strictObject({
  commodities: z.array(karrioCommodityDataSchema),
  duty: z.looseObject({ paid_by: z.enum(['sender', 'recipient', 'third_party']).nullish(), currency: z.string().nullish() }).nullish(),
  content_type: z.enum(karrioContentTypes).nullish(),
  content_description: z.string().nullish(),
  incoterm: z.enum(karrioIncoterms).nullish(),
  invoice: text(50).nullish(),
  invoice_date: z.string().nullish(),
  commercial_invoice: z.boolean().nullish(),
  certify: z.boolean().nullish(),
  signer: text(50).nullish(),
  /** Karrio's customs options, among them `eori_number` and `vat_registration_number`. */
  options: z.record(z.string(), z.unknown()).optional(),
});
export type KarrioCustomsData = z.infer<typeof karrioCustomsDataSchema>;

export const karrioShipmentDataSchema = z.strictObject({
  shipper: karrioAddressDataSchema,
  recipient: karrioAddressDataSchema,
  return_address: karrioAddressDataSchema.nullish(),
  parcels: z.array(karrioParcelDataSchema).min(1),
  // Naming a service buys the label in the same call ("single call label purchase").
  service: z.string().min(1),
  services: z.array(z.string()).nullish(),
  options: z.record(z.string(), z.unknown()).optional(),
  reference: text(100).nullish(),
  customs: karrioCustomsDataSchema.nullish(),
  label_type: z.enum(karrioLabelTypes).optional(),
  is_return: z.boolean().optional(),
  carrier_ids: z.array(z.string()).nullish(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type KarrioShipmentData = z.infer<typeof karrioShipmentDataSchema>;

// ---- shipment response (Shipment)

export const karrioShipmentStatuses = [
  'draft',
  'created',
  'cancelled',
  'shipped',
  'in_transit',
  'delivered',
  'needs_attention',
  'out_for_delivery',
  'delivery_failed',
] as const;
export type KarrioShipmentStatus = (typeof karrioShipmentStatuses)[number];

export const karrioShippingDocumentSchema = z.looseObject({
  category: z.string(),
  format: z.string().nullish(),
  print_format: z.string().nullish(),
  url: z.string().nullish(),
  base64: z.string().nullish(),
});
export type KarrioShippingDocument = z.infer<typeof karrioShippingDocumentSchema>;

export const karrioShipmentSchema = z.looseObject({
  id: z.string(),
  status: z.enum(karrioShipmentStatuses),
  carrier_name: z.string().nullish(),
  carrier_id: z.string().nullish(),
  service: z.string().nullish(),
  tracking_number: z.string().nullish(),
  shipment_identifier: z.string().nullish(),
  tracking_url: z.string().nullish(),
  tracker_id: z.string().nullish(),
  reference: z.string().nullish(),
  label_type: z.string().nullish(),
  test_mode: z.boolean(),
  parcels: z.array(z.looseObject({ id: z.string().optional(), reference_number: z.string().nullish() })),
  shipping_documents: z.array(karrioShippingDocumentSchema).default([]),
  // The rate bought names the connection it was bought with (`meta.carrier_connection_id`).
  selected_rate: z.looseObject({ carrier_id: z.string().nullish(), meta: z.record(z.string(), z.unknown()).nullish() }).nullish(),
  // Connectors put each parcel's own number in `meta.tracking_numbers` when the carrier gives one.
  meta: z.record(z.string(), z.unknown()).nullish(),
  messages: z.array(karrioMessageSchema).default([]),
  created_at: z.string(),
});
export type KarrioShipment = z.infer<typeof karrioShipmentSchema>;

export const karrioShipmentListSchema = z.looseObject({
  count: z.number().int().nullish(),
  next: z.string().nullish(),
  previous: z.string().nullish(),
  results: z.array(karrioShipmentSchema),
});

// ---- tracking (TrackingStatus, TrackingEvent)

export const karrioTrackingStatuses = [
  'pending',
  'picked_up',
  'unknown',
  'on_hold',
  'cancelled',
  'delivered',
  'in_transit',
  'delivery_delayed',
  'out_for_delivery',
  'ready_for_pickup',
  'delivery_failed',
  'return_to_sender',
] as const;
export type KarrioTrackingStatus = (typeof karrioTrackingStatuses)[number];

export const karrioTrackingEventSchema = z.looseObject({
  date: z.string().nullish(),
  time: z.string().nullish(),
  timestamp: z.string().nullish(),
  status: z.enum(karrioTrackingStatuses).or(z.literal('')).nullish(),
  code: z.string().nullish(),
  description: z.string().nullish(),
  location: z.string().nullish(),
});
export type KarrioTrackingEvent = z.infer<typeof karrioTrackingEventSchema>;

export const karrioTrackingStatusSchema = z.looseObject({
  id: z.string().optional(),
  carrier_name: z.string(),
  carrier_id: z.string(),
  tracking_number: z.string(),
  test_mode: z.boolean(),
  delivered: z.boolean().optional(),
  status: z.enum(karrioTrackingStatuses).default('pending'),
  events: z.array(karrioTrackingEventSchema).nullish(),
  messages: z.array(karrioMessageSchema).default([]),
});
export type KarrioTrackingStatusBody = z.infer<typeof karrioTrackingStatusSchema>;

// ---- pickups (PickupData, PickupCancelData, Pickup): `POST /v1/pickups` names the carrier by `carrier_code`

const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);

export const karrioPickupDataSchema = z.strictObject({
  carrier_code: z.string().min(1),
  pickup_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  address: karrioAddressDataSchema,
  parcels_count: z.number().int().min(1).nullish(),
  ready_time: clockTime,
  closing_time: clockTime,
  instruction: text(50).nullish(),
  package_location: text(50).nullish(),
  pickup_type: z.enum(['one_time', 'daily', 'recurring']).optional(),
  // `connection_id` targets one carrier connection; the rest are the carrier's own pickup options.
  options: z.record(z.string(), z.unknown()).nullish(),
  tracking_numbers: z.array(z.string()).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type KarrioPickupData = z.infer<typeof karrioPickupDataSchema>;

export const karrioPickupCancelDataSchema = z.strictObject({ reason: z.string().optional() });

export const karrioPickupStatuses = ['scheduled', 'picked_up', 'cancelled', 'closed'] as const;

export const karrioPickupSchema = z.looseObject({
  id: z.string(),
  carrier_name: z.string(),
  carrier_id: z.string(),
  confirmation_number: z.string(),
  status: z.enum(karrioPickupStatuses).default('scheduled'),
  pickup_date: z.string().nullish(),
  ready_time: z.string().nullish(),
  closing_time: z.string().nullish(),
  test_mode: z.boolean(),
  messages: z.array(karrioMessageSchema).default([]),
});
export type KarrioPickup = z.infer<typeof karrioPickupSchema>;

// ---- manifests (ManifestData, Manifest): the end-of-day handover of shipments with labels bought

/** `POST /v1/manifests`: the shipments by Karrio's shipment ids, and the address they leave from. */
export const karrioManifestDataSchema = z.strictObject({
  carrier_name: z.string().min(1),
  address: karrioAddressDataSchema,
  shipment_ids: z.array(z.string().min(1)).min(1),
  reference: text(100).nullish(),
  options: z.record(z.string(), z.unknown()).optional(),
});
export type KarrioManifestData = z.infer<typeof karrioManifestDataSchema>;

export const karrioManifestSchema = z.looseObject({
  id: z.string(),
  carrier_name: z.string(),
  carrier_id: z.string(),
  test_mode: z.boolean(),
  shipment_identifiers: z.array(z.string()),
  reference: z.string().nullish(),
  manifest_url: z.string().nullish(),
  messages: z.array(karrioMessageSchema).default([]),
});
export type KarrioManifest = z.infer<typeof karrioManifestSchema>;

/** What `GET /v1/shipments/{id}` tells of where a shipment left from (the manifest's address when none is chosen). */
export const karrioShipmentShipperSchema = z.looseObject({
  shipper: z.looseObject({
    person_name: z.string().nullish(),
    company_name: z.string().nullish(),
    address_line1: z.string().nullish(),
    address_line2: z.string().nullish(),
    postal_code: z.string().nullish(),
    city: z.string().nullish(),
    state_code: z.string().nullish(),
    country_code: z.string(),
    phone_number: z.string().nullish(),
    email: z.string().nullish(),
  }),
});
