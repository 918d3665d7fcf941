import { asc, eq } from 'drizzle-orm';
import type { BookedShipment } from '../../carriers/adapter';
import { parcels } from '../../db/schema';
import type { ReadDb } from '../../db/tx';
import type { ShipmentRow } from './repository';

/** A booked shipment as its carrier's void and track see it: numbers and the adapter's own ids. */
export function bookedShipmentOf(db: ReadDb, row: ShipmentRow): BookedShipment {
  const booked = db
    .select({ parcelId: parcels.id, trackingNumber: parcels.trackingNumber, parcelNumber: parcels.parcelNumber })
    .from(parcels)
    .where(eq(parcels.shipmentId, row.id))
    .orderBy(asc(parcels.position))
    .all();
  return {
    shipmentId: row.id,
    reference: row.reference,
    trackingNumber: row.trackingNumber ?? '',
    // Parcels booked before each kept its own number carry the shipment's.
    parcels: booked.map((parcel) => ({
      parcelId: parcel.parcelId,
      trackingNumber: parcel.trackingNumber ?? row.trackingNumber ?? '',
      parcelNumber: parcel.parcelNumber,
    })),
    booking: row.carrierBooking ?? {},
    bookedAt: row.bookedAt,
  };
}
