import { z } from 'zod';
import { booleanParam, id, noBody, pageQuery, timestamp } from './common';

/**
 * Pickups (issue 21): a collection booked with a carrier, by hand or by a daily pickup that books
 * itself each working day. Times are HH:MM local time at the sender address; weights in kilograms.
 */

/** The most characters of a pickup instruction: what the carriers' pickup APIs carry (Karrio's is 50). */
export const MAX_PICKUP_INSTRUCTION = 50;
export const MAX_PICKUP_PARCELS = 999;
/** Kilograms; a truck load, so an extra zero is caught. */
export const MAX_PICKUP_WEIGHT = 30_000;

export const pickupStatuses = ['booking', 'booked', 'cancelled', 'failed'] as const;
export type PickupStatus = (typeof pickupStatuses)[number];

const clockTime = () =>
  z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'Must be a time of day as HH:MM, e.g. 15:30' })
    .describe('HH:MM, local time at the sender address');

const day = () => z.iso.date({ message: 'Must be a date as YYYY-MM-DD, e.g. 2026-11-27' });

const optionalDetails = {
  parcelCount: z.number().int({ message: 'Must be a whole number' }).min(1).max(MAX_PICKUP_PARCELS).optional(),
  weight: z.number().positive().max(MAX_PICKUP_WEIGHT).optional().describe('Total kilograms'),
  instruction: z
    .string()
    .max(MAX_PICKUP_INSTRUCTION)
    .transform((text) => text.trim() || undefined)
    .optional()
    .describe(`For the driver, e.g. "Ring at gate 2"; at most ${MAX_PICKUP_INSTRUCTION} characters`),
};

/** `from` before `to`, named on `to` so a form shows it beside the field the user fixes. */
function windowInOrder(value: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx) {
  if (value.from !== undefined && value.to !== undefined && value.from >= value.to) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'Must be later than the start of the pickup window' });
  }
}

export const pickupBookBody = z
  .strictObject({
    date: day(),
    from: clockTime(),
    to: clockTime(),
    senderAddressId: id(),
    ...optionalDetails,
  })
  .superRefine(windowInOrder);
export type PickupBookInput = z.output<typeof pickupBookBody>;

export const pickupSchema = z.strictObject({
  id: z.string(),
  carrierId: z.string(),
  senderAddressId: z.string(),
  date: z.string(),
  from: z.string(),
  to: z.string(),
  parcelCount: z.number().int().nullable(),
  weight: z.number().nullable(),
  instruction: z.string().nullable(),
  status: z.enum(pickupStatuses),
  /** The carrier's confirmation number; for `local`, Shipdesk's own. */
  confirmationNumber: z.string().nullable(),
  /** Why it failed, in the carrier's words and ours. */
  error: z.string().nullable(),
  /** What the user must still do: set when it was cancelled here but the carrier could not be told through its API. */
  notice: z.string().nullable(),
  dailyPickupId: z.string().nullable(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});
export type Pickup = z.output<typeof pickupSchema>;

export const pickupListQuery = pageQuery.extend({
  carrierId: id().optional(),
  status: z.enum(pickupStatuses).optional(),
  date: day().optional(),
  dateFrom: day().optional().describe('Pickups on this day or later'),
  dateTo: day().optional().describe('Pickups on this day or earlier'),
});
export type PickupListQuery = z.output<typeof pickupListQuery>;

export const pickupCancelBody = noBody;

/** ISO weekdays: 1 = Monday … 7 = Sunday. */
export const weekdaysSchema = z
  .array(z.number().int().min(1).max(7))
  .min(1, { message: 'Choose at least one weekday' })
  .max(7)
  .refine((days) => new Set(days).size === days.length, { message: 'Each weekday once' })
  .transform((days) => [...days].sort((a, b) => a - b));

export const WORKING_WEEK = [1, 2, 3, 4, 5];

const dailyFields = {
  carrierId: id(),
  senderAddressId: id(),
  from: clockTime(),
  to: clockTime(),
  ...optionalDetails,
  weekdays: weekdaysSchema.optional().describe('ISO weekdays it books on (1 = Monday … 7 = Sunday); Monday to Friday by default'),
  enabled: booleanParam().optional().describe('true by default'),
};

export const dailyPickupCreateBody = z.strictObject(dailyFields).superRefine(windowInOrder);
export type DailyPickupCreateInput = z.output<typeof dailyPickupCreateBody>;

// The carrier stays: a daily pickup for another carrier is another daily pickup. null clears a detail.
export const dailyPickupUpdateBody = z
  .strictObject({
    senderAddressId: id().optional(),
    from: clockTime().optional(),
    to: clockTime().optional(),
    parcelCount: optionalDetails.parcelCount.nullable(),
    weight: optionalDetails.weight.nullable(),
    instruction: optionalDetails.instruction.nullable(),
    weekdays: dailyFields.weekdays,
    enabled: dailyFields.enabled,
  })
  .superRefine(windowInOrder);
export type DailyPickupUpdateInput = z.output<typeof dailyPickupUpdateBody>;

export const dailyPickupSchema = z.strictObject({
  id: z.string(),
  carrierId: z.string(),
  senderAddressId: z.string(),
  from: z.string(),
  to: z.string(),
  parcelCount: z.number().int().nullable(),
  weight: z.number().nullable(),
  instruction: z.string().nullable(),
  weekdays: z.array(z.number().int()),
  enabled: z.boolean(),
  /** The last day it booked (or tried to). */
  lastBookedDate: z.string().nullable(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});
export type DailyPickup = z.output<typeof dailyPickupSchema>;
