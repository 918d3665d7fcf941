import { z } from 'zod';
import { emailLanguages } from '../emailTemplates';
import { countryCode, email, eoriNumber, requiredText, text, timestamp } from './common';

export const plans = ['starter', 'pro', 'unlimited'] as const;

/** Add-ons an organization can have on top of its plan (decisions §11), set with `shipdesk org set-add-on`. */
export const addOnTypes = ['extra_carrier'] as const;
export type AddOnType = (typeof addOnTypes)[number];
export type Plan = (typeof plans)[number];
/** About half an A4 page of text on the packing slip. */
export const MAX_RETURN_INSTRUCTIONS = 2000;
export const orgCurrencies = ['DKK', 'EUR', 'USD', 'GBP', 'SEK', 'NOK'] as const;

export const organizationSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable(),
  currency: z.enum(orgCurrencies),
  vatNumber: z.string().nullable(),
  /** The export identifier printed on customs papers and sent to carriers (issue 21). */
  eoriNumber: z.string().nullable(),
  billingEmail: z.string().nullable(),
  companyName: z.string().nullable(),
  addressLine1: z.string().nullable(),
  addressLine2: z.string().nullable(),
  city: z.string().nullable(),
  postalCode: z.string().nullable(),
  country: z.string().nullable(),
  overageEnabled: z.boolean(),
  plan: z.enum(plans),
  /** Printed on every packing slip: how the customer sends something back (issue 20). */
  returnInstructions: z.string().nullable(),
  /** The language of customer e-mails (issue 22). */
  language: z.enum(emailLanguages),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});
export type Organization = z.infer<typeof organizationSchema>;

/** Interface §4.7: no field is required. */
export const organizationUpdateBody = z.strictObject({
  name: requiredText().optional(),
  slug: z
    .string()
    .min(1)
    // decisions §1: text fields ≤ 1000 characters unless stated; interface §4.7 states no maximum.
    .max(1000)
    .regex(/^[a-z0-9-]+$/, 'Only lower-case letters, digits and hyphens')
    .optional(),
  description: text().optional(),
  currency: z.enum(orgCurrencies).optional(),
  vatNumber: text().nullable().optional(),
  eoriNumber: eoriNumber().nullable().optional().describe('The export identifier (EORI) for customs; null clears it'),
  overageEnabled: z.boolean().optional(),
  billingEmail: email().nullable().optional(),
  companyName: text().nullable().optional(),
  addressLine1: text().nullable().optional(),
  addressLine2: text().nullable().optional(),
  city: text().nullable().optional(),
  postalCode: text().nullable().optional(),
  country: countryCode().nullable().optional(),
  returnInstructions: z.string().max(MAX_RETURN_INSTRUCTIONS).nullable().optional().describe('Printed on every packing slip; null clears it'),
  language: z.enum(emailLanguages).optional().describe('The language of customer e-mails: en or da'),
});
export type OrganizationUpdate = z.infer<typeof organizationUpdateBody>;

const limitSchema = z.strictObject({ used: z.number().int(), limit: z.number().int() });

export const usageSchema = z.strictObject({
  currentPeriod: z.strictObject({ start: timestamp(), end: timestamp() }),
  shipments: z.strictObject({
    used: z.number().int(),
    included: z.number().int(),
    overage: z.number().int(),
    overageCharges: z.number().int().describe('minor units of the organization currency'),
  }),
  limits: z.strictObject({
    teamMembers: limitSchema,
    carriers: limitSchema,
    orderChannels: limitSchema,
    shippingRules: limitSchema,
    senderAddresses: limitSchema,
    apiTokens: limitSchema,
  }),
  addOns: z.array(
    z.strictObject({
      type: z.string(),
      quantity: z.number().int(),
      unitPrice: z.number().int(),
      totalPrice: z.number().int(),
    }),
  ),
});
export type Usage = z.infer<typeof usageSchema>;
export type LimitName = keyof Usage['limits'];
