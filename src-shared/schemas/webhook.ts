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
