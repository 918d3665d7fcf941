import { readShipmentCached } from '../domain/shipments/readCache';
import { createShipment } from '../domain/shipments/create';
import { listShipments } from '../domain/shipments/list';
import { defineHandlers } from './types';

export const shipmentHandlers = defineHandlers({
  'shipments.create': ({ app }, { params, body }) => createShipment(app, params.orgId, body),
  'shipments.list': ({ app }, { params, query }) => listShipments(app, params.orgId, query),
  'shipments.get': ({ app }, { params }) => readShipmentCached(app.db, app.shipmentReads, params.orgId, params.shipmentId),
});
