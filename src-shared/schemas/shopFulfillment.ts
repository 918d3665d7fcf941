import { z } from 'zod';
import { timestamp } from './common';

/** queued: waiting for its attempt; sending: being written now; sent: the shop has it; failed: after the last attempt. */
export const shopFulfillmentStatuses = ['queued', 'sending', 'sent', 'failed'] as const;
export type ShopFulfillmentStatus = (typeof shopFulfillmentStatuses)[number];

/**
 * What the shop was told about one dispatched shipment of a storefront order (issue 22): the write-back
 * outbox row as the order shows it.
 */
export const shopFulfillmentSchema = z.strictObject({
  id: z.string(),
  orderId: z.string(),
  shipmentId: z.string(),
  shipmentReference: z.string(),
  platform: z.enum(['shopify', 'woocommerce']),
  status: z.enum(shopFulfillmentStatuses),
  /** The tracking number to send (a change queues the row again). */
  trackingNumber: z.string().nullable(),
  /** The tracking number the shop has, once sent. */
  sentTrackingNumber: z.string().nullable(),
  sentAt: timestamp().nullable(),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  nextAttemptAt: timestamp().nullable(),
  /** The shop's answer to the last failed attempt, in plain words; null after a success. */
  lastError: z.string().nullable(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});
export type ShopFulfillmentRead = z.infer<typeof shopFulfillmentSchema>;

export const shopFulfillmentListSchema = z.strictObject({ items: z.array(shopFulfillmentSchema) });
