import { z } from 'zod';
import { id, timestamp } from './common';
import { MAX_PRINT_COPIES } from './printing';

/**
 * Orders one PDF may hold, so one request's render stays near half a second (decisions §1 "Bounded
 * work"): a pick list is one table (500 orders ≈ 0.6 s), packing slips a page each (100 ≈ 0.7 s).
 */
export const MAX_PICK_LIST_ORDERS = 500;
export const MAX_PACKING_SLIP_ORDERS = 100;
export type OrderPaperKind = 'pickList' | 'packingSlips';
export const maxOrdersOf: Record<OrderPaperKind, number> = { pickList: MAX_PICK_LIST_ORDERS, packingSlips: MAX_PACKING_SLIP_ORDERS };

/** Which orders a pick list or packing slips are for: the ones named, or every pending order. */
function selectionFields(max: number) {
  return {
    orderIds: z.array(id()).min(1).max(max).optional().describe(`1 to ${max} orders of the organization; give this or allPending`),
    allPending: z.literal(true).optional().describe(`Every pending order, oldest first (at most ${max}); give this or orderIds`),
    carrierId: id().optional().describe("Only the orders whose shipping rule (the order's own, else the best match) books with this carrier"),
  };
}

function oneSelection(body: { orderIds?: string[] | undefined; allPending?: true | undefined }, context: z.RefinementCtx): void {
  if ((body.orderIds === undefined) === (body.allPending === undefined)) {
    context.addIssue({ code: 'custom', path: ['orderIds'], message: 'Give either orderIds or allPending: true' });
  }
}

const paperBody = (max: number) => z.strictObject(selectionFields(max)).superRefine(oneSelection);
const printBody = (max: number) =>
  z
    .strictObject({
      ...selectionFields(max),
      printerId: id().optional().describe("A PDF printer; without it, the organization's default PDF printer"),
      copies: z.number().int().min(1).max(MAX_PRINT_COPIES).optional().describe('1 to 10, default 1'),
    })
    .superRefine(oneSelection);

export const pickListBody = paperBody(MAX_PICK_LIST_ORDERS);
export const pickListPrintBody = printBody(MAX_PICK_LIST_ORDERS);
export const packingSlipsBody = paperBody(MAX_PACKING_SLIP_ORDERS);
export const packingSlipsPrintBody = printBody(MAX_PACKING_SLIP_ORDERS);
export type OrderPaperInput = z.output<typeof pickListBody>;
export type OrderPaperPrintInput = z.output<typeof pickListPrintBody>;

export const orderPaperPrintResult = z.strictObject({
  printerId: z.string(),
  printerName: z.string(),
  orderCount: z.number().int(),
  pageCount: z.number().int(),
  printedAt: timestamp(),
  message: z.string(),
});
export type OrderPaperPrintResult = z.infer<typeof orderPaperPrintResult>;
