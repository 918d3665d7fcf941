/**
 * The pick list and the packing slips of a selection of orders (issue 20; docs/decisions.md "Pick
 * lists and packing slips"): rendered on request from the orders as they are now, never stored, so
 * they need no shipment and no migration. Printing goes straight through the printer's driver, like
 * a printer's test label: there is no document row for a print job to point at.
 */
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import {
  maxOrdersOf,
  type OrderPaperKind,
  type OrderPaperInput,
  type OrderPaperPrintInput,
  type OrderPaperPrintResult,
} from '../../../src-shared/schemas/orderPapers';
import type { AppContext } from '../../app/kernel/context';
import type { BinaryResult } from '../../app/kernel/handler';
import { orderLines, orders } from '../../db/schema';
import type { ReadDb } from '../../db/tx';
import { renderPackingSlips, type PackingSlip } from '../../documents/packingSlip';
import { pickListRows, renderPickList } from '../../documents/pickList';
import { findCarrierRow } from '../carriers/carrierRows';
import { findOrgRow } from '../orgs/orgs';
import { printPaperPdf } from '../printing/paperPrint';
import { matchShippingRules } from '../shippingRules/match';
import { liveShippingRuleRow } from '../shippingRules/rules';
import type { OrderRow } from '../shipments/fromOrder';
import { toKg } from '../units';
import { placedQuantities } from './allocation';
import { orderLineSku } from './placement';

type OrderLineRow = typeof orderLines.$inferSelect;

interface Selection {
  orders: OrderRow[];
  /** What narrowed the orders, in words for the paper's header. */
  notes: string[];
}

/** The orders a body names (in its order, each once), or every pending one, oldest first; then those of one carrier. */
function selectOrders(db: ReadDb, orgId: string, input: OrderPaperInput, kind: OrderPaperKind): Selection {
  const notes: string[] = [];
  let chosen: OrderRow[];
  if (input.orderIds) {
    const ids = [...new Set(input.orderIds)];
    const rows = new Map(
      db
        .select()
        .from(orders)
        .where(and(eq(orders.orgId, orgId), inArray(orders.id, ids)))
        .all()
        .map((row) => [row.id, row]),
    );
    const unknown = ids.find((orderId) => !rows.has(orderId));
    if (unknown) throw new ApiError('ORDER_NOT_FOUND', `Order ${unknown} does not exist in this organization`);
    chosen = ids.map((orderId) => rows.get(orderId) as OrderRow);
  } else {
    const pending = and(eq(orders.orgId, orgId), eq(orders.status, 'pending'));
    chosen = db.select().from(orders).where(pending).orderBy(asc(orders.createdAt), asc(orders.id)).limit(maxOrdersOf[kind]).all();
    const total = db.select({ n: count() }).from(orders).where(pending).get()?.n ?? 0;
    if (total > chosen.length) notes.push(`The ${chosen.length} oldest of ${total} pending orders`);
  }
  if (input.carrierId) {
    const carrier = findCarrierRow(db, orgId, input.carrierId);
    chosen = chosen.filter((order) => carrierOfOrder(db, orgId, order) === carrier.id);
    notes.push(`Only orders for ${carrier.name}`);
  }
  return { orders: chosen, notes };
}

/**
 * The carrier a shipment made from the order would get by rule: the order's own live rule, else the
 * best match for where it goes, what it weighs and costs (orderShipment.ts decides the same way).
 * An order without an address matches no rule.
 */
function carrierOfOrder(db: ReadDb, orgId: string, order: OrderRow): string | null {
  const own = order.shippingRuleId ? liveShippingRuleRow(db, orgId, order.shippingRuleId) : undefined;
  if (own) return own.carrierId;
  if (!order.shippingAddress) return null;
  const weightKg = shippableLines(db, order.id).reduce((sum, line) => sum + (line.weight === null ? 0 : toKg(line.weight, line.weightUnit) * line.quantity), 0);
  const match = matchShippingRules(db, orgId, {
    countryCode: order.shippingAddress.countryCode,
    weightKg,
    ...(order.totalAmount !== null ? { orderTotal: order.totalAmount } : {}),
    ...(order.currency ? { currency: order.currency } : {}),
  })[0];
  return match?.rule.carrierId ?? null;
}

function shippableLines(db: ReadDb, orderId: string): OrderLineRow[] {
  return db
    .select()
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), eq(orderLines.requiresShipping, true)))
    .orderBy(asc(orderLines.position))
    .all();
}

/**
 * What is still to be picked of an order: its shippable lines less the units its booked shipments
 * carry. A shipment not yet booked still needs its goods picked, so it takes nothing off; a
 * cancelled order needs nothing.
 */
function linesToPick(db: ReadDb, order: OrderRow): { line: OrderLineRow; quantity: number }[] {
  if (order.status === 'cancelled') return [];
  const booked = placedQuantities(db, order.id, ['dispatched', 'partly_dispatched']);
  return shippableLines(db, order.id)
    .map((line) => ({ line, quantity: line.quantity - (booked.get(line.id) ?? 0) }))
    .filter(({ quantity }) => quantity > 0);
}

/** The selection's orders, or 409 when none is left to pick or pack (an empty paper helps nobody). */
function nonEmpty(selection: Selection, input: OrderPaperInput): Selection {
  if (selection.orders.length > 0) return selection;
  const which = input.allPending ? 'No pending order' : 'None of the chosen orders';
  throw new ApiError('ORDER_INVALID_STATE', `${which}${input.carrierId ? ' goes with that carrier by its shipping rule' : ' is left'}; nothing to print`);
}

function orgName(db: ReadDb, orgId: string): string {
  const org = findOrgRow(db, orgId);
  return org.companyName || org.name;
}

async function pickListPdf(app: AppContext, orgId: string, input: OrderPaperInput): Promise<{ pdf: Buffer; pageCount: number; orderCount: number }> {
  const selection = nonEmpty(selectOrders(app.db, orgId, input, 'pickList'), input);
  const lines = selection.orders.flatMap((order) =>
    linesToPick(app.db, order).map(({ line, quantity }) => ({
      location: line.location,
      sku: orderLineSku(line),
      name: line.name,
      quantity,
      orderNumber: order.orderNumber,
    })),
  );
  const rendered = await renderPickList({
    orgName: orgName(app.db, orgId),
    createdAt: app.now().toISOString(),
    orderCount: selection.orders.length,
    notes: selection.notes,
    rows: pickListRows(lines),
  });
  return { ...rendered, orderCount: selection.orders.length };
}

async function packingSlipsPdf(app: AppContext, orgId: string, input: OrderPaperInput): Promise<{ pdf: Buffer; pageCount: number; orderCount: number }> {
  const selection = nonEmpty(selectOrders(app.db, orgId, input, 'packingSlips'), input);
  const org = findOrgRow(app.db, orgId);
  const name = org.companyName || org.name;
  const addressLines = [org.addressLine1, org.addressLine2, [org.postalCode, org.city].filter(Boolean).join(' '), org.country].filter((line): line is string =>
    Boolean(line),
  );
  const slips: PackingSlip[] = [];
  for (const order of selection.orders) {
    const address = order.shippingAddress;
    slips.push({
      orderNumber: order.orderNumber,
      orderDate: order.createdAt,
      customerName: order.customerName,
      shipTo: address
        ? {
            name: address.name,
            company: address.company && address.company !== address.name ? address.company : null,
            attention: address.attention ?? null,
            address1: address.address1,
            address2: address.address2 ?? null,
            postalCode: address.postalCode,
            city: address.city,
            countryCode: address.countryCode,
          }
        : null,
      // The whole order as the customer bought it: a slip lists what the box should hold.
      lines:
        order.status === 'cancelled'
          ? []
          : shippableLines(app.db, order.id).map((line) => ({ sku: orderLineSku(line), name: line.name, quantity: line.quantity })),
    });
  }
  const rendered = await renderPackingSlips({ sender: { name, lines: addressLines }, returnInstructions: org.returnInstructions, slips });
  return { ...rendered, orderCount: selection.orders.length };
}

const fileDate = (app: AppContext) => app.now().toISOString().slice(0, 10);

export async function pickList(app: AppContext, orgId: string, input: OrderPaperInput): Promise<BinaryResult> {
  const { pdf } = await pickListPdf(app, orgId, input);
  return { contentType: 'application/pdf', data: pdf, filename: `pick-list-${fileDate(app)}.pdf` };
}

export async function packingSlips(app: AppContext, orgId: string, input: OrderPaperInput): Promise<BinaryResult> {
  const { pdf } = await packingSlipsPdf(app, orgId, input);
  return { contentType: 'application/pdf', data: pdf, filename: `packing-slips-${fileDate(app)}.pdf` };
}

/** Prints one of the papers on a PDF printer (printing/paperPrint.ts); nothing is stored. */
async function printPaper(
  app: AppContext,
  orgId: string,
  input: OrderPaperPrintInput,
  paper: { name: string; render: typeof pickListPdf },
): Promise<OrderPaperPrintResult> {
  const { printerId, copies, ...selection } = input;
  let orderCount = 0;
  const printed = await printPaperPdf(app, orgId, {
    printerId,
    copies,
    name: paper.name,
    render: async () => {
      const rendered = await paper.render(app, orgId, selection);
      orderCount = rendered.orderCount;
      return rendered.pdf;
    },
  });
  const pages = `${printed.pageCount} page${printed.pageCount === 1 ? '' : 's'}`;
  return {
    ...printed,
    orderCount,
    message: `The ${paper.name} of ${orderCount} order${orderCount === 1 ? '' : 's'} (${pages}) went to '${printed.printerName}'.`,
  };
}

export const printPickList = (app: AppContext, orgId: string, input: OrderPaperPrintInput) =>
  printPaper(app, orgId, input, { name: 'pick list', render: pickListPdf });

export const printPackingSlips = (app: AppContext, orgId: string, input: OrderPaperPrintInput) =>
  printPaper(app, orgId, input, { name: 'packing slips', render: packingSlipsPdf });
