import type { Page } from '../../../../src-shared/schemas/common';
import type { PrintJob, PrintJobStatus } from '../../../../src-shared/schemas/printing';
import type { Loaded } from '../../lib/api';
import { useOperation } from '../../lib/useOperation';

export const isActive = (job: Pick<PrintJob, 'status'>) => job.status === 'queued' || job.status === 'printing';

export interface PrintJobsQuery {
  shipmentId?: string;
  status?: PrintJobStatus;
  /** false: without the failures a later print of the same document settled (the server's rule). */
  settled?: boolean;
  page?: number;
  limit?: number;
}

export interface PrintJobs extends Loaded<Page<PrintJob>> {
  /** Reads the list again now (a Refresh button, a print dialog closed). */
  refresh: () => void;
}

/**
 * Print jobs from the server's log (GET /print-jobs), newest first, through the read cache. A job
 * that changes state anywhere — an automatic print after a send, a print from another station, a
 * retry — is pushed by main (`print.progress`), and the cache reads the list again: nothing polls.
 */
export function usePrintJobs(orgId: string, query: PrintJobsQuery): PrintJobs {
  const read = useOperation('printJobs.list', { params: { orgId }, query: { limit: 20, ...query } });
  return { data: read.data, error: read.error, loading: read.loading, reload: read.reload, refresh: read.reload };
}
