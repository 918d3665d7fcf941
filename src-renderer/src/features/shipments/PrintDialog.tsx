import { useEffect, useState } from 'react';
import { withoutIds } from '../../lib/plainIds';
import type { PrintJob, Printer } from '../../../../src-shared/schemas/printing';
import type { ShipmentDocument } from '../../../../src-shared/schemas/shipment';
import { client } from '../../lib/api';
import { creationPlaces } from '../../components/EmptyChoice';
import { useOperation } from '../../lib/useOperation';
import { Link } from '../../app/router';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Field } from '../../components/forms';
import { Progress } from '../../components/Progress';
import { StatusBadge } from '../../components/StatusBadge';
import { documentTitle, fetchDocument, saveFile } from './documents';
import { mediaMismatch, preselectPrinter, printersFor, printGroups, rememberedPrinter, rememberPrinter, type PrintGroup } from './printerChoice';
import { useInitialFocus } from './useInitialFocus';
import { onPush } from '../../lib/pushes';

/**
 * Print a shipment's documents on a printer of this station. Printing never re-books the shipment:
 * "Print again" and "Retry" only make new print jobs. Each job's state is shown as the server
 * reports it (done, or failed with the reason).
 */
export function PrintDialog({
  open,
  onClose,
  orgId,
  shipmentId,
  documents,
  avoidPrinterId,
  onPrinted,
}: {
  open: boolean;
  onClose: () => void;
  orgId: string;
  shipmentId: string;
  documents: ShipmentDocument[];
  /** "Print on another printer": a printer that just failed is not the one offered first. */
  avoidPrinterId?: string | null;
  /** Every job of a print (or a retry) is done: the Pack screen closes the dialog then. */
  onPrinted?: () => void;
}) {
  return (
    <Dialog title="Print" open={open} onClose={onClose} wide>
      <PrintPanel orgId={orgId} shipmentId={shipmentId} documents={documents} onClose={onClose} avoidPrinterId={avoidPrinterId ?? null} onPrinted={onPrinted} />
    </Dialog>
  );
}

function PrintPanel({
  orgId,
  shipmentId,
  documents,
  onClose,
  avoidPrinterId,
  onPrinted,
}: {
  orgId: string;
  shipmentId: string;
  documents: ShipmentDocument[];
  onClose: () => void;
  avoidPrinterId: string | null;
  onPrinted: (() => void) | undefined;
}) {
  const printers = useOperation('printers.list', { params: { orgId }, query: { limit: 100 } });
  const groups = printGroups(documents);
  const [chosen, setChosen] = useState<Partial<Record<string, string>>>({});
  const [copies, setCopies] = useState('1');
  const [jobs, setJobs] = useState<PrintJob[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const list = printers.data?.data ?? [];

  useEffect(() => {
    if (!printers.data) return;
    const all = printers.data.data;
    setChosen((current) =>
      Object.fromEntries(
        groups.map((group) => {
          const others = all.filter((printer) => printer.id !== avoidPrinterId);
          const offered = printersFor(group, others).same.length ? others : all;
          return [group.key, current[group.key] ?? preselectPrinter(orgId, group, offered)];
        }),
      ),
    );
  }, [printers.data, orgId]);

  // Pushed progress (IPC in the desktop app, the event stream in a browser): a job's state changes without asking again.
  useEffect(
    () =>
      onPush('print.progress', (event) => {
        if (event.orgId !== orgId) return;
        setJobs((current) =>
          current.map((job) =>
            job.id === event.printJobId ? { ...job, status: event.state, error: event.state === 'failed' ? (event.message ?? job.error) : job.error } : job,
          ),
        );
      }),
    [orgId],
  );

  const print = async () => {
    setBusy(true);
    setError(null);
    const made: PrintJob[] = [];
    try {
      for (const group of groups) {
        const printerId = chosen[group.key];
        if (!printerId) continue;
        const documentIds = group.documents.map((document) => document.id);
        const answer = await client.call('shipments.print', { params: { orgId, shipmentId }, body: { printerId, documentIds, copies: Number(copies) || 1 } });
        // Only a printer that printed becomes this station's: a send prints there too (USERS 1).
        if (answer.jobs.every(printed)) rememberPrinter(orgId, group.key, printerId);
        made.push(...answer.jobs);
        setJobs([...made]);
      }
      if (made.length && made.every(printed)) onPrinted?.();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const retry = async (job: PrintJob) => {
    setError(null);
    try {
      const again = await client.call('printJobs.retry', { params: { orgId, jobId: job.id } });
      const group = groups.find((candidate) => candidate.documents.some((document) => document.id === again.documentId));
      if (printed(again) && group && again.printerId) rememberPrinter(orgId, group.key, again.printerId);
      setJobs((current) => current.map((old) => (old.id === job.id ? again : old)));
      if (printed(again) && jobs.every((other) => other.id === job.id || printed(other))) onPrinted?.();
    } catch (caught) {
      setError(caught);
    }
  };

  const download = async (document: ShipmentDocument) => {
    try {
      saveFile(await fetchDocument(orgId, shipmentId, document.id), `${document.documentType}.${document.format}`);
    } catch (caught) {
      setError(caught);
    }
  };

  const canPrint = groups.some((group) => chosen[group.key]);
  // Focus starts on Print once a printer is chosen, and comes back to it (now "Print again") when
  // the jobs have finished: the button was disabled meanwhile, which drops focus to the page.
  const printButton = useInitialFocus<HTMLButtonElement>(canPrint && !busy);
  const finished = jobs.filter((job) => job.status === 'done' || job.status === 'failed').length;

  return (
    <div>
      <ul className="doc-list">
        {documents.map((document) => (
          <li key={document.id}>{documentTitle(document)}</li>
        ))}
      </ul>
      <ErrorNotice error={printers.error} title="The printers could not be loaded" />
      {groups.map((group) => (
        <PrinterChoice
          key={group.key}
          group={group}
          printers={printersFor(group, list)}
          loading={printers.loading}
          value={chosen[group.key] ?? ''}
          remembered={rememberedPrinter(orgId, group.key) === chosen[group.key]}
          onChange={(printerId) => setChosen({ ...chosen, [group.key]: printerId })}
          onDownload={() => group.documents.forEach((document) => void download(document))}
        />
      ))}
      <div className="form-grid">
        <Field label="Copies">
          <input type="number" min={1} max={10} value={copies} onChange={(event) => setCopies(event.target.value)} />
        </Field>
      </div>
      <ErrorNotice error={error} title="Printing did not start" />
      {jobs.length > 0 && (
        <>
          <Progress label="Print jobs finished" done={finished} total={jobs.length} />
          <table className="plain" aria-label="Print jobs">
            <thead>
              <tr>
                <th scope="col">Document</th>
                <th scope="col">Printer</th>
                <th scope="col">State</th>
                <th scope="col">Attempts</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {jobs.map((job) => (
                <JobRow key={job.id} job={job} documents={documents} printers={list} onRetry={() => void retry(job)} />
              ))}
            </tbody>
          </table>
        </>
      )}
      <div className="form-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
        <button type="button" className="primary" disabled={busy || !canPrint} onClick={() => void print()} ref={printButton}>
          {busy ? 'Printing…' : jobs.length > 0 ? 'Print again' : 'Print'}
        </button>
      </div>
    </div>
  );
}

const printed = (job: PrintJob) => job.status === 'done';

function PrinterChoice({
  group,
  printers,
  loading,
  value,
  remembered,
  onChange,
  onDownload,
}: {
  group: PrintGroup;
  printers: { same: Printer[]; drawn: Printer[] };
  loading: boolean;
  value: string;
  /** Whether `value` is the printer this station remembers for the group. */
  remembered: boolean;
  onChange: (printerId: string) => void;
  onDownload: () => void;
}) {
  const { format } = group;
  const label = group.kind === 'papers' ? `Printer for documents (${format.toUpperCase()})` : format === 'zpl' ? 'Label printer (ZPL)' : 'Printer for PDF';
  const { same, drawn } = printers;
  const chosen = [...same, ...drawn].find((printer) => printer.id === value);
  // A warning, not a block: the packer may know the printer's media has just been changed.
  const mismatch = chosen ? mediaMismatch(chosen, group) : null;
  const option = (printer: Printer) => (
    <option key={printer.id} value={printer.id}>
      {printer.name} · {printer.labelSize}
      {printer.isDefault ? ' (default)' : ''}
    </option>
  );
  if (!loading && same.length === 0 && drawn.length === 0) {
    return (
      <div className="error-notice" role="alert">
        <strong>No {format === 'zpl' ? 'ZPL label' : 'PDF'} printer is set up.</strong>
        <p>
          <Link to={creationPlaces.printer.to}>{creationPlaces.printer.action}</Link> under Settings → Printers. Until then, save the file and print it from
          another program.
        </p>
        <button type="button" onClick={onDownload}>
          Download {format.toUpperCase()}
        </button>
      </div>
    );
  }
  return (
    <div className="printer-field">
      <Field label={label} hint={remembered ? 'Remembered on this station' : 'Remembered on this station once you print'}>
        <select value={value} onChange={(event) => onChange(event.target.value)}>
          {loading && <option value="">Loading…</option>}
          {drawn.length === 0 ? (
            same.map(option)
          ) : (
            <>
              {same.length > 0 && <optgroup label={`${format.toUpperCase()} printers`}>{same.map(option)}</optgroup>}
              <optgroup label="Other printers (the label is drawn in their format)">{drawn.map(option)}</optgroup>
            </>
          )}
        </select>
      </Field>
      {chosen && chosen.format !== format && (
        <p className="hint" role="status">
          {chosen.name} prints {chosen.format.toUpperCase()}: Shipdesk draws {group.documents.length === 1 ? 'this label' : 'these labels'} as{' '}
          {chosen.format.toUpperCase()} for it.
        </p>
      )}
      {mismatch && (
        <p className="media-warning" role="status">
          <strong>Check the media.</strong> {mismatch} It prints at its own size, so load the right media or choose another printer.
        </p>
      )}
    </div>
  );
}

function JobRow({ job, documents, printers, onRetry }: { job: PrintJob; documents: ShipmentDocument[]; printers: Printer[]; onRetry: () => void }) {
  const document = documents.find((candidate) => candidate.id === job.documentId);
  const printer = printers.find((candidate) => candidate.id === job.printerId);
  return (
    <tr>
      <td>{document ? documentTitle(document) : job.documentId}</td>
      <td>{printer?.name ?? job.printerId ?? 'No printer'}</td>
      <td className="wrap">
        <StatusBadge status={job.status} />
        {job.status === 'failed' && job.error && <span className="job-error"> {withoutIds(job.error)}</span>}
      </td>
      <td>{job.attempts}</td>
      <td>
        {job.status === 'failed' && (
          <button type="button" onClick={onRetry}>
            Retry
          </button>
        )}
      </td>
    </tr>
  );
}
