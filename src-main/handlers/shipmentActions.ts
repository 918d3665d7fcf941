import { defineHandlers, type BinaryResult } from './types';
import { batchSend, sendShipment } from '../domain/shipments/send';
import { createReturn } from '../domain/shipments/returns';
import { documentContent } from '../domain/shipments/documents';
import { cancelShipment, deleteShipment, updateShipment } from '../domain/shipments/update';
import { createShipmentFromOrder } from '../domain/shipments/orderShipment';

export const shipmentActionHandlers = defineHandlers({
  'shipments.update': ({ app }, { params, body }) => updateShipment(app, params.orgId, params.shipmentId, body),
  'shipments.delete': ({ app }, { params }) => deleteShipment(app, params.orgId, params.shipmentId),
  'shipments.cancel': ({ app }, { params }) => cancelShipment(app, params.orgId, params.shipmentId),
  'shipments.send': ({ app }, { params, body }) => sendShipment(app, params.orgId, params.shipmentId, { stationPrinterIds: body?.stationPrinterIds }),
  'shipments.batchSend': ({ app }, { params, body }) => batchSend(app, params.orgId, body.shipmentIds, { stationPrinterIds: body.stationPrinterIds }),
  'shipments.createReturn': ({ app }, { params }) => createReturn(app, params.orgId, params.shipmentId),
  // A binary operation: the HTTP door sends the BinaryResult's bytes with its content type (the table types it as string).
  'shipments.documentContent': async ({ app }, { params, query }) =>
    (await documentContent(app, params.orgId, params.shipmentId, params.documentId, query.format)) satisfies BinaryResult as unknown as string,
  'orders.createShipment': ({ app }, { params, body }) => createShipmentFromOrder(app, params.orgId, params.orderId, body),
});
