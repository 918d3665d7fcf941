import { z } from 'zod';
import { countryCode, email, openObject, requiredText, text, timestamp } from './common';

export const customsSchema = z.record(z.string(), z.unknown());

export const senderAddressSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  attContact: z.string(),
  address1: z.string(),
  address2: z.string().nullable(),
  zipcode: z.string(),
  city: z.string(),
  phone: z.string(),
  countryCode: z.string(),
  state: z.string(),
  /** Left out when the address has none: an email, never "" (interface 2.6: email format). */
  email: z.string().optional(),
  orgId: z.string(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
  customs: customsSchema.optional(),
});
export type SenderAddress = z.infer<typeof senderAddressSchema>;

export const senderAddressCreateBody = z.strictObject({
  name: requiredText(),
  attContact: text().optional(),
  address1: requiredText(),
  address2: text().nullable().optional(),
  zipcode: requiredText(),
  city: requiredText(),
  phone: text().optional(),
  countryCode: countryCode(),
  state: text().optional(),
  /** '' clears it: an address without an email. */
  email: z.union([email(), z.literal('')]).optional(),
  customs: openObject().optional(),
});
export type SenderAddressInput = z.infer<typeof senderAddressCreateBody>;

/** PUT updates the fields it is given (as the organization PUT does). */
export const senderAddressUpdateBody = senderAddressCreateBody.partial();
