import { useState, type ReactNode } from 'react';
import type { PrintJob } from '../../../../src-shared/schemas/printing';
import { client } from '../../lib/api';
import { PrintDialog } from '../shipments/PrintDialog';
import type { JobShipment } from './PrintJobsTable';

/**
 * Retry and "Print on another printer…" for a list of print jobs. A retry answers with the job as it
 * ended (done, or failed again with the reason), which replaces the row at once; `onRetried` and
 * `onPrinted` (the print dialog closed) let the caller read what changed again.
 */
export function useJobActions(
  orgId: string,
  shipmentOf: (job: PrintJob) => JobShipment | undefined,
  { onRetried, onPrinted }: { onRetried: () => void; onPrinted: () => void },
) {
  const [busyJobId, setBusyJobId] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [retried, setRetried] = useState<ReadonlyMap<string, PrintJob>>(new Map());
  const [elsewhere, setElsewhere] = useState<{ job: PrintJob; shipment: JobShipment } | null>(null);

  const retry = async (job: PrintJob) => {
    setBusyJobId(job.id);
    setError(null);
    try {
      const again = await client.call('printJobs.retry', { params: { orgId, jobId: job.id } });
      setRetried((current) => new Map(current).set(again.id, again));
      onRetried();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusyJobId(null);
    }
  };

  const printElsewhere = (job: PrintJob) => {
    const shipment = shipmentOf(job);
    if (shipment) setElsewhere({ job, shipment });
  };

  /** The rows with what a retry answered, until the list is read again with it. */
  const merge = (jobs: PrintJob[]) =>
    jobs.map((job) => {
      const newer = retried.get(job.id);
      return newer && newer.updatedAt >= job.updatedAt ? newer : job;
    });

  const document = elsewhere?.shipment.documents.find((candidate) => candidate.id === elsewhere.job.documentId);
  const dialog: ReactNode = (
    <PrintDialog
      open={elsewhere !== null && document !== undefined}
      onClose={() => {
        setElsewhere(null);
        onPrinted();
      }}
      orgId={orgId}
      shipmentId={elsewhere?.shipment.id ?? ''}
      documents={document ? [document] : []}
      avoidPrinterId={elsewhere?.job.printerId ?? null}
    />
  );

  /** Jobs retried here, as their retry answered; `forgetRetried` when the packer asks for a fresh list. */
  const forgetRetried = () => setRetried(new Map());

  return { busyJobId, error, retry: (job: PrintJob) => void retry(job), printElsewhere, merge, retried, forgetRetried, dialog };
}
