import { createPrinter, deletePrinter, discoverPrinters, getPrinter, listPrinters, updatePrinter } from './printers';
import { listPrintJobs, printShipment, retryPrintJob } from './jobs';
import { printTestLabel } from './testPrint';
import { defineHandlers } from '../../app/kernel/handler';

export const printingHandlers = defineHandlers({
  'printers.discover': ({ app }) => discoverPrinters(app),
  'printers.create': ({ app }, { params, body }) => createPrinter(app, params.orgId, body),
  'printers.list': ({ app }, { params, query }) => listPrinters(app, params.orgId, query),
  'printers.get': ({ app }, { params }) => getPrinter(app, params.orgId, params.printerId),
  'printers.update': ({ app }, { params, body }) => updatePrinter(app, params.orgId, params.printerId, body),
  'printers.delete': ({ app }, { params }) => deletePrinter(app, params.orgId, params.printerId),
  'printers.test': ({ app }, { params }) => printTestLabel(app, params.orgId, params.printerId),
  'shipments.print': ({ app }, { params, body }) => printShipment(app, params.orgId, params.shipmentId, body),
  'printJobs.list': ({ app }, { params, query }) => listPrintJobs(app, params.orgId, query),
  'printJobs.retry': ({ app }, { params }) => retryPrintJob(app, params.orgId, params.jobId),
});
