/**
 * The whole store. Timestamps are ISO 8601 UTC text (sortable as text); ids are prefixed ULIDs, so
 * `created_at DESC, id DESC` is a stable newest-first order. Parcels, order lines, parties and
 * parcel order lines are rows, so splits and allocation are plain SQL in one transaction.
 * Soft-deleted rows (`deleted_at`) keep old shipments' references intact and free plan places.
 */
import { sql } from 'drizzle-orm';
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { CarrierProduct } from '../../src-shared/schemas/carrier';

const createdAt = () => text('created_at').notNull();
const updatedAt = () => text('updated_at').notNull();
const json = <T>(name: string) => text(name, { mode: 'json' }).$type<T>();
const bool = (name: string) => integer(name, { mode: 'boolean' });

/** What the first-day checklist keeps (issue 20); its "done" is computed from the data. */
export interface OnboardingState {
  skipped: string[];
  closed: boolean;
  /** Real carriers whose connection test passed once: their checklist step is done. */
  carrierTestsPassed?: string[];
}

export const orgs = sqliteTable('orgs', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique(),
  description: text('description'),
  currency: text('currency').notNull().default('DKK'),
  vatNumber: text('vat_number'),
  /** The export identifier (EORI) declared on customs papers; a sender address's `customs` may override it. */
  eoriNumber: text('eori_number'),
  billingEmail: text('billing_email'),
  companyName: text('company_name'),
  addressLine1: text('address_line1'),
  addressLine2: text('address_line2'),
  city: text('city'),
  postalCode: text('postal_code'),
  country: text('country'),
  plan: text('plan').notNull().default('starter'),
  overageEnabled: bool('overage_enabled').notNull().default(false),
  /** The organization's own words printed on every packing slip (how to send something back). */
  returnInstructions: text('return_instructions'),
  /** The language of customer e-mails (issue 22): `en` or `da`. */
  language: text('language').notNull().default('en'),
  /** The first-day checklist: steps the user skipped and whether it was closed (issue 20). */
  onboarding: json<OnboardingState>('onboarding'),
  /** Per-org counters for generated shipment references and local tracking numbers. */
  shipmentSeq: integer('shipment_seq').notNull().default(0),
  trackingSeq: integer('tracking_seq').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const users = sqliteTable('users', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** Stored lower-case; unique across the installation. */
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  /** When the password was last changed; logins (JWTs) issued before it no longer work. */
  passwordChangedAt: text('password_changed_at'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const orgMembers = sqliteTable(
  'org_members',
  {
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    role: text('role').notNull(),
    createdAt: createdAt(),
    /** When the role last changed (added by migration 0005; earlier members start at created_at). */
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.userId] }),
    index('org_members_user').on(t.userId),
    // The member list's order (newest first).
    index('org_members_org_created').on(t.orgId, t.createdAt, t.userId),
  ],
);

export const apiTokens = sqliteTable(
  'api_tokens',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    name: text('name').notNull(),
    /** SHA-256 hex of the full token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    tokenPrefix: text('token_prefix').notNull(),
    scopes: json<string[]>('scopes').notNull(),
    createdBy: text('created_by')
      .notNull()
      .references(() => users.id),
    lastUsedAt: text('last_used_at'),
    expiresAt: text('expires_at'),
    revokedAt: text('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [index('api_tokens_org_created').on(t.orgId, t.createdAt, t.id)],
);

export const senderAddresses = sqliteTable(
  'sender_addresses',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    name: text('name').notNull(),
    attContact: text('att_contact').notNull().default(''),
    address1: text('address1').notNull(),
    address2: text('address2'),
    zipcode: text('zipcode').notNull(),
    city: text('city').notNull(),
    phone: text('phone').notNull().default(''),
    countryCode: text('country_code').notNull(),
    state: text('state').notNull().default(''),
    email: text('email').notNull().default(''),
    customs: json<Record<string, unknown>>('customs'),
    deletedAt: text('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('sender_addresses_org_created').on(t.orgId, t.createdAt, t.id)],
);

export const carriers = sqliteTable(
  'carriers',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    name: text('name').notNull(),
    carrierSlug: text('carrier_slug').notNull(),
    /** Secret fields (password type in the catalogue) are sealed, see domain/secrets.ts. */
    config: json<Record<string, unknown>>('config').notNull(),
    senderAddressId: text('sender_address_id')
      .notNull()
      .references(() => senderAddresses.id),
    /** Products read from the carrier (Karrio's services), kept so rules and sends work offline (decisions §13). */
    products: json<CarrierProduct[]>('products'),
    deletedAt: text('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('carriers_org_created').on(t.orgId, t.createdAt, t.id)],
);

export const printers = sqliteTable(
  'printers',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    name: text('name').notNull(),
    driver: text('driver').notNull(),
    target: text('target').notNull(),
    format: text('format').notNull(),
    labelSize: text('label_size').notNull(),
    isDefault: bool('is_default').notNull().default(false),
    deletedAt: text('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('printers_org_created').on(t.orgId, t.createdAt, t.id)],
);

export interface RuleCondition {
  type: string;
  min?: number;
  max?: number;
  operator?: string;
  value?: number;
  shippingPrice: number;
  currency: string;
}

export const shippingRules = sqliteTable(
  'shipping_rules',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    name: text('name').notNull(),
    description: text('description'),
    carrierId: text('carrier_id')
      .notNull()
      .references(() => carriers.id),
    productId: text('product_id').notNull(),
    services: json<string[]>('services').notNull(),
    additionalParameters: json<{ name: string; val: string }[]>('additional_parameters').notNull(),
    senderAddressId: text('sender_address_id')
      .notNull()
      .references(() => senderAddresses.id),
    receivingCountries: json<string[]>('receiving_countries').notNull(),
    conditions: json<RuleCondition[]>('conditions').notNull(),
    emailNotification: bool('email_notification').notNull().default(false),
    phoneNotification: bool('phone_notification').notNull().default(false),
    generateProformaInvoice: bool('generate_proforma_invoice').notNull().default(false),
    generateCommercialInvoice: bool('generate_commercial_invoice').notNull().default(false),
    generatePackingList: bool('generate_packing_list').notNull().default(false),
    autoPrintLabels: bool('auto_print_labels').notNull().default(false),
    autoPrintDocuments: bool('auto_print_documents').notNull().default(false),
    labelPrinterId: text('label_printer_id').references(() => printers.id),
    documentPrinterId: text('document_printer_id').references(() => printers.id),
    returnShippingRuleId: text('return_shipping_rule_id'),
    autoCreateReturnShipment: bool('auto_create_return_shipment').notNull().default(false),
    deletedAt: text('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('shipping_rules_org_created').on(t.orgId, t.createdAt, t.id)],
);

export const orderChannels = sqliteTable(
  'order_channels',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    name: text('name').notNull(),
    type: text('type').notNull(),
    config: json<Record<string, unknown>>('config').notNull(),
    /** Scheduled sync (issue 22): when the last run ended well, when the next is due, the last run's error. */
    lastSyncedAt: text('last_synced_at'),
    nextSyncAt: text('next_sync_at'),
    lastSyncError: text('last_sync_error'),
    /** Set while a run holds the channel, so one run at a time per channel; a stale one is taken over. */
    syncStartedAt: text('sync_started_at'),
    /** Where the next run reads from (the shop's updated-at watermark), so a restart resumes there. */
    syncCursor: text('sync_cursor'),
    deletedAt: text('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('order_channels_org_created').on(t.orgId, t.createdAt, t.id),
    index('order_channels_sync_due')
      .on(t.nextSyncAt)
      .where(sql`next_sync_at IS NOT NULL AND deleted_at IS NULL`),
  ],
);

export interface ShippingAddress {
  name: string;
  address1: string;
  city: string;
  postalCode: string;
  countryCode: string;
  attention?: string | null;
  company?: string | null;
  address2?: string | null;
  province?: string | null;
  provinceCode?: string | null;
  country?: string | null;
  phone?: string | null;
  email?: string | null;
}

export const orders = sqliteTable(
  'orders',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    orderChannelId: text('order_channel_id')
      .notNull()
      .references(() => orderChannels.id),
    orderNumber: text('order_number').notNull(),
    externalId: text('external_id'),
    /** Derived from the order's shipments in the same transaction as every change (decisions §5). */
    status: text('status').notNull().default('pending'),
    shipmentCount: integer('shipment_count').notNull().default(0),
    customerName: text('customer_name'),
    customerEmail: text('customer_email'),
    shippingRuleId: text('shipping_rule_id').references(() => shippingRules.id),
    notes: text('notes'),
    shippingAddress: json<ShippingAddress>('shipping_address'),
    totalAmount: real('total_amount'),
    currency: text('currency'),
    externalData: json<Record<string, unknown>>('external_data').notNull(),
    /** The service point the customer chose at checkout (decisions §13). */
    servicePointId: text('service_point_id'),
    /**
     * A change the shop made after a shipment existed (issue 22): kept for the user to apply or
     * dismiss, never applied silently. Null when there is none.
     */
    shopChange: json<Record<string, unknown>>('shop_change'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('orders_channel_number').on(t.orderChannelId, t.orderNumber),
    index('orders_org_created').on(t.orgId, t.createdAt, t.id),
    index('orders_org_status_created').on(t.orgId, t.status, t.createdAt, t.id),
  ],
);

export const orderLines = sqliteTable(
  'order_lines',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    quantity: integer('quantity').notNull(),
    sku: text('sku'),
    unitPrice: real('unit_price'),
    totalPrice: real('total_price'),
    currency: text('currency'),
    weight: real('weight'),
    weightUnit: text('weight_unit'),
    variantId: text('variant_id'),
    productId: text('product_id'),
    imageUrl: text('image_url'),
    hsCode: text('hs_code'),
    countryOfOrigin: text('country_of_origin'),
    provinceOfOrigin: text('province_of_origin'),
    barcode: text('barcode'),
    vendor: text('vendor'),
    /** The bin the item is picked from; pick lists group by it and parcel lines copy it. */
    location: text('location'),
    requiresShipping: bool('requires_shipping').notNull().default(true),
    taxable: bool('taxable').notNull().default(true),
    giftCard: bool('gift_card').notNull().default(false),
    /** The shop's own id of the line (Shopify line item, WooCommerce line item), for fulfilments written back. Not in the API. */
    externalLineId: text('external_line_id'),
  },
  (t) => [index('order_lines_order').on(t.orderId, t.position)],
);

export const shipments = sqliteTable(
  'shipments',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    reference: text('reference').notNull(),
    senderAddressId: text('sender_address_id')
      .notNull()
      .references(() => senderAddresses.id),
    type: text('type').notNull(),
    carrierId: text('carrier_id')
      .notNull()
      .references(() => carriers.id),
    productId: text('product_id').notNull(),
    services: json<string[]>('services').notNull(),
    additionalParameters: json<Record<string, unknown>>('additional_parameters').notNull(),
    termOfTrade: text('term_of_trade').notNull().default('DAP'),
    status: text('status').notNull(),
    servicePointId: text('service_point_id'),
    pickupDate: text('pickup_date'),
    pickupFrom: text('pickup_from'),
    pickupTo: text('pickup_to'),
    pickupInstruction: text('pickup_instruction'),
    trackingNumber: text('tracking_number'),
    trackingUrl: text('tracking_url'),
    orderId: text('order_id').references(() => orders.id),
    shippingRuleId: text('shipping_rule_id').references(() => shippingRules.id),
    returnForShipmentId: text('return_for_shipment_id'),
    /**
     * When Shipdesk put the shipment in `processing` to book it; null otherwise. Start-up recovery
     * moves only these to error: a shipment created as `processing` (an import of history) was never
     * being booked here.
     */
    bookingStartedAt: text('booking_started_at'),
    /**
     * Set while a booking call's outcome is unknown (decisions §13): the next send asks the carrier
     * first, and delete, cancel and reference changes are refused until it is cleared.
     */
    bookingOutcomeUnknownAt: text('booking_outcome_unknown_at'),
    /** The adapter's own ids of the booking (its shipment id …), to void and track it later. */
    carrierBooking: json<Record<string, unknown>>('carrier_booking'),
    bookedAt: text('booked_at'),
    /** decisions §13: what the carrier last said; null before dispatch. */
    trackingStatus: text('tracking_status'),
    trackingCheckedAt: text('tracking_checked_at'),
    /** When the poller asks next; null when nobody asks (delivered, returned, a carrier nobody can ask). */
    trackingDueAt: text('tracking_due_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('shipments_org_created').on(t.orgId, t.createdAt, t.id),
    index('shipments_org_status_created').on(t.orgId, t.status, t.createdAt, t.id),
    index('shipments_order').on(t.orderId),
    index('shipments_org_reference').on(t.orgId, t.reference),
    index('shipments_org_updated').on(t.orgId, t.updatedAt),
    index('shipments_return_for').on(t.returnForShipmentId),
    // Start-up recovery looks for interrupted bookings across every organization: without this
    // (tiny: only shipments in processing are in it) it read every shipment, 230 ms on a million.
    index('shipments_processing')
      .on(t.bookingStartedAt)
      .where(sql`status = 'processing'`),
    // The tracking poller's queue: only shipments still being followed are in it.
    index('shipments_tracking_due')
      .on(t.trackingDueAt)
      .where(sql`tracking_due_at IS NOT NULL`),
    index('shipments_org_tracking_status').on(t.orgId, t.trackingStatus, t.createdAt, t.id),
    // A scanned label's barcode finds its shipment (issue 20): the shipment's and each parcel's numbers.
    index('shipments_org_tracking_number').on(t.orgId, t.trackingNumber),
    // The list's carrier filter, in the list's default order.
    index('shipments_org_carrier_created').on(t.orgId, t.carrierId, t.createdAt, t.id),
    // A close-out's candidates: one carrier's dispatched shipments, by when they were booked (issue 21).
    index('shipments_org_carrier_status_booked').on(t.orgId, t.carrierId, t.status, t.bookedAt),
  ],
);

export const shipmentParties = sqliteTable(
  'shipment_parties',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    shipmentId: text('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    type: text('type').notNull(),
    name: text('name').notNull(),
    attention: text('attention'),
    address1: text('address1').notNull(),
    address2: text('address2'),
    postalCode: text('postal_code').notNull(),
    city: text('city').notNull(),
    countryCode: text('country_code').notNull(),
    phone: text('phone'),
    email: text('email'),
    attributes: json<{ name: string; value: string }[]>('attributes').notNull(),
  },
  (t) => [
    index('shipment_parties_shipment').on(t.shipmentId, t.position),
    // The list's receiver-country filter: only receivers are in it.
    index('shipment_parties_receiver_country')
      .on(t.countryCode, t.shipmentId)
      .where(sql`type = 'receiver'`),
  ],
);

export const parcels = sqliteTable(
  'parcels',
  {
    id: text('id').primaryKey(),
    shipmentId: text('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    weight: real('weight').notNull(),
    weightUnit: text('weight_unit').notNull().default('kg'),
    length: real('length').notNull().default(0),
    width: real('width').notNull().default(0),
    height: real('height').notNull().default(0),
    /** The parcel's own carrier number once booked (decisions §13). */
    trackingNumber: text('tracking_number'),
    parcelNumber: text('parcel_number'),
  },
  (t) => [
    index('parcels_shipment').on(t.shipmentId, t.position),
    index('parcels_tracking_number')
      .on(t.trackingNumber)
      .where(sql`tracking_number IS NOT NULL`),
    index('parcels_parcel_number')
      .on(t.parcelNumber)
      .where(sql`parcel_number IS NOT NULL`),
  ],
);

export const parcelOrderLines = sqliteTable(
  'parcel_order_lines',
  {
    id: text('id').primaryKey(),
    parcelId: text('parcel_id')
      .notNull()
      .references(() => parcels.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** The order line this was allocated from, so order-based creates place only what is left. */
    orderLineId: text('order_line_id').references(() => orderLines.id),
    sku: text('sku').notNull(),
    quantity: integer('quantity').notNull(),
    description: text('description'),
    unitPrice: real('unit_price'),
    currency: text('currency'),
    vatPercent: real('vat_percent'),
    location: text('location'),
    countryOfOrigin: text('country_of_origin'),
    tarrifNumber: text('tarrif_number'),
    /** Unit weight in kg when known (from the order line), for weight moved by splits. */
    unitWeightKg: real('unit_weight_kg'),
  },
  (t) => [index('parcel_order_lines_parcel').on(t.parcelId, t.position), index('parcel_order_lines_order_line').on(t.orderLineId)],
);

export const documents = sqliteTable(
  'documents',
  {
    id: text('id').primaryKey(),
    shipmentId: text('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    parcelId: text('parcel_id'),
    documentType: text('document_type').notNull(),
    format: text('format').notNull(),
    size: text('size').notNull(),
    content: blob('content', { mode: 'buffer' }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('documents_shipment').on(t.shipmentId, t.createdAt)],
);

/** decisions §13: what the carrier said happened to a shipment, each event once. */
export const trackingEvents = sqliteTable(
  'tracking_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    shipmentId: text('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    at: text('at').notNull(),
    code: text('code').notNull(),
    description: text('description').notNull(),
    location: text('location'),
  },
  (t) => [uniqueIndex('tracking_events_shipment_event').on(t.shipmentId, t.at, t.code, t.description)],
);

export const shipmentErrors = sqliteTable(
  'shipment_errors',
  {
    id: text('id').primaryKey(),
    shipmentId: text('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    message: text('message').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('shipment_errors_shipment').on(t.shipmentId, t.createdAt)],
);

export const shipmentActivities = sqliteTable(
  'shipment_activities',
  {
    id: text('id').primaryKey(),
    shipmentId: text('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    description: text('description').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('shipment_activities_shipment').on(t.shipmentId, t.createdAt)],
);

export const shipmentLogs = sqliteTable(
  'shipment_logs',
  {
    id: text('id').primaryKey(),
    shipmentId: text('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    direction: text('direction').notNull(),
    request: json<unknown>('request'),
    response: json<unknown>('response'),
    statusCode: integer('status_code'),
    error: text('error'),
    duration: integer('duration'),
    createdAt: createdAt(),
  },
  (t) => [index('shipment_logs_shipment').on(t.shipmentId, t.createdAt)],
);

/** Shipments created per org and calendar month (UTC); deleting a shipment does not refund it. */
export const shipmentUsage = sqliteTable(
  'shipment_usage',
  {
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    period: text('period').notNull(),
    created: integer('created').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.period] })],
);

export const addOns = sqliteTable(
  'add_ons',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    type: text('type').notNull(),
    quantity: integer('quantity').notNull(),
    unitPrice: integer('unit_price').notNull(),
  },
  (t) => [index('add_ons_org').on(t.orgId)],
);

export const webhooks = sqliteTable(
  'webhooks',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    name: text('name').notNull(),
    url: text('url').notNull(),
    events: json<string[]>('events').notNull(),
    isActive: bool('is_active').notNull().default(true),
    /** The signing secret, sealed with the installation key: it must be recoverable to sign. */
    secretSealed: text('secret_sealed').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('webhooks_org_created').on(t.orgId, t.createdAt, t.id)],
);

export const outboxEvents = sqliteTable(
  'outbox_events',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    type: text('type').notNull(),
    payload: json<unknown>('payload').notNull(),
    createdAt: createdAt(),
    /** Set once every matching webhook has a delivery row scheduled. */
    dispatchedAt: text('dispatched_at'),
  },
  (t) => [index('outbox_undispatched').on(t.dispatchedAt, t.createdAt)],
);

export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    statusCode: integer('status_code'),
    success: bool('success').notNull().default(false),
    attempt: integer('attempt').notNull(),
    durationMs: integer('duration_ms'),
    error: text('error'),
    nextAttemptAt: text('next_attempt_at'),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_deliveries_webhook').on(t.webhookId, t.createdAt), index('webhook_deliveries_due').on(t.nextAttemptAt)],
);

export const printJobs = sqliteTable(
  'print_jobs',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    printerId: text('printer_id').references(() => printers.id),
    documentId: text('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    copies: integer('copies').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('print_jobs_org_created').on(t.orgId, t.createdAt, t.id),
    index('print_jobs_org_status_created').on(t.orgId, t.status, t.createdAt, t.id),
    index('print_jobs_document').on(t.documentId),
    // Start-up fails the jobs a crash left unfinished, across every organization; only those are in it.
    index('print_jobs_unfinished')
      .on(t.id)
      .where(sql`status IN ('queued', 'printing')`),
  ],
);

export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    credentialId: text('credential_id').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code').notNull(),
    responseBody: text('response_body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.credentialId, t.key] }), index('idempotency_created').on(t.createdAt)],
);

/**
 * Shipments per organization and status, maintained by triggers (migration 0002) rather than by
 * application code, so no write path can forget it; list totals then cost one indexed read even on
 * a million shipments.
 */
export const shipmentCounts = sqliteTable(
  'shipment_counts',
  {
    orgId: text('org_id').notNull(),
    status: text('status').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.status] })],
);

/**
 * Shipments per organization and hour of creation (`bucket` = the first 13 characters of
 * `created_at`, "2026-11-27T22"), maintained by triggers (migration 0015) as shipment_counts is.
 * A deep page of the newest-first list (issue 23) sums these newest first to the hour its first
 * row is in, then skips only within that hour instead of every newer shipment.
 */
export const shipmentHourCounts = sqliteTable(
  'shipment_hour_counts',
  {
    orgId: text('org_id').notNull(),
    bucket: text('bucket').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.bucket] })],
);

/**
 * What the lists' `search` finds (issue 20), one row per source: a shipment's own (reference, order
 * number, tracking number), each receiver's (name, e-mail, postal code), each numbered parcel's
 * (tracking and parcel number). Kept by triggers (migration 0011) so no write path can forget it;
 * the rows of a shipment are joined into its search document (`shipment_search_docs`, 0016), which
 * the trigram index holds.
 */
export const shipmentSearch = sqliteTable(
  'shipment_search',
  {
    id: integer('id').primaryKey(),
    shipmentId: text('shipment_id').notNull(),
    /** `shipment`, `receiver` or `parcel`. */
    source: text('source').notNull(),
    /** The id of the row the text comes from. */
    sourceId: text('source_id').notNull(),
    body: text('body').notNull(),
  },
  (t) => [uniqueIndex('shipment_search_source').on(t.source, t.sourceId), index('shipment_search_shipment').on(t.shipmentId)],
);

/** The same for orders: the order's own (number, customer name and e-mail) and each line's SKU (into `order_search_docs`). */
export const orderSearch = sqliteTable(
  'order_search',
  {
    id: integer('id').primaryKey(),
    orderId: text('order_id').notNull(),
    /** `order` or `line`. */
    source: text('source').notNull(),
    sourceId: text('source_id').notNull(),
    body: text('body').notNull(),
  },
  (t) => [uniqueIndex('order_search_source').on(t.source, t.sourceId), index('order_search_order').on(t.orderId)],
);

/**
 * Issue 23: every organization that has search text, numbered. The number is the high bits of its
 * search documents' ids (key << 48), so one organization's documents are one id range and a search counts its
 * matches in the trigram index without reading a row. `*_unordered` is set in the (never seen) case
 * that a document could not be placed in the list's order (search.ts then reads pages another way).
 */
export const searchOrgKeys = sqliteTable('search_org_keys', {
  key: integer('key').primaryKey(),
  orgId: text('org_id').notNull().unique(),
  shipmentsUnordered: integer('shipments_unordered').notNull().default(0),
  ordersUnordered: integer('orders_unordered').notNull().default(0),
});

/**
 * Issue 23: all of a shipment's search text in one row, its sources' bodies joined by a line break,
 * indexed by the FTS5 trigram index `shipment_search_docs_fts` (external content, rowid = id). A match
 * is then a shipment, counted without a join, and `id` rises in the list's creation order within
 * the organization's range, so the index hands out a page in the list's order. Kept by triggers from
 * `shipment_search` (migration 0016).
 */
export const shipmentSearchDocs = sqliteTable('shipment_search_docs', {
  id: integer('id').primaryKey(),
  shipmentId: text('shipment_id').notNull().unique(),
  body: text('body').notNull(),
});

/**
 * While a row is here, the search triggers leave the documents alone: a create writes its shipments'
 * rows and then their documents once (search.ts `writeSearchDocsAfter`), instead of writing each
 * document with its first row and rewriting it with every later one. Only ever filled inside a
 * transaction, which empties it again.
 */
export const searchDocDeferrals = sqliteTable('search_doc_deferrals', {
  id: integer('id').primaryKey(),
});

/** The same for orders, from `order_search` (`order_search_docs_fts`). */
export const orderSearchDocs = sqliteTable('order_search_docs', {
  id: integer('id').primaryKey(),
  orderId: text('order_id').notNull().unique(),
  body: text('body').notNull(),
});

/**
 * Collections booked with a carrier (issue 21). `status`: booked (the carrier confirmed, or `local`
 * recorded it), cancelled, failed (the carrier refused; kept with its error so the packer sees why).
 */
export const pickups = sqliteTable(
  'pickups',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    carrierId: text('carrier_id')
      .notNull()
      .references(() => carriers.id),
    senderAddressId: text('sender_address_id')
      .notNull()
      .references(() => senderAddresses.id),
    /** YYYY-MM-DD; `from`/`to` are HH:MM local time at the address. */
    date: text('date').notNull(),
    fromTime: text('from_time').notNull(),
    toTime: text('to_time').notNull(),
    parcelCount: integer('parcel_count'),
    /** Kilograms. */
    weight: real('weight'),
    instruction: text('instruction'),
    status: text('status').notNull(),
    confirmationNumber: text('confirmation_number'),
    /** The adapter's own ids of the booking, to cancel it later. */
    carrierBooking: json<Record<string, unknown>>('carrier_booking'),
    error: text('error'),
    /** The daily pickup that booked it, or null for one booked by hand. */
    dailyPickupId: text('daily_pickup_id'),
    cancelledAt: text('cancelled_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('pickups_org_created').on(t.orgId, t.createdAt, t.id),
    index('pickups_org_date').on(t.orgId, t.date),
    // A daily pickup books each working day once, however often the scheduler wakes or restarts.
    uniqueIndex('pickups_daily_date')
      .on(t.dailyPickupId, t.date)
      .where(sql`daily_pickup_id IS NOT NULL`),
  ],
);

/** A pickup that books itself each working day (issue 21). */
export const dailyPickups = sqliteTable(
  'daily_pickups',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    carrierId: text('carrier_id')
      .notNull()
      .references(() => carriers.id),
    senderAddressId: text('sender_address_id')
      .notNull()
      .references(() => senderAddresses.id),
    fromTime: text('from_time').notNull(),
    toTime: text('to_time').notNull(),
    parcelCount: integer('parcel_count'),
    weight: real('weight'),
    instruction: text('instruction'),
    /** ISO weekdays (1 = Monday … 7 = Sunday) it books on; the working week by default. */
    weekdays: json<number[]>('weekdays').notNull(),
    enabled: bool('enabled').notNull().default(true),
    /** The last date it booked (or tried to), so a restart never books a day twice. */
    lastBookedDate: text('last_booked_date'),
    deletedAt: text('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('daily_pickups_org').on(t.orgId, t.createdAt)],
);

/**
 * End-of-day handovers (issue 21). `status` closing while the carrier's manifest call runs, then
 * closed; a failed carrier call removes the close-out and its rows, so nothing is closed.
 */
export const closeOuts = sqliteTable(
  'close_outs',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    carrierId: text('carrier_id')
      .notNull()
      .references(() => carriers.id),
    senderAddressId: text('sender_address_id'),
    status: text('status').notNull(),
    shipmentCount: integer('shipment_count').notNull(),
    parcelCount: integer('parcel_count').notNull(),
    /** Kilograms. */
    weight: real('weight').notNull(),
    /** The carrier's manifest or end-of-day id, when it gives one. */
    carrierReference: text('carrier_reference'),
    /** The handover list (A4 PDF), made once when the close-out is closed. */
    document: blob('document', { mode: 'buffer' }),
    /** The carrier's own manifest document, when it returns one. */
    carrierDocument: blob('carrier_document', { mode: 'buffer' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('close_outs_org_created').on(t.orgId, t.createdAt, t.id)],
);

/**
 * The shipments each close-out handed over, as they were then. `shipment_id` is the key: a shipment
 * is in one close-out at most, which the database itself enforces under concurrent close-outs.
 */
export const closeOutShipments = sqliteTable(
  'close_out_shipments',
  {
    shipmentId: text('shipment_id').primaryKey(),
    closeOutId: text('close_out_id')
      .notNull()
      .references(() => closeOuts.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    reference: text('reference').notNull(),
    trackingNumber: text('tracking_number').notNull(),
    parcelCount: integer('parcel_count').notNull(),
    /** Kilograms. */
    weight: real('weight').notNull(),
  },
  (t) => [index('close_out_shipments_close_out').on(t.closeOutId, t.position)],
);

/** An organization's SMTP server for customer e-mails (issue 22); the password is sealed (domain/secrets.ts). */
export const emailSettings = sqliteTable('email_settings', {
  orgId: text('org_id')
    .primaryKey()
    .references(() => orgs.id),
  host: text('host').notNull(),
  port: integer('port').notNull(),
  secure: bool('secure').notNull(),
  username: text('username'),
  passwordSealed: text('password_sealed'),
  fromAddress: text('from_address').notNull(),
  /** The organization's own subject and text per e-mail kind and language, with placeholders; defaults when absent. */
  templates: json<Record<string, unknown>>('templates').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Customer e-mails (issue 22), one per shipment and kind: the unique index makes "never twice for one
 * event" the database's rule. `status` queued → sending → sent, or failed after the last attempt;
 * retried on the schedule of webhook deliveries, surviving restarts.
 */
export const emailMessages = sqliteTable(
  'email_messages',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    shipmentId: text('shipment_id').notNull(),
    /** `dispatched` or `return_label`. */
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at'),
    lastError: text('last_error'),
    /** The SMTP server's message id once accepted. */
    messageId: text('message_id'),
    sentAt: text('sent_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('email_messages_shipment_kind').on(t.shipmentId, t.kind),
    index('email_messages_org_created').on(t.orgId, t.createdAt, t.id),
    index('email_messages_due')
      .on(t.nextAttemptAt)
      .where(sql`status = 'queued'`),
  ],
);

/**
 * The write-back outbox (issue 22): one row per dispatched shipment of a storefront order, telling
 * the shop it has shipped (carrier, tracking number and link, lines). Queued in the transaction
 * that dispatches the shipment (or changes its tracking number), sent by a background task with
 * the webhook retry schedule (decisions §10).
 */
export const shopFulfillments = sqliteTable(
  'shop_fulfillments',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => orgs.id),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id),
    shipmentId: text('shipment_id').notNull(),
    orderChannelId: text('order_channel_id')
      .notNull()
      .references(() => orderChannels.id),
    /** The tracking number to send; a change queues the row again with the new one. */
    trackingNumber: text('tracking_number'),
    /** queued, sending, sent or failed (after the last attempt; a retry button queues it again). */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at'),
    lastError: text('last_error'),
    /** The shop's id of the fulfilment (Shopify Fulfillment gid) or note once written, so a tracking change updates it. */
    remoteId: text('remote_id'),
    /** The tracking number the shop has, once sent. */
    sentTrackingNumber: text('sent_tracking_number'),
    sentAt: text('sent_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('shop_fulfillments_shipment').on(t.shipmentId),
    index('shop_fulfillments_order').on(t.orderId),
    index('shop_fulfillments_due')
      .on(t.nextAttemptAt)
      .where(sql`status = 'queued'`),
  ],
);
