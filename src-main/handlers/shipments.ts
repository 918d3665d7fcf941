import { readShipment } from '../domain/shipments/repository';
import { createShipment } from '../domain/shipments/create';
import { listShipments } from '../domain/shipments/list';
import { defineHandlers } from './types';

export const shipmentHandlers = defineHandlers({
  'shipments.create': ({ app }, { params, body }) => createShipment(app, params.orgId, body),
  'shipments.list': ({ app }, { params, query }) => listShipments(app, params.orgId, query),
  'shipments.get': ({ app }, { params }) => readShipment(app.db, params.orgId, params.shipmentId),
});
