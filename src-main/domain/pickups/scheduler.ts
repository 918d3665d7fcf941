/**
 * Books each enabled daily pickup once on each of its weekdays (issue 21). Only today is ever
 * booked: after a restart it catches up on today, never on days it was not running. A day's
 * pickup is claimed by writing its row (the unique index pickups_daily_date allows one per daily
 * pickup and date, across restarts, processes and concurrent wakes), and only the claimer calls the
 * carrier. A wake books a bounded number, yielding between them, so requests never wait on it.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../app/kernel/context';
import { repeatInBackground, type BackgroundTask } from '../../app/kernel/backgroundTask';
import { dailyPickups } from '../../db/schema';
import { inWriteTransaction } from '../../db/tx';
import { localClock, localDay, localWeekday } from './localDay';
import { carryOutBooking, insertBookingRow, type PickupRow } from './pickups';

/** How often it wakes; a daily pickup is booked within this of the day starting (or of it being set up). */
export const DAILY_PICKUP_INTERVAL_MS = 60_000;
/** Daily pickups booked per wake at most; the rest wait for the next. */
const MAX_PER_WAKE = 10;

export interface DailyPickupRun {
  /** Pickups this wake booked or tried to (failed ones included). */
  booked: number;
  failed: number;
}

/** One wake, now: today's pickups of the daily pickups that have none yet. */
export async function runDailyPickups(app: AppContext, maxPerWake = MAX_PER_WAKE): Promise<DailyPickupRun> {
  const now = app.now();
  const today = localDay(now);
  const run: DailyPickupRun = { booked: 0, failed: 0 };
  const due = app.db
    .select()
    .from(dailyPickups)
    .where(
      and(
        eq(dailyPickups.enabled, true),
        isNull(dailyPickups.deletedAt),
        or(isNull(dailyPickups.lastBookedDate), lt(dailyPickups.lastBookedDate, today)),
        sql`EXISTS (SELECT 1 FROM json_each(${dailyPickups.weekdays}) WHERE value = ${localWeekday(now)})`,
        // A window already over today is not booked late; the next working day books as usual.
        sql`${dailyPickups.toTime} > ${localClock(now)}`,
      ),
    )
    .orderBy(dailyPickups.createdAt, dailyPickups.id)
    .limit(maxPerWake)
    .all();
  for (const daily of due) {
    const claimed: PickupRow | null = inWriteTransaction(app.db, (tx) => {
      const row = insertBookingRow(tx, now, {
        orgId: daily.orgId,
        carrierId: daily.carrierId,
        senderAddressId: daily.senderAddressId,
        date: today,
        from: daily.fromTime,
        to: daily.toTime,
        parcelCount: daily.parcelCount,
        weight: daily.weight,
        instruction: daily.instruction,
        dailyPickupId: daily.id,
      });
      tx.update(dailyPickups).set({ lastBookedDate: today }).where(eq(dailyPickups.id, daily.id)).run();
      return row;
    });
    // Another wake (or process) has today's row already: it books, not this one.
    if (!claimed) continue;
    const { failure } = await carryOutBooking(app, claimed);
    run.booked += 1;
    if (failure) run.failed += 1;
    await nextTurn();
  }
  return run;
}

export function startDailyPickups(app: AppContext, intervalMs = DAILY_PICKUP_INTERVAL_MS): BackgroundTask {
  return repeatInBackground('Daily pickups', intervalMs, () => runDailyPickups(app));
}
