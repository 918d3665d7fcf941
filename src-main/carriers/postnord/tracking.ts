import type { PostnordTrackedShipment, PostnordTrackingStatus } from './contract';

/** Shipdesk's tracking statuses (decisions §13). */
export type ShipdeskTrackingStatus = 'pending' | 'in_transit' | 'out_for_delivery' | 'delivered' | 'exception' | 'returned' | 'unknown';

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

export interface ShipmentEvent {
  at: string;
  code: string;
  description: string;
  location: string | null;
}

/** Every item's scans, oldest first; a scan of several items at once is listed once. */
export function shipmentEvents(shipment: PostnordTrackedShipment): ShipmentEvent[] {
  const seen = new Set<string>();
  const events: ShipmentEvent[] = [];
  for (const item of shipment.items ?? []) {
    for (const event of item.events ?? []) {
      const location = event.location
        ? [event.location.displayName ?? event.location.name, event.location.city, event.location.countryCode].filter(Boolean)
        : [];
      const mapped = {
        at: event.eventTime,
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
