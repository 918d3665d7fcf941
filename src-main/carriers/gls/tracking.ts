import type { TrackingStatus } from '../../../src-shared/schemas/shipment';
import type { TrackingEvent, TrackingResult } from '../adapter';
import type { GlsTrackEvent, GlsTrackedParcel } from './contract';

/**
 * Track and Trace V1's parcel status turned into Shipdesk's (decisions §13), and a shipment's status
 * from its parcels': the least advanced parcel decides, a parcel in trouble makes the shipment's.
 */

const statusOf: Record<string, TrackingStatus> = {
  PLANNEDPICKUP: 'pending',
  INPICKUP: 'pending',
  PREADVICE: 'pending',
  NOTPICKEDUP: 'exception',
  INTRANSIT: 'in_transit',
  INWAREHOUSE: 'in_transit',
  INDELIVERY: 'out_for_delivery',
  DELIVEREDPS: 'delivered',
  DELIVERED: 'delivered',
  // The history is closed after the delivery.
  FINAL: 'delivered',
  NOTDELIVERED: 'exception',
  // The parcel data was deleted at GLS: it will not travel.
  CANCELED: 'exception',
};

const progress: Partial<Record<TrackingStatus, number>> = { pending: 0, in_transit: 1, out_for_delivery: 2, delivered: 3 };

export function parcelStatus(parcel: GlsTrackedParcel): TrackingStatus {
  if (parcel.errorCode || !parcel.status) return 'unknown';
  return statusOf[parcel.status] ?? 'unknown';
}

export function shipmentStatus(parcelStatuses: readonly TrackingStatus[]): TrackingStatus {
  const known = parcelStatuses.filter((status) => status !== 'unknown');
  if (known.length === 0) return 'unknown';
  if (known.includes('exception')) return 'exception';
  if (known.includes('returned')) return 'returned';
  return known.reduce((least, status) => ((progress[status] ?? 0) < (progress[least] ?? 0) ? status : least));
}

/** 2024-10-07T10:46:14+0200 (Track and Trace's basic offset) as an ISO instant. */
export function glsInstant(text: string): string {
  const normalized = text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const at = new Date(normalized);
  return Number.isNaN(at.getTime()) ? text : at.toISOString();
}

function trackingEvent(event: GlsTrackEvent): TrackingEvent {
  const place = [event.postalCode, event.city].filter(Boolean).join(' ');
  const location = [place, event.country].filter(Boolean).join(', ');
  return { at: glsInstant(event.eventDateTime), code: event.code, description: event.description, location: location || null };
}

/** One shipment's answer from its parcels' (several parcels: every event once, newest first). */
export function shipmentTracking(parcels: readonly GlsTrackedParcel[]): TrackingResult {
  const seen = new Set<string>();
  const events: TrackingEvent[] = [];
  for (const parcel of parcels) {
    for (const event of parcel.events.map(trackingEvent)) {
      const key = `${event.at}|${event.code}|${parcels.length > 1 ? (parcel.unitno ?? parcel.requested) : ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      events.push(parcels.length > 1 ? { ...event, description: `${event.description} (parcel ${parcel.unitno ?? parcel.requested})` } : event);
    }
  }
  events.sort((a, b) => b.at.localeCompare(a.at));
  return { status: shipmentStatus(parcels.map(parcelStatus)), events };
}
