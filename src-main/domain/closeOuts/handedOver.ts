import { eq } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import { closeOutShipments, closeOuts } from '../../db/schema';
import type { ReadDb } from '../../db/tx';

/** The close-out a shipment is in (closed, or still closing), if any. */
export function handedOverIn(db: ReadDb, shipmentId: string): { closeOutId: string; createdAt: string } | undefined {
  return db
    .select({ closeOutId: closeOuts.id, createdAt: closeOuts.createdAt })
    .from(closeOutShipments)
    .innerJoin(closeOuts, eq(closeOuts.id, closeOutShipments.closeOutId))
    .where(eq(closeOutShipments.shipmentId, shipmentId))
    .get();
}

/**
 * A shipment in a close-out went with the driver (docs/decisions.md "Close-outs"): voiding its label
 * now would leave a parcel on the road without a booking, and the signed handover list would no longer
 * say what left. So it cannot be cancelled here; the carrier stops or returns it.
 */
export function assertNotHandedOver(db: ReadDb, shipment: { id: string; reference: string }): void {
  const closed = handedOverIn(db, shipment.id);
  if (!closed) return;
  throw new ApiError(
    'SHIPMENT_INVALID_STATE',
    `Shipment ${shipment.reference} was handed over to the carrier in close-out ${closed.closeOutId} on ${closed.createdAt.slice(0, 10)}, so it cannot be cancelled here; ask the carrier to stop it or send it back`,
  );
}
