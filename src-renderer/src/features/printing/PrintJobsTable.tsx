import type { Printer, PrintJob } from '../../../../src-shared/schemas/printing';
import { withoutIds } from '../../lib/plainIds';
import type { ShipmentDocument } from '../../../../src-shared/schemas/shipment';
import { Link } from '../../app/router';
import { StatusBadge } from '../../components/StatusBadge';
import { DateCell } from '../../components/cells';
import { documentTitle } from '../shipments/documents';
import { settledFailure } from './settledFailure';

/** "Label · PDF · 100 × 150 mm", or "Label 2 of 3 · PDF · …" when the shipment has several labels. */
export function jobDocumentName(documents: readonly ShipmentDocument[] | undefined, documentId: string): string {
  const document = documents?.find((candidate) => candidate.id === documentId);
  if (!document) return 'Document';
  const title = documentTitle(document);
  const same = documents?.filter((candidate) => candidate.documentType === document.documentType) ?? [];
  if (same.length < 2) return title;
  const [kind, ...rest] = title.split(' · ');
  return [`${kind ?? ''} ${same.indexOf(document) + 1} of ${same.length}`, ...rest].join(' · ');
}

export function jobPrinterName(printers: readonly Printer[], printerId: string | null): string {
  if (!printerId) return 'No printer';
  return printers.find((printer) => printer.id === printerId)?.name ?? 'A deleted printer';
}

export interface JobShipment {
  id: string;
  reference: string;
  status: string;
  documents: ShipmentDocument[];
}

/**
 * Print jobs as the packer needs them: which document, on which printer, what became of it. A failed
 * job stands out with its reason and offers Retry (same printer, a new attempt) and "Print on another
 * printer…". Jobs of a cancelled shipment offer nothing: its labels are void.
 */
// In its own module so pure code (the shipment's problems) can use it without the screen's parts.
export { settledFailure };

export function PrintJobsTable({
  label,
  jobs,
  printers,
  shipmentOf,
  showShipment,
  canPrint,
  busyJobId,
  onRetry,
  onPrintElsewhere,
}: {
  label: string;
  jobs: PrintJob[];
  printers: readonly Printer[];
  shipmentOf: (job: PrintJob) => JobShipment | undefined;
  showShipment: boolean;
  /** The user's role may print (write:printers). */
  canPrint: boolean;
  busyJobId: string | null;
  onRetry: (job: PrintJob) => void;
  onPrintElsewhere: (job: PrintJob) => void;
}) {
  return (
    <div className="table-scroll">
      <table className="plain print-jobs" aria-label={label}>
        <thead>
          <tr>
            {showShipment && <th scope="col">Shipment</th>}
            <th scope="col">Document</th>
            <th scope="col">Printer</th>
            <th scope="col">State</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last try</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => {
            const shipment = shipmentOf(job);
            const voided = shipment?.status === 'cancelled';
            const settled = settledFailure(jobs, job);
            const failed = job.status === 'failed' && !settled;
            return (
              <tr key={job.id} className={failed ? 'job-failed' : undefined}>
                {showShipment && (
                  <td>
                    {shipment ? <Link to={`/shipments/${encodeURIComponent(shipment.id)}`}>{shipment.reference}</Link> : <span className="muted">…</span>}
                  </td>
                )}
                <td>{jobDocumentName(shipment?.documents, job.documentId)}</td>
                <td>{jobPrinterName(printers, job.printerId)}</td>
                <td className="wrap job-state">
                  <StatusBadge status={job.status} />
                  {failed && job.error && <span className="job-error"> {withoutIds(job.error)}</span>}
                  {settled && <span className="muted"> · printed since on {jobPrinterName(printers, settled.printerId)}</span>}
                  {voided && <span className="muted"> · shipment cancelled, label void</span>}
                </td>
                <td className="numeric">{job.attempts}</td>
                <td>
                  <DateCell iso={job.updatedAt} />
                </td>
                <td>
                  {failed && canPrint && !voided && shipment && (
                    <div className="row-actions">
                      <button type="button" disabled={busyJobId !== null} onClick={() => onRetry(job)}>
                        {busyJobId === job.id ? 'Retrying…' : 'Retry'}
                      </button>
                      <button type="button" disabled={busyJobId !== null} onClick={() => onPrintElsewhere(job)}>
                        Print on another printer…
                      </button>
                    </div>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
