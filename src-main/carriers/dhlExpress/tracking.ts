import type { TrackingStatus } from '../../../src-shared/schemas/shipment';
import type { TrackingEvent, TrackingResult } from '../adapter';
import type { DhlTrackedShipment, DhlTrackingEvent } from './contract';

/**
 * MyDHL's checkpoints turned into Shipdesk's tracking (decisions §13). DHL's newest checkpoint
 * decides: its code says delivered, with the courier, back to the sender or held up; any other
 * scan means the shipment is moving. Without a checkpoint DHL has only the booking's data.
 */

const statusOfCode: Record<string, TrackingStatus> = {
  OK: 'delivered',
  DD: 'delivered',
  WC: 'out_for_delivery',
  RT: 'returned',
  // Held up: bad or incomplete address, nobody home, closed, refused, on hold, held for payment,
  // clearance delay, missed delivery cycle, mis-sorted.
  BA: 'exception',
  NH: 'exception',
  CA: 'exception',
  RD: 'exception',
  OH: 'exception',
  HP: 'exception',
  CD: 'exception',
  MD: 'exception',
  MS: 'exception',
  // Shipment data received: booked, not yet handed over.
  SD: 'pending',
};

/** The tracking answer's own summary, when no checkpoint code is known. */
const statusOfSummary: Record<string, TrackingStatus> = {
  delivered: 'delivered',
  transit: 'in_transit',
  failure: 'exception',
  'pre-transit': 'pending',
};

/** `2026-11-27` + `14:05:00` + `+01:00` as an ISO instant. */
export function dhlInstant(event: Pick<DhlTrackingEvent, 'date' | 'time' | 'GMTOffset'>): string {
  const offset = event.GMTOffset && /^[+-]\d{2}:\d{2}$/.test(event.GMTOffset) ? event.GMTOffset : '+00:00';
  const at = new Date(`${event.date}T${event.time.length === 5 ? `${event.time}:00` : event.time}${offset}`);
  return Number.isNaN(at.getTime()) ? `${event.date}T${event.time}` : at.toISOString();
}

function trackingEvent(event: DhlTrackingEvent): TrackingEvent {
  const place = event.serviceArea?.map((area) => area.description ?? area.code).find(Boolean) ?? null;
  const signed = event.signedBy ? ` (signed by ${event.signedBy})` : '';
  return { at: dhlInstant(event), code: event.typeCode ?? '', description: `${event.description ?? ''}${signed}`.trim(), location: place };
}

export function shipmentTracking(shipment: DhlTrackedShipment | undefined): TrackingResult {
  if (!shipment) return { status: 'unknown', events: [] };
  const events = shipment.events.map(trackingEvent).sort((a, b) => b.at.localeCompare(a.at));
  const newest = events[0];
  const byCode = newest ? statusOfCode[newest.code] : undefined;
  const bySummary = shipment.status ? statusOfSummary[shipment.status.toLowerCase()] : undefined;
  const status: TrackingStatus = byCode ?? bySummary ?? (newest ? 'in_transit' : 'pending');
  return { status, events };
}
