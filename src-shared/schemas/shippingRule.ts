import { z } from 'zod';
import { countryCode, currencyCode, id, requiredText, text, timestamp } from './common';
import { carrierSchema } from './carrier';
import { senderAddressSchema } from './senderAddress';
import { checkWeightBound, weightUnits } from './shipment';

export const conditionTypes = ['weight', 'price', 'priceRange', 'flatRate'] as const;
export const priceOperators = ['gt', 'gte', 'lt', 'lte', 'eq'] as const;

export const conditionSchema = z.strictObject({
  type: z.string(),
  min: z.number().optional(),
  max: z.number().optional(),
  operator: z.enum(priceOperators).optional(),
  value: z.number().optional(),
  shippingPrice: z.number(),
  currency: z.string(),
});
export type Condition = z.infer<typeof conditionSchema>;

const amount = () => z.number().min(0).max(1e12);
const conditionPrice = { shippingPrice: amount(), currency: currencyCode() };

/** decisions §6: each condition type carries the bounds it compares with. */
export const conditionInput = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('weight'), min: z.number().min(0), max: z.number().min(0), ...conditionPrice }),
    z.strictObject({ type: z.literal('price'), operator: z.enum(priceOperators), value: amount(), ...conditionPrice }),
    z.strictObject({ type: z.literal('priceRange'), min: amount(), max: amount(), ...conditionPrice }),
    z.strictObject({ type: z.literal('flatRate'), ...conditionPrice }),
  ])
  .refine((c) => !('min' in c) || c.min <= c.max, { message: 'min must not be greater than max', path: ['min'] });
export type ConditionInput = z.output<typeof conditionInput>;

const receivingCountry = () => z.union([z.literal('*'), countryCode()]);

export const shippingRuleSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  carrierId: z.string(),
  productId: z.string(),
  services: z.array(z.string()),
  additionalParameters: z.array(z.strictObject({ name: z.string(), val: z.string() })),
  senderAddressId: z.string(),
  receivingCountries: z.array(z.string()),
  conditions: z.array(conditionSchema),
  emailNotification: z.boolean(),
  phoneNotification: z.boolean(),
  generateProformaInvoice: z.boolean(),
  generateCommercialInvoice: z.boolean(),
  generatePackingList: z.boolean(),
  autoPrintLabels: z.boolean(),
  autoPrintDocuments: z.boolean(),
  labelPrinterId: z.string().nullable(),
  documentPrinterId: z.string().nullable(),
  returnShippingRuleId: z.string().nullable(),
  autoCreateReturnShipment: z.boolean(),
  orgId: z.string(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});
export type ShippingRule = z.infer<typeof shippingRuleSchema>;

const namedRef = z.strictObject({ id: z.string(), name: z.string() });

export const shippingRuleExpandedSchema = shippingRuleSchema.extend({
  carrier: carrierSchema.omit({ senderAddress: true }),
  senderAddress: senderAddressSchema,
  labelPrinter: namedRef.optional(),
  documentPrinter: namedRef.optional(),
  returnShippingRule: namedRef.optional(),
});
export type ShippingRuleExpanded = z.infer<typeof shippingRuleExpandedSchema>;

const ruleFields = {
  description: text().nullable().optional(),
  additionalParameters: z
    .array(z.strictObject({ name: requiredText(), val: text() }))
    .max(50)
    .optional(),
  emailNotification: z.boolean().optional(),
  phoneNotification: z.boolean().optional(),
  generateProformaInvoice: z.boolean().optional(),
  generateCommercialInvoice: z.boolean().optional(),
  generatePackingList: z.boolean().optional(),
  autoPrintLabels: z.boolean().optional(),
  autoPrintDocuments: z.boolean().optional(),
  autoCreateReturnShipment: z.boolean().optional(),
  labelPrinterId: id().nullable().optional(),
  documentPrinterId: id().nullable().optional(),
  returnShippingRuleId: id().nullable().optional(),
};

export const shippingRuleCreateBody = z.strictObject({
  name: requiredText(),
  carrierId: id(),
  productId: z.string().min(1).max(100),
  services: z.array(z.string().min(1).max(100)).max(50),
  senderAddressId: id(),
  receivingCountries: z.array(receivingCountry()).min(1).max(300),
  conditions: z.array(conditionInput).max(100),
  ...ruleFields,
});
export type ShippingRuleCreateInput = z.output<typeof shippingRuleCreateBody>;

export const shippingRuleUpdateBody = z.strictObject({
  name: requiredText().optional(),
  carrierId: id().optional(),
  productId: z.string().min(1).max(100).optional(),
  services: z.array(z.string().min(1).max(100)).max(50).optional(),
  senderAddressId: id().optional(),
  receivingCountries: z.array(receivingCountry()).min(1).max(300).optional(),
  conditions: z.array(conditionInput).max(100).optional(),
  ...ruleFields,
});
export type ShippingRuleUpdateInput = z.output<typeof shippingRuleUpdateBody>;

export const shippingRuleMatchBody = z
  .strictObject({
    countryCode: countryCode(),
    weight: z.number().min(0),
    weightUnit: z.enum(weightUnits).default('kg'),
    orderTotal: amount().optional(),
    currency: currencyCode().optional(),
  })
  .superRefine(checkWeightBound);
export type ShippingRuleMatchInput = z.output<typeof shippingRuleMatchBody>;

export const shippingRuleMatchResponse = z.strictObject({
  matches: z.array(
    z.strictObject({
      shippingRuleId: z.string(),
      name: z.string(),
      shippingPrice: z.number(),
      currency: z.string(),
      condition: conditionSchema.nullable(),
    }),
  ),
});
