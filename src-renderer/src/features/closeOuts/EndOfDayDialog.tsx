import { useEffect, useState } from 'react';
import type { BinaryResponse } from '../../../../src-shared/client';
import { CLOSE_OUT_WINDOW_DAYS, type CloseOutSummary } from '../../../../src-shared/schemas/closeOut';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Field } from '../../components/forms';
import { CarrierTestBadgeById } from '../../components/TestModeBadge';
import { client } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useCanWrite } from '../../lib/permissions';
import { useOrgId } from '../../lib/session';
import { useOperation } from '../../lib/useOperation';
import { saveFile } from '../shipments/documents';
import { rememberedPrinter, rememberPrinter } from '../shipments/printerChoice';

/** The station's A4 printer, the same one pick lists and a shipment's papers print on. */
const PAPERS_PRINTER = 'papers.pdf';
const PAST_CLOSE_OUTS = 10;

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
const kg = (weight: number) => `${Number(weight.toFixed(2))} kg`;
const totalsText = (totals: { shipments: number; parcels: number; weight: number }) =>
  `${plural(totals.shipments, 'shipment')}, ${plural(totals.parcels, 'parcel')}, ${kg(totals.weight)}`;

/**
 * "End of day" on the Shipments screen (issue 21): per carrier, what waits to be handed to the driver,
 * one action that closes it and prints the handover list, and the close-outs made before with their
 * lists to open or print again. A viewer sees the counts and the lists, without the actions.
 */
export function EndOfDayDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const orgId = useOrgId();
  const canClose = useCanWrite('shipments');
  const waiting = useOperation('closeOuts.waiting', open ? { params: { orgId } } : null);
  const past = useOperation('closeOuts.list', open ? { params: { orgId }, query: { limit: PAST_CLOSE_OUTS } } : null);
  const carriers = useOperation('carriers.list', open ? { params: { orgId }, query: { limit: 100 } } : null);
  const printers = useOperation('printers.list', open ? { params: { orgId }, query: { limit: 100 } } : null);
  const pdfPrinters = (printers.data?.data ?? []).filter((printer) => printer.format === 'pdf');
  const carrierName = (id: string) => carriers.data?.data.find((carrier) => carrier.id === id)?.name ?? 'A deleted carrier';
  const [printerId, setPrinterId] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<{ title: string; error: unknown } | null>(null);
  const [done, setDone] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setFailure(null);
    setDone(null);
  }, [open]);

  // The printer this station last printed papers on, else the organization's default PDF printer.
  useEffect(() => {
    if (printerId || pdfPrinters.length === 0) return;
    const remembered = rememberedPrinter(orgId, PAPERS_PRINTER);
    const choice = pdfPrinters.find((printer) => printer.id === remembered) ?? pdfPrinters.find((printer) => printer.isDefault) ?? pdfPrinters[0];
    if (choice) setPrinterId(choice.id);
  }, [orgId, printerId, pdfPrinters]);

  const download = async (closeOutId: string) => {
    // The operation table types this response as a string; both transports hand back the bytes (client.ts BinaryResponse).
    const file: unknown = await client.call('closeOuts.content', { params: { orgId, closeOutId } });
    saveFile(file as BinaryResponse, 'handover-list.pdf');
  };

  /** Prints on the chosen printer, or downloads the list where there is no PDF printer to print on. */
  const handOut = async (closeOutId: string): Promise<string> => {
    if (!printerId) {
      await download(closeOutId);
      return 'The handover list PDF is downloaded.';
    }
    const printed = await client.call('closeOuts.print', { params: { orgId, closeOutId }, body: { printerId } });
    rememberPrinter(orgId, PAPERS_PRINTER, printed.printerId);
    return printed.message;
  };

  const run = async (key: string, title: string, work: () => Promise<string>) => {
    setBusy(key);
    setFailure(null);
    setDone(null);
    try {
      setDone(await work());
    } catch (caught) {
      setFailure({ title, error: caught });
    } finally {
      setBusy(null);
      waiting.reload();
      past.reload();
    }
  };

  const closeCarrier = (carrierId: string) =>
    run(`close:${carrierId}`, `The day could not be closed for ${carrierName(carrierId)}`, async () => {
      const closed = await client.call('closeOuts.create', { params: { orgId }, body: { carrierId } });
      const closedText = `Closed ${totalsText(closed.totals)} for ${carrierName(carrierId)}.`;
      try {
        return `${closedText} ${await handOut(closed.id)}`;
      } catch (caught) {
        // The close stands; only the paper is missing, and it can be printed again from the list below.
        setFailure({ title: `${closedText} The handover list could not be printed; print it again below`, error: caught });
        return closedText;
      }
    });

  const rows = waiting.data?.data ?? [];
  const closeOuts: CloseOutSummary[] = past.data?.data ?? [];

  return (
    <Dialog title="End of day" open={open} onClose={onClose} wide>
      <p className="muted">
        Hand the day’s parcels to each carrier’s driver: closing a carrier takes every shipment dispatched with it in the last {CLOSE_OUT_WINDOW_DAYS} days that
        no close-out has taken yet, tells the carrier where it has a way to be told, and makes the handover list the driver signs.
      </p>
      {canClose && (
        <Field
          label="Printer for the handover list"
          {...(pdfPrinters.length === 0 && printers.data
            ? { hint: 'No A4 printer yet: the list is downloaded instead. Add one under Settings → Printers.' }
            : {})}
        >
          <select value={printerId} onChange={(event) => setPrinterId(event.target.value)} disabled={pdfPrinters.length === 0}>
            {pdfPrinters.length === 0 && <option value="">Download the PDF</option>}
            {pdfPrinters.map((printer) => (
              <option key={printer.id} value={printer.id}>
                {printer.name}
                {printer.isDefault ? ' (default)' : ''}
              </option>
            ))}
          </select>
        </Field>
      )}
      <h3 id="end-of-day-waiting">Waiting to be handed over</h3>
      <ErrorNotice error={waiting.error} title="What waits could not be loaded" />
      {rows.length === 0 ? (
        !waiting.error && <p className="muted">{waiting.loading && !waiting.data ? 'Loading…' : 'Nothing waits: every dispatched shipment is handed over.'}</p>
      ) : (
        <table aria-labelledby="end-of-day-waiting">
          <thead>
            <tr>
              <th scope="col">Carrier</th>
              <th scope="col">Shipments</th>
              <th scope="col">Parcels</th>
              <th scope="col">Weight</th>
              {canClose && <th scope="col">Action</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.carrierId}>
                <th scope="row">
                  {carrierName(row.carrierId)} <CarrierTestBadgeById carrierId={row.carrierId} />
                </th>
                <td>{row.shipments}</td>
                <td>{row.parcels}</td>
                <td>{kg(row.weight)}</td>
                {canClose && (
                  <td>
                    <button
                      type="button"
                      className="primary"
                      disabled={busy !== null}
                      aria-label={`Close and print handover list for ${carrierName(row.carrierId)}`}
                      onClick={() => void closeCarrier(row.carrierId)}
                    >
                      Close and print handover list
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {busy && (
        <p role="status" className="busy">
          {busy.startsWith('close:') ? `Closing the day for ${carrierName(busy.slice(6))}…` : 'Working…'}
        </p>
      )}
      {done && !busy && (
        <p role="status" className="saved-status">
          {done}
        </p>
      )}
      <ErrorNotice error={failure?.error} title={failure?.title ?? ''} />
      <h3 id="end-of-day-past">Handed over</h3>
      <ErrorNotice error={past.error} title="The close-outs could not be loaded" />
      {closeOuts.length === 0 ? (
        !past.error && <p className="muted">{past.loading && !past.data ? 'Loading…' : 'No close-out yet.'}</p>
      ) : (
        <table aria-labelledby="end-of-day-past">
          <thead>
            <tr>
              <th scope="col">Closed</th>
              <th scope="col">Carrier</th>
              <th scope="col">Handed over</th>
              <th scope="col">Handover list</th>
            </tr>
          </thead>
          <tbody>
            {closeOuts.map((closeOut) => {
              const name = `${carrierName(closeOut.carrierId)}, ${formatDateTime(closeOut.createdAt)}`;
              return (
                <tr key={closeOut.id}>
                  <th scope="row">{formatDateTime(closeOut.createdAt)}</th>
                  <td>
                    {carrierName(closeOut.carrierId)} <CarrierTestBadgeById carrierId={closeOut.carrierId} />
                  </td>
                  <td>{closeOut.status === 'closing' ? 'Closing with the carrier…' : totalsText(closeOut.totals)}</td>
                  <td>
                    {closeOut.status === 'closed' && (
                      <span className="row-actions">
                        <button
                          type="button"
                          disabled={busy !== null}
                          aria-label={`Open PDF: the handover list of ${name}`}
                          onClick={() =>
                            void run(`open:${closeOut.id}`, 'The handover list could not be opened', async () => {
                              await download(closeOut.id);
                              return 'The handover list PDF is downloaded.';
                            })
                          }
                        >
                          Open PDF
                        </button>
                        {canClose && printerId && (
                          <button
                            type="button"
                            disabled={busy !== null}
                            aria-label={`Print the handover list of ${name}`}
                            onClick={() => void run(`print:${closeOut.id}`, 'The handover list could not be printed', () => handOut(closeOut.id))}
                          >
                            Print
                          </button>
                        )}
                      </span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <div className="form-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
