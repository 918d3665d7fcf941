import type { TrackingStatus as ShipdeskTrackingStatus } from '../../../src-shared/schemas/shipment';
import type { TrackingEvent } from '../adapter';
import type { PostnordTrackedShipment, PostnordTrackingStatus } from './contract';

/** Track & Trace v7 item statuses in Shipdesk's words. */
export const trackingStatusOf: Record<PostnordTrackingStatus, ShipdeskTrackingStatus> = {
  // Pre-notified by the booking (EDI) but not scanned by PostNord yet.
  CREATED: 'pending',
  INFORMED: 'pending',
  EN_ROUTE: 'in_transit',
  DELAYED: 'in_transit',
  EXPECTED_DELAY: 'in_transit',
  OTHER: 'in_transit',
  // At the service point or parcel locker, or with the driver: the last step before delivered.
  AVAILABLE_FOR_DELIVERY: 'out_for_delivery',
  AVAILABLE_FOR_DELIVERY_PAR_LOC: 'out_for_delivery',
  DELIVERED: 'delivered',
  DELIVERY_IMPOSSIBLE: 'exception',
  DELIVERY_REFUSED: 'exception',
  STOPPED: 'exception',
  RETURNED: 'returned',
  // A shipment whose items differ; its items decide.
  SPLIT: 'unknown',
};

/** When items differ, the one that needs attention first speaks for the shipment. */
const precedence: ShipdeskTrackingStatus[] = ['exception', 'returned', 'pending', 'in_transit', 'out_for_delivery', 'delivered', 'unknown'];

export function shipmentStatus(shipment: PostnordTrackedShipment): ShipdeskTrackingStatus {
  if (shipment.status && shipment.status !== 'SPLIT') return trackingStatusOf[shipment.status];
  const statuses = new Set((shipment.items ?? []).map((item) => (item.status ? trackingStatusOf[item.status] : 'unknown')));
  return precedence.find((status) => statuses.has(status)) ?? 'unknown';
}

/** Every item's scans, oldest first; a scan of several items at once is listed once. */
export function shipmentEvents(shipment: PostnordTrackedShipment): TrackingEvent[] {
  const seen = new Set<string>();
  const events: TrackingEvent[] = [];
  for (const item of shipment.items ?? []) {
    for (const event of item.events ?? []) {
      const location = event.location
        ? [event.location.displayName ?? event.location.name, event.location.city, event.location.countryCode].filter(Boolean)
        : [];
      const mapped = {
        at: utcOf(event.eventTime, event.location?.countryCode),
        code: event.eventCode,
        description: event.eventDescription ?? event.status ?? event.eventCode,
        location: location.length > 0 ? [...new Set(location)].join(', ') : null,
      };
      const key = `${mapped.at}|${mapped.code}|${mapped.description}`;
      if (seen.has(key)) continue;
      seen.add(key);
      events.push(mapped);
    }
  }
  return events.sort((a, b) => a.at.localeCompare(b.at));
}

const zones: Record<string, string> = { SE: 'Europe/Stockholm', NO: 'Europe/Oslo', DK: 'Europe/Copenhagen', FI: 'Europe/Helsinki', AX: 'Europe/Mariehamn' };

/** Minutes `zone` is ahead of UTC at `utcMs`. */
function zoneOffsetMinutes(zone: string, utcMs: number): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(utcMs))
      .map((part) => [part.type, Number(part.value)]),
  ) as Record<string, number>;
  const asUtc = Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
  return Math.round((asUtc - utcMs) / 60_000);
}

/**
 * Track & Trace gives event times without an offset, in the local time of the place of the scan; a
 * Nordic country's zone turns it into UTC (Stockholm's when the place names none).
 */
export function utcOf(eventTime: string, countryCode: string | undefined): string {
  if (/(Z|[+-]\d{2}:?\d{2})$/.test(eventTime)) {
    const parsed = Date.parse(eventTime);
    return Number.isNaN(parsed) ? eventTime : new Date(parsed).toISOString();
  }
  const naive = Date.parse(`${eventTime}Z`);
  if (Number.isNaN(naive)) return eventTime;
  const zone = zones[countryCode ?? ''] ?? 'Europe/Stockholm';
  const first = naive - zoneOffsetMinutes(zone, naive) * 60_000;
  return new Date(naive - zoneOffsetMinutes(zone, first) * 60_000).toISOString();
}
