/**
 * Changes from the shop (docs/api.md 13.15, docs/decisions.md "Changes from the shop").
 *
 * Each sync compares the shop's order with the shop's values seen at the last sync (not with the
 * order here, so a fix made here by hand is not taken for a change in the shop). What the shop
 * changed is then:
 * - applied at once while the order has no shipment here (a cancelled one does not count):
 *   cancelled in the shop → the order is cancelled (order.cancelled); changed → its fields and lines
 *   are updated (order.updated);
 * - held for the user once a shipment exists (`orders.shop_change`, read as `shopChange`), to apply
 *   (what still can be) or dismiss; never applied silently.
 * An order fulfilled or archived in the shop while nothing was shipped here is held as `closed`.
 */
import { and, eq, ne, isNull } from 'drizzle-orm';
import { ApiError, validationError } from '../../../src-shared/errors';
import { orderCreateBody, type OrderCreateInput, type OrderDetail, type OrderLineInput, type OrderUpdateInput } from '../../../src-shared/schemas/order';
import type { ShipmentStatus } from '../../../src-shared/schemas/shipment';
import { unbookedStatuses } from '../../../src-shared/shipmentLifecycle';
import { orderLines, orders, shipments, type ShippingAddress } from '../../db/schema';
import { inWriteTransaction, type WriteTx } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { canonicalJson } from '../../app/kernel/canonicalJson';
import type { ShopOrder } from '../../storefronts';
import { emitEvent } from '../events';
import { findOrderRow } from '../shipments/fromOrder';
import { liveShipmentCount } from './allocation';
import { applyOrderUpdate, readOrder } from './orders';
import { storedShopChange, type HeldShopChange, type ShopSnapshot, type StoredShopChange } from './shopChangeState';

type Field = HeldShopChange['fields'][number];
const fieldWords: Record<Field, string> = {
  customerName: 'Customer name',
  customerEmail: 'Customer e-mail',
  notes: 'Notes',
  shippingAddress: 'Shipping address',
  lines: 'Lines',
};
const fieldOrder: Field[] = ['customerName', 'customerEmail', 'notes', 'shippingAddress', 'lines'];

/** The shop's order checked as POST /orders would, or the validation problems in one sentence. */
export function parseShopOrder(shopOrder: ShopOrder, orderChannelId: string): { input: OrderCreateInput } | { error: string } {
  const parsed = orderCreateBody.safeParse({ ...shopOrder.order, orderChannelId });
  if (parsed.success) return { input: parsed.data };
  const details = validationError('', parsed.error.issues).details ?? [];
  return { error: details.map((detail) => `${detail.path}: ${detail.message}`).join('; ') };
}

/** The shop's side of an order, as the next sync compares it. */
export function snapshotOf(shopOrder: ShopOrder, input: OrderCreateInput | null): ShopSnapshot {
  const order = shopOrder.order;
  const lines = input?.orderLines ?? order.orderLines ?? [];
  return {
    state: shopOrder.shopState,
    customerName: input ? (input.customerName ?? null) : (order.customerName ?? null),
    customerEmail: input ? (input.customerEmail ?? null) : (order.customerEmail ?? null),
    notes: input ? (input.notes ?? null) : (order.notes ?? null),
    shippingAddress: ((input ? input.shippingAddress : order.shippingAddress) ?? null) as ShippingAddress | null,
    lines: lines.map((line, index) => ({ lineId: shopOrder.lineIds[index] ?? null, name: line.name, sku: line.sku ?? null, quantity: line.quantity })),
  };
}

function changedFields(before: ShopSnapshot, after: ShopSnapshot): Field[] {
  return fieldOrder.filter((field) => canonicalJson(before[field] ?? null) !== canonicalJson(after[field] ?? null));
}

function summaryOf(kind: HeldShopChange['kind'], fields: Field[]): string[] {
  if (kind === 'cancelled') return ['Cancelled in the shop'];
  if (kind === 'closed') return ['Fulfilled or archived in the shop; nothing was shipped from here'];
  return fields.map((field) => fieldWords[field]);
}

function writeShopChange(tx: WriteTx, orderId: string, value: StoredShopChange): void {
  tx.update(orders)
    .set({ shopChange: value as unknown as Record<string, unknown> })
    .where(eq(orders.id, orderId))
    .run();
}

/** Stores each line's shop id (`order_lines.external_line_id`) by position, after the lines were written. */
export function setExternalLineIds(tx: WriteTx, orderId: string, lineIds: (string | null)[]): void {
  lineIds.forEach((lineId, position) => {
    tx.update(orderLines)
      .set({ externalLineId: lineId })
      .where(and(eq(orderLines.orderId, orderId), eq(orderLines.position, position)))
      .run();
  });
}

/** Records what the shop's order looks like now, for a newly imported order. */
export function rememberShopOrder(tx: WriteTx, orderId: string, shopOrder: ShopOrder, input: OrderCreateInput): void {
  setExternalLineIds(tx, orderId, shopOrder.lineIds);
  writeShopChange(tx, orderId, { seen: snapshotOf(shopOrder, input), pending: null });
}

/** The PATCH that brings the order to the shop's values of `fields`; lines keep their ids where the shop's line id matches. */
function updateFor(tx: WriteTx, orderId: string, fields: Field[], snapshot: ShopSnapshot, lines: OrderLineInput[] | null): OrderUpdateInput {
  const update: OrderUpdateInput = {};
  for (const field of fields) {
    if (field === 'lines') {
      if (!lines) continue;
      const byShopId = new Map(
        tx
          .select({ id: orderLines.id, externalLineId: orderLines.externalLineId })
          .from(orderLines)
          .where(eq(orderLines.orderId, orderId))
          .all()
          .filter((row) => row.externalLineId)
          .map((row) => [row.externalLineId as string, row.id]),
      );
      update.orderLines = lines.map((line, index) => {
        const shopId = snapshot.lines[index]?.lineId;
        const id = shopId ? byShopId.get(shopId) : undefined;
        return id ? { ...line, id } : { ...line };
      });
    } else if (field === 'shippingAddress') update.shippingAddress = snapshot.shippingAddress;
    else update[field] = snapshot[field];
  }
  return update;
}

export type SyncOutcome = { outcome: 'unchanged' | 'updated' | 'held' } | { error: string };

/**
 * A sync met an order it had imported before: compares the shop's order with what was seen last
 * time and applies or holds the difference. Runs in the sync's transaction.
 */
export function syncKnownOrder(tx: WriteTx, now: Date, orgId: string, orderId: string, shopOrder: ShopOrder): SyncOutcome {
  const row = findOrderRow(tx, orgId, orderId);
  const stored = storedShopChange(row.shopChange);
  const parsed = parseShopOrder(shopOrder, row.orderChannelId);
  const input = 'input' in parsed ? parsed.input : null;
  const next = snapshotOf(shopOrder, input);
  // An order imported before the shop's values were kept: they are taken to be the order's
  // own, so only a cancellation or a close is seen this time.
  const before: ShopSnapshot = stored.seen ?? { ...next, state: 'open' };
  const fields = changedFields(before, next);
  const remember = (pending: HeldShopChange | null) => writeShopChange(tx, orderId, { seen: next, pending });

  if (next.state === before.state && fields.length === 0) {
    if (!stored.seen) remember(stored.pending);
    return { outcome: 'unchanged' };
  }
  if (row.status === 'cancelled') {
    remember(null);
    return { outcome: 'unchanged' };
  }
  const shipped = liveShipmentCount(tx, orderId) > 0;
  let kind: HeldShopChange['kind'] | null = null;
  if (next.state === 'cancelled') kind = 'cancelled';
  else if (next.state === 'closed') kind = shipped ? null : 'closed';
  else if (fields.length) kind = 'changed';
  if (!kind) {
    // Closed in the shop after shipping from here (the write-back, most likely), or opened again.
    remember(next.state === 'open' && stored.pending?.kind === 'closed' ? null : stored.pending);
    return { outcome: 'unchanged' };
  }

  if (!shipped && kind !== 'closed') {
    if (kind === 'cancelled') applyOrderUpdate(tx, now, orgId, orderId, { status: 'cancelled' });
    else {
      if (!input) return { error: 'error' in parsed ? parsed.error : 'the order is not valid' };
      applyOrderUpdate(tx, now, orgId, orderId, updateFor(tx, orderId, fields, next, input.orderLines));
      if (fields.includes('lines')) setExternalLineIds(tx, orderId, shopOrder.lineIds);
    }
    remember(null);
    return { outcome: 'updated' };
  }

  // Held: a change not yet applied keeps its fields, with the shop's latest values.
  const previous = stored.pending;
  const heldFields =
    kind === 'changed' ? fieldOrder.filter((field) => fields.includes(field) || (previous?.kind === 'changed' && previous.fields.includes(field))) : [];
  const held: HeldShopChange = {
    kind,
    detectedAt: now.toISOString(),
    summary: summaryOf(kind, heldFields),
    fields: heldFields,
    snapshot: next,
    ...(input && heldFields.includes('lines') ? { lines: input.orderLines } : {}),
  };
  remember(held);
  emitEvent(tx, now, orgId, 'order.updated', { ...readOrder(tx, orgId, orderId), previousStatus: row.status });
  return { outcome: 'held' };
}

/** The order's shipments that a cancellation here cannot stop: booked or sent. */
function bookedShipments(tx: WriteTx, orderId: string): { reference: string; status: string }[] {
  return tx
    .select({ reference: shipments.reference, status: shipments.status })
    .from(shipments)
    .where(and(eq(shipments.orderId, orderId), eq(shipments.type, 'outbound'), isNull(shipments.returnForShipmentId), ne(shipments.status, 'cancelled')))
    .all()
    .filter((shipment) => !unbookedStatuses.includes(shipment.status as ShipmentStatus));
}

function heldChange(tx: WriteTx, orgId: string, orderId: string) {
  const row = findOrderRow(tx, orgId, orderId);
  const stored = storedShopChange(row.shopChange);
  return { row, stored };
}

/** POST …/shop-change/apply: applies what still can be of the held change and clears it; 409 naming why when it cannot. */
export function applyShopChange(app: AppContext, orgId: string, orderId: string): OrderDetail {
  const now = app.now();
  return inWriteTransaction(app.db, (tx) => {
    const { row, stored } = heldChange(tx, orgId, orderId);
    const pending = stored.pending;
    if (!pending) throw new ApiError('ORDER_INVALID_STATE', `Order ${row.orderNumber} has no change from the shop to apply`);
    if (pending.kind === 'cancelled' || pending.kind === 'closed') {
      if (row.status !== 'cancelled') {
        const booked = bookedShipments(tx, orderId);
        if (booked.length) {
          const list = booked.map((shipment) => `${shipment.reference} (${shipment.status})`).join(', ');
          throw new ApiError(
            'ORDER_INVALID_STATE',
            `Order ${row.orderNumber} cannot be cancelled here: shipment ${list} is already booked with the carrier. Cancel or return that shipment first, or dismiss the shop's change`,
          );
        }
        applyOrderUpdate(tx, now, orgId, orderId, { status: 'cancelled' });
      }
    } else {
      const lines = pending.lines ?? null;
      applyOrderUpdate(tx, now, orgId, orderId, updateFor(tx, orderId, pending.fields, pending.snapshot, lines));
      if (pending.fields.includes('lines') && lines)
        setExternalLineIds(
          tx,
          orderId,
          pending.snapshot.lines.map((line) => line.lineId),
        );
    }
    writeShopChange(tx, orderId, { seen: stored.seen, pending: null });
    return readOrder(tx, orgId, orderId);
  });
}

/** POST …/shop-change/dismiss: the order stays as it is; the notice goes. Dismissing when there is none changes nothing. */
export function dismissShopChange(app: AppContext, orgId: string, orderId: string): OrderDetail {
  const now = app.now();
  return inWriteTransaction(app.db, (tx) => {
    const { row, stored } = heldChange(tx, orgId, orderId);
    if (!stored.pending) return readOrder(tx, orgId, orderId);
    writeShopChange(tx, orderId, { seen: stored.seen, pending: null });
    const detail = readOrder(tx, orgId, orderId);
    emitEvent(tx, now, orgId, 'order.updated', { ...detail, previousStatus: row.status });
    return detail;
  });
}
