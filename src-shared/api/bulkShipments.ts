import { z } from 'zod';
import { defineOperation } from '../operation';
import { bulkApplyRuleBody, bulkBody, bulkPrintBody, bulkPrintResponse, bulkResponse, exportBody } from '../schemas/bulk';

const shipments = '/orgs/{orgId}/shipments' as const;

/**
 * Bulk actions on a selection of shipments (issue 20), batches of at most 100 like batch send: one
 * result per shipment in the order of the ids, each shipment changed in its own transaction, one
 * failure never stopping the rest. The export reads up to 10 000 as CSV.
 */
export const bulkShipmentOperations = [
  defineOperation({
    id: 'shipments.batchPrint',
    method: 'POST',
    path: `${shipments}/batch-print`,
    summary: "Print the labels of up to 100 shipments: one job per label, each printer printing its share in the ids' order. Never re-books",
    resource: 'printers',
    body: bulkPrintBody,
    response: bulkPrintResponse,
    successStatus: 200,
  }),
  defineOperation({
    id: 'shipments.batchHold',
    method: 'POST',
    path: `${shipments}/batch-hold`,
    summary: 'Put up to 100 shipments on hold (from draft, pending or error); one failure never stops the rest',
    resource: 'shipments',
    body: bulkBody,
    response: bulkResponse,
    successStatus: 200,
  }),
  defineOperation({
    id: 'shipments.batchRelease',
    method: 'POST',
    path: `${shipments}/batch-release`,
    summary: 'Release up to 100 shipments on hold (on_hold → pending); one failure never stops the rest',
    resource: 'shipments',
    body: bulkBody,
    response: bulkResponse,
    successStatus: 200,
  }),
  defineOperation({
    id: 'shipments.batchCancel',
    method: 'POST',
    path: `${shipments}/batch-cancel`,
    summary: 'Cancel up to 100 shipments as cancel does (a dispatched one is voided with its carrier); one failure never stops the rest',
    resource: 'shipments',
    body: bulkBody,
    response: bulkResponse,
    successStatus: 200,
    asksCarrier: true,
  }),
  defineOperation({
    id: 'shipments.batchApplyRule',
    method: 'POST',
    path: `${shipments}/batch-apply-rule`,
    summary: 'Apply a shipping rule to up to 100 shipments (its carrier, product, services and sender, as PATCH shippingRuleId does)',
    resource: 'shipments',
    body: bulkApplyRuleBody,
    response: bulkResponse,
    successStatus: 200,
  }),
  defineOperation({
    id: 'shipments.export',
    method: 'POST',
    path: `${shipments}/export`,
    summary: 'Up to 10 000 shipments as CSV (text/csv, a header line of the documented columns, the rows in the order of the ids)',
    resource: 'shipments',
    onlyReads: true,
    body: exportBody,
    response: z.string().describe('binary'),
    responseKind: 'binary',
    successStatus: 200,
  }),
];
