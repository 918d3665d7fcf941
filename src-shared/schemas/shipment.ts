import { z } from 'zod';
import { countryCode, createdBound, currencyCode, email, emptyOr, id, openObject, pageQuery, requiredText, searchText, text, timestamp } from './common';
import { senderAddressSchema } from './senderAddress';
import { documentFormats, labelSizes } from './carrier';

export const shipmentStatuses = ['draft', 'pending', 'processing', 'dispatched', 'partly_dispatched', 'error', 'cancelled', 'on_hold'] as const;
export type ShipmentStatus = (typeof shipmentStatuses)[number];
export const shipmentTypes = ['outbound', 'inbound'] as const;
export type ShipmentType = (typeof shipmentTypes)[number];

export const partyTypes = ['sender', 'receiver', 'pickup', 'billing', 'freight_payer', 'service_point', 'return'] as const;
export const weightUnits = ['kg', 'g', 'lb', 'oz'] as const;
export type WeightUnit = (typeof weightUnits)[number];
export const kgPerWeightUnit: Record<WeightUnit, number> = { kg: 1, g: 0.001, lb: 0.45359237, oz: 0.028349523125 };

/** A sanity bound on weights, in kg whatever the unit: a 250 000 g pallet is 250 kg, not too heavy. */
export const MAX_WEIGHT_KG = 100_000;
export function checkWeightBound(value: { weight?: number | undefined; weightUnit?: WeightUnit | undefined }, ctx: z.RefinementCtx): void {
  if (value.weight === undefined) return;
  if (value.weight * kgPerWeightUnit[value.weightUnit ?? 'kg'] > MAX_WEIGHT_KG) {
    ctx.addIssue({
      code: 'custom',
      path: ['weight'],
      message: `Must be at most ${MAX_WEIGHT_KG} kg (${MAX_WEIGHT_KG / kgPerWeightUnit[value.weightUnit ?? 'kg']} ${value.weightUnit ?? 'kg'})`,
    });
  }
}
export const incoterms = ['EXW', 'FCA', 'CPT', 'CIP', 'DAP', 'DPU', 'DDP', 'FAS', 'FOB', 'CFR', 'CIF'] as const;
export const documentTypes = ['label', 'packing_list', 'proforma_invoice', 'commercial_invoice', 'cn22', 'cn23'] as const;

export const MAX_PARCELS = 100;
export const MAX_LINES_PER_PARCEL = 1000;

// ---- Parts, as they are read ----

export const partyAttributeSchema = z.strictObject({ name: text(), value: text() });

export const partySchema = z.strictObject({
  type: z.string(),
  name: z.string(),
  attention: z.string(),
  address1: z.string(),
  address2: z.string(),
  postalCode: z.string(),
  city: z.string(),
  countryCode: z.string(),
  phone: z.string(),
  /** Left out when the party has none: an email, never "" (interface 2.2: email format). */
  email: z.string().optional(),
  attributes: z.array(partyAttributeSchema),
});
export type Party = z.infer<typeof partySchema>;

export const parcelOrderLineSchema = z.strictObject({
  id: z.string(),
  sku: z.string(),
  quantity: z.number().int(),
  description: z.string(),
  unitPrice: z.number(),
  currency: z.string(),
  vatPercent: z.number(),
  location: z.string(),
  countryOfOrigin: z.string(),
  tarrifNumber: z.string(),
  /** Net weight of one unit in kg (customs declares it per line, issue 21); null when not known. */
  weight: z.number().nullable(),
});
export type ParcelOrderLine = z.infer<typeof parcelOrderLineSchema>;

export const dimensionsSchema = z.strictObject({
  length: z.number().min(0),
  width: z.number().min(0),
  height: z.number().min(0),
});

export const parcelSchema = z.strictObject({
  id: z.string(),
  weight: z.number(),
  weightUnit: z.string(),
  dimensions: dimensionsSchema,
  orderLines: z.array(parcelOrderLineSchema),
  /** The parcel's own carrier number once booked (decisions §13); the shipment's tracking.number is the first. */
  trackingNumber: z.string().optional(),
  /** The carrier's parcel number where it has one apart from the tracking number. */
  parcelNumber: z.string().optional(),
});
export type Parcel = z.infer<typeof parcelSchema>;

export const carrierSettingsSchema = z.strictObject({
  carrierId: z.string(),
  productId: z.string(),
  services: z.array(z.string()),
  additionalParameters: z.record(z.string(), z.unknown()),
});
export type CarrierSettings = z.infer<typeof carrierSettingsSchema>;

export const pickupDetailsSchema = z.strictObject({
  date: z.string(),
  from: z.string(),
  to: z.string(),
  instruction: z.string(),
});

/** decisions §13: what the carrier last said about a dispatched shipment. */
export const trackingStatuses = ['pending', 'in_transit', 'out_for_delivery', 'delivered', 'exception', 'returned', 'unknown'] as const;
export type TrackingStatus = (typeof trackingStatuses)[number];

export const trackingEventSchema = z.strictObject({
  at: timestamp(),
  code: z.string(),
  description: z.string(),
  location: z.string().nullable(),
});
export type TrackingEventItem = z.infer<typeof trackingEventSchema>;

export const trackingSchema = z.strictObject({
  url: z.string(),
  number: z.string(),
  status: z.enum(trackingStatuses),
  events: z.array(trackingEventSchema),
  lastCheckedAt: timestamp().nullable(),
});
export type Tracking = z.infer<typeof trackingSchema>;

export const documentSchema = z.strictObject({
  id: z.string(),
  shipmentId: z.string(),
  documentType: z.enum(documentTypes),
  format: z.enum(documentFormats),
  content: z.string().describe('base64'),
  size: z.enum(labelSizes),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});
export type ShipmentDocument = z.infer<typeof documentSchema>;

export const shippingRuleSummarySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  carrierId: z.string(),
  productId: z.string(),
  services: z.array(z.string()),
  senderAddressId: z.string(),
  returnShippingRuleId: z.string().nullable(),
  autoCreateReturnShipment: z.boolean(),
});
export type ShippingRuleSummary = z.infer<typeof shippingRuleSummarySchema>;

export const shipmentErrorSchema = z.strictObject({ id: z.string(), code: z.string(), message: z.string(), createdAt: timestamp() });
export const activityActions = [
  'created',
  'updated',
  'status_changed',
  'sent',
  'send_failed',
  'shipping_rule_applied',
  'shipment_split',
  'return_created',
  'cancelled',
  'printed',
  /** A customer e-mail (issue 22) was accepted by the organization's SMTP server, or could not be sent. */
  'email_sent',
  'email_failed',
] as const;
export const activitySchema = z.strictObject({
  id: z.string(),
  action: z.enum(activityActions),
  description: z.string(),
  createdAt: timestamp(),
});
export const shipmentLogSchema = z.strictObject({
  id: z.string(),
  direction: z.enum(['outbound', 'inbound', 'carrier']),
  request: z.unknown(),
  response: z.unknown(),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  duration: z.number().nullable(),
  createdAt: timestamp(),
});

export const shipmentSchema = z.strictObject({
  id: z.string(),
  reference: z.string(),
  senderAddressId: z.string(),
  parties: z.array(partySchema),
  type: z.enum(shipmentTypes),
  carrierSettings: carrierSettingsSchema,
  parcels: z.array(parcelSchema),
  termOfTrade: z.string(),
  status: z.enum(shipmentStatuses),
  orgId: z.string(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
  servicePointId: z.string().nullable(),
  pickupDetails: pickupDetailsSchema.optional(),
  documents: z.array(documentSchema),
  tracking: trackingSchema.optional(),
  orderId: z.string().nullable(),
  shippingRuleId: z.string().nullable(),
  shippingRule: shippingRuleSummarySchema.optional(),
  returnForShipmentId: z.string().nullable(),
  errors: z.array(shipmentErrorSchema),
  activities: z.array(activitySchema),
  logs: z.array(shipmentLogSchema),
});
export type Shipment = z.infer<typeof shipmentSchema>;

/** Interface §2.4a. */
export const shipmentListItemSchema = z.strictObject({
  id: z.string(),
  reference: z.string(),
  type: z.enum(shipmentTypes),
  carrierSettings: carrierSettingsSchema,
  status: z.enum(shipmentStatuses),
  senderAddress: senderAddressSchema,
  createdAt: timestamp(),
  updatedAt: timestamp(),
  /** What the carrier last said (decisions §13); absent until the shipment is booked. */
  trackingStatus: z.enum(trackingStatuses).optional(),
  // Beyond interface §2.4a, for the list's optional columns (decisions: "Lists"); absent when empty.
  receiverName: z.string().optional(),
  receiverCountryCode: z.string().optional(),
  orderNumber: z.string().optional(),
  trackingNumber: z.string().optional(),
});
export type ShipmentListItem = z.infer<typeof shipmentListItemSchema>;

// ---- Parts, as they are written (decisions §5) ----

export const money = () => z.number().min(0).max(1e12);

export const partyInput = z.strictObject({
  type: z.enum(partyTypes),
  name: requiredText(),
  attention: text().optional(),
  address1: requiredText(),
  address2: text().optional(),
  postalCode: requiredText(),
  city: requiredText(),
  countryCode: countryCode(),
  phone: text().optional(),
  email: emptyOr(email()).optional(),
  attributes: z.array(partyAttributeSchema).max(100).optional(),
});
export type PartyInput = z.infer<typeof partyInput>;

export const parcelOrderLineInput = z.strictObject({
  /** A line of this shipment, which keeps its id; left out, the line gets a new one (parcelIds.ts). */
  id: id().optional(),
  sku: requiredText(),
  quantity: z.number().int().min(1).max(1_000_000),
  description: text().optional(),
  unitPrice: money().optional(),
  currency: emptyOr(currencyCode()).optional(),
  vatPercent: z.number().min(0).max(100).optional(),
  location: text().optional(),
  countryOfOrigin: emptyOr(countryCode()).optional(),
  tarrifNumber: text().optional(),
  /** Net weight of one unit in kg; left out on a kept line, its stored weight stays (issue 21). */
  weight: z.number().min(0).max(MAX_WEIGHT_KG).nullable().optional().describe('net weight of one unit, kg'),
});
export type ParcelOrderLineInput = z.infer<typeof parcelOrderLineInput>;

/** decisions §5: a parcel requires weight ≥ 0, weightUnit and dimensions (each ≥ 0). */
export const parcelInput = z
  .strictObject({
    /** A parcel of this shipment, which keeps its id; left out, the parcel gets a new one (parcelIds.ts). */
    id: id().optional(),
    weight: z.number().min(0),
    weightUnit: z.enum(weightUnits),
    dimensions: z.strictObject({
      length: z.number().min(0).max(100_000),
      width: z.number().min(0).max(100_000),
      height: z.number().min(0).max(100_000),
    }),
    orderLines: z.array(parcelOrderLineInput).max(MAX_LINES_PER_PARCEL).default([]),
  })
  .superRefine(checkWeightBound);
export type ParcelInput = z.infer<typeof parcelInput>;

export const carrierSettingsInput = z.strictObject({
  carrierId: id(),
  productId: z.string().min(1).max(100),
  services: z.array(z.string().min(1).max(100)).max(50).default([]),
  additionalParameters: openObject().default({}),
});

export const pickupDetailsInput = z.strictObject({
  date: z.iso.date().describe('YYYY-MM-DD'),
  from: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM'),
  to: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM'),
  instruction: text().default(''),
});

/** At most one sender and one receiver (decisions §5). */
const partiesInput = z
  .array(partyInput)
  .min(1)
  .max(20)
  .superRefine((parties, ctx) => {
    for (const type of ['sender', 'receiver'] as const) {
      if (parties.filter((party) => party.type === type).length > 1) {
        ctx.addIssue({ code: 'custom', message: `At most one ${type} party` });
      }
    }
  });

export const shipmentCreateBody = z.strictObject({
  reference: requiredText().optional(),
  senderAddressId: id().optional(),
  parties: partiesInput.optional(),
  type: z.enum(shipmentTypes),
  carrierSettings: carrierSettingsInput,
  parcels: z.array(parcelInput).min(1).max(MAX_PARCELS).optional(),
  servicePointId: text().nullable().optional(),
  pickupDetails: pickupDetailsInput.optional(),
  termOfTrade: z.enum(incoterms).default('DAP'),
  status: z.enum(shipmentStatuses).optional(),
  orderId: id().nullable().optional(),
});
export type ShipmentCreateInput = z.output<typeof shipmentCreateBody>;

export const shipmentUpdateBody = z.strictObject({
  reference: requiredText().optional(),
  senderAddressId: id().optional(),
  servicePointId: text().nullable().optional(),
  parties: partiesInput.optional(),
  type: z.enum(shipmentTypes).optional(),
  parcels: z.array(parcelInput).min(1).max(MAX_PARCELS).optional(),
  pickupDetails: pickupDetailsInput.nullable().optional(),
  termOfTrade: z.enum(incoterms).optional(),
  status: z.enum(shipmentStatuses).optional(),
  orderId: id().nullable().optional(),
  /** Extra (decisions §4): re-applies the rule's carrier, product, services and sender. */
  shippingRuleId: id().nullable().optional(),
  /** Named so the refusal can say what to do instead of "unknown field". */
  carrierSettings: z
    .never({ error: 'carrierSettings cannot be changed by PATCH: set shippingRuleId to apply a rule, or split the parcel with a carrier override' })
    .optional(),
});
export type ShipmentUpdateInput = z.output<typeof shipmentUpdateBody>;

export const orderShipmentCreateBody = z.strictObject({
  senderAddressId: id().optional(),
  carrierId: id().optional(),
  productId: z.string().min(1).max(100).optional(),
  services: z.array(z.string().min(1).max(100)).max(50).optional(),
  additionalParameters: openObject().optional(),
  reference: requiredText().optional(),
  parties: partiesInput.optional(),
  servicePointId: text().nullable().optional(),
  pickupDetails: pickupDetailsInput.optional(),
});
export type OrderShipmentCreateInput = z.output<typeof orderShipmentCreateBody>;

const carrierOverride = {
  carrierId: id().optional(),
  productId: z.string().min(1).max(100).optional(),
  services: z.array(z.string().min(1).max(100)).max(50).optional(),
  additionalParameters: openObject().optional(),
};

export const splitBody = z.strictObject({
  orderLineIds: z.array(id()).min(1).max(MAX_LINES_PER_PARCEL).optional(),
  ...carrierOverride,
  reference: requiredText().optional(),
});
export type SplitInput = z.output<typeof splitBody>;

export const MAX_BATCH_SPLIT = 100;
export const batchSplitBody = z.strictObject({
  shipments: z
    .array(
      z.strictObject({
        orderLines: z
          .array(z.strictObject({ id: id(), quantity: z.number().int().min(1).max(1_000_000) }))
          .min(1)
          .max(MAX_LINES_PER_PARCEL),
        reference: requiredText().optional(),
      }),
    )
    .min(1)
    .max(MAX_BATCH_SPLIT),
  ...carrierOverride,
});
export type BatchSplitInput = z.output<typeof batchSplitBody>;

export const splitResponse = z.strictObject({ originalShipment: shipmentSchema, newShipment: shipmentSchema });
export const batchSplitResponse = z.strictObject({ originalShipment: shipmentSchema, newShipments: z.array(shipmentSchema) });

/**
 * The printers of the station that sends (USERS 1: chosen by station). When the applied rule prints
 * after the send, each document goes to the first of them that fits it instead of the rule's printer;
 * ids that are unknown or deleted are passed over, so a station's stale memory never blocks a send.
 */
const stationPrinterIds = z.array(id()).min(1).max(10);
/** `confirmRebook`: the user checked with the carrier that an unanswered booking did not go through (decisions §13). */
export const sendBody = z.strictObject({ stationPrinterIds: stationPrinterIds.optional(), confirmRebook: z.boolean().optional() }).optional();
export type SendInput = z.output<typeof sendBody>;
export const batchSendBody = z.strictObject({
  shipmentIds: z.array(id()).min(1).max(100),
  stationPrinterIds: stationPrinterIds.optional(),
  /** The shipments of the batch whose rebook the user confirmed (decisions §13), or true for all of them. */
  confirmRebook: z.union([z.boolean(), z.array(id()).max(100)]).optional(),
});
export const batchSendResponse = z.strictObject({
  results: z.array(
    z.strictObject({
      shipmentId: z.string(),
      status: z.enum(['sent', 'failed']),
      code: z.string().optional(),
      message: z.string().optional(),
    }),
  ),
  summary: z.strictObject({ total: z.number().int(), sent: z.number().int(), failed: z.number().int() }),
});

/**
 * `format` asks for a label in the other format than it was made in (a PDF of a ZPL label for a
 * preview or an office printer); without it the stored file is sent as it is.
 */
export const documentContentQuery = z.strictObject({
  format: z.enum(documentFormats).optional(),
});
export type DocumentContentQuery = z.output<typeof documentContentQuery>;

export const shipmentSortKeys = ['createdAt', '-createdAt', 'updatedAt', '-updatedAt', 'reference', '-reference', 'status', '-status'] as const;

export const shipmentListQuery = pageQuery.extend({
  /** A field name, `-` first for descending; ties keep the newest first. */
  sort: z.enum(shipmentSortKeys).default('-createdAt'),
  status: z.enum(shipmentStatuses).optional(),
  search: searchText(),
  /** Exactly this reference, case and all: a scanned label, found on an index however many shipments there are. */
  reference: requiredText().optional(),
  /**
   * Exactly this barcode from a shipment's labels: its tracking number or a parcel's own tracking
   * or parcel number, case and all — a scanned label finds its shipment on an index (issue 20).
   */
  code: requiredText().optional(),
  orderId: id().optional(),
  carrierId: id().optional(),
  /** The receiver's country. */
  country: countryCode().optional(),
  createdFrom: createdBound('start'),
  createdTo: createdBound('end'),
  /** One tracking status, or several by repeating the key (`?trackingStatus=in_transit&trackingStatus=exception`). */
  trackingStatus: z
    .union([z.enum(trackingStatuses), z.array(z.enum(trackingStatuses)).min(1).max(trackingStatuses.length)])
    .transform((value) => (Array.isArray(value) ? value : [value]))
    .pipe(z.array(z.enum(trackingStatuses)))
    .optional(),
});

/**
 * A status set by hand for a carrier nobody can ask (the `local` carrier, decisions §13), with a line
 * saying what happened: "Delivered by our own van".
 */
export const manualTrackingEventBody = z.strictObject({
  status: z.enum(trackingStatuses),
  description: requiredText().max(500),
});
export type ManualTrackingEventInput = z.output<typeof manualTrackingEventBody>;
