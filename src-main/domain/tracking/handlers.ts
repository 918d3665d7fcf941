import { defineHandlers } from '../../app/kernel/handler';
import { addManualTrackingEvent, refreshTracking } from './trackingOperations';

export const trackingHandlers = defineHandlers({
  'shipments.refreshTracking': ({ app }, { params }) => refreshTracking(app, params.orgId, params.shipmentId),
  'shipments.addTrackingEvent': ({ app }, { params, body }) => addManualTrackingEvent(app, params.orgId, params.shipmentId, body),
});
