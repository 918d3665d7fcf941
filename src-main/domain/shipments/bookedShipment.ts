import { asc, inArray } from 'drizzle-orm';
import type { BookedShipment } from '../../carriers/adapter';
import { parcels } from '../../db/schema';
import type { ReadDb } from '../../db/tx';
import type { ShipmentRow } from './repository';

type ParcelNumbers = { shipmentId: string; parcelId: string; trackingNumber: string | null; parcelNumber: string | null };

const parcelColumns = { shipmentId: parcels.shipmentId, parcelId: parcels.id, trackingNumber: parcels.trackingNumber, parcelNumber: parcels.parcelNumber };

/** A booked shipment as its carrier's void and track see it: numbers and the adapter's own ids. */
export function bookedShipmentOf(db: ReadDb, row: ShipmentRow): BookedShipment {
  return bookedShipmentsOf(db, [row])[0] as BookedShipment;
}

/** The same for many shipments, with one query of their parcels (the tracking poller's batches). */
export function bookedShipmentsOf(db: ReadDb, rows: readonly ShipmentRow[]): BookedShipment[] {
  if (!rows.length) return [];
  const byShipment = new Map<string, ParcelNumbers[]>(rows.map((row) => [row.id, []]));
  const all = db
    .select(parcelColumns)
    .from(parcels)
    .where(
      inArray(
        parcels.shipmentId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(parcels.shipmentId), asc(parcels.position))
    .all();
  for (const parcel of all) byShipment.get(parcel.shipmentId)?.push(parcel);
  return rows.map((row) => bookedFrom(row, byShipment.get(row.id) ?? []));
}

function bookedFrom(row: ShipmentRow, booked: readonly ParcelNumbers[]): BookedShipment {
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
