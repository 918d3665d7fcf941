import { z } from 'zod';
import { countryCode, email, eoriNumber, openValueProblems, requiredText, text, timestamp } from './common';

/**
 * A sender address's `customs`: open (interface 2.6 leaves its inner structure to the user), with two
 * keys Shipdesk reads (issue 21): `eoriNumber` and `vatNumber` of the exporter shipping from this
 * address, which override the organization's on the customs declaration and papers.
 */
export const customsSchema = z.looseObject({
  eoriNumber: z.string().nullable().optional(),
  vatNumber: z.string().nullable().optional(),
});

export const customsInput = z
  .looseObject({
    eoriNumber: eoriNumber().nullable().optional().describe("Overrides the organization's EORI number for shipments from this address"),
    vatNumber: text().nullable().optional().describe("Overrides the organization's VAT number for shipments from this address"),
  })
  .superRefine((value, ctx) => {
    for (const problem of openValueProblems(value)) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  });

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
  customs: customsInput.optional(),
});
export type SenderAddressInput = z.infer<typeof senderAddressCreateBody>;

/** PUT updates the fields it is given (as the organization PUT does). */
export const senderAddressUpdateBody = senderAddressCreateBody.partial();
