/**
 * The tracking poller of decisions §13: while the app runs, each carrier is asked about its
 * dispatched shipments about every 30 minutes, batched, until they are delivered or returned or 30
 * days old. Everything it knows is in `shipments.tracking_due_at` (index shipments_tracking_due), so
 * a restart continues where it stopped. A cycle takes what is due in pages, groups a page per
 * carrier and asks the carriers side by side; one carrier's failure or rate limit pushes back only
 * its own shipments. It yields to the request path between batches and never runs two cycles at once.
 */
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { CarrierFailure } from '../../carriers/errors';
import type { AppContext } from '../../app/kernel/context';
import { repeatInBackground, type BackgroundTask } from '../../app/kernel/backgroundTask';
import type { CarrierAdapter, CarrierCallLog, TrackingResult } from '../../carriers/adapter';
import { carrierAdapterFor } from '../../carriers/catalogue';
import { carriers, shipments } from '../../db/schema';
import { durable, inWriteTransaction, type WriteTx } from '../../db/tx';
import { carrierCall } from '../carriers/carrierCalls';
import { bookedShipmentsOf } from '../shipments/bookedShipment';
import { carrierErrorsOf } from '../shipments/booking';
import type { ShipmentRow } from '../shipments/repository';
import { writeCarrierCalls } from '../shipments/carrierLogs';
import { writeTracking } from './applyTracking';
import { TRACKING_WINDOW_MS } from './schedule';

/** How often a cycle starts; each takes what came due since. */
export const POLL_INTERVAL_MS = 60_000;
/** Shipments per `track` call unless the adapter says otherwise (`trackBatchSize`). */
export const DEFAULT_TRACK_BATCH_SIZE = 50;
/** Due shipments read at a time: bounds the memory and the synchronous work of one step. */
const PAGE_SIZE = 500;
/** Most shipments one cycle asks about; a backlog (a first start, a long pause) is worked off over several cycles. */
const MAX_PER_CYCLE = 5000;
/** A failing carrier's shipments wait this long, doubling with each failure in a row, up to the cap. */
export const FAILURE_BACKOFF_MS = 5 * 60_000;
const MAX_BACKOFF_MS = 2 * 60 * 60_000;
/** Pause after a batch per millisecond it held the event loop (see yieldToRequests). */
const PAUSE_PER_BUSY_MS = 4;

/** An adapter may ask for smaller or larger batches than the default (the carrier's own limit per call). */
type TrackingAdapter = CarrierAdapter;

export interface TrackingCycleOptions {
  maxPerCycle?: number;
  pageSize?: number;
}

export interface TrackingCycleSummary {
  /** Shipments the carriers were asked about. */
  asked: number;
  /** Shipments whose status or events changed. */
  changed: number;
  /** Shipments pushed back because their carrier failed. */
  deferred: number;
  /** Shipments no longer followed without asking (past the window, carrier gone or nobody to ask). */
  retired: number;
  /** Carriers that failed this cycle, by id. */
  failedCarriers: string[];
}

interface PollerState {
  running: Promise<TrackingCycleSummary> | null;
  /** Set by stop: a cycle in progress ends after the batch it is in, instead of finishing every page. */
  stopping: boolean;
  /** Failures in a row per configured carrier; kept in memory only: after a restart the backoff starts over. */
  failures: Map<string, number>;
}

const states = new WeakMap<AppContext, PollerState>();

function stateOf(app: AppContext): PollerState {
  let state = states.get(app);
  if (!state) states.set(app, (state = { running: null, stopping: false, failures: new Map() }));
  return state;
}

/**
 * One cycle, now. A second call while one runs gets the running one's summary instead of starting
 * another, so a refresh on demand (tests, the benchmark) and the timer never ask twice.
 */
export function runTrackingCycle(app: AppContext, options: TrackingCycleOptions = {}): Promise<TrackingCycleSummary> {
  const state = stateOf(app);
  state.running ??= cycle(app, state, options).finally(() => {
    state.running = null;
  });
  return state.running;
}

/** Started with the server; `stop` waits for a cycle in progress before the database closes. */
export function startTrackingPoller(app: AppContext, intervalMs = POLL_INTERVAL_MS): BackgroundTask {
  const state = stateOf(app);
  state.stopping = false;
  const task = repeatInBackground('Tracking poll', intervalMs, () => runTrackingCycle(app));
  return {
    async stop() {
      state.stopping = true;
      await task.stop();
    },
  };
}

type DueRow = Pick<ShipmentRow, 'id' | 'carrierId' | 'bookedAt' | 'trackingDueAt'> & { rowid: number };

async function cycle(app: AppContext, state: PollerState, options: TrackingCycleOptions): Promise<TrackingCycleSummary> {
  const startedAt = app.now();
  const now = startedAt.toISOString();
  const maxPerCycle = options.maxPerCycle ?? MAX_PER_CYCLE;
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const summary: TrackingCycleSummary = { asked: 0, changed: 0, deferred: 0, retired: 0, failedCarriers: [] };
  const failedThisCycle = new Set<string>();
  // Keyset over the due index: a shipment left due by a failed write is not met again in this cycle.
  let after: { dueAt: string; rowid: number } | null = null;
  let taken = 0;
  while (taken < maxPerCycle && !state.stopping) {
    const page: DueRow[] = app.db.all<DueRow>(sql`
      SELECT rowid, id, carrier_id AS carrierId, booked_at AS bookedAt, tracking_due_at AS trackingDueAt
      FROM ${shipments} INDEXED BY shipments_tracking_due
      WHERE tracking_due_at IS NOT NULL AND tracking_due_at <= ${now}
        ${after ? sql`AND (tracking_due_at > ${after.dueAt} OR (tracking_due_at = ${after.dueAt} AND rowid > ${after.rowid}))` : sql``}
      ORDER BY tracking_due_at, rowid
      LIMIT ${Math.min(pageSize, maxPerCycle - taken)}`);
    if (!page.length) break;
    const last = page[page.length - 1] as DueRow;
    after = { dueAt: last.trackingDueAt as string, rowid: last.rowid };
    taken += page.length;

    const byCarrier = new Map<string, DueRow[]>();
    const stale: string[] = [];
    for (const row of page) {
      // Past the 30 days: nobody asks any more (decisions §13).
      if (row.bookedAt && startedAt.getTime() - Date.parse(row.bookedAt) > TRACKING_WINDOW_MS) stale.push(row.id);
      else byCarrier.set(row.carrierId, [...(byCarrier.get(row.carrierId) ?? []), row]);
    }
    retire(app, stale);
    summary.retired += stale.length;
    await Promise.all([...byCarrier].map(([carrierId, rows]) => pollCarrier(app, state, carrierId, rows, failedThisCycle, summary)));
    await yieldToRequests(app);
  }
  summary.failedCarriers = [...failedThisCycle];
  return summary;
}

/**
 * Between batches: the batch's writes are committed first, so requests served in the pause find no
 * write transaction open (which would bypass the read cache and make them wait for its commit).
 */
async function yieldToRequests(app: AppContext, busyMs = 0): Promise<void> {
  await durable(app.db);
  // Paused four times as long as the batch kept the event loop: a backlog takes at most a fifth of it.
  if (busyMs >= 1) await sleep(Math.min(busyMs * PAUSE_PER_BUSY_MS, 1000));
  else await nextTurn();
}

/** Shipments nobody will ask about: off the due index. */
function retire(app: AppContext, shipmentIds: readonly string[]): void {
  if (!shipmentIds.length) return;
  inWriteTransaction(app.db, (tx) =>
    tx
      .update(shipments)
      .set({ trackingDueAt: null })
      .where(inArray(shipments.id, [...shipmentIds]))
      .run(),
  );
}

/** One carrier's share of a page, batch after batch; the first failure defers the rest of its shipments. */
async function pollCarrier(
  app: AppContext,
  state: PollerState,
  carrierId: string,
  due: readonly DueRow[],
  failedThisCycle: Set<string>,
  summary: TrackingCycleSummary,
): Promise<void> {
  // A deleted carrier still answers for what it booked (deleting only hides it from new work).
  const carrierRow = app.db.select().from(carriers).where(eq(carriers.id, carrierId)).get();
  const adapter = carrierRow ? (carrierAdapterFor(carrierRow.carrierSlug) as TrackingAdapter | undefined) : undefined;
  if (!carrierRow || !adapter?.track) {
    retire(
      app,
      due.map((row) => row.id),
    );
    summary.retired += due.length;
    return;
  }
  if (failedThisCycle.has(carrierId)) {
    defer(app, state, carrierId, due, summary);
    return;
  }
  const batchSize = Math.max(1, adapter.trackBatchSize ?? DEFAULT_TRACK_BATCH_SIZE);
  for (let start = 0; start < due.length; start += batchSize) {
    // What is left stays due: the next start takes it.
    if (state.stopping) return;
    const batch = due.slice(start, start + batchSize);
    const busySince = performance.now();
    const rows = app.db
      .select()
      .from(shipments)
      .where(
        inArray(
          shipments.id,
          batch.map((row) => row.id),
        ),
      )
      .all();
    const booked = bookedShipmentsOf(app.db, rows);
    const call = carrierCall(app, carrierRow);
    let busyMs = performance.now() - busySince;
    let answers: Map<string, TrackingResult>;
    try {
      answers = await (adapter.track as NonNullable<CarrierAdapter['track']>)(call.context, booked);
    } catch (error) {
      failedThisCycle.add(carrierId);
      state.failures.set(carrierId, (state.failures.get(carrierId) ?? 0) + 1);
      const calls: readonly CarrierCallLog[] = call.context.http.calls.length
        ? call.context.http.calls
        : [{ request: { operation: 'track', shipments: booked.length }, response: null, statusCode: null, error: failureText(error), durationMs: 0 }];
      // The failed call shows in the logs[] of the shipments it was about; the rest are only pushed back.
      const now = app.now();
      inWriteTransaction(app.db, (tx) => {
        for (const row of rows) writeCarrierCalls(tx, now, row.id, call.secrets, calls);
      });
      defer(app, state, carrierId, due.slice(start), summary, error instanceof CarrierFailure ? error.retryAfterMs : null);
      return;
    }
    state.failures.delete(carrierId);
    const writingSince = performance.now();
    const now = app.now();
    // Logged only when something changed: a quiet check every 30 minutes for 30 days would bury the rest.
    const write = (tx: WriteTx, row: ShipmentRow) =>
      writeTracking(tx, now, row.id, {
        answer: answers.get(row.id) ?? null,
        carrierTracks: true,
        calls: call.context.http.calls,
        secrets: call.secrets,
        logOnlyWhenChanged: true,
      }).changed;
    let changed: boolean[];
    try {
      // One transaction for the batch: a transaction per shipment costs more than its writes.
      changed = inWriteTransaction(app.db, (tx) => rows.map((row) => write(tx, row)));
    } catch {
      // One shipment's write failed: the others are written one by one; that one stays due and is met next cycle.
      changed = rows.map((row) => {
        try {
          return inWriteTransaction(app.db, (tx) => write(tx, row));
        } catch (error) {
          console.error(`Tracking of shipment ${row.id} could not be saved:`, error instanceof Error ? error.message : error);
          return false;
        }
      });
    }
    summary.changed += changed.filter(Boolean).length;
    summary.asked += rows.length;
    busyMs += performance.now() - writingSince;
    await yieldToRequests(app, busyMs);
  }
}

/** Pushes a failing carrier's shipments back by its backoff; the other carriers' stay as they are. */
function defer(
  app: AppContext,
  state: PollerState,
  carrierId: string,
  due: readonly DueRow[],
  summary: TrackingCycleSummary,
  retryAfterMs: number | null = null,
): void {
  const failures = state.failures.get(carrierId) ?? 1;
  // At least as long as the carrier asked (a 429's Retry-After), even past the usual backoff.
  const delay = Math.max(Math.min(FAILURE_BACKOFF_MS * 2 ** (failures - 1), MAX_BACKOFF_MS), retryAfterMs ?? 0);
  const dueAt = new Date(app.now().getTime() + delay).toISOString();
  inWriteTransaction(app.db, (tx) =>
    tx
      .update(shipments)
      .set({ trackingDueAt: dueAt })
      .where(
        and(
          inArray(
            shipments.id,
            due.map((row) => row.id),
          ),
          sql`${shipments.trackingDueAt} IS NOT NULL`,
        ),
      )
      .run(),
  );
  summary.deferred += due.length;
}

function failureText(error: unknown): string {
  return carrierErrorsOf(error)
    .map((item) => item.message)
    .join('; ');
}
