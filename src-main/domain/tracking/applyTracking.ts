/**
 * Writing what a carrier said about a shipment (decisions §13), in one transaction: the events it
 * did not know yet (each once: the unique index on shipment, time, code and description drops a
 * repeat), the status, when it was checked, when it is asked next, and a `tracking.updated` event
 * only when the status or the events changed. The shipment read cache and the pushes notice the
 * writes by their triggers on the tables.
 */
import { eq, sql } from 'drizzle-orm';
import type { Shipment, TrackingStatus } from '../../../src-shared/schemas/shipment';
import type { AppContext } from '../../app/kernel/context';
import type { CarrierCallLog, TrackingEvent, TrackingResult } from '../../carriers/adapter';
import { shipments, trackingEvents } from '../../db/schema';
import { prepared } from '../../db/prepared';
import { inWriteTransaction, type WriteTx } from '../../db/tx';
import type { Db } from '../../db/types';
import { emitEvent } from '../events';
import { writeCarrierCalls, type CarrierSecrets } from '../shipments/carrierLogs';
import { readShipment, type ShipmentRow } from '../shipments/repository';
import { nextTrackingCheck } from './schedule';

/** Shipment statuses that have a booking to follow. */
export const trackedShipmentStatuses: ReadonlySet<string> = new Set(['dispatched', 'partly_dispatched']);

export interface TrackingWrite {
  /** The carrier's answer; null when it said nothing about the shipment (no news, checked all the same). */
  answer: TrackingResult | null;
  /** Whether the carrier can be asked again (has `track`); a carrier nobody can ask is never due. */
  carrierTracks: boolean;
  /** The calls that got the answer, for the shipment's logs[]; none for a status set by hand. */
  calls?: readonly CarrierCallLog[];
  secrets?: CarrierSecrets;
  /** The poller's quiet checks leave no log; a refresh asked for by someone always does. */
  logOnlyWhenChanged?: boolean;
}

export interface TrackingWriteResult {
  /** The status or the events changed (and a `tracking.updated` event was written). */
  changed: boolean;
  /** False when the shipment is no longer dispatched (cancelled meanwhile): nothing was written. */
  applied: boolean;
}

const MAX_TEXT = 2000;

/** One event as it is stored: the time in the API's ISO form, so the same event from two answers is one row. */
export function storedEvent(event: TrackingEvent): { at: string; code: string; description: string; location: string | null } {
  const parsed = Date.parse(event.at);
  return {
    at: Number.isFinite(parsed) ? new Date(parsed).toISOString() : event.at,
    code: String(event.code).slice(0, MAX_TEXT),
    description: String(event.description).slice(0, MAX_TEXT),
    location: event.location ? String(event.location).slice(0, MAX_TEXT) : null,
  };
}

const insertEventQuery = (root: Db) =>
  root
    .insert(trackingEvents)
    .values({
      shipmentId: sql.placeholder('shipmentId'),
      at: sql.placeholder('at'),
      code: sql.placeholder('code'),
      description: sql.placeholder('description'),
      location: sql.placeholder('location'),
    })
    .onConflictDoNothing()
    .prepare();

const trackingRowQuery = (root: Db) =>
  root
    .select({ status: shipments.status, orgId: shipments.orgId, bookedAt: shipments.bookedAt, trackingStatus: shipments.trackingStatus })
    .from(shipments)
    .where(eq(shipments.id, sql.placeholder('shipmentId')))
    .prepare();

const writeStatusQuery = (root: Db) =>
  root
    .update(shipments)
    .set({
      trackingStatus: sql`${sql.placeholder('status')}`,
      trackingCheckedAt: sql`${sql.placeholder('checkedAt')}`,
      trackingDueAt: sql`${sql.placeholder('dueAt')}`,
      updatedAt: sql`coalesce(${sql.placeholder('updatedAt')}, ${shipments.updatedAt})`,
    })
    .where(eq(shipments.id, sql.placeholder('shipmentId')))
    .prepare();

/** The part inside the caller's transaction: the poller and the operations share it. */
export function writeTracking(tx: WriteTx, now: Date, shipmentId: string, write: TrackingWrite): TrackingWriteResult {
  const row = prepared(tx, 'tracking.row', trackingRowQuery).get({ shipmentId });
  if (!row || !trackedShipmentStatuses.has(row.status)) {
    // Cancelled (or gone) since it was picked: nobody asks about it again.
    if (row) tx.update(shipments).set({ trackingDueAt: null }).where(eq(shipments.id, shipmentId)).run();
    return { changed: false, applied: false };
  }
  const at = now.toISOString();
  let added = 0;
  const insert = prepared(tx, 'tracking.insertEvent', insertEventQuery);
  for (const event of write.answer?.events ?? []) added += insert.run({ shipmentId, ...storedEvent(event) }).changes;
  const previous = (row.trackingStatus ?? 'pending') as TrackingStatus;
  const status = write.answer?.status ?? previous;
  const changed = added > 0 || status !== previous;
  const dueAt = write.carrierTracks ? nextTrackingCheck(status, row.bookedAt, now) : null;
  prepared(tx, 'tracking.writeStatus', writeStatusQuery).run({ shipmentId, status, checkedAt: at, dueAt, updatedAt: changed ? at : null });
  if (write.calls?.length && write.secrets && (changed || !write.logOnlyWhenChanged)) writeCarrierCalls(tx, now, shipmentId, write.secrets, write.calls);
  if (changed) emitTrackingUpdated(tx, now, readShipment(tx, row.orgId, shipmentId));
  return { changed, applied: true };
}

/** One transaction for one shipment's answer. */
export function applyTracking(app: AppContext, shipmentId: string, write: TrackingWrite): TrackingWriteResult {
  const now = app.now();
  return inWriteTransaction(app.db, (tx) => writeTracking(tx, now, shipmentId, write));
}

/** The same payload as booking's first `tracking.updated` (booking.ts). */
export function emitTrackingUpdated(tx: WriteTx, now: Date, shipment: Shipment): void {
  emitEvent(tx, now, shipment.orgId, 'tracking.updated', {
    shipmentId: shipment.id,
    reference: shipment.reference,
    carrierId: shipment.carrierSettings.carrierId,
    status: shipment.status,
    tracking: shipment.tracking,
  });
}

/** Whether a shipment has a booking whose tracking can be followed. */
export function isTracked(row: Pick<ShipmentRow, 'status' | 'trackingNumber'>): boolean {
  return trackedShipmentStatuses.has(row.status) && Boolean(row.trackingNumber);
}
