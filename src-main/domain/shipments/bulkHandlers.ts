import { defineHandlers, type BinaryResult } from '../../app/kernel/handler';
import { batchPrint } from '../printing/batchPrint';
import { batchApplyRule, batchCancel, batchHold, batchRelease } from './bulk';
import { exportShipments } from './export';

/** Bulk actions on a selection of shipments (src-shared/api/bulkShipments.ts). */
export const bulkShipmentHandlers = defineHandlers({
  'shipments.batchPrint': ({ app }, { params, body }) => batchPrint(app, params.orgId, body),
  'shipments.batchHold': ({ app }, { params, body }) => batchHold(app, params.orgId, body.shipmentIds),
  'shipments.batchRelease': ({ app }, { params, body }) => batchRelease(app, params.orgId, body.shipmentIds),
  'shipments.batchCancel': ({ app }, { params, body }) => batchCancel(app, params.orgId, body.shipmentIds),
  'shipments.batchApplyRule': ({ app }, { params, body }) => batchApplyRule(app, params.orgId, body.shipmentIds, body.shippingRuleId),
  // A binary operation: the HTTP door sends the BinaryResult's bytes with its content type (the table types it as string).
  'shipments.export': ({ app }, { params, body }) => exportShipments(app, params.orgId, body.shipmentIds) satisfies BinaryResult as unknown as string,
});
