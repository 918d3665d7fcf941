/**
 * Bulk actions on a selection of shipments (issue 20): each is a batch of at most 100, like batch send
 * (decisions §8), answering one result per shipment in the order of the ids; one failure never stops
 * the rest. The export is a read of up to 10 000 shipments as CSV.
 */
import { z } from 'zod';
import { id } from './common';
import { MAX_PRINT_COPIES, printJobSchema } from './printing';

export const MAX_BULK = 100;
export const MAX_EXPORT = 10_000;

/** Ids of a bulk action: each at most once, so one click never prints a label twice or cancels twice. */
const shipmentIds = (max: number) =>
  z
    .array(id())
    .min(1)
    .max(max)
    .superRefine((ids, ctx) => {
      const seen = new Set<string>();
      ids.forEach((shipmentId, index) => {
        if (seen.has(shipmentId)) ctx.addIssue({ code: 'custom', path: [index], message: 'This shipment is already in the list; give each shipment once' });
        seen.add(shipmentId);
      });
    });

export const bulkBody = z.strictObject({ shipmentIds: shipmentIds(MAX_BULK) });
export type BulkInput = z.output<typeof bulkBody>;

export const bulkApplyRuleBody = z.strictObject({
  shipmentIds: shipmentIds(MAX_BULK),
  shippingRuleId: id().describe('The rule whose carrier, product, services and sender address each shipment takes (as PATCH shippingRuleId does)'),
});

export const bulkPrintBody = z.strictObject({
  shipmentIds: shipmentIds(MAX_BULK),
  printerId: id().optional().describe("Without it, each label goes to the organization's default printer for its format"),
  copies: z.number().int().min(1).max(MAX_PRINT_COPIES).optional().describe('1 to 10, default 1'),
});
export type BulkPrintInput = z.output<typeof bulkPrintBody>;

export const bulkResultSchema = z.strictObject({
  shipmentId: z.string(),
  status: z.enum(['done', 'failed']),
  code: z.string().optional(),
  message: z.string().optional(),
});
export type BulkResult = z.infer<typeof bulkResultSchema>;

export const bulkResponse = z.strictObject({
  results: z.array(bulkResultSchema),
  summary: z.strictObject({ total: z.number().int(), done: z.number().int(), failed: z.number().int() }),
});
export type BulkResponse = z.infer<typeof bulkResponse>;

/** Print adds the jobs, in the order they were queued: each printer prints its share in the ids' order. */
export const bulkPrintResponse = bulkResponse.extend({ printJobs: z.array(printJobSchema) });
export type BulkPrintResponse = z.infer<typeof bulkPrintResponse>;

export const exportBody = z.strictObject({ shipmentIds: shipmentIds(MAX_EXPORT) });

/** The export's columns, in order: the CSV's header line. One place, so the docs and the app agree. */
export const exportColumns = [
  'reference',
  'status',
  'type',
  'createdAt',
  'carrier',
  'product',
  'shippingRule',
  'orderNumber',
  'receiverName',
  'receiverCompany',
  'receiverAddress1',
  'receiverPostalCode',
  'receiverCity',
  'receiverCountryCode',
  'receiverEmail',
  'parcels',
  'weightKg',
  'trackingNumber',
  'trackingStatus',
  'trackingUrl',
  'id',
] as const;
export type ExportColumn = (typeof exportColumns)[number];
