import { useState } from 'react';
import type { OrderChannel } from '../../../../src-shared/schemas/orderChannel';
import type { OrderImportResult } from '../../../../src-shared/schemas/order';
import { client } from '../../lib/api';
import { useOrgId } from '../../lib/session';
import { Dialog } from '../../components/Dialog';
import { EmptyChoice } from '../../components/EmptyChoice';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Field, FormActions } from '../../components/forms';
import { fileSize, importedSummary } from './importCounts';
import { csvFileText } from './csvFileText';
import { useInitialFocus } from '../shipments/useInitialFocus';

/**
 * Brings orders in from a spreadsheet's CSV file (docs/api.md §9.6). The server checks every row;
 * an order with a bad row is left out and its rows listed, and one already there is skipped, so the
 * same file can be fixed and imported again.
 */
export function ImportOrdersDialog({
  open,
  onClose,
  onImported,
  channels,
}: {
  open: boolean;
  onClose: () => void;
  onImported: () => void;
  channels: OrderChannel[] | undefined;
}) {
  return (
    <Dialog title="Import orders from CSV" open={open} onClose={onClose} wide>
      <ImportOrdersPanel onClose={onClose} onImported={onImported} channels={channels ?? []} />
    </Dialog>
  );
}

function ImportOrdersPanel({ onClose, onImported, channels }: { onClose: () => void; onImported: () => void; channels: OrderChannel[] }) {
  const orgId = useOrgId();
  // Rows that name no channel go to this one: a file from a shop or an ERP has no Shipdesk ids.
  // Until the user picks, a CSV channel (else the first); the channels may arrive after the dialog.
  const [picked, setChannelId] = useState<string | null>(null);
  const channelId = picked ?? (channels.find((channel) => channel.type === 'csv') ?? channels[0])?.id ?? '';
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<OrderImportResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  // Import is disabled while it runs, which drops focus to the page: it comes back when the answer is in.
  const importButton = useInitialFocus<HTMLButtonElement>(!busy && (result !== null || error !== null));

  const importFile = async () => {
    if (!file) return;
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      // Read as UTF-8 or refused here: a file in another encoding is never sent with its bytes replaced.
      const text = await csvFileText(file);
      setResult(await client.call('orders.import', { params: { orgId }, query: channelId ? { orderChannelId: channelId } : {}, body: text }));
      onImported();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <CsvColumnsHint channels={channels} />
      <Field label="Channel of the orders" hint="For rows without an orderChannelId; a row that names one keeps it">
        <select value={channelId} disabled={busy} onChange={(event) => setChannelId(event.target.value)}>
          <option value="">None: every row names its channel</option>
          {channels.map((channel) => (
            <option key={channel.id} value={channel.id}>
              {channel.name}
            </option>
          ))}
        </select>
      </Field>
      <EmptyChoice of="orderChannel" options={channels} />
      <Field label="CSV file">
        <input
          type="file"
          accept=".csv,text/csv,text/plain"
          disabled={busy}
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            setResult(null);
            setError(null);
          }}
        />
      </Field>
      {file && (
        <p className="muted">
          Chosen: <strong>{file.name}</strong> ({fileSize(file.size)})
        </p>
      )}
      {busy && (
        <p role="status" className="muted">
          Importing… large files take a few seconds.
        </p>
      )}
      <ErrorNotice error={error} title="The file was not imported" />
      {result && <ImportResult result={result} />}
      <FormActions>
        <button type="button" onClick={onClose}>
          Close
        </button>
        <button type="button" className="primary" disabled={!file || busy} onClick={() => void importFile()} ref={importButton}>
          {busy ? 'Importing…' : 'Import'}
        </button>
      </FormActions>
    </div>
  );
}

/** The columns a file needs, and the channel ids to put in its orderChannelId column. */
function CsvColumnsHint({ channels }: { channels: OrderChannel[] }) {
  return (
    <div className="import-hint">
      <p>
        One row per order line, with a header row. Required columns: <code>orderNumber</code>, <code>lineName</code>, <code>lineQuantity</code>, and{' '}
        <code>orderChannelId</code> unless a channel is chosen below. Customer, shipping address and other line columns are optional; all are listed in the API
        guide under “Importing orders from CSV”.
      </p>
      <p className="muted">
        Save from the spreadsheet as “CSV UTF-8”, comma or semicolon separated. Orders already imported are skipped, so a fixed file can be imported again.
      </p>
      {channels.length > 0 && (
        <details>
          <summary>Channel ids for the orderChannelId column</summary>
          <table className="plain" aria-label="Channel ids">
            <thead>
              <tr>
                <th scope="col">Channel</th>
                <th scope="col">orderChannelId</th>
              </tr>
            </thead>
            <tbody>
              {channels.map((channel) => (
                <tr key={channel.id}>
                  <td>{channel.name}</td>
                  <td>
                    <code>{channel.id}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </div>
  );
}

/** "2 orders imported, 1 already there (skipped)", then the rows that kept an order out. */
function ImportResult({ result }: { result: OrderImportResult }) {
  return (
    <div className={result.errors.length ? 'problems' : 'notice'}>
      <p role="status">
        <strong>{importedSummary(result)}</strong>
      </p>
      {result.errors.length > 0 && (
        <>
          <p>An order with a problem in any of its rows was not imported. Fix these rows in the file and import it again.</p>
          <RowErrorsTable errors={result.errors} />
        </>
      )}
    </div>
  );
}

function RowErrorsTable({ errors }: { errors: OrderImportResult['errors'] }) {
  return (
    <div className="table-scroll">
      <table className="plain" aria-label="Rows not imported">
        <thead>
          <tr>
            <th scope="col" className="numeric">
              Row
            </th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          {errors.map((rowError, index) => (
            <tr key={`${rowError.row}:${index}`}>
              <td className="numeric">{rowError.row}</td>
              <td className="wrap">{rowError.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
