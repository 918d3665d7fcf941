import type { PrintJob } from '../../../../src-shared/schemas/printing';
import type { Shipment, ShipmentDocument } from '../../../../src-shared/schemas/shipment';
import { withoutIds } from '../../lib/plainIds';
import { settledFailure } from '../printing/settledFailure';

type ShipmentError = Shipment['errors'][number];

/**
 * The shipment's errors that still need someone (issue 20). `errors[]` is the shipment's history, so an
 * automatic print's AUTO_PRINT_FAILED stays there after the label printed on a retry; the Problems box
 * showed it as a problem still. An AUTO_PRINT_FAILED is over once every print job it names is done,
 * or its document printed since (the print-job log's own rule, settledFailure). Until the jobs are
 * read, nothing is taken as over.
 */
export function openProblems(errors: readonly ShipmentError[], jobs: readonly PrintJob[] | undefined): ShipmentError[] {
  if (!jobs) return [...errors];
  return errors.filter((error) => {
    if (error.code !== 'AUTO_PRINT_FAILED') return true;
    const named = error.message.match(/\bpjb_[0-9a-z]+/g) ?? [];
    if (named.length === 0) return true;
    return !named.every((id) => {
      const job = jobs.find((candidate) => candidate.id === id);
      return job !== undefined && (job.status === 'done' || settledFailure(jobs, job) !== undefined);
    });
  });
}

/** "label 2 of SHP-000123", "the packing list of SHP-000123": a print job as the packer knows it. */
export function printJobNames(shipment: Pick<Shipment, 'reference' | 'documents'>, jobs: readonly PrintJob[]): Map<string, string> {
  return new Map(jobs.map((job) => [job.id, `${documentName(shipment.documents, job.documentId)} of ${shipment.reference}`]));
}

function documentName(documents: readonly ShipmentDocument[], documentId: string): string {
  const document = documents.find((candidate) => candidate.id === documentId);
  if (!document) return 'a document';
  const same = documents.filter((candidate) => candidate.documentType === document.documentType);
  const kind = document.documentType.replace(/_/g, ' ');
  return same.length > 1 ? `${kind} ${same.indexOf(document) + 1}` : `the ${kind}`;
}

/** An error of the shipment in words: print jobs by their document, never an id. */
export function problemText(error: ShipmentError, shipment: Pick<Shipment, 'id' | 'reference' | 'documents'>, jobs: readonly PrintJob[] | undefined): string {
  return withoutIds(error.message, { shipments: new Map([[shipment.id, shipment.reference]]), printJobs: printJobNames(shipment, jobs ?? []) });
}
