import { z } from 'zod';
import { requiredText, timestamp } from './common';

/** The event kinds a webhook can subscribe to (decisions §10); `ping` is only sent by the test call. */
export const eventTypes = [
  'shipment.created',
  'shipment.updated',
  'shipment.dispatched',
  'shipment.cancelled',
  'shipment.error',
  'order.created',
  'order.updated',
  'order.cancelled',
  'tracking.updated',
] as const;
export type EventType = (typeof eventTypes)[number];

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

export const webhookSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  isActive: z.boolean(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** Create, get and PATCH show the signing secret; lists never do (decisions §10). */
export const webhookWithSecretSchema = webhookSchema.extend({ secret: z.string() });
export type WebhookWithSecret = z.infer<typeof webhookWithSecretSchema>;

const webhookUrl = () => z.url({ protocol: /^https?$/, error: 'Must be an http:// or https:// URL' }).max(2000);
const webhookEvents = () =>
  z
    .array(z.enum(eventTypes))
    .min(1, 'Subscribe to at least one event')
    .max(eventTypes.length)
    .refine((events) => new Set(events).size === events.length, 'Each event may be listed once');

export const webhookCreateBody = z.strictObject({
  name: requiredText(),
  url: webhookUrl(),
  events: webhookEvents(),
  isActive: z.boolean().default(true),
});
export type WebhookInput = z.output<typeof webhookCreateBody>;

export const webhookUpdateBody = z.strictObject({
  name: requiredText().optional(),
  url: webhookUrl().optional(),
  events: webhookEvents().optional(),
  isActive: z.boolean().optional(),
});
export type WebhookUpdate = z.output<typeof webhookUpdateBody>;

/**
 * One delivery attempt (decisions §10). `event` is the event type (`shipment.created`, `ping`) —
 * a plain string rather than `{id, type}`, as the decisions spell the record; the event id travels
 * in the `Shipdesk-Event-Id` header. A retry is a new record with `attempt` one higher. An attempt
 * not yet made (it is queued) has `durationMs` null; `statusCode` is null when no answer came.
 */
export const webhookDeliverySchema = z.strictObject({
  id: z.string(),
  event: z.string(),
  statusCode: z.number().int().nullable(),
  success: z.boolean(),
  attempt: z.number().int(),
  durationMs: z.number().int().nullable(),
  error: z.string().nullable(),
  createdAt: timestamp(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
