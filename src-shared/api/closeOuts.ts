import { z } from 'zod';
import { defineOperation } from '../operation';
import { pageOf } from '../schemas/common';
import {
  closeOutCreateBody,
  closeOutListQuery,
  closeOutPrintBody,
  closeOutPrintResult,
  closeOutSchema,
  closeOutSummary,
  closeOutWaiting,
} from '../schemas/closeOut';

const collection = '/orgs/{orgId}/close-outs';
const one = `${collection}/{closeOutId}`;

/**
 * The end-of-day handover (issue 21): close a carrier's dispatched shipments, with the carrier's own
 * manifest or end-of-day call where it has one, and a handover list (A4 PDF) for the driver to sign.
 * Scope `shipments` (decisions §13: a packer closes the day).
 */
export const closeOutOperations = [
  defineOperation({
    id: 'closeOuts.create',
    method: 'POST',
    path: collection,
    summary:
      "Close every dispatched shipment of a carrier that is in no close-out yet (dispatched in the last 7 days; not cancelled, not returns), with the carrier's manifest call where it has one. 409 NOTHING_TO_CLOSE when none waits; 422 CARRIER_ERROR (nothing closed) when the carrier refuses",
    resource: 'shipments',
    body: closeOutCreateBody,
    response: closeOutSchema,
    asksCarrier: true,
  }),
  defineOperation({
    id: 'closeOuts.list',
    method: 'GET',
    path: collection,
    summary: 'Close-outs, newest first, without their shipments; filter by carrier',
    resource: 'shipments',
    query: closeOutListQuery,
    response: pageOf(closeOutSummary),
  }),
  defineOperation({
    id: 'closeOuts.waiting',
    method: 'GET',
    path: `${collection}/waiting`,
    summary: 'Per carrier, the dispatched shipments, parcels and weight the next close-out would hand over',
    resource: 'shipments',
    response: closeOutWaiting,
  }),
  defineOperation({
    id: 'closeOuts.get',
    method: 'GET',
    path: one,
    summary: 'A close-out with the shipments it handed over, as they were then',
    resource: 'shipments',
    response: closeOutSchema,
  }),
  defineOperation({
    id: 'closeOuts.content',
    method: 'GET',
    path: `${one}/content`,
    summary: 'The handover list (A4 PDF): carrier, date, each shipment with its tracking barcode, parcels and weight, totals and a line for the driver to sign',
    resource: 'shipments',
    response: z.string().describe('binary'),
    responseKind: 'binary',
  }),
  defineOperation({
    id: 'closeOuts.carrierDocument',
    method: 'GET',
    path: `${one}/carrier-document`,
    summary: "The carrier's own manifest document, as it returned it (a Karrio manifest's PDF); 404 when the carrier made none",
    resource: 'shipments',
    response: z.string().describe('binary'),
    responseKind: 'binary',
  }),
  defineOperation({
    id: 'closeOuts.print',
    method: 'POST',
    path: `${one}/print`,
    summary: 'Print the handover list on a PDF printer; answers once the printer or spooler has it, 422 PRINTER_OFFLINE saying why when it does not',
    resource: 'shipments',
    body: closeOutPrintBody.optional(),
    response: closeOutPrintResult,
    successStatus: 200,
  }),
];
