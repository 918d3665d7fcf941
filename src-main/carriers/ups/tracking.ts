import type { TrackingStatus } from '../../../src-shared/schemas/shipment';
import type { TrackingEvent, TrackingResult } from '../adapter';
import type { UpsTrackActivity, UpsTrackPackage } from './contract';

/**
 * UPS's package status turned into Shipdesk's (decisions §13). The Tracking API's status `type` is a
 * letter the contract shows only by example (X); these are UPS's documented activity types: M label
 * made (manifest), P picked up, I in transit, O out for delivery, D delivered, X exception, RS returned
 * to the shipper. A shipment of several packages is as far as its least advanced package.
 */
const statusOf: Record<string, TrackingStatus> = {
  M: 'pending',
  MV: 'pending',
  P: 'in_transit',
  I: 'in_transit',
  O: 'out_for_delivery',
  D: 'delivered',
  X: 'exception',
  RS: 'returned',
};

const progress: Partial<Record<TrackingStatus, number>> = { pending: 0, in_transit: 1, out_for_delivery: 2, delivered: 3 };

export function packageStatus(pkg: UpsTrackPackage | undefined): TrackingStatus {
  const type = pkg?.currentStatus?.type ?? pkg?.activity[0]?.status?.type;
  return type ? (statusOf[type.toUpperCase()] ?? 'unknown') : 'unknown';
}

function shipmentStatus(statuses: readonly TrackingStatus[]): TrackingStatus {
  const known = statuses.filter((status) => status !== 'unknown');
  if (known.length === 0) return 'unknown';
  if (known.includes('exception')) return 'exception';
  if (known.includes('returned')) return 'returned';
  return known.reduce((least, status) => ((progress[status] ?? 0) < (progress[least] ?? 0) ? status : least));
}

/** gmtDate 20210210 and gmtTime 74700 (HHMMSS without its leading zero) as an ISO instant; else the local date and time with gmtOffset. */
export function activityInstant(activity: UpsTrackActivity): string {
  const iso = (date: string, time: string, offset: string) =>
    new Date(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${time.slice(0, 2)}:${time.slice(2, 4)}:${time.slice(4, 6)}${offset}`);
  const at =
    activity.gmtDate && activity.gmtTime
      ? iso(activity.gmtDate, activity.gmtTime.padStart(6, '0'), 'Z')
      : iso(activity.date ?? '19700101', (activity.time ?? '000000').padStart(6, '0'), activity.gmtOffset ?? 'Z');
  return Number.isNaN(at.getTime()) ? new Date(0).toISOString() : at.toISOString();
}

function trackingEvent(activity: UpsTrackActivity, parcel: string | null): TrackingEvent {
  const address = activity.location?.address;
  const place = [address?.postalCode, address?.city].filter(Boolean).join(' ');
  const location = [place, address?.countryCode].filter(Boolean).join(', ');
  const description = activity.status?.description ?? '';
  return {
    at: activityInstant(activity),
    code: activity.status?.code ?? activity.status?.type ?? '',
    description: parcel ? `${description} (parcel ${parcel})` : description,
    location: location || null,
  };
}

/** One shipment's answer from its packages' (several packages: each event says which). */
export function shipmentTracking(packages: readonly { number: string; pkg: UpsTrackPackage | undefined }[]): TrackingResult {
  const several = packages.length > 1;
  const events = packages.flatMap(({ number, pkg }) => (pkg?.activity ?? []).map((activity) => trackingEvent(activity, several ? number : null)));
  events.sort((a, b) => b.at.localeCompare(a.at));
  return { status: shipmentStatus(packages.map(({ pkg }) => packageStatus(pkg))), events };
}
