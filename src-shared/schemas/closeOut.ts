import { z } from 'zod';
import { id, pageQuery, timestamp } from './common';
import { MAX_PRINT_COPIES } from './printing';

/**
 * The end-of-day handover (issue 21, docs/decisions.md "Close-outs"): every dispatched shipment of one
 * carrier not yet handed over, closed at once, with a handover list for the driver to sign.
 */

/** How far back a dispatched shipment still waits for a close-out; older ones are taken as handed over. */
export const CLOSE_OUT_WINDOW_DAYS = 7;

export const closeOutStatuses = ['closing', 'closed'] as const;

export const closeOutCreateBody = z.strictObject({
  carrierId: id().describe('The carrier whose dispatched shipments are handed over'),
  senderAddressId: id().optional().describe('Only the shipments sent from this sender address; without it, every sender address'),
});
export type CloseOutCreateInput = z.output<typeof closeOutCreateBody>;

export const closeOutTotals = z.strictObject({
  shipments: z.number().int(),
  parcels: z.number().int(),
  /** Kilograms. */
  weight: z.number().describe('Kilograms'),
});

export const closeOutShipment = z.strictObject({
  id: z.string(),
  reference: z.string(),
  trackingNumber: z.string(),
  parcelCount: z.number().int(),
  weight: z.number().describe('Kilograms'),
});

const closeOutFields = {
  id: z.string(),
  carrierId: z.string(),
  senderAddressId: z.string().nullable(),
  /** `closing` only while the carrier's manifest call runs. */
  status: z.enum(closeOutStatuses),
  carrierReference: z.string().nullable().describe("The carrier's manifest or end-of-day id, when it gives one"),
  createdAt: timestamp(),
  totals: closeOutTotals,
};

/** A close-out as the list shows it: without its shipments, so a page stays small however busy the days were. */
export const closeOutSummary = z.strictObject(closeOutFields);
export type CloseOutSummary = z.infer<typeof closeOutSummary>;

export const closeOutSchema = z.strictObject({ ...closeOutFields, shipments: z.array(closeOutShipment) });
export type CloseOut = z.infer<typeof closeOutSchema>;

export const closeOutListQuery = pageQuery.extend({ carrierId: id().optional() });
export type CloseOutListQuery = z.output<typeof closeOutListQuery>;

/** What waits for the next close-out, per carrier (the End of day screen). */
export const closeOutWaiting = z.strictObject({
  data: z.array(z.strictObject({ carrierId: z.string(), shipments: z.number().int(), parcels: z.number().int(), weight: z.number() })),
});
export type CloseOutWaiting = z.infer<typeof closeOutWaiting>;

export const closeOutPrintBody = z.strictObject({
  printerId: id().optional().describe("A PDF printer; without it, the organization's default PDF printer"),
  copies: z.number().int().min(1).max(MAX_PRINT_COPIES).optional().describe('1 to 10, default 1'),
});
export type CloseOutPrintInput = z.output<typeof closeOutPrintBody>;

export const closeOutPrintResult = z.strictObject({
  printerId: z.string(),
  printerName: z.string(),
  pageCount: z.number().int(),
  printedAt: timestamp(),
  message: z.string(),
});
export type CloseOutPrintResult = z.infer<typeof closeOutPrintResult>;
