/**
 * Cancelling an order stops what has not left yet (decisions §5 leaves it open; docs/decisions.md):
 * its outbound shipments that are not booked are cancelled with it, in the order's transaction, so
 * a cancelled order's parcel cannot be sent from the shipment list or the pack screen. Booked ones
 * stay as they are: their parcels may be on their way, and voiding one is a carrier call made from
 * the shipment itself. A shipment being booked right now makes the cancel wait (409).
 */
import { and, eq, isNull } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { ShipmentStatus } from '../../../src-shared/schemas/shipment';
import { shipments } from '../../db/schema';
import type { WriteTx } from '../../db/tx';
import { emitEvent } from '../events';
import { unbookedStatuses } from '../../../src-shared/shipmentLifecycle';
import { readShipment, recordActivity, setStatus } from './repository';

export function cancelUnbookedShipmentsOfOrder(tx: WriteTx, now: Date, orgId: string, order: { id: string; orderNumber: string }): void {
  const rows = tx
    .select({ id: shipments.id, reference: shipments.reference, status: shipments.status })
    .from(shipments)
    .where(and(eq(shipments.orderId, order.id), eq(shipments.type, 'outbound'), isNull(shipments.returnForShipmentId)))
    .all();
  const sending = rows.find((row) => row.status === 'processing');
  if (sending) {
    throw new ApiError(
      'ORDER_INVALID_STATE',
      `Shipment ${sending.reference} of order ${order.orderNumber} is being sent; cancel the order once that send has finished`,
    );
  }
  for (const row of rows.filter((candidate) => unbookedStatuses.includes(candidate.status as ShipmentStatus))) {
    setStatus(tx, now, row.id, 'cancelled');
    recordActivity(tx, now, row.id, 'cancelled', `Cancelled with order ${order.orderNumber}`);
    emitEvent(tx, now, orgId, 'shipment.cancelled', readShipment(tx, orgId, row.id));
  }
}
