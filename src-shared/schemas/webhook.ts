import { z } from 'zod';
import { requiredText, timestamp } from './common';

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

export const webhookSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  isActive: z.boolean(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});
/** Create, get and PATCH show the signing secret; lists never do (decisions §10). */
export const webhookWithSecretSchema = webhookSchema.extend({ secret: z.string() });

const webhookUrl = () =>
  z.url({ protocol: /^https?$/, error: 'Must be an http:// or https:// URL' }).max(2000);

export const webhookCreateBody = z.strictObject({
  name: requiredText(),
  url: webhookUrl(),
  events: z.array(z.enum(eventTypes)).min(1).max(eventTypes.length),
  isActive: z.boolean().default(true),
});
export const webhookUpdateBody = z.strictObject({
  name: requiredText().optional(),
  url: webhookUrl().optional(),
  events: z.array(z.enum(eventTypes)).min(1).max(eventTypes.length).optional(),
  isActive: z.boolean().optional(),
});
