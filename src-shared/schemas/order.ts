import { z } from 'zod';
import { countryCode, createdBound, currencyCode, email, id, MAX_TEXT, openObject, pageQuery, requiredText, searchText, text, timestamp } from './common';
import { orderChannelTypes } from './orderChannel';
import {
  carrierSettingsSchema,
  checkWeightBound,
  documentSchema,
  money,
  shipmentStatuses,
  shipmentTypes,
  shippingRuleSummarySchema,
  trackingSchema,
  weightUnits,
} from './shipment';

export const orderStatuses = ['pending', 'processing', 'partially_fulfilled', 'fulfilled', 'error', 'cancelled'] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export const orderLineSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  quantity: z.number().int(),
  sku: z.string().nullable(),
  unitPrice: z.number().nullable(),
  totalPrice: z.number().nullable(),
  currency: z.string().nullable(),
  weight: z.number().nullable(),
  weightUnit: z.string().nullable(),
  variantId: z.string().nullable(),
  productId: z.string().nullable(),
  imageUrl: z.string().nullable(),
  hsCode: z.string().nullable(),
  countryOfOrigin: z.string().nullable(),
  provinceOfOrigin: z.string().nullable(),
  barcode: z.string().nullable(),
  vendor: z.string().nullable(),
  /** Where the warehouse keeps it (the bin), for the pick list; copied to the parcel line. */
  location: z.string().nullable(),
  requiresShipping: z.boolean(),
  taxable: z.boolean(),
  giftCard: z.boolean(),
});
export type OrderLine = z.infer<typeof orderLineSchema>;

export const shippingAddressSchema = z.strictObject({
  name: z.string(),
  address1: z.string(),
  city: z.string(),
  postalCode: z.string(),
  countryCode: z.string(),
  attention: z.string().nullable(),
  company: z.string().nullable(),
  address2: z.string().nullable(),
  province: z.string().nullable(),
  provinceCode: z.string().nullable(),
  country: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
});

export const orderChannelRefSchema = z.strictObject({ id: z.string(), name: z.string(), type: z.enum(orderChannelTypes) });

/**
 * A change the shop made to an order after a shipment of it existed here, held for the user to apply
 * or dismiss (docs/api.md 13.15). `cancelled` in the shop; `changed`: its address, customer, notes
 * or lines; `closed`: fulfilled or archived in the shop while nothing was shipped here.
 */
export const shopChangeKinds = ['cancelled', 'changed', 'closed'] as const;
export const shopChangeSchema = z.strictObject({
  kind: z.enum(shopChangeKinds),
  detectedAt: timestamp(),
  /** What differs, in plain words, one entry a field ("Shipping address", "Lines", …). */
  summary: z.array(z.string()),
  /** The shop's values of what differs. */
  shop: z.strictObject({
    customerName: z.string().nullable().optional(),
    customerEmail: z.string().nullable().optional(),
    notes: z.string().nullable().optional(),
    shippingAddress: shippingAddressSchema.nullable().optional(),
    orderLines: z.array(z.strictObject({ name: z.string(), sku: z.string().nullable(), quantity: z.number().int() })).optional(),
  }),
});
export type ShopChange = z.infer<typeof shopChangeSchema>;

export const orderSummarySchema = z.strictObject({
  id: z.string(),
  orderNumber: z.string(),
  status: z.enum(orderStatuses),
  shipmentCount: z.number().int(),
  orderChannel: orderChannelRefSchema,
  createdAt: timestamp(),
  updatedAt: timestamp(),
  customerName: z.string().nullable(),
  customerEmail: z.string().nullable(),
  totalAmount: z.number().nullable(),
  currency: z.string().nullable(),
});
export type OrderSummary = z.infer<typeof orderSummarySchema>;

export const orderShipmentSummarySchema = z.strictObject({
  id: z.string(),
  reference: z.string(),
  status: z.enum(shipmentStatuses),
  type: z.enum(shipmentTypes),
  carrierSettings: carrierSettingsSchema,
  createdAt: timestamp(),
  updatedAt: timestamp(),
  tracking: trackingSchema.optional(),
  shippingRuleId: z.string().nullable(),
  documents: z.array(documentSchema),
});

export const orderDetailSchema = orderSummarySchema.extend({
  orderLines: z.array(orderLineSchema),
  orderChannelId: z.string(),
  orgId: z.string(),
  shipments: z.array(orderShipmentSummarySchema),
  externalId: z.string().nullable(),
  shippingRuleId: z.string().nullable(),
  notes: z.string().nullable(),
  /** The service point the customer chose at checkout (decisions §13); order-based create uses it. */
  servicePointId: z.string().nullable(),
  /** Left out while the order has none (decisions §1: an optional object is left out when empty). */
  shippingAddress: shippingAddressSchema.optional(),
  externalData: z.record(z.string(), z.unknown()),
  shippingRule: shippingRuleSummarySchema.optional(),
  /** A change from the shop waiting for the user to apply or dismiss, or null (docs/api.md 13.15). */
  shopChange: shopChangeSchema.nullable(),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

const orderLineFields = {
  name: requiredText(),
  quantity: z.number().int().min(1).max(1_000_000),
  sku: text().optional(),
  unitPrice: money().optional(),
  totalPrice: money().optional(),
  currency: currencyCode().optional(),
  weight: z.number().min(0).optional(),
  weightUnit: z.enum(weightUnits).optional(),
  variantId: text().optional(),
  productId: text().optional(),
  imageUrl: text().optional(),
  hsCode: text().optional(),
  countryOfOrigin: countryCode().optional(),
  provinceOfOrigin: text().optional(),
  barcode: text().optional(),
  vendor: text().optional(),
  location: text().optional().describe('Where the warehouse keeps it (the bin): pick lists are grouped by it'),
  requiresShipping: z.boolean().default(true),
  taxable: z.boolean().default(true),
  giftCard: z.boolean().default(false),
};
export const orderLineInput = z.strictObject(orderLineFields).superRefine(checkWeightBound);
export type OrderLineInput = z.output<typeof orderLineInput>;

/**
 * A line in a PATCH of the order's lines: with the `id` of one of the order's lines it is that line
 * changed (what shipments hold of it stays theirs), without one it is a new line.
 */
export const orderLineUpdateInput = z
  .strictObject({
    id: id().optional().describe('The id of a line of this order, to change it rather than add a new one'),
    ...orderLineFields,
  })
  .superRefine(checkWeightBound);
export type OrderLineUpdateInput = z.output<typeof orderLineUpdateInput>;

export const shippingAddressInput = z.strictObject({
  name: requiredText(),
  address1: requiredText(),
  city: requiredText(),
  postalCode: requiredText(),
  countryCode: countryCode(),
  attention: text().nullable().optional(),
  company: text().nullable().optional(),
  address2: text().nullable().optional(),
  province: text().nullable().optional(),
  provinceCode: text().nullable().optional(),
  country: text().nullable().optional(),
  phone: text().nullable().optional(),
  email: email().nullable().optional(),
});

const orderFields = {
  externalId: text().nullable().optional(),
  customerName: text().nullable().optional(),
  customerEmail: email().nullable().optional(),
  shippingRuleId: id().nullable().optional(),
  notes: text().nullable().optional(),
  /** The carrier's id of the service point chosen at checkout. */
  servicePointId: text().nullable().optional(),
  /** null (or leaving it out) means the order has no shipping address yet. */
  shippingAddress: shippingAddressInput.nullable().optional(),
  totalAmount: money().nullable().optional(),
  currency: currencyCode().nullable().optional(),
  externalData: openObject().optional(),
};

/** Trimmed, so " 1001" from a scanner or a spreadsheet cell is the same order number as "1001". */
const orderNumber = () => z.string().trim().min(1).max(MAX_TEXT);

export const orderCreateBody = z.strictObject({
  orderNumber: orderNumber(),
  orderChannelId: id(),
  orderLines: z.array(orderLineInput).min(1).max(1000),
  ...orderFields,
});
export type OrderCreateInput = z.output<typeof orderCreateBody>;

export const orderUpdateBody = z.strictObject({
  orderNumber: orderNumber().optional(),
  orderLines: z
    .array(orderLineUpdateInput)
    .min(1)
    .max(1000)
    .optional()
    .describe('All the lines the order has from now on: a line with its id is changed, one without is added, one left out goes'),
  /** Only `cancelled` can be set; every other status is derived from the shipments. */
  status: z.literal('cancelled').optional(),
  ...orderFields,
});
export type OrderUpdateInput = z.output<typeof orderUpdateBody>;

/** A CSV file of order lines (decisions §5a; columns in docs/api.md "Importing orders from CSV"). */
/** `orderChannelId`: the channel of rows that name none (their column may then be left out). */
export const orderImportQuery = z.strictObject({ orderChannelId: id().optional() });
/**
 * Bounded by its door, not here: HTTP refuses a body over 1 MiB (413) before it is read, while the
 * command line imports a nightly file of any size through the same operation.
 */
export const orderImportBody = z.string().min(1, 'The CSV file is empty');

/** `row` counts the header as row 1, as a spreadsheet numbers rows. */
export const orderImportResponse = z.strictObject({
  created: z.number().int(),
  skipped: z.number().int(),
  errors: z.array(z.strictObject({ row: z.number().int(), message: z.string() })),
});
export type OrderImportResult = z.infer<typeof orderImportResponse>;

export const orderListQuery = pageQuery.extend({
  status: z.enum(orderStatuses).optional(),
  orderChannelId: id().optional(),
  search: searchText(),
  /** Exactly this order number, case and all: a scanned packing slip, found on an index however many orders there are. */
  orderNumber: orderNumber().optional(),
  createdFrom: createdBound('start'),
  createdTo: createdBound('end'),
});
