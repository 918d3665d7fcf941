/**
 * Print jobs (decisions §9, USERS 1 and 4). Jobs are written `queued` in one transaction, then run one
 * after the other while the request waits, so the answer says what happened: `done` once the printer
 * or spooler has the document, or `failed` with a message a packer can act on. A printer problem is a
 * failed job — the document stays and `retry` prints it once the printer is fixed — never a 500 and
 * never a lost label. Printing only reads documents: it never re-books a shipment.
 */
import { and, count, desc, eq, exists, gt, inArray, isNull, ne, not, sql, type SQL } from 'drizzle-orm';
import { alias, type SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { ApiError } from '../../../src-shared/errors';
import { documentFormats, type DocumentFormat, type LabelSize } from '../../../src-shared/schemas/carrier';
import type { Shipment } from '../../../src-shared/schemas/shipment';
import type { PrintJob, PrintJobListQuery, PrintJobStatus, PrinterDriver, PrintShipmentInput } from '../../../src-shared/schemas/printing';
import { documents, printers, printJobs, shipments } from '../../db/schema';
import { newId } from '../../db/ids';
import { durable, inWriteTransaction, type ReadDb, type WriteTx } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { PrintError } from '../../printing/driver';
import { cropLabelToSize } from '../../printing/labelCrop';
import { printingOf } from '../../printing/services';
import { paginate } from '../pagination';
import { canRedraw, labelIn, planLabelRedraw, type LabelRedraw } from '../shipments/labelRedraw';
import { documentsOf, findShipmentRow, recordActivity, recordError, type DocumentRow, type ShipmentRow } from '../shipments/repository';
import type { ShippingRuleRow } from '../shippingRules/rules';
import { defaultPrinterRow, findPrinterRow, type PrinterRow } from './printers';

type JobRow = typeof printJobs.$inferSelect;

const formatWord: Record<DocumentFormat, string> = { pdf: 'PDF', zpl: 'ZPL' };
const documentWord: Record<string, string> = {
  label: 'Label',
  packing_list: 'Packing list',
  proforma_invoice: 'Proforma invoice',
  commercial_invoice: 'Commercial invoice',
};

export function toPrintJob(row: JobRow, shipmentId: string): PrintJob {
  return {
    id: row.id,
    printerId: row.printerId,
    documentId: row.documentId,
    shipmentId,
    status: row.status as PrintJobStatus,
    error: row.error,
    attempts: row.attempts,
    copies: row.copies,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Labels of a cancelled shipment are void with the carrier; printing one would put a dead label on a parcel. */
function assertPrintable(shipment: ShipmentRow): void {
  if (shipment.status === 'cancelled') {
    throw new ApiError('SHIPMENT_INVALID_STATE', `Shipment ${shipment.id} is cancelled; its labels are void and are not printed`);
  }
}

/**
 * The printer each document goes to: the one asked for (404 PRINTER_NOT_FOUND when it is unknown or
 * deleted), else the organization's default printer for the document's format — or, for a label
 * Shipdesk can draw again, the default printer of the other format (USERS 1 and 3: a ZPL label comes
 * out of the office printer as a PDF when there is no thermal one). When nothing fits the request is
 * refused with 422 PRINTER_OFFLINE and no job is written: there is nothing to retry against, and the
 * message tells the user what to set up. (A printer that exists but is off is a failed job instead,
 * which retry can finish.)
 */
function choosePrinters(app: AppContext, tx: ReadDb, orgId: string, docs: readonly DocumentRow[], printerId: string | undefined): Map<string, PrinterRow> {
  if (printerId) {
    const printer = findPrinterRow(tx, orgId, printerId);
    return new Map(docs.map((doc) => [doc.id, printer]));
  }
  const defaults = new Map<DocumentFormat, PrinterRow | undefined>();
  const defaultFor = (format: DocumentFormat) => {
    if (!defaults.has(format)) defaults.set(format, defaultPrinterRow(tx, orgId, format));
    return defaults.get(format);
  };
  const chosen = new Map<string, PrinterRow>();
  const missing = new Set<string>();
  for (const doc of docs) {
    const format = doc.format as DocumentFormat;
    const other = documentFormats.find((candidate) => candidate !== format) as DocumentFormat;
    const printer = defaultFor(format) ?? (defaultFor(other) && canRedraw(tx, orgId, doc) ? defaultFor(other) : undefined);
    if (printer) chosen.set(doc.id, printer);
    else missing.add(formatWord[format] ?? format);
  }
  if (missing.size) {
    const formats = [...missing];
    throw new ApiError(
      'PRINTER_OFFLINE',
      `No printer chosen and no default printer for ${formats.join(' or ')} documents; choose a printer, or mark one as the default for ${formats.join(' and ')}`,
    );
  }
  return chosen;
}

function queueJobs(app: AppContext, tx: WriteTx, orgId: string, docs: readonly DocumentRow[], printerId: string | undefined, copies: number): string[] {
  const now = app.now().toISOString();
  const chosen = choosePrinters(app, tx, orgId, docs, printerId);
  const rows: JobRow[] = docs.map((doc) => ({
    id: newId('printJob'),
    orgId,
    printerId: (chosen.get(doc.id) as PrinterRow).id,
    documentId: doc.id,
    status: 'queued',
    error: null,
    attempts: 0,
    copies,
    createdAt: now,
    updatedAt: now,
  }));
  if (rows.length) tx.insert(printJobs).values(rows).run();
  return rows.map((row) => row.id);
}

/** The documents a print request names (in its order, each once), or the shipment's labels. */
function documentsToPrint(tx: ReadDb, shipment: ShipmentRow, documentIds: readonly string[] | undefined): DocumentRow[] {
  const all = documentsOf(tx, shipment.id);
  if (!documentIds) {
    const labels = all.filter((doc) => doc.documentType === 'label');
    if (!labels.length) {
      throw new ApiError('SHIPMENT_INVALID_STATE', `Shipment ${shipment.id} has no labels to print (status ${shipment.status}); send it first`);
    }
    return labels;
  }
  const byId = new Map(all.map((doc) => [doc.id, doc]));
  return [...new Set(documentIds)].map((documentId) => {
    const doc = byId.get(documentId);
    if (!doc) throw new ApiError('SHIPMENT_DOCUMENT_NOT_FOUND', `Document ${documentId} does not exist on shipment ${shipment.id}`);
    return doc;
  });
}

/** POST /shipments/{id}/print: reprints read the stored documents; nothing is booked again. */
export async function printShipment(app: AppContext, orgId: string, shipmentId: string, input: PrintShipmentInput = {}): Promise<{ jobs: PrintJob[] }> {
  return { jobs: await runJobs(app, queueShipmentPrint(app, orgId, shipmentId, input)) };
}

/** Queues a print of the shipment's documents (its labels unless named) in one transaction; answers the jobs' ids in print order. */
export function queueShipmentPrint(app: AppContext, orgId: string, shipmentId: string, input: PrintShipmentInput = {}): string[] {
  return inWriteTransaction(app.db, (tx) => {
    const shipment = findShipmentRow(tx, orgId, shipmentId);
    assertPrintable(shipment);
    return queueJobs(app, tx, orgId, documentsToPrint(tx, shipment, input.documentIds), input.printerId, input.copies ?? 1);
  });
}

export async function runJobs(app: AppContext, jobIds: readonly string[]): Promise<PrintJob[]> {
  const jobs: PrintJob[] = [];
  // One after the other: labels come out of the printer in the parcels' order.
  for (const jobId of jobIds) jobs.push(await runJob(app, jobId));
  return jobs;
}

interface Attempt {
  job: JobRow;
  document: DocumentRow;
  printer: PrinterRow | undefined;
  reference: string;
  /** For a printer of the other format: how to draw the label in its format, or why that cannot be. */
  redraw?: LabelRedraw | string;
}

/** One attempt: `printing` (and the attempt counted) is written before the driver runs, so a crash is visible on restart. */
async function runJob(app: AppContext, jobId: string): Promise<PrintJob> {
  const attempt = inWriteTransaction(app.db, (tx): Attempt => {
    const job = tx.select().from(printJobs).where(eq(printJobs.id, jobId)).get() as JobRow;
    const document = tx.select().from(documents).where(eq(documents.id, job.documentId)).get() as DocumentRow;
    const printer = job.printerId ? tx.select().from(printers).where(eq(printers.id, job.printerId)).get() : undefined;
    const shipment = tx.select({ reference: shipments.reference }).from(shipments).where(eq(shipments.id, document.shipmentId)).get();
    const started = { ...job, status: 'printing', attempts: job.attempts + 1, updatedAt: app.now().toISOString() };
    tx.update(printJobs).set({ status: started.status, attempts: started.attempts, updatedAt: started.updatedAt }).where(eq(printJobs.id, jobId)).run();
    const redraw = printer && printer.format !== document.format ? planLabelRedraw(app, tx, job.orgId, document) : undefined;
    return { job: started, document, printer, reference: shipment?.reference ?? document.shipmentId, redraw };
  });

  // `printing` is on disk before paper comes out.
  await durable(app.db);
  let error: string | null = null;
  try {
    await printDocument(app, attempt);
  } catch (failure) {
    error = failureMessage(failure, attempt.printer);
  }

  return inWriteTransaction(app.db, (tx) => {
    const now = app.now();
    const finished: JobRow = { ...attempt.job, status: error === null ? 'done' : 'failed', error, updatedAt: now.toISOString() };
    tx.update(printJobs).set({ status: finished.status, error: finished.error, updatedAt: finished.updatedAt }).where(eq(printJobs.id, jobId)).run();
    if (error === null && attempt.printer) {
      const { document, printer, job } = attempt;
      const copies = job.copies > 1 ? ` (${job.copies} copies)` : '';
      const drawn = printer.format !== document.format ? `, drawn as ${formatWord[printer.format as DocumentFormat] ?? printer.format} for it` : '';
      const title = documentTitle(documentsOf(tx, document.shipmentId), document.id);
      recordActivity(tx, now, document.shipmentId, 'printed', `${title} printed on ${printer.name}${copies}${drawn}`);
    }
    return toPrintJob(finished, attempt.document.shipmentId);
  });
}

async function printDocument(app: AppContext, { document, printer, reference, job, redraw }: Attempt): Promise<void> {
  if (!job.printerId) throw new PrintError('not_found', 'No printer to print on: choose a printer, or mark one as the default, and print again');
  if (!printer || printer.deletedAt !== null) {
    throw new PrintError('not_found', `Printer ${printer ? `'${printer.name}'` : job.printerId} was deleted; choose another printer and print again`);
  }
  const format = printer.format as DocumentFormat;
  if (format !== document.format && (redraw === undefined || typeof redraw === 'string')) {
    throw new PrintError(
      'wrong_format',
      `Printer '${printer.name}' prints ${formatWord[format] ?? format} and this document is ${formatWord[document.format as DocumentFormat] ?? document.format}; choose a ${formatWord[document.format as DocumentFormat] ?? document.format} printer`,
    );
  }
  const driver = printingOf(app).drivers[printer.driver as PrinterDriver];
  if (!driver) throw new PrintError('failed', `Printer '${printer.name}' uses the driver '${printer.driver}', which this computer does not have`);
  const drawn = format === document.format ? document.content : await labelIn(redraw as LabelRedraw, document, format);
  const { content, size } = await labelForMedia(drawn, document, format, printer.labelSize as LabelSize);
  await driver.print(content, {
    format,
    size,
    copies: job.copies,
    target: printer.target,
    jobName: `${reference}-${document.id}`,
    printJobId: job.id,
    attempt: job.attempts,
  });
}

/**
 * A PDF label whose page is larger than the printer's label, or than the label's own size (an A6
 * label on an A4 page), is cropped to that label and printed at its size: never shrunk (decisions §13;
 * printing/labelCrop.ts). Anything else prints as it is, at the document's own size.
 */
async function labelForMedia(content: Buffer | Uint8Array, document: DocumentRow, format: DocumentFormat, media: LabelSize) {
  const own = document.size as LabelSize;
  if (format !== 'pdf' || document.documentType !== 'label') return { content, size: own };
  for (const size of [media, own]) {
    const cropped = await cropLabelToSize(content, size).catch((error: unknown) => {
      // A PDF pdf-lib cannot read (encrypted, damaged) still goes to the printer as the carrier made it.
      console.warn(`Label ${document.id} could not be read to fit it to ${size}; printed as it is:`, error);
      return null;
    });
    if (!cropped) break;
    if (cropped.cropped) return { content: cropped.content, size };
  }
  return { content, size: own };
}

function failureMessage(failure: unknown, printer: PrinterRow | undefined): string {
  if (failure instanceof PrintError) return failure.message;
  // Not a printer's answer but our own fault: keep the job failed and readable, and log the detail.
  console.error('Print job failed unexpectedly:', failure);
  const detail = failure instanceof Error ? failure.message : String(failure);
  return `Printing${printer ? ` to '${printer.name}'` : ''} failed: ${detail}`;
}

function findJobRow(db: ReadDb, orgId: string, jobId: string): JobRow {
  const row = db
    .select()
    .from(printJobs)
    .where(and(eq(printJobs.orgId, orgId), eq(printJobs.id, jobId)))
    .get();
  if (!row) throw new ApiError('PRINT_JOB_NOT_FOUND', `Print job ${jobId} does not exist in this organization`);
  return row;
}

/** The columns of a print job that say whether it settles a failure (the table itself, or an alias of it). */
type JobColumns = { [Key in 'id' | 'documentId' | 'status' | 'updatedAt']: SQLiteColumn };
type Failure = { [Key in 'id' | 'documentId' | 'updatedAt']: string | SQLiteColumn };

/**
 * `later` settles the failed job `failure` (a row, or the columns of the outer query): the same
 * document printed since. The one rule for Retry's refusal and the list's `settled` filter; the app's
 * `settledFailure` says the same of the jobs it holds.
 */
function settles(later: JobColumns, failure: Failure): SQL {
  return and(eq(later.documentId, failure.documentId), eq(later.status, 'done'), ne(later.id, failure.id), gt(later.updatedAt, failure.updatedAt)) as SQL;
}

/**
 * POST /print-jobs/{id}/retry: a new attempt of a failed or done job (a reprint). A job still queued or
 * printing is refused with 409, so one click cannot print a label twice. When the job's printer has
 * been deleted since, the organization's default printer for the format takes over (USERS 1: a fallback).
 */
export async function retryPrintJob(app: AppContext, orgId: string, jobId: string): Promise<PrintJob> {
  inWriteTransaction(app.db, (tx) => {
    const job = findJobRow(tx, orgId, jobId);
    if (job.status === 'queued' || job.status === 'printing') {
      throw new ApiError('CONFLICT', `Print job ${jobId} is ${job.status}; wait for it to finish before printing it again`);
    }
    // A failure settled by a later print of the same document (on another printer, say) is not
    // retried: that would put a second label on the parcel (USERS 4). Print makes another copy.
    const settledBy = job.status === 'failed' ? tx.select({ id: printJobs.id }).from(printJobs).where(settles(printJobs, job)).get() : undefined;
    if (settledBy) {
      throw new ApiError(
        'CONFLICT',
        `The document of print job ${jobId} was printed since (print job ${settledBy.id}); print it again from the shipment if another copy is wanted`,
      );
    }
    const document = tx.select().from(documents).where(eq(documents.id, job.documentId)).get() as DocumentRow;
    assertPrintable(findShipmentRow(tx, orgId, document.shipmentId));
    const current = job.printerId ? tx.select().from(printers).where(eq(printers.id, job.printerId)).get() : undefined;
    const printerId =
      current && current.deletedAt === null ? current.id : (defaultPrinterRow(tx, orgId, document.format as DocumentFormat)?.id ?? job.printerId);
    tx.update(printJobs).set({ status: 'queued', printerId, updatedAt: app.now().toISOString() }).where(eq(printJobs.id, jobId)).run();
  });
  return runJob(app, jobId);
}

/** GET /print-jobs: newest first, with the shipment each job's document belongs to; `settled` picks out or leaves out failures a later print settled. */
export function listPrintJobs(app: AppContext, orgId: string, query: PrintJobListQuery) {
  const conditions: SQL[] = [eq(printJobs.orgId, orgId)];
  if (query.status) conditions.push(eq(printJobs.status, query.status));
  if (query.shipmentId) conditions.push(eq(documents.shipmentId, query.shipmentId));
  if (query.settled !== undefined) {
    const later = alias(printJobs, 'later_print');
    const settled = and(eq(printJobs.status, 'failed'), exists(app.db.select({ id: later.id }).from(later).where(settles(later, printJobs)))) as SQL;
    conditions.push(query.settled ? settled : not(settled));
  }
  const where = and(...conditions);
  const total = app.db.select({ n: count() }).from(printJobs).innerJoin(documents, eq(documents.id, printJobs.documentId)).where(where).get()?.n ?? 0;
  return paginate(query, total, (limit, offset) =>
    app.db
      .select({ job: printJobs, shipmentId: documents.shipmentId })
      .from(printJobs)
      .innerJoin(documents, eq(documents.id, printJobs.documentId))
      .where(where)
      .orderBy(desc(printJobs.createdAt), desc(printJobs.id))
      .limit(limit)
      .offset(offset)
      .all()
      .map(({ job, shipmentId }) => toPrintJob(job, shipmentId)),
  );
}

/**
 * The sending station's printer for a document (USERS 1: chosen by station): the first of the
 * station's printers whose format and loaded media fit it, else, for a label Shipdesk can draw in the
 * other format, the first whose media fits. Undefined when none fits: the rule's printer takes it.
 */
function stationPrinterFor(app: AppContext, tx: ReadDb, orgId: string, doc: DocumentRow, station: readonly PrinterRow[]): PrinterRow | undefined {
  const sized = station.filter((printer) => printer.labelSize === doc.size);
  return sized.find((printer) => printer.format === doc.format) ?? (sized.length && canRedraw(tx, orgId, doc) ? sized[0] : undefined);
}

/** The station's printers in the order given; unknown or deleted ids are passed over (a stale memory never blocks a send). */
function stationPrinters(tx: ReadDb, orgId: string, ids: readonly string[]): PrinterRow[] {
  if (!ids.length) return [];
  const rows = tx
    .select()
    .from(printers)
    .where(and(eq(printers.orgId, orgId), inArray(printers.id, [...ids]), isNull(printers.deletedAt)))
    .all();
  return ids.map((id) => rows.find((row) => row.id === id)).filter((row): row is PrinterRow => row !== undefined);
}

/**
 * Queues a rule's print of `docs`, grouped by the printer each goes to: the sending station's that
 * fits it, else the rule's printer, else the default (queueJobs), in the documents' own order.
 */
function queueRulePrint(
  app: AppContext,
  orgId: string,
  docs: readonly { id: string }[],
  stationPrinterIds: readonly string[],
  rulePrinterId: string | null,
): string[] {
  return inWriteTransaction(app.db, (tx) => {
    const rows = new Map(
      tx
        .select()
        .from(documents)
        .where(
          inArray(
            documents.id,
            docs.map((doc) => doc.id),
          ),
        )
        .all()
        .map((row) => [row.id, row]),
    );
    const station = stationPrinters(tx, orgId, stationPrinterIds);
    const byPrinter = new Map<string | undefined, DocumentRow[]>();
    for (const doc of docs.map((one) => rows.get(one.id)).filter((row): row is DocumentRow => row !== undefined)) {
      const printerId = stationPrinterFor(app, tx, orgId, doc, station)?.id ?? rulePrinterId ?? undefined;
      byPrinter.set(printerId, [...(byPrinter.get(printerId) ?? []), doc]);
    }
    return [...byPrinter].flatMap(([printerId, group]) => queueJobs(app, tx, orgId, group, printerId, 1));
  });
}

/**
 * Jobs for an automatic print that found no printer: failed at once and without a printer, so the
 * labels wait under Failed in the print-job log and print with Retry once a printer is set up
 * (decisions §9: a missing printer is a failed job, never a lost label).
 */
function recordUnprintedJobs(app: AppContext, tx: WriteTx, orgId: string, docs: readonly { id: string }[], reason: string): string[] {
  const now = app.now().toISOString();
  const rows: JobRow[] = docs.map((doc) => ({
    id: newId('printJob'),
    orgId,
    printerId: null,
    documentId: doc.id,
    status: 'failed',
    error: reason,
    attempts: 0,
    copies: 1,
    createdAt: now,
    updatedAt: now,
  }));
  tx.insert(printJobs).values(rows).run();
  return rows.map((row) => row.id);
}

/**
 * After a send (decisions §8): print what the applied rule asks for, on the sending station's printer
 * that fits each document, else the rule's printer, else the default printer for the format. Never
 * throws — the booking is committed and a printer problem must not turn a sent shipment into an error.
 * Nobody watches an automatic print, so every way it can fail is recorded on the shipment as
 * AUTO_PRINT_FAILED: a print that could not even be queued (no printer), and each job that ended
 * failed, naming the document, the printer and the reason (the job itself stays in the print-job log,
 * where it can be retried). Answers whether anything was done, and the jobs it started as they ended
 * (send answers them, so a packing station need not read the print-job log).
 */
export async function autoPrintAfterSend(
  app: AppContext,
  orgId: string,
  shipment: Shipment,
  rule: ShippingRuleRow,
  stationPrinterIds: readonly string[] = [],
): Promise<AutoPrint> {
  const asks = [
    { wanted: rule.autoPrintLabels, printerId: rule.labelPrinterId, docs: shipment.documents.filter((doc) => doc.documentType === 'label'), what: 'labels' },
    {
      wanted: rule.autoPrintDocuments,
      printerId: rule.documentPrinterId,
      docs: shipment.documents.filter((doc) => doc.documentType !== 'label'),
      what: 'documents',
    },
  ];
  let acted = false;
  const started: string[] = [];
  for (const ask of asks) {
    if (!ask.wanted || !ask.docs.length) continue;
    acted = true;
    try {
      let jobIds: string[];
      try {
        jobIds = queueRulePrint(app, orgId, ask.docs, stationPrinterIds, ask.printerId);
        started.push(...jobIds);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        // Not even one job could be queued (no printer chosen and no default, a deleted rule printer).
        inWriteTransaction(app.db, (tx) => {
          const ids = recordUnprintedJobs(app, tx, orgId, ask.docs, error.message);
          started.push(...ids);
          recordError(
            tx,
            app.now(),
            shipment.id,
            'AUTO_PRINT_FAILED',
            `Rule ${rule.name} asks to print the ${ask.what}, but nothing was printed: ${error.message} (print jobs ${ids.join(', ')}, to retry once a printer is set up)`,
          );
        });
        continue;
      }
      const failed = (await runJobs(app, jobIds)).filter((job) => job.status === 'failed');
      if (failed.length) {
        inWriteTransaction(app.db, (tx) => {
          for (const job of failed) {
            const what = `${documentName(shipment.documents, job.documentId)} did not print on ${printerName(tx, job.printerId)}`;
            recordError(
              tx,
              app.now(),
              shipment.id,
              'AUTO_PRINT_FAILED',
              `Rule ${rule.name} asks to print the ${ask.what}, but ${what}: ${job.error ?? 'no reason given'} (print job ${job.id})`,
            );
          }
        });
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      inWriteTransaction(app.db, (tx) =>
        recordError(tx, app.now(), shipment.id, 'AUTO_PRINT_FAILED', `Rule ${rule.name} asks to print the ${ask.what}, but nothing was printed: ${message}`),
      );
    }
  }
  return { acted, jobs: printJobsByIds(app.db, started) };
}

export interface AutoPrint {
  /** The rule asked for a print of something (so the shipment may have new errors to read). */
  acted: boolean;
  /** The jobs it started, in the order started, as they are now. */
  jobs: PrintJob[];
}

/** Print jobs by id, in the order given (ids not found are left out). */
function printJobsByIds(db: ReadDb, ids: readonly string[]): PrintJob[] {
  if (!ids.length) return [];
  const rows = db
    .select({ job: printJobs, shipmentId: documents.shipmentId })
    .from(printJobs)
    .innerJoin(documents, eq(documents.id, printJobs.documentId))
    .where(inArray(printJobs.id, [...ids]))
    .all();
  const byId = new Map(rows.map(({ job, shipmentId }) => [job.id, toPrintJob(job, shipmentId)]));
  return ids.map((id) => byId.get(id)).filter((job): job is PrintJob => job !== undefined);
}

type NamedDocument = Pick<DocumentRow, 'id' | 'documentType'>;

/** "Label", "Label 2 of 3", "Packing list": a document as the packer knows it on the shipment. */
export function documentTitle(all: readonly NamedDocument[], documentId: string): string {
  const document = all.find((candidate) => candidate.id === documentId);
  if (!document) return `Document ${documentId}`;
  if (document.documentType !== 'label') return documentWord[document.documentType] ?? 'Document';
  const labels = all.filter((candidate) => candidate.documentType === 'label');
  return labels.length === 1 ? 'Label' : `Label ${labels.indexOf(document) + 1} of ${labels.length}`;
}

/** The same inside a sentence: "the label", "label 2 of 3", "the packing list". */
function documentName(all: readonly NamedDocument[], documentId: string): string {
  const title = documentTitle(all, documentId);
  return / of \d+$/.test(title) ? title.charAt(0).toLowerCase() + title.slice(1) : `the ${title.toLowerCase()}`;
}

function printerName(tx: ReadDb, printerId: string | null): string {
  const printer = printerId ? tx.select({ name: printers.name }).from(printers).where(eq(printers.id, printerId)).get() : undefined;
  return printer ? `'${printer.name}'` : 'a printer that no longer exists';
}

/** Startup: a job left queued or printing by a crash may or may not have printed; say so and let the user retry. */
export function failInterruptedPrintJobs(app: AppContext): void {
  app.db
    .update(printJobs)
    .set({
      status: 'failed',
      error: 'Shipdesk stopped before this print job finished, so it may not have printed; check the printer, then retry',
      updatedAt: app.now().toISOString(),
    })
    // Literal statuses, not bound values: only then can SQLite use the partial index print_jobs_unfinished.
    .where(sql`${printJobs.status} IN ('queued', 'printing')`)
    .run();
}
