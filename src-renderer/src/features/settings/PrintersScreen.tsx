import { useId, useRef, useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { documentFormats, labelSizes, type DocumentFormat, type LabelSize } from '../../../../src-shared/schemas/carrier';
import { printerDrivers, printerProblems, type DiscoveredPrinter, type Printer, type PrinterDriver } from '../../../../src-shared/schemas/printing';
import { ApiError } from '../../../../src-shared/errors';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Field } from '../../components/forms';
import { client } from '../../lib/api';
import { useOperation } from '../../lib/useOperation';
import { useOrgId } from '../../lib/session';
import {
  CheckboxField,
  EditorForm,
  ListError,
  PageHeader,
  ReadOnlyNote,
  SETTINGS_PAGE_SIZE,
  useCanWrite,
  useConfirmTarget,
  useEditor,
  useStartNewFromLink,
  editDeleteColumn,
  SettingsTable,
  DeleteConfirmDialog,
} from './shared';

interface PrinterDraft {
  name: string;
  driver: PrinterDriver;
  target: string;
  format: DocumentFormat;
  labelSize: LabelSize;
  isDefault: boolean;
}

const driverNames: Record<PrinterDriver, string> = {
  cups: 'This computer’s printer (CUPS)',
  raw: 'Network label printer (9100)',
  file: 'Hot folder',
};

const targetLabels: Record<PrinterDriver, { label: string; hint: string }> = {
  cups: { label: 'Queue name', hint: 'As the operating system names the printer; “Find printers” fills it in' },
  raw: { label: 'Address (host:port)', hint: 'e.g. 192.168.1.50:9100; the port defaults to 9100' },
  file: { label: 'Folder', hint: 'An absolute path, e.g. /srv/hotfolder' },
};

const sizeNames: Record<LabelSize, string> = { A4: 'A4 sheet', A6: 'A6 label', '100X150': '100 × 150 mm (4 × 6 in) label', '100X192': '100 × 192 mm label' };

/**
 * Whether the organization has no default printer of a format yet, read from all its printers (the
 * table shows a page). Printing without a printer named, a rule's included, goes to the default, so
 * a printer added where there is none starts as the default. More printers than one read holds, and
 * not knowing yet, count as "has one": a new printer never takes the mark from one out of sight.
 */
function useNoDefaultYet(orgId: string) {
  const every = useOperation('printers.list', { params: { orgId }, query: { limit: 100 } });
  const noDefaultYet = (format: DocumentFormat) => {
    const read = every.data;
    return read !== undefined && read.total <= read.data.length && !read.data.some((printer) => printer.isDefault && printer.format === format);
  };
  return { noDefaultYet, reload: every.reload };
}

export function PrintersScreen() {
  const orgId = useOrgId();
  const canWrite = useCanWrite('printers');
  const [page, setPage] = useState(1);
  const list = useOperation('printers.list', { params: { orgId }, query: { page, limit: SETTINGS_PAGE_SIZE } });
  const editor = useEditor<PrinterDraft>();
  const remove = useConfirmTarget<Printer>();
  const [discovering, setDiscovering] = useState(false);
  const editing = list.data?.data.find((printer) => printer.id === editor.key);
  const test = useTestPrint();
  const defaults = useNoDefaultYet(orgId);
  const reload = () => {
    list.reload();
    defaults.reload();
  };

  const edit = (printer: Printer) =>
    canWrite &&
    editor.start(printer.id, () => ({
      name: printer.name,
      driver: printer.driver,
      target: printer.target,
      format: printer.format,
      labelSize: printer.labelSize,
      isDefault: printer.isDefault,
    }));

  const columns: ColumnDef<Printer>[] = [
    { id: 'name', header: 'Name', cell: ({ row }) => row.original.name },
    { id: 'driver', header: 'Connection', cell: ({ row }) => row.original.driver.toUpperCase() },
    {
      id: 'target',
      header: 'Queue / address / folder',
      // A long folder path is cut (whole on hover), so the row's actions stay on screen.
      cell: ({ row }) => (
        <code className="truncate" title={row.original.target}>
          {row.original.target}
        </code>
      ),
    },
    { id: 'format', header: 'Format', cell: ({ row }) => row.original.format.toUpperCase() },
    { id: 'size', header: 'Media', cell: ({ row }) => row.original.labelSize },
    { id: 'default', header: 'Default', cell: ({ row }) => (row.original.isDefault ? `Default for ${row.original.format.toUpperCase()}` : '') },
  ];
  if (canWrite) {
    columns.push(
      editDeleteColumn(edit, remove.ask, {
        first: (printer) => (
          <button type="button" onClick={() => void test.print(printer)} disabled={test.printing !== null} aria-label={`Print a test label on ${printer.name}`}>
            {test.printing === printer.id ? 'Printing…' : 'Test label'}
          </button>
        ),
      }),
    );
  }

  const save = async (draft: PrinterDraft) => {
    const body = { ...draft, name: draft.name.trim(), target: draft.target.trim() };
    // The same checks the server makes, so a wrong target is named at once, without a round trip.
    const problems = printerProblems(body);
    if (problems.length > 0)
      throw new ApiError('VALIDATION_FAILED', problems[0]?.message ?? 'Check the printer', {
        details: problems.map((problem) => ({ path: `body.${problem.path.join('.')}`, message: problem.message })),
      });
    if (editor.key === 'new') await client.call('printers.create', { params: { orgId }, body });
    else await client.call('printers.update', { params: { orgId, printerId: editor.key ?? '' }, body });
    editor.finish();
    reload();
  };

  const startNew = () =>
    editor.start('new', () => ({
      name: '',
      driver: 'cups',
      target: '',
      format: 'pdf',
      labelSize: '100X150',
      isDefault: defaults.noDefaultYet('pdf'),
    }));
  useStartNewFromLink(canWrite && !!list.data, startNew);

  return (
    <div className="settings-screen">
      <PageHeader title="Printers">
        {canWrite && (
          <>
            <button type="button" onClick={() => setDiscovering(true)}>
              Find printers
            </button>
            <button type="button" className="primary" onClick={startNew}>
              New printer
            </button>
          </>
        )}
      </PageHeader>
      <p className="lead">Where labels and documents are printed. Each format (PDF, ZPL) has one default printer; rules can name others.</p>
      {!canWrite && <ReadOnlyNote what="printers" />}
      {test.sent && (
        <p role="status" className="call-result ok">
          {test.sent}
        </p>
      )}
      <ErrorNotice error={test.error?.caught} title={`The test label did not print on ${test.error?.printer ?? 'the printer'}`} />
      <SettingsTable
        label="Printers"
        columns={columns}
        list={list}
        page={page}
        onPageChange={setPage}
        onOpen={canWrite ? edit : undefined}
        empty="No printers yet. Use “Find printers” to add one of this computer’s printers."
      />

      <Dialog title="Printers of this computer" open={discovering} onClose={() => setDiscovering(false)} wide>
        <DiscoveredPrinters configured={list.data?.data ?? []} noPdfDefaultYet={defaults.noDefaultYet('pdf')} onAdded={reload} />
      </Dialog>

      <Dialog title={editor.key === 'new' ? 'New printer' : `Edit ${editing?.name ?? 'printer'}`} open={editor.open} onClose={editor.close} wide>
        {editor.draft && (
          <EditorForm
            onSubmit={() => save(editor.draft as PrinterDraft)}
            onCancel={editor.close}
            submitLabel={editor.key === 'new' ? 'Create printer' : 'Save changes'}
          >
            {(errors) => (
              <PrinterFields
                draft={editor.draft as PrinterDraft}
                onChange={editor.setDraft}
                errors={errors}
                noDefaultYet={defaults.noDefaultYet}
                isNew={editor.key === 'new'}
              />
            )}
          </EditorForm>
        )}
      </Dialog>

      <DeleteConfirmDialog
        confirm={remove}
        noun="printer"
        consequence="Shipping rules that print to it must be given another printer first. Prints that name no printer go to the default printer."
        remove={(target) => client.call('printers.delete', { params: { orgId, printerId: target.id } })}
        onDeleted={reload}
      />
    </div>
  );
}

/**
 * "Test label": prints the printer's test label (a frame just inside the edges, a barcode to scan) and
 * says what happened above the table, so a wrong media size or a printer that is off shows while
 * setting up, not at the first parcel.
 */
function useTestPrint() {
  const orgId = useOrgId();
  const [printing, setPrinting] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<{ printer: string; caught: unknown } | null>(null);
  const print = async (printer: Printer) => {
    setPrinting(printer.id);
    setSent(null);
    setError(null);
    try {
      setSent((await client.call('printers.test', { params: { orgId, printerId: printer.id } })).message);
    } catch (caught) {
      setError({ printer: printer.name, caught });
    } finally {
      setPrinting(null);
    }
  };
  return { printing, sent, error, print };
}

/**
 * The operating system's printers, each added with one click as a PDF printer (editable after). While
 * the organization has no default PDF printer, the first one added becomes it unless the box is
 * unticked: on a machine with one printer, that is the printer every print goes to.
 */
function DiscoveredPrinters({ configured, noPdfDefaultYet, onAdded }: { configured: Printer[]; noPdfDefaultYet: boolean; onAdded: () => void }) {
  const orgId = useOrgId();
  const found = useOperation('printers.discover', { params: { orgId } });
  const [adding, setAdding] = useState<string | null>(null);
  const [added, setAdded] = useState<string[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [firstAsDefault, setFirstAsDefault] = useState(true);
  const [madeDefault, setMadeDefault] = useState<string | null>(null);
  // Until the list is read again after the first Add, the one just made default still counts.
  const offerDefault = noPdfDefaultYet && madeDefault === null;
  // The Add button becomes "Added"; focus moves to the message saying so rather than to nowhere.
  const status = useRef<HTMLParagraphElement>(null);
  const known = new Set([...configured.filter((printer) => printer.driver === 'cups').map((printer) => printer.target), ...added]);

  const add = async (printer: DiscoveredPrinter) => {
    setAdding(printer.target);
    setError(null);
    try {
      const isDefault = offerDefault && firstAsDefault;
      await client.call('printers.create', {
        params: { orgId },
        body: { name: printer.name, driver: 'cups', target: printer.target, format: 'pdf', labelSize: '100X150', isDefault },
      });
      if (isDefault) setMadeDefault(printer.name);
      setAdded((current) => [...current, printer.target]);
      onAdded();
      requestAnimationFrame(() => status.current?.focus());
    } catch (caught) {
      setError(caught);
    } finally {
      setAdding(null);
    }
  };

  if (found.error) return <ListError error={found.error} onRetry={found.reload} />;
  if (!found.data) return <p className="loading">Asking the operating system for its printers…</p>;
  return (
    <div>
      {found.data.length === 0 ? (
        <p>The operating system offers no printers. Set one up there (CUPS), or add a network label printer with “New printer”.</p>
      ) : (
        <table className="plain">
          <thead>
            <tr>
              <th scope="col">Printer</th>
              <th scope="col">Queue</th>
              <th scope="col">
                <span className="visually-hidden">Add</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {found.data.map((printer) => (
              <tr key={printer.target}>
                <th scope="row">
                  {printer.name}
                  {printer.isDefault && <small className="hint"> (system default)</small>}
                </th>
                <td>
                  <code>{printer.target}</code>
                </td>
                <td>
                  {known.has(printer.target) ? (
                    <span>Added</span>
                  ) : (
                    <button type="button" onClick={() => void add(printer)} disabled={adding !== null} aria-label={`Add ${printer.name}`}>
                      {adding === printer.target ? 'Adding…' : 'Add'}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {offerDefault && found.data.length > 0 && (
        <CheckboxField
          label="Make the printer added the default for PDF"
          checked={firstAsDefault}
          onChange={setFirstAsDefault}
          hint="There is no default PDF printer yet; prints that name no printer, such as a rule’s, go to the default."
        />
      )}
      <p className="hint">Added printers print PDF on 100 × 150 mm labels; edit one to change that or to make it the default.</p>
      <ErrorNotice error={error} />
      <p role="status" ref={status} tabIndex={-1}>
        {added.length > 0 ? `Added ${added.length} printer${added.length === 1 ? '' : 's'}.` : ''}
        {madeDefault ? ` ${madeDefault} is the default printer for PDF.` : ''}
      </p>
    </div>
  );
}

function PrinterFields({
  draft,
  onChange,
  errors,
  noDefaultYet,
  isNew,
}: {
  draft: PrinterDraft;
  onChange: (update: (draft: PrinterDraft) => PrinterDraft) => void;
  errors: Record<string, string>;
  noDefaultYet: (format: DocumentFormat) => boolean;
  isNew: boolean;
}) {
  const orgId = useOrgId();
  const queueListId = useId();
  const queues = useOperation('printers.discover', { params: { orgId } });
  const queueNames = queues.data?.map((printer) => printer.target);
  const typed = draft.target.trim();
  // A mistyped queue only shows when a print fails, maybe days later at the packing station; said
  // here as a warning, not refused: the queue may be one to be added to this computer later, or
  // the hub's, not this station's.
  const unknownQueue = draft.driver === 'cups' && queueNames !== undefined && typed !== '' && !queueNames.includes(typed);
  const queueWarning = !unknownQueue
    ? undefined
    : queueNames.length
      ? `This computer lists no queue named “${typed}” (it has ${queueNames.join(', ')}). Check the spelling; it can still be saved for a queue added later.`
      : `This computer lists no printer queues right now, so “${typed}” cannot be checked; it can still be saved.`;
  const set = <K extends keyof PrinterDraft>(key: K, value: PrinterDraft[K]) => onChange((current) => ({ ...current, [key]: value }));
  // A new printer's default box follows its format: ticked while that format has no default yet.
  const withFormat = (current: PrinterDraft, format: DocumentFormat): PrinterDraft =>
    format === current.format ? current : { ...current, format, ...(isNew ? { isDefault: noDefaultYet(format) } : {}) };
  return (
    <>
      <div className="form-grid">
        <Field label="Name (required)" error={errors.name} hint="e.g. Packing station 1 labels">
          <input value={draft.name} onChange={(event) => set('name', event.target.value)} autoFocus />
        </Field>
        <Field label="Connection" error={errors.driver}>
          <select
            value={draft.driver}
            // A network label printer takes ZPL only, so choosing it sets the format.
            onChange={(event) => {
              const driver = event.target.value as PrinterDriver;
              onChange((current) => withFormat({ ...current, driver }, driver === 'raw' ? 'zpl' : current.format));
            }}
          >
            {printerDrivers.map((driver) => (
              <option key={driver} value={driver}>
                {driverNames[driver]}
              </option>
            ))}
          </select>
        </Field>
        <Field label={`${targetLabels[draft.driver].label} (required)`} error={errors.target} hint={targetLabels[draft.driver].hint} warning={queueWarning}>
          <input
            value={draft.target}
            onChange={(event) => set('target', event.target.value)}
            spellCheck={false}
            list={draft.driver === 'cups' ? queueListId : undefined}
          />
        </Field>
        {draft.driver === 'cups' && (
          <datalist id={queueListId}>
            {queueNames?.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
        )}
        <Field
          label="Format"
          error={errors.format}
          hint={draft.driver === 'raw' ? 'Network label printers take ZPL' : 'PDF for office printers, ZPL for thermal label printers'}
        >
          <select value={draft.format} onChange={(event) => onChange((current) => withFormat(current, event.target.value as DocumentFormat))}>
            {documentFormats.map((format) => (
              <option key={format} value={format} disabled={draft.driver === 'raw' && format !== 'zpl'}>
                {format.toUpperCase()}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Media loaded" error={errors.labelSize} hint="Documents still print at their own size">
          <select value={draft.labelSize} onChange={(event) => set('labelSize', event.target.value as LabelSize)}>
            {labelSizes.map((size) => (
              <option key={size} value={size}>
                {sizeNames[size]}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <CheckboxField
        label={`Default printer for ${draft.format.toUpperCase()}`}
        checked={draft.isDefault}
        onChange={(isDefault) => set('isDefault', isDefault)}
        hint={
          noDefaultYet(draft.format)
            ? `There is no default ${draft.format.toUpperCase()} printer yet; prints that name no printer, such as a rule’s, go to the default`
            : 'Moves the mark from the current default'
        }
      />
    </>
  );
}
