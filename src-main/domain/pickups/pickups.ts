/**
 * Pickups (issue 21): a collection booked with a carrier at a sender address. A booking is never
 * doubled: the row is written first (`booking`) and made durable, the carrier is called outside any
 * transaction, and its answer is written after (`booked` or `failed`). A process that stops between
 * the call and the write leaves `booking`, which the next start turns into `failed` with a sentence
 * asking the user to check with the carrier: Shipdesk never books it again on its own.
 */
import { and, asc, count, desc, eq, gte, lte, type SQL } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { Page } from '../../../src-shared/schemas/common';
import type { Pickup, PickupBookInput, PickupListQuery, PickupStatus } from '../../../src-shared/schemas/pickup';
import type { AppContext } from '../../app/kernel/context';
import type { PickupRequest } from '../../carriers/adapter';
import { CarrierFailure } from '../../carriers/errors';
import { newId } from '../../db/ids';
import { carriers, pickups } from '../../db/schema';
import { durable, inWriteTransaction, type ReadDb, type WriteTx } from '../../db/tx';
import { carrierCallError } from '../carriers/callFailure';
import { carrierCall, type CarrierCall } from '../carriers/carrierCalls';
import { adapterOfRow, findCarrierRow, findCarrierRowOfBooking } from '../carriers/carrierRows';
import { paginate } from '../pagination';
import { findSenderAddressRow } from '../senderAddresses/senderAddresses';
import { senderBookingParty } from '../shipments/create';
import { masked } from '../shipments/carrierLogs';
import { localClock, localDay } from './localDay';

export type PickupRow = typeof pickups.$inferSelect;
type CarrierRow = typeof carriers.$inferSelect;

export function toPickup(row: PickupRow): Pickup {
  const notice = row.carrierBooking?.cancelNotice;
  return {
    id: row.id,
    carrierId: row.carrierId,
    senderAddressId: row.senderAddressId,
    date: row.date,
    from: row.fromTime,
    to: row.toTime,
    parcelCount: row.parcelCount,
    weight: row.weight,
    instruction: row.instruction,
    status: row.status as PickupStatus,
    confirmationNumber: row.confirmationNumber,
    error: row.error,
    notice: typeof notice === 'string' ? notice : null,
    dailyPickupId: row.dailyPickupId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function findPickupRow(db: ReadDb, orgId: string, pickupId: string): PickupRow {
  const row = db
    .select()
    .from(pickups)
    .where(and(eq(pickups.orgId, orgId), eq(pickups.id, pickupId)))
    .get();
  if (!row) throw new ApiError('PICKUP_NOT_FOUND', `Pickup ${pickupId} does not exist in this organization`);
  return row;
}

/** 422 for a carrier whose API books no pickups: the user books it the carrier's own way. */
export function pickupNotSupported(carrierName: string): ApiError {
  return new ApiError(
    'PICKUP_NOT_SUPPORTED',
    `${carrierName} cannot book pickups through Shipdesk. Book the pickup with ${carrierName} by phone or on its website.`,
  );
}

/** The carrier of a new pickup (or daily pickup): live, and able to book pickups. */
export function pickupCarrier(db: ReadDb, orgId: string, carrierId: string): CarrierRow {
  const row = findCarrierRow(db, orgId, carrierId);
  if (!adapterOfRow(row).bookPickup) throw pickupNotSupported(row.name);
  return row;
}

/** Today (this computer's day) or later; today only while the window has not ended. */
function checkNotPast(date: string, to: string, now: Date): void {
  const today = localDay(now);
  if (date < today) {
    throw new ApiError('VALIDATION_FAILED', 'The pickup date is in the past', {
      details: [{ path: 'body.date', message: `Must be today (${today}) or later` }],
    });
  }
  if (date === today && to <= localClock(now)) {
    throw new ApiError('VALIDATION_FAILED', 'The pickup window has already ended today', {
      details: [{ path: 'body.to', message: `Must be later than now (${localClock(now)}), or choose another day` }],
    });
  }
}

export interface NewPickup {
  orgId: string;
  carrierId: string;
  senderAddressId: string;
  date: string;
  from: string;
  to: string;
  parcelCount: number | null;
  weight: number | null;
  instruction: string | null;
  dailyPickupId: string | null;
}

/**
 * Writes the pickup as `booking`, before the carrier hears of it. A daily pickup's row for a day that
 * already has one is not written (the unique index pickups_daily_date): null then.
 */
export function insertBookingRow(tx: WriteTx, now: Date, pickup: NewPickup): PickupRow | null {
  const at = now.toISOString();
  const row: PickupRow = {
    id: newId('pickup'),
    orgId: pickup.orgId,
    carrierId: pickup.carrierId,
    senderAddressId: pickup.senderAddressId,
    date: pickup.date,
    fromTime: pickup.from,
    toTime: pickup.to,
    parcelCount: pickup.parcelCount,
    weight: pickup.weight,
    instruction: pickup.instruction,
    status: 'booking',
    confirmationNumber: null,
    carrierBooking: null,
    error: null,
    dailyPickupId: pickup.dailyPickupId,
    cancelledAt: null,
    createdAt: at,
    updatedAt: at,
  };
  const written = tx.insert(pickups).values(row).onConflictDoNothing().run();
  return written.changes === 1 ? row : null;
}

/** POST /carriers/{carrierId}/pickups: 201 booked; 422 when the carrier refuses (the pickup is then `failed`). */
export async function bookPickup(app: AppContext, orgId: string, carrierId: string, input: PickupBookInput): Promise<Pickup> {
  const now = app.now();
  const row = inWriteTransaction(app.db, (tx) => {
    pickupCarrier(tx, orgId, carrierId);
    findSenderAddressRow(tx, orgId, input.senderAddressId);
    checkNotPast(input.date, input.to, now);
    return insertBookingRow(tx, now, {
      orgId,
      carrierId,
      senderAddressId: input.senderAddressId,
      date: input.date,
      from: input.from,
      to: input.to,
      parcelCount: input.parcelCount ?? null,
      weight: input.weight ?? null,
      instruction: input.instruction ?? null,
      dailyPickupId: null,
    }) as PickupRow;
  });
  const { pickup, failure } = await carryOutBooking(app, row);
  if (failure) throw failure;
  return pickup;
}

/**
 * Steps 2 and 3 for a row written as `booking`: the carrier call, outside any transaction, then its
 * outcome. A failure is written on the pickup (visible on the screen) and answered as the API's error.
 */
export async function carryOutBooking(app: AppContext, row: PickupRow): Promise<{ pickup: Pickup; failure: ApiError | null }> {
  // The row must be on disk before the carrier hears of the pickup (recovered at start-up).
  await durable(app.db);
  let carrier: CarrierRow;
  let request: PickupRequest;
  let call: CarrierCall;
  try {
    carrier = findCarrierRow(app.db, row.orgId, row.carrierId);
    if (!adapterOfRow(carrier).bookPickup) throw pickupNotSupported(carrier.name);
    call = carrierCall(app, carrier);
    request = {
      pickupId: row.id,
      date: row.date,
      from: row.fromTime,
      to: row.toTime,
      address: senderBookingParty(app.db, row.orgId, findSenderAddressRow(app.db, row.orgId, row.senderAddressId)),
      parcelCount: row.parcelCount,
      weightKg: row.weight,
      instruction: row.instruction,
    };
  } catch (error) {
    // A daily pickup whose carrier or address was deleted since: nothing was sent anywhere.
    const failure = error instanceof ApiError ? error : new ApiError('CARRIER_ERROR', error instanceof Error ? error.message : String(error));
    return { pickup: writeOutcome(app, row.id, { status: 'failed', error: failure.message }), failure };
  }
  const bookPickupWith = call.adapter.bookPickup;
  if (!bookPickupWith) throw pickupNotSupported(carrier.name);
  try {
    const booking = await bookPickupWith(call.context, request);
    return {
      pickup: writeOutcome(app, row.id, { status: 'booked', confirmationNumber: booking.confirmationNumber, carrierBooking: booking.booking }),
      failure: null,
    };
  } catch (error) {
    const failure = bookingFailure(carrier.name, error);
    const message = masked(call.secrets, failure.message) as string;
    return {
      pickup: writeOutcome(app, row.id, { status: 'failed', error: message }),
      failure: new ApiError(failure.code, message, { errors: masked(call.secrets, failure.errors) as never }),
    };
  }
}

function bookingFailure(carrierName: string, error: unknown): ApiError {
  if (error instanceof CarrierFailure && error.kind === 'outcome_unknown') {
    return new ApiError(
      'CARRIER_OUTCOME_UNKNOWN',
      `${carrierName} did not answer whether it booked the pickup. Check with ${carrierName} by phone or on its website before booking it again, so the driver does not come twice.`,
      { errors: error.errors },
    );
  }
  return carrierCallError(carrierName, error, { afterAuth: 'the pickup was not booked', failed: 'did not book the pickup' });
}

function writeOutcome(app: AppContext, pickupId: string, outcome: Partial<PickupRow> & { status: PickupStatus }): Pickup {
  return inWriteTransaction(app.db, (tx) => {
    tx.update(pickups)
      .set({ ...outcome, updatedAt: app.now().toISOString() })
      .where(and(eq(pickups.id, pickupId), eq(pickups.status, 'booking')))
      .run();
    return toPickup(tx.select().from(pickups).where(eq(pickups.id, pickupId)).get() as PickupRow);
  });
}

export function getPickup(app: AppContext, orgId: string, pickupId: string): Pickup {
  return toPickup(findPickupRow(app.db, orgId, pickupId));
}

export function listPickups(app: AppContext, orgId: string, query: PickupListQuery): Page<Pickup> {
  const filters: SQL[] = [eq(pickups.orgId, orgId)];
  if (query.carrierId) filters.push(eq(pickups.carrierId, query.carrierId));
  if (query.status) filters.push(eq(pickups.status, query.status));
  if (query.date) filters.push(eq(pickups.date, query.date));
  if (query.dateFrom) filters.push(gte(pickups.date, query.dateFrom));
  if (query.dateTo) filters.push(lte(pickups.date, query.dateTo));
  const where = and(...filters);
  const total = app.db.select({ n: count() }).from(pickups).where(where).get()?.n ?? 0;
  return paginate(query, total, (limit, offset) =>
    app.db
      .select()
      .from(pickups)
      .where(where)
      // Upcoming first when listing from today on; newest day first otherwise.
      .orderBy(
        ...(query.dateFrom && !query.dateTo ? [asc(pickups.date), asc(pickups.fromTime)] : [desc(pickups.date), desc(pickups.fromTime)]),
        desc(pickups.createdAt),
        desc(pickups.id),
      )
      .limit(limit)
      .offset(offset)
      .all()
      .map(toPickup),
  );
}

/**
 * POST /pickups/{id}/cancel: with the carrier where its API can (a refusal leaves it booked, 422);
 * where it cannot, cancelled here with a notice saying how to tell the carrier. A failed pickup is
 * simply closed. 409 while it is being booked or when already cancelled.
 */
export async function cancelPickup(app: AppContext, orgId: string, pickupId: string): Promise<Pickup> {
  const row = findPickupRow(app.db, orgId, pickupId);
  if (row.status === 'cancelled') throw new ApiError('CONFLICT', `Pickup ${pickupId} is already cancelled`);
  if (row.status === 'booking') throw new ApiError('CONFLICT', `Pickup ${pickupId} is being booked with the carrier right now; try again in a moment`);
  let notice: string | null = null;
  if (row.status === 'booked') {
    const carrier = findCarrierRowOfBooking(app.db, orgId, row.carrierId);
    const call = carrierCall(app, carrier);
    if (call.adapter.cancelPickup) {
      try {
        await call.adapter.cancelPickup(call.context, {
          pickupId: row.id,
          date: row.date,
          confirmationNumber: row.confirmationNumber ?? '',
          booking: row.carrierBooking ?? {},
        });
      } catch (error) {
        const failure = carrierCallError(carrier.name, error, { afterAuth: 'the pickup was not cancelled', failed: 'did not cancel the pickup' });
        throw new ApiError(failure.code, masked(call.secrets, failure.message) as string, { errors: masked(call.secrets, failure.errors) as never });
      }
    } else {
      notice = `Cancelled in Shipdesk only: ${carrier.name} cannot be told through Shipdesk. Call ${carrier.name} or use its website to cancel pickup ${row.confirmationNumber ?? ''} on ${row.date}.`;
    }
  }
  const now = app.now().toISOString();
  return inWriteTransaction(app.db, (tx) => {
    tx.update(pickups)
      .set({ status: 'cancelled', cancelledAt: now, updatedAt: now, ...(notice ? { carrierBooking: { ...row.carrierBooking, cancelNotice: notice } } : {}) })
      .where(and(eq(pickups.id, pickupId), eq(pickups.status, row.status)))
      .run();
    return toPickup(findPickupRow(tx, orgId, pickupId));
  });
}

/**
 * At start-up, before anything is served: a pickup left `booking` was being booked when the process
 * stopped. Whether the carrier took it is unknown, so it becomes `failed` with a sentence saying
 * exactly that; it is never booked again on its own.
 */
export function recoverInterruptedPickups(app: AppContext): number {
  const now = app.now().toISOString();
  return inWriteTransaction(app.db, (tx) => {
    const stuck = tx
      .select({ id: pickups.id, carrierName: carriers.name })
      .from(pickups)
      .innerJoin(carriers, eq(carriers.id, pickups.carrierId))
      .where(eq(pickups.status, 'booking'))
      .all();
    for (const { id, carrierName } of stuck) {
      tx.update(pickups)
        .set({
          status: 'failed',
          error: `Shipdesk stopped while this pickup was being booked with ${carrierName}. Check with ${carrierName} whether it was booked before booking it again.`,
          updatedAt: now,
        })
        .where(eq(pickups.id, id))
        .run();
    }
    return stuck.length;
  });
}
