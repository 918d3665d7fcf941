import { z } from 'zod';
import { requiredText, text, timestamp } from './common';

export const orderChannelTypes = ['manual', 'csv', 'shopify', 'woocommerce'] as const;
export type OrderChannelType = (typeof orderChannelTypes)[number];

/**
 * Config keys that hold storefront credentials: sealed at rest and masked in every read. They are
 * sealed whatever the channel type, so a credential is never stored in plain text by mistake.
 */
export const orderChannelSecretKeys = ['accessToken', 'consumerKey', 'consumerSecret'] as const;

export const orderChannelSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  type: z.enum(orderChannelTypes),
  config: z.record(z.string(), z.unknown()),
  /**
   * A storefront channel's scheduled sync (issue 22): when the last run ended well, when the next is
   * due (null when `config.syncIntervalMinutes` is 0) and the last run's error (null after a good run).
   * Null for manual and CSV channels, which have nothing to sync.
   */
  sync: z
    .strictObject({
      lastSyncedAt: timestamp().nullable(),
      nextSyncAt: timestamp().nullable(),
      lastError: z.string().nullable(),
    })
    .nullable(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});
export type OrderChannel = z.infer<typeof orderChannelSchema>;

/** Manual and CSV channels need nothing; they may keep simple settings of their own. */
const openConfig = z.record(z.string(), z.union([text(), z.number(), z.boolean()], { error: 'Must be text, a number or true/false' }));

/** Minutes between scheduled syncs of a storefront channel; 0 turns the schedule off. */
export const defaultSyncIntervalMinutes = 10;
const syncIntervalMinutes = z
  .number({ error: 'Must be a whole number of minutes from 0 to 1440' })
  .int('Must be a whole number of minutes from 0 to 1440')
  .min(0, 'Must be a whole number of minutes from 0 to 1440')
  .max(1440, 'Must be a whole number of minutes from 0 to 1440')
  .default(defaultSyncIntervalMinutes);

const shopifyConfig = z.strictObject({
  shopDomain: z
    .string()
    .trim()
    .toLowerCase()
    // A URL pasted from the browser's address bar (https://acme.myshopify.com/admin) names the shop too.
    .transform((value) => value.replace(/^https?:\/\//, '').replace(/[/?#].*$/, ''))
    .pipe(z.string().regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/, "Must be the shop's myshopify.com domain, e.g. acme.myshopify.com")),
  accessToken: requiredText(),
  syncIntervalMinutes,
});

const woocommerceConfig = z.strictObject({
  siteUrl: z.url({ protocol: /^https$/, error: 'Must be an https:// URL of the shop' }).max(2000),
  consumerKey: requiredText(),
  consumerSecret: requiredText(),
  syncIntervalMinutes,
});

/** What each type's `config` must hold; PATCH checks the new config against the stored type. */
export const orderChannelConfigSchemas = {
  manual: openConfig,
  csv: openConfig,
  shopify: shopifyConfig,
  woocommerce: woocommerceConfig,
} satisfies Record<OrderChannelType, z.ZodType>;

// One variant per type, so a missing credential is reported at its own path (body.config.accessToken).
export const orderChannelCreateBody = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ name: requiredText(), type: z.literal('manual'), config: openConfig.default({}) }),
    z.strictObject({ name: requiredText(), type: z.literal('csv'), config: openConfig.default({}) }),
    z.strictObject({ name: requiredText(), type: z.literal('shopify'), config: shopifyConfig }),
    z.strictObject({ name: requiredText(), type: z.literal('woocommerce'), config: woocommerceConfig }),
  ],
  {
    // Without this, an unknown or missing type reads "Not one of the accepted forms".
    error: (issue) => {
      if (issue.code !== 'invalid_union') return undefined;
      const given = issue.input !== null && typeof issue.input === 'object' ? (issue.input as { type?: unknown }).type : undefined;
      return given === undefined ? 'Required' : `Must be one of: ${orderChannelTypes.join(', ')}`;
    },
  },
);
export type OrderChannelInput = z.output<typeof orderChannelCreateBody>;

/**
 * `type` is fixed after create. A new `config` replaces the old one whole; a secret sent back as the
 * masked value a read showed keeps the stored secret.
 */
export const orderChannelUpdateBody = z.strictObject({
  name: requiredText().optional(),
  config: openConfig.optional(),
});
export type OrderChannelUpdate = z.output<typeof orderChannelUpdateBody>;

/**
 * What `POST /order-channels/{id}/sync` answers: orders imported, orders brought up to the shop's
 * change (`updated`: cancelled or edited before any shipment), changes held for the user (`held`),
 * orders already there and unchanged (`skipped`); an order that could not be imported or updated is
 * in `errors`.
 */
export const orderChannelSyncResultSchema = z.strictObject({
  created: z.number().int(),
  updated: z.number().int(),
  held: z.number().int(),
  skipped: z.number().int(),
  errors: z.array(z.strictObject({ externalId: z.string(), message: z.string() })),
});
export type OrderChannelSyncResult = z.infer<typeof orderChannelSyncResultSchema>;
