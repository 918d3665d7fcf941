import { useCallback, useEffect, useRef } from 'react';
import type { Page } from '../../../../src-shared/schemas/common';
import type { PrintJob, PrintJobStatus } from '../../../../src-shared/schemas/printing';
import { client, useLoad, type Loaded } from '../../lib/api';

/** How often the list is read again while a job is under way, and for how long at most. */
const POLL_MS = 1000;
const MAX_POLLS = 60;

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
  /**
   * Reads the list again now, and keeps reading it every second for `watchMs` (a send has just
   * finished: its automatic print may still be on its way) and while any job is queued or printing.
   * Never more than MAX_POLLS reads after one call, so a job that hangs does not poll forever.
   */
  refresh: (watchMs?: number) => void;
}

/**
 * Print jobs from the server's log (GET /print-jobs), newest first. A job runs while its request
 * waits, but an automatic print after a send, or a print started from another station, may finish
 * a moment later: while something is under way the list is read again, briefly and boundedly.
 */
export function usePrintJobs(orgId: string, query: PrintJobsQuery): PrintJobs {
  const loaded = useLoad(
    () => client.call('printJobs.list', { params: { orgId }, query: { limit: 20, ...query } }),
    `print-jobs:${orgId}:${query.shipmentId ?? ''}:${query.status ?? ''}:${query.settled ?? ''}:${query.page ?? 1}:${query.limit ?? 20}`,
  );
  const watchUntil = useRef(0);
  const polls = useRef(0);
  const { reload } = loaded;

  const refresh = useCallback(
    (watchMs = 0) => {
      watchUntil.current = Math.max(watchUntil.current, Date.now() + watchMs);
      polls.current = 0;
      reload();
    },
    [reload],
  );

  // Each answer (or failed read) is a new state, so this runs once per read and schedules the next.
  useEffect(() => {
    if (loaded.loading || !loaded.data) return;
    const underWay = loaded.data.data.some(isActive) || Date.now() < watchUntil.current;
    if (!underWay || polls.current >= MAX_POLLS) return;
    const timer = setTimeout(() => {
      polls.current += 1;
      reload();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [loaded.data, loaded.loading, reload]);

  return { ...loaded, refresh };
}
