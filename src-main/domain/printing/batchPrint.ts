/**
 * POST /shipments/batch-print (issue 20): the labels of up to 100 shipments, one print job per label.
 * Every shipment's jobs are queued first, each shipment in its own transaction (a cancelled shipment or
 * one without labels is its own failed result), in the order of the ids. Then each printer prints its
 * share one job after the other in that order, so the labels come out in the order of the list, while
 * two printers print at the same time. A shipment is done when every one of its jobs is.
 */
import { eq, inArray } from 'drizzle-orm';
import type { BulkPrintInput, BulkPrintResponse, BulkResult } from '../../../src-shared/schemas/bulk';
import type { PrintJob } from '../../../src-shared/schemas/printing';
import { printers, printJobs } from '../../db/schema';
import type { AppContext } from '../../app/kernel/context';
import { documentsOf, findShipmentRow } from '../shipments/repository';
import { ApiError } from '../../../src-shared/errors';
import { failedResult, summarized } from '../shipments/bulk';
import { documentTitle, queueShipmentPrint, runJobs } from './jobs';
import { findPrinterRow } from './printers';

export async function batchPrint(app: AppContext, orgId: string, input: BulkPrintInput): Promise<BulkPrintResponse> {
  // A printer that does not exist is the request's fault, the same for every shipment: 404 before anything is queued.
  if (input.printerId) findPrinterRow(app.db, orgId, input.printerId);

  const queued = new Map<string, string[]>();
  const results = new Map<string, BulkResult>();
  for (const shipmentId of input.shipmentIds) {
    try {
      assertHasLabels(app, orgId, shipmentId);
      queued.set(shipmentId, queueShipmentPrint(app, orgId, shipmentId, { printerId: input.printerId, copies: input.copies }));
    } catch (error) {
      results.set(shipmentId, failedResult(shipmentId, error));
    }
  }

  const order = [...queued.values()].flat();
  const printerOf = new Map(
    order.length
      ? app.db
          .select({ id: printJobs.id, printerId: printJobs.printerId })
          .from(printJobs)
          .where(inArray(printJobs.id, order))
          .all()
          .map((row) => [row.id, row.printerId])
      : [],
  );
  const byPrinter = new Map<string | null, string[]>();
  for (const jobId of order) {
    const printerId = printerOf.get(jobId) ?? null;
    byPrinter.set(printerId, [...(byPrinter.get(printerId) ?? []), jobId]);
  }
  const ran = new Map((await Promise.all([...byPrinter.values()].map((jobIds) => runJobs(app, jobIds)))).flat().map((job) => [job.id, job]));
  const jobs = order.map((jobId) => ran.get(jobId) as PrintJob);

  for (const [shipmentId, jobIds] of queued) {
    const failed = jobIds.map((jobId) => ran.get(jobId) as PrintJob).filter((job) => job.status !== 'done');
    results.set(shipmentId, failed.length ? failedPrint(app, shipmentId, failed) : { shipmentId, status: 'done' });
  }
  return { ...summarized(input.shipmentIds.map((shipmentId) => results.get(shipmentId) as BulkResult)), printJobs: jobs };
}

/** Said with the reference and in words, for the person reading the results (the single print's 409 names the id). */
function assertHasLabels(app: AppContext, orgId: string, shipmentId: string): void {
  const row = findShipmentRow(app.db, orgId, shipmentId);
  if (row.status === 'cancelled')
    throw new ApiError('SHIPMENT_INVALID_STATE', `Shipment ${row.reference} is cancelled; its labels are void and are not printed`);
  if (!documentsOf(app.db, shipmentId).some((document) => document.documentType === 'label')) {
    throw new ApiError('SHIPMENT_INVALID_STATE', `Shipment ${row.reference} is ${row.status.replace(/_/g, ' ')} and has no labels yet; send it first`);
  }
}

/** "Label 2 of 3 did not print on 'Zebra 1': <reason>", one sentence per failed job. */
function failedPrint(app: AppContext, shipmentId: string, failed: readonly PrintJob[]): BulkResult {
  const docs = documentsOf(app.db, shipmentId);
  const message = failed
    .map((job) => {
      const printer = job.printerId ? app.db.select({ name: printers.name }).from(printers).where(eq(printers.id, job.printerId)).get() : undefined;
      return `${documentTitle(docs, job.documentId)} did not print${printer ? ` on '${printer.name}'` : ''}: ${job.error ?? 'no reason given'}`;
    })
    .join('; ');
  return { shipmentId, status: 'failed', code: 'PRINTER_OFFLINE', message };
}
