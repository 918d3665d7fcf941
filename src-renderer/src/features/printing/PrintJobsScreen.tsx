import { useEffect, useRef, useState } from 'react';
import { printJobStatuses, type PrintJob, type PrintJobStatus } from '../../../../src-shared/schemas/printing';
import { client } from '../../lib/api';
import { useOperation } from '../../lib/useOperation';
import { humanize } from '../../lib/format';
import { useOrgId } from '../../lib/session';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Field } from '../../components/forms';
import { PageHeader, useCanWrite } from '../settings/shared';
import { PrintJobsTable, type JobShipment } from './PrintJobsTable';
import { useJobActions } from './useJobActions';
import { usePrintJobs } from './usePrintJobs';
import { keepInSight } from './keepInSight';

const PAGE_SIZE = 25;
type Filter = PrintJobStatus | 'all';

/**
 * `/print-jobs`: the organization's print jobs, newest first, failed ones first in view (the filter
 * starts on Failed), so a packer can find a label that never printed — an automatic print after Send
 * nobody watched, or a job from a dialog closed since — and print it again. Failed leaves out the
 * failures a later print of the same document settled, as the shipment's card does (`settledFailure`):
 * they are no problem, and their Retry would be refused.
 */
export function PrintJobsScreen() {
  const orgId = useOrgId();
  const [filter, setFilter] = useState<Filter>('failed');
  const [page, setPage] = useState(1);
  const jobs = usePrintJobs(orgId, {
    ...(filter === 'all' ? {} : { status: filter }),
    ...(filter === 'failed' ? { settled: false } : {}),
    page,
    limit: PAGE_SIZE,
  });
  const printers = useOperation('printers.list', { params: { orgId }, query: { limit: 100 } });
  const canPrint = useCanWrite('printers');

  // The shipments of the jobs in view, for their references and document names (read once each).
  const [shipments, setShipments] = useState<ReadonlyMap<string, JobShipment | null>>(new Map());
  const shipmentIds = [...new Set((jobs.data?.data ?? []).map((job) => job.shipmentId))];
  const missing = shipmentIds.filter((id) => !shipments.has(id));
  const missingKey = missing.join(',');
  useEffect(() => {
    if (!missingKey) return;
    let live = true;
    void Promise.all(
      missingKey.split(',').map(async (shipmentId) => {
        try {
          const shipment = await client.call('shipments.get', { params: { orgId, shipmentId } });
          return [shipmentId, shipment] as const;
        } catch {
          return [shipmentId, null] as const;
        }
      }),
    ).then((read) => {
      if (live) setShipments((current) => new Map([...current, ...read]));
    });
    return () => {
      live = false;
    };
  }, [orgId, missingKey]);

  const shipmentOf = (job: PrintJob) => shipments.get(job.shipmentId) ?? undefined;
  // A retried job shows its outcome in place (useJobActions). Its push reads the list again, but a job
  // that is now done stays in sight under "Failed" until the packer refreshes or changes the filter.
  const actions = useJobActions(orgId, shipmentOf, { onRetried: () => undefined, onPrinted: () => jobs.refresh() });
  // (The job being retried is kept too: its `queued` push may read the list before the retry answers.)
  const view = `${filter}:${page}`;
  const shown = useRef<{ view: string; rows: PrintJob[] }>({ view, rows: [] });
  const before = shown.current.view === view ? shown.current.rows : [];
  const pinned = new Map(actions.retried);
  const busy = before.find((job) => job.id === actions.busyJobId);
  if (busy && !pinned.has(busy.id)) pinned.set(busy.id, busy);
  const rows = keepInSight(before, actions.merge(jobs.data?.data ?? []), pinned);
  shown.current = { view, rows };
  const { forgetRetried } = actions;
  const forgetRef = useRef(forgetRetried);
  forgetRef.current = forgetRetried;
  useEffect(() => forgetRef.current(), [view]);
  const total = jobs.data?.total ?? 0;
  const totalPages = Math.max(1, jobs.data?.totalPages ?? 1);

  return (
    <div className="print-jobs-screen">
      <PageHeader title="Print jobs" />
      <p className="lead">
        Every label and document sent to a printer, newest first. A job that failed keeps its reason; Retry prints it again on the same printer. Printing never
        books a shipment again.
      </p>
      <div className="table-toolbar-plain">
        <Field label="Show">
          <select
            value={filter}
            onChange={(event) => {
              setFilter(event.target.value as Filter);
              setPage(1);
            }}
          >
            <option value="failed">Failed</option>
            <option value="all">All</option>
            {printJobStatuses
              .filter((status) => status !== 'failed')
              .map((status) => (
                <option key={status} value={status}>
                  {humanize(status)}
                </option>
              ))}
          </select>
        </Field>
        <button
          type="button"
          onClick={() => {
            actions.forgetRetried();
            jobs.refresh();
          }}
          disabled={jobs.loading}
        >
          {jobs.loading ? 'Reading…' : 'Refresh'}
        </button>
      </div>
      <ErrorNotice error={jobs.error} title="The print jobs could not be loaded" />
      <ErrorNotice error={printers.error} title="The printers could not be loaded" />
      <ErrorNotice error={actions.error} title="The print job could not be retried" />
      <div className="card">
        {/* Jobs that could not be read are not "no failed jobs": the error above says what happened. */}
        {rows.length === 0 ? (
          !jobs.error && (
            <p className="muted">
              {jobs.loading && !jobs.data
                ? 'Loading the print jobs…'
                : filter === 'failed'
                  ? 'No failed print jobs. Every document sent to a printer got there.'
                  : 'No print jobs here.'}
            </p>
          )
        ) : (
          <PrintJobsTable
            label="Print jobs"
            jobs={rows}
            printers={printers.data?.data ?? []}
            shipmentOf={shipmentOf}
            showShipment
            canPrint={canPrint}
            busyJobId={actions.busyJobId}
            onRetry={actions.retry}
            onPrintElsewhere={actions.printElsewhere}
          />
        )}
        <nav className="pager" aria-label="Print jobs pages">
          <button type="button" onClick={() => setPage(page - 1)} disabled={page <= 1}>
            Previous
          </button>
          <span aria-live="polite">
            Page {page} of {totalPages} · {total} in all
          </span>
          <button type="button" onClick={() => setPage(page + 1)} disabled={page >= totalPages}>
            Next
          </button>
        </nav>
      </div>
      {actions.dialog}
    </div>
  );
}
