import type { TrackingStatus } from '../../../../src-shared/schemas/shipment';

/** decisions §13's tracking statuses in a packer's words. */
export const trackingStatusNames: Record<TrackingStatus, string> = {
  pending: 'Not yet moving',
  in_transit: 'In transit',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered',
  exception: 'Problem',
  returned: 'Returned',
  unknown: 'Unknown',
};

/** The badge colours of styles.css: delivered good, a problem bad, on its way in between. */
const badgeClass: Record<TrackingStatus, string> = {
  pending: 'status-pending',
  in_transit: 'status-pending',
  out_for_delivery: 'status-pending',
  delivered: 'status-dispatched',
  exception: 'status-error',
  returned: '',
  unknown: '',
};

export function TrackingBadge({ status }: { status: TrackingStatus }) {
  return <span className={`status ${badgeClass[status]}`}>{trackingStatusNames[status]}</span>;
}
