import { useEffect, useRef } from 'react';
import type { Shipment } from '../../../../src-shared/schemas/shipment';
import { useOperation } from '../../lib/useOperation';
import { Link } from '../../app/router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useCanWrite } from '../settings/shared';
import { jobDocumentName, jobPrinterName, PrintJobsTable, settledFailure } from './PrintJobsTable';
import { useJobActions } from './useJobActions';
import { usePrintJobs } from './usePrintJobs';

/**
 * The shipment's print jobs (GET /print-jobs?shipmentId=…), newest first, so a label that did not
 * print — automatically after Send, or from the Print dialog — stays in sight with its reason and a
 * Retry after the dialog or the page is gone.
 */
export function PrintJobsCard({ orgId, shipment, onChanged }: { orgId: string; shipment: Shipment; onChanged: () => void }) {
  const jobs = usePrintJobs(orgId, { shipmentId: shipment.id, limit: 100 });
  const printers = useOperation('printers.list', { params: { orgId }, query: { limit: 100 } });
  const canPrint = useCanWrite('printers');
  const shipmentOf = () => shipment;
  // Reading the shipment again (a printed job adds to its activity) reads the jobs again too (below).
  const actions = useJobActions(orgId, shipmentOf, { onRetried: onChanged, onPrinted: onChanged });

  // Every new read of the shipment (an action's answer, a print dialog closed) reads the jobs again;
  // jobs that change later (the automatic print after a send) are pushed, and the cache reads them.
  const seen = useRef<Shipment | null>(null);
  const { refresh } = jobs;
  useEffect(() => {
    const previous = seen.current;
    seen.current = shipment;
    if (!previous || previous === shipment) return;
    refresh();
  }, [shipment, refresh]);

  const list = actions.merge(jobs.data?.data ?? []);
  const failed = list.filter((job) => job.status === 'failed' && !settledFailure(list, job));
  const printerList = printers.data?.data ?? [];
  if (shipment.documents.length === 0 && list.length === 0) return null;

  return (
    <section className={failed.length > 0 ? 'card card-bad print-jobs-card' : 'card print-jobs-card'} aria-labelledby="print-jobs-title">
      <div className="card-header">
        <h2 id="print-jobs-title">Print jobs</h2>
        <Link to="/print-jobs">All print jobs</Link>
      </div>
      {failed.length > 0 && shipment.status !== 'cancelled' && (
        <div className="error-notice" role="alert">
          <strong>{failed.length === 1 ? 'A document did not print.' : `${failed.length} documents did not print.`}</strong>
          <ul>
            {failed.map((job) => (
              <li key={job.id}>
                {jobDocumentName(shipment.documents, job.documentId)} did not print on {jobPrinterName(printerList, job.printerId)}.
              </li>
            ))}
          </ul>
          <p>The reason is in the list below. Retry once the printer is fixed, or print on another printer.</p>
        </div>
      )}
      <ErrorNotice error={jobs.error} title="The print jobs could not be loaded" />
      <ErrorNotice error={actions.error} title="The print job could not be retried" />
      {list.length === 0 ? (
        !jobs.error && <p className="muted">{jobs.loading && !jobs.data ? 'Loading the print jobs…' : 'Nothing printed yet.'}</p>
      ) : (
        <PrintJobsTable
          label="Print jobs of this shipment"
          jobs={list}
          printers={printerList}
          shipmentOf={shipmentOf}
          showShipment={false}
          canPrint={canPrint}
          busyJobId={actions.busyJobId}
          onRetry={actions.retry}
          onPrintElsewhere={actions.printElsewhere}
        />
      )}
      {actions.dialog}
    </section>
  );
}
