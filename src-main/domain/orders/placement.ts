/**
 * How many units of an order its shipments may place, counted per SKU (issue 17, point 6): a
 * shipment of an order never holds more of an SKU than the order has left of it, whichever path
 * wrote it (create, order-based create, PATCH, split, batch split). The one rule lives here; the
 * write paths wrap their writes in `withinOrderAllowance`.
 *
 * An SKU is the one the order-based create writes on a parcel line (`orderLineSku`), and a parcel
 * line counts for an order when it is tied to one of its lines (`linkLinesToOrders`): lines of an
 * SKU the order does not have (packing material, a gift typed by hand) are not order lines and are
 * not limited. Only outbound shipments that are not returns and not cancelled place units.
 */
import { sql } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { ReadDb, WriteTx } from '../../db/tx';

/** The SKU an order line goes by on a parcel: its sku, else its product id, else its name. */
export function orderLineSku(line: { sku: string | null; productId: string | null; name: string }): string {
  return line.sku ?? line.productId ?? line.name;
}

/**
 * Units placed per order line, with what a line holds beyond its own quantity counted against the
 * next lines of the same SKU (in order). A line typed by hand is tied to the first order line of
 * its SKU, so "5 × MUG" against lines of 2 and 3 mugs places both lines in full, as the allowance
 * counts it. What no line of the SKU has room for stays on the line that holds it.
 */
export function spreadOverSkuLines(
  lines: readonly { id: string; sku: string | null; productId: string | null; name: string; quantity: number }[],
  placedByLine: ReadonlyMap<string, number>,
): Map<string, number> {
  const spread = new Map<string, number>();
  const excessBySku = new Map<string, number>();
  for (const line of lines) {
    const placed = placedByLine.get(line.id) ?? 0;
    spread.set(line.id, Math.min(placed, line.quantity));
    const excess = placed - line.quantity;
    if (excess > 0) excessBySku.set(orderLineSku(line), (excessBySku.get(orderLineSku(line)) ?? 0) + excess);
  }
  for (const line of lines) {
    const sku = orderLineSku(line);
    const excess = excessBySku.get(sku) ?? 0;
    const room = line.quantity - (spread.get(line.id) ?? 0);
    const taken = Math.min(room, excess);
    if (taken <= 0) continue;
    spread.set(line.id, (spread.get(line.id) ?? 0) + taken);
    excessBySku.set(sku, excess - taken);
  }
  // Over-placement no line has room for stays visible on the lines that hold it.
  for (const line of lines) {
    const placed = placedByLine.get(line.id) ?? 0;
    const left = excessBySku.get(orderLineSku(line)) ?? 0;
    if (placed <= line.quantity || left <= 0) continue;
    const back = Math.min(left, placed - line.quantity);
    spread.set(line.id, (spread.get(line.id) ?? 0) + back);
    excessBySku.set(orderLineSku(line), left - back);
  }
  return spread;
}

/** Units of each SKU each live shipment of these orders places: order → SKU → shipment → units. */
type Placement = Map<string, Map<string, Map<string, number>>>;

function placementOf(db: ReadDb, orderIds: readonly string[]): Placement {
  const rows = db.all<{ orderId: string; sku: string; shipmentId: string; units: number }>(sql`
    SELECT s.order_id AS orderId, coalesce(ol.sku, ol.product_id, ol.name) AS sku, s.id AS shipmentId, sum(pol.quantity) AS units
    FROM parcel_order_lines pol
    JOIN parcels p ON p.id = pol.parcel_id
    JOIN shipments s ON s.id = p.shipment_id
    JOIN order_lines ol ON ol.id = pol.order_line_id AND ol.order_id = s.order_id
    WHERE s.order_id IN (SELECT value FROM json_each(${JSON.stringify(orderIds)}))
      AND s.status <> 'cancelled' AND s.type = 'outbound' AND s.return_for_shipment_id IS NULL
    GROUP BY 1, 2, 3`);
  const placement: Placement = new Map();
  for (const row of rows) {
    const bySku = placement.get(row.orderId) ?? new Map<string, Map<string, number>>();
    placement.set(row.orderId, bySku);
    const byShipment = bySku.get(row.sku) ?? new Map<string, number>();
    bySku.set(row.sku, byShipment);
    byShipment.set(row.shipmentId, Number(row.units));
  }
  return placement;
}

function orderedOf(db: ReadDb, orderIds: readonly string[]): { orderId: string; orderNumber: string; sku: string; units: number }[] {
  return db.all(sql`
    SELECT o.id AS orderId, o.order_number AS orderNumber, coalesce(ol.sku, ol.product_id, ol.name) AS sku, sum(ol.quantity) AS units
    FROM order_lines ol JOIN orders o ON o.id = ol.order_id
    WHERE o.id IN (SELECT value FROM json_each(${JSON.stringify(orderIds)}))
    GROUP BY 1, 2, 3`);
}

const total = (byShipment: ReadonlyMap<string, number> | undefined) => [...(byShipment?.values() ?? [])].reduce((sum, units) => sum + units, 0);

/**
 * Runs `write` (which must tie the lines it writes to their order, as insertShipments and the
 * PATCH do) and refuses it with 409 ORDER_INVALID_STATE when it leaves any SKU of these orders
 * placed beyond what was ordered and further beyond than before. Comparing with before, rather than
 * refusing every over-placement, lets a shipment written before this rule be edited down (or left
 * as it is while its address is fixed); a split, which moves units between shipments of one order,
 * never trips it. Called inside the write's transaction, so concurrent writes are judged one after
 * the other and cannot over-place together.
 */
export function withinOrderAllowance<T>(tx: WriteTx, orderIds: readonly (string | null | undefined)[], write: () => T): T {
  const ids = [...new Set(orderIds.filter((id): id is string => Boolean(id)))];
  if (!ids.length) return write();
  const before = placementOf(tx, ids);
  const result = write();
  const after = placementOf(tx, ids);
  for (const ordered of orderedOf(tx, ids)) {
    const placedBefore = before.get(ordered.orderId)?.get(ordered.sku);
    const placedAfter = after.get(ordered.orderId)?.get(ordered.sku);
    const excessAfter = total(placedAfter) - ordered.units;
    if (excessAfter <= 0 || excessAfter <= total(placedBefore) - ordered.units) continue;
    // What is left for the shipments this write changed: the ordered units less what the others hold.
    const others = [...(placedAfter ?? new Map<string, number>())].filter(([shipmentId, units]) => placedBefore?.get(shipmentId) === units);
    const heldByOthers = others.reduce((sum, [, units]) => sum + units, 0);
    const left = Math.max(0, ordered.units - heldByOthers);
    throw new ApiError(
      'ORDER_INVALID_STATE',
      `Order ${ordered.orderNumber} has ${left} of SKU ${ordered.sku} left to place (${ordered.units} ordered, ${heldByOthers} in its other shipments); this would place ${total(placedAfter) - heldByOthers}`,
    );
  }
  return result;
}
