import { z } from 'zod';
import { defineOperation } from '../operation';
import { crudOperations } from './crud';
import { noBody, pageOf } from '../schemas/common';
import {
  discoveredPrinterSchema,
  printJobListQuery,
  printJobSchema,
  printShipmentBody,
  printShipmentResponse,
  printerCreateBody,
  printerSchema,
  printerTestResult,
  printerUpdateBody,
} from '../schemas/printing';

/** Printers, printing a shipment's documents, and print jobs (decisions §9). */
export const printingOperations = [
  // Before the CRUD entries so the list reads in the order a user meets them; the router prefers the
  // static segment over `{printerId}` either way.
  defineOperation({
    id: 'printers.discover',
    method: 'GET',
    path: '/orgs/{orgId}/printers/discover',
    summary: 'Printers the operating system offers (CUPS queues, or the desktop app’s printer list); empty without a print system',
    resource: 'printers',
    response: z.array(discoveredPrinterSchema),
  }),
  ...crudOperations({
    key: 'printers',
    collection: 'printers',
    idParam: 'printerId',
    noun: 'printer',
    resource: 'printers',
    item: printerSchema,
    listItem: printerSchema,
    created: printerSchema,
    detail: printerSchema,
    createBody: printerCreateBody,
    updateBody: printerUpdateBody,
    updateMethod: 'PATCH',
  }),
  defineOperation({
    id: 'printers.test',
    method: 'POST',
    path: '/orgs/{orgId}/printers/{printerId}/test',
    summary:
      "Print a test label at the printer's label size and in its format (a frame inside the edges, a barcode to scan); answers once the printer or spooler has it. 422 PRINTER_OFFLINE saying why when it does not",
    resource: 'printers',
    body: noBody,
    response: printerTestResult,
    successStatus: 200,
  }),
  defineOperation({
    id: 'shipments.print',
    method: 'POST',
    path: '/orgs/{orgId}/shipments/{shipmentId}/print',
    summary: 'Print (or reprint) documents of a shipment; answers once each job is done or failed. Never re-books',
    resource: 'printers',
    body: printShipmentBody.optional(),
    response: printShipmentResponse,
    successStatus: 200,
  }),
  defineOperation({
    id: 'printJobs.list',
    method: 'GET',
    path: '/orgs/{orgId}/print-jobs',
    summary: 'Print jobs, newest first; filter by status or shipment',
    resource: 'printers',
    query: printJobListQuery,
    response: pageOf(printJobSchema),
  }),
  defineOperation({
    id: 'printJobs.retry',
    method: 'POST',
    path: '/orgs/{orgId}/print-jobs/{jobId}/retry',
    summary: 'Print a failed (or done) job again as a new attempt; 409 while it is still printing',
    resource: 'printers',
    body: noBody,
    response: printJobSchema,
    successStatus: 200,
  }),
];
