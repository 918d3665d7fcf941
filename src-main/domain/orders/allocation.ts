/**
 * How much of each order line is placed in shipments, and the order status derived from that
 * (decisions §5). Called inside the transaction of every change to an order's shipments.
 */
import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { OrderStatus } from '../../../src-shared/schemas/order';
import { MAX_WEIGHT_KG } from '../../../src-shared/schemas/shipment';
import { orderLines, parcelOrderLines, parcels, shipments } from '../../db/schema';
import type { ReadDb, WriteTx } from '../../db/tx';
import { roundWeight, toKg } from '../units';
import type { ParcelDraft } from '../shipments/repository';
import { orderLineSku, spreadOverSkuLines } from './placement';
import { lineCurrency, orgCurrency } from './lineCurrency';

type OrderLineRow = typeof orderLines.$inferSelect;

/**
 * Units of each order line in the order's live outbound shipments (`statuses` narrows further),
 * counted per SKU: what a line holds beyond its quantity fills the order's other lines of that SKU
 * (spreadOverSkuLines), as the allowance (placement.ts) counts it.
 */
export function placedQuantities(db: ReadDb, orderId: string, statuses?: readonly string[]): Map<string, number> {
  const lines = db
    .select({ id: orderLines.id, sku: orderLines.sku, productId: orderLines.productId, name: orderLines.name, quantity: orderLines.quantity })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.position))
    .all();
  return spreadOverSkuLines(lines, placedByLine(db, orderId, statuses));
}

/** Units of each order line as the parcel lines tied to it hold them. */
function placedByLine(db: ReadDb, orderId: string, statuses?: readonly string[]): Map<string, number> {
  const rows = db
    .select({ orderLineId: parcelOrderLines.orderLineId, quantity: sql<number>`sum(${parcelOrderLines.quantity})` })
    .from(parcelOrderLines)
    .innerJoin(parcels, eq(parcels.id, parcelOrderLines.parcelId))
    .innerJoin(shipments, eq(shipments.id, parcels.shipmentId))
    .where(
      and(
        eq(shipments.orderId, orderId),
        ne(shipments.status, 'cancelled'),
        // Only outbound shipments place goods; returns carry copies of the lines.
        eq(shipments.type, 'outbound'),
        isNull(shipments.returnForShipmentId),
        statuses ? sql`${shipments.status} in ${statuses}` : undefined,
      ),
    )
    .groupBy(parcelOrderLines.orderLineId)
    .all();
  return new Map(rows.filter((row) => row.orderLineId).map((row) => [row.orderLineId as string, Number(row.quantity)]));
}

/**
 * Ties the parcel lines of these shipments to their order's lines, so that what was placed by hand
 * counts like what the order-based create placed: a line not yet tied to a line of its shipment's
 * order (written by POST /shipments with parcels, replaced by PATCH, or moved to another order) is
 * tied to the order line with the same sku (the sku the order-based create gives it: sku, else
 * product id, else name), the first such line when several share it. Lines of a shipment without
 * an order, and of returns and inbound shipments (which place nothing), are tied to nothing.
 */
export function linkLinesToOrders(tx: WriteTx, shipmentIds: readonly string[]): void {
  if (!shipmentIds.length) return;
  tx.run(sql`
    UPDATE parcel_order_lines AS pol SET order_line_id = (
      SELECT ol.id FROM parcels p
      JOIN shipments s ON s.id = p.shipment_id
      JOIN order_lines ol ON ol.order_id = s.order_id
      WHERE p.id = pol.parcel_id AND coalesce(ol.sku, ol.product_id, ol.name) = pol.sku
        AND s.type = 'outbound' AND s.return_for_shipment_id IS NULL
      ORDER BY ol.position LIMIT 1
    )
    WHERE pol.parcel_id IN (SELECT id FROM parcels WHERE shipment_id IN (SELECT value FROM json_each(${JSON.stringify(shipmentIds)})))
      AND NOT EXISTS (
        SELECT 1 FROM parcels p
        JOIN shipments s ON s.id = p.shipment_id
        JOIN order_lines ol ON ol.id = pol.order_line_id
        WHERE p.id = pol.parcel_id AND ol.order_id = s.order_id
      )`);
}

export function shippableLines(db: ReadDb, orderId: string): OrderLineRow[] {
  return db
    .select()
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), eq(orderLines.requiresShipping, true)))
    .orderBy(asc(orderLines.position))
    .all();
}

/**
 * One parcel holding what is not yet placed in another live shipment of the order, weighing
 * Σ line weight × quantity in kg. Null when nothing is left. A line without a currency of its own
 * is priced in the order's (else the organization's), so customs papers never show a bare amount;
 * the bin (`location`) goes with it for the packing list.
 */
export function remainingParcel(db: ReadDb, orderId: string, orderCurrency: string | null = null): ParcelDraft | null {
  const placed = placedQuantities(db, orderId);
  const lines = shippableLines(db, orderId)
    .map((line) => ({ line, quantity: line.quantity - (placed.get(line.id) ?? 0) }))
    .filter(({ quantity }) => quantity > 0);
  if (!lines.length) return null;
  let weightKg = 0;
  const orderLinesDraft = lines.map(({ line, quantity }) => {
    const unitWeightKg = line.weight === null ? null : toKg(line.weight, line.weightUnit);
    weightKg += (unitWeightKg ?? 0) * quantity;
    return {
      sku: orderLineSku(line),
      quantity,
      description: line.name,
      unitPrice: line.unitPrice,
      currency: line.currency ?? orderCurrency,
      location: line.location,
      countryOfOrigin: line.countryOfOrigin,
      tarrifNumber: line.hsCode,
      orderLineId: line.id,
      unitWeightKg,
    };
  });
  return { weight: roundWeight(weightKg), weightUnit: 'kg', dimensions: { length: 0, width: 0, height: 0 }, orderLines: orderLinesDraft };
}

/**
 * The parcel a shipment made from an order holds (remainingParcel), or 409 ORDER_INVALID_STATE when
 * nothing is left to ship, or when it would weigh more than a parcel may: a shipment given such a
 * parcel by hand is refused (400), so one made from the order is too.
 */
export function parcelToShip(db: ReadDb, order: { id: string; orgId: string; orderNumber: string; currency: string | null }): ParcelDraft {
  const parcel = remainingParcel(db, order.id, lineCurrency(null, order.currency, orgCurrency(db, order.orgId)));
  if (!parcel && !shippableLines(db, order.id).length) {
    throw new ApiError('ORDER_INVALID_STATE', `Order ${order.orderNumber} has no line that needs shipping (every line has requiresShipping false)`);
  }
  if (!parcel) throw new ApiError('ORDER_INVALID_STATE', `Every shippable line of order ${order.orderNumber} is already placed in a shipment`);
  if (parcel.weight > MAX_WEIGHT_KG) {
    throw new ApiError(
      'ORDER_INVALID_STATE',
      `What is left to ship of order ${order.orderNumber} weighs ${parcel.weight} kg, more than one parcel may (${MAX_WEIGHT_KG} kg); create its shipment with parcels of your own (POST /shipments with orderId and parcels)`,
    );
  }
  return parcel;
}

/** The derived status: cancelled › error › fulfilled › partially_fulfilled › processing › pending. */
export function deriveOrderStatus(db: ReadDb, orderId: string, current: string): OrderStatus {
  if (current === 'cancelled') return 'cancelled';
  const live = db
    .select({ status: shipments.status })
    .from(shipments)
    .where(and(eq(shipments.orderId, orderId), ne(shipments.status, 'cancelled'), eq(shipments.type, 'outbound'), isNull(shipments.returnForShipmentId)))
    .all();
  if (live.some((shipment) => shipment.status === 'error')) return 'error';
  const dispatched = placedQuantities(db, orderId, ['dispatched']);
  // Only a booked shipment holding some of the order's lines fulfils part of it: one holding only
  // other goods (packing material, a gift typed by hand) does not.
  const someDispatched = [...placedQuantities(db, orderId, ['dispatched', 'partly_dispatched']).values()].some((units) => units > 0);
  const lines = shippableLines(db, orderId);
  if (lines.length && lines.every((line) => (dispatched.get(line.id) ?? 0) >= line.quantity)) return 'fulfilled';
  if (someDispatched) return 'partially_fulfilled';
  return live.length ? 'processing' : 'pending';
}

/** The order's `shipmentCount`: its outbound shipments that are not cancelled, returns left out. */
export function liveShipmentCount(db: ReadDb, orderId: string): number {
  return (
    db
      .select({ n: sql<number>`count(*)` })
      .from(shipments)
      .where(and(eq(shipments.orderId, orderId), ne(shipments.status, 'cancelled'), eq(shipments.type, 'outbound'), isNull(shipments.returnForShipmentId)))
      .get()?.n ?? 0
  );
}
