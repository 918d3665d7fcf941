import type { CarrierAdapter } from '../../carriers/adapter';

/**
 * When the tracking poller asks a carrier about a shipment (decisions §13): about every 30 minutes,
 * for 30 days after booking, until it is delivered or returned. A carrier nobody can ask (`local`)
 * is never due: its status is set by hand.
 */
export const TRACKING_INTERVAL_MS = 30 * 60_000;
export const TRACKING_WINDOW_MS = 30 * 24 * 60 * 60_000;

/** Statuses after which nobody asks again. */
export const finalTrackingStatuses: ReadonlySet<string> = new Set(['delivered', 'returned']);

export function firstTrackingCheck(adapter: CarrierAdapter, now: Date): string | null {
  return adapter.track ? new Date(now.getTime() + TRACKING_INTERVAL_MS).toISOString() : null;
}

/** The next check after one at `now`, or null when the shipment is done or past the window. */
export function nextTrackingCheck(status: string, bookedAt: string | null, now: Date, delayMs = TRACKING_INTERVAL_MS): string | null {
  if (finalTrackingStatuses.has(status)) return null;
  if (bookedAt && now.getTime() - Date.parse(bookedAt) > TRACKING_WINDOW_MS) return null;
  return new Date(now.getTime() + delayMs).toISOString();
}
