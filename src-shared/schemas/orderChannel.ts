import { z } from 'zod';
import { requiredText, timestamp } from './common';

export const orderChannelTypes = ['manual', 'csv', 'shopify', 'woocommerce'] as const;

export const orderChannelSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  type: z.enum(orderChannelTypes),
  config: z.record(z.string(), z.unknown()),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});
export type OrderChannel = z.infer<typeof orderChannelSchema>;

const channelConfig = z.record(z.string(), z.union([z.string().max(1000), z.number(), z.boolean()]));

export const orderChannelCreateBody = z.strictObject({
  name: requiredText(),
  type: z.enum(orderChannelTypes),
  config: channelConfig.default({}),
});
export const orderChannelUpdateBody = z.strictObject({
  name: requiredText().optional(),
  config: channelConfig.optional(),
});
