/**
 * Scheduled storefront sync (issue 22): wakes about once a minute and syncs the channels that are
 * due (`next_sync_at <= now`, index order_channels_sync_due), each under its lease, so a run never
 * overlaps another of the same channel (the "Sync" button's included). The schedule lives in the
 * database, so a restart resumes it; an order is never imported twice (its platform id within the
 * channel, checked in the import's transaction). A wake syncs a bounded number of channels.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, asc, isNotNull, isNull, lt, lte, or } from 'drizzle-orm';
import type { AppContext } from '../../app/kernel/context';
import { repeatInBackground, type BackgroundTask } from '../../app/kernel/backgroundTask';
import { orderChannels } from '../../db/schema';
import { ApiError } from '../../../src-shared/errors';
import { SYNC_LEASE_STALE_MS, syncOrderChannel } from '../orders/sync';

/** How often it wakes; a channel is synced within this of being due. */
export const SCHEDULED_SYNC_INTERVAL_MS = 60_000;
/** Channels synced per wake at most; the rest wait for the next wake, still due. */
const MAX_PER_WAKE = 5;

export interface ScheduledSyncRun {
  /** Channels this wake synced or tried to. */
  synced: number;
  failed: number;
  /** Due channels another run held (a "Sync" pressed meanwhile, another process). */
  busy: number;
}

/** One wake, now. */
export async function runScheduledSyncs(app: AppContext, maxPerWake = MAX_PER_WAKE): Promise<ScheduledSyncRun> {
  const now = app.now().toISOString();
  const staleBefore = new Date(app.now().getTime() - SYNC_LEASE_STALE_MS).toISOString();
  const due = app.db
    .select({ id: orderChannels.id, orgId: orderChannels.orgId })
    .from(orderChannels)
    .where(
      and(
        isNotNull(orderChannels.nextSyncAt),
        isNull(orderChannels.deletedAt),
        lte(orderChannels.nextSyncAt, now),
        // A channel held by a live run is left to it, so it never takes a place from one that is due.
        or(isNull(orderChannels.syncStartedAt), lt(orderChannels.syncStartedAt, staleBefore)),
      ),
    )
    .orderBy(asc(orderChannels.nextSyncAt), asc(orderChannels.id))
    .limit(maxPerWake)
    .all();
  const run: ScheduledSyncRun = { synced: 0, failed: 0, busy: 0 };
  for (const channel of due) {
    try {
      await syncOrderChannel(app, channel.orgId, channel.id);
      run.synced += 1;
    } catch (error) {
      // Held by another run: it writes the outcome and the next due time.
      if (error instanceof ApiError && error.code === 'CONFLICT') run.busy += 1;
      else if (error instanceof ApiError && error.code === 'ORDER_CHANNEL_NOT_FOUND') continue;
      else {
        // Recorded on the channel as its last error and tried again one interval later.
        run.synced += 1;
        run.failed += 1;
      }
    }
    await nextTurn();
  }
  return run;
}

export function startScheduledSync(app: AppContext, intervalMs = SCHEDULED_SYNC_INTERVAL_MS): BackgroundTask {
  return repeatInBackground('Scheduled shop sync', intervalMs, () => runScheduledSyncs(app));
}
