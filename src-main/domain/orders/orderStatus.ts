import { eq } from 'drizzle-orm';
import { orders } from '../../db/schema';
import type { WriteTx } from '../../db/tx';
import { emitEvent } from '../events';
import { deriveOrderStatus, liveShipmentCount } from './allocation';
import { readOrder } from './orders';

/** Recomputes status and shipmentCount; emits order.updated when either changed. */
export function recomputeOrder(tx: WriteTx, now: Date, orderId: string | null): void {
  if (!orderId) return;
  const order = tx.select().from(orders).where(eq(orders.id, orderId)).get();
  if (!order) return;
  const status = deriveOrderStatus(tx, orderId, order.status);
  const shipmentCount = liveShipmentCount(tx, orderId);
  if (status === order.status && shipmentCount === order.shipmentCount) return;
  const updatedAt = now.toISOString();
  tx.update(orders).set({ status, shipmentCount, updatedAt }).where(eq(orders.id, orderId)).run();
  // The same envelope data as every order.updated (decisions §10): the whole order, as read now.
  emitEvent(tx, now, order.orgId, 'order.updated', { ...readOrder(tx, order.orgId, orderId), previousStatus: order.status });
}
