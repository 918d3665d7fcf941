import { defineHandlers, type BinaryResult } from '../../app/kernel/handler';
import { readShipmentCached } from './readCache';
import { createShipment } from './create';
import { listShipments } from './list';
import { batchSend, sendShipment } from './send';
import { createReturn } from './returns';
import { documentContent } from './documents';
import { cancelShipment, deleteShipment, updateShipment } from './update';
import { createShipmentFromOrder } from './orderShipment';
import { batchSplitParcel, splitParcel } from './split';

export const shipmentHandlers = defineHandlers({
  'shipments.create': ({ app }, { params, body }) => createShipment(app, params.orgId, body),
  'shipments.list': ({ app }, { params, query }) => listShipments(app, params.orgId, query),
  'shipments.get': ({ app }, { params }) => readShipmentCached(app.db, app.shipmentReads, params.orgId, params.shipmentId),
  'shipments.update': ({ app }, { params, body }) => updateShipment(app, params.orgId, params.shipmentId, body),
  'shipments.delete': ({ app }, { params }) => deleteShipment(app, params.orgId, params.shipmentId),
  'shipments.cancel': ({ app }, { params }) => cancelShipment(app, params.orgId, params.shipmentId),
  'shipments.send': ({ app }, { params, body }) =>
    sendShipment(app, params.orgId, params.shipmentId, { stationPrinterIds: body?.stationPrinterIds, confirmRebook: body?.confirmRebook === true }),
  'shipments.batchSend': ({ app }, { params, body }) =>
    batchSend(app, params.orgId, body.shipmentIds, { stationPrinterIds: body.stationPrinterIds, confirmRebook: body.confirmRebook ?? false }),
  'shipments.createReturn': ({ app }, { params }) => createReturn(app, params.orgId, params.shipmentId),
  'shipments.split': ({ app }, { params, body }) => splitParcel(app, params.orgId, params.shipmentId, params.parcelId, body ?? {}),
  'shipments.batchSplit': ({ app }, { params, body }) => batchSplitParcel(app, params.orgId, params.shipmentId, params.parcelId, body),
  // A binary operation: the HTTP door sends the BinaryResult's bytes with its content type (the table types it as string).
  'shipments.documentContent': async ({ app }, { params, query }) =>
    (await documentContent(app, params.orgId, params.shipmentId, params.documentId, query.format)) satisfies BinaryResult as unknown as string,
  'orders.createShipment': ({ app }, { params, body }) => createShipmentFromOrder(app, params.orgId, params.orderId, body),
});
