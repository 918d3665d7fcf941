import type { ColumnDef } from '@tanstack/react-table';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../../../../src-shared/errors';
import { ErrorNotice, fieldProblem, fieldWord } from '../../components/ErrorNotice';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormActions, fieldErrors } from '../../components/forms';
import { holdsUnchosenCountry } from '../../components/CountryPicker';
import type { Loaded } from '../../lib/api';
import type { Page } from '../../../../src-shared/schemas/common';
import { DataTable } from '../../components/DataTable';
import { useRoutePath } from '../../app/router';

/** Rows per page in the settings lists: an organization has a handful of each, so one page is usual. */
export const SETTINGS_PAGE_SIZE = 50;

// Roles and what they may change are the app's, not only the settings': see lib/permissions.tsx.
export { ReadOnlyNote, useCanWrite, useRole } from '../../lib/permissions';

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="page-header">
      <h1>{title}</h1>
      {children && <div className="actions">{children}</div>}
    </header>
  );
}

/**
 * An edit dialog's draft lives in the screen, not in the dialog: closing it (Escape, ×) or a failed
 * save keeps what was typed, and opening the same item again brings it back. Only a save clears it.
 */
export interface Editor<T> {
  open: boolean;
  key: string | null;
  draft: T | null;
  start: (key: string, initial: () => T) => void;
  setDraft: (update: (draft: T) => T) => void;
  close: () => void;
  finish: () => void;
}

export function useEditor<T>(): Editor<T> {
  const [state, setState] = useState<{ open: boolean; key: string; draft: T } | null>(null);
  return {
    open: state?.open ?? false,
    key: state?.key ?? null,
    draft: state?.draft ?? null,
    start: (key, initial) => setState((previous) => (previous && previous.key === key ? { ...previous, open: true } : { open: true, key, draft: initial() })),
    setDraft: (update) => setState((previous) => previous && { ...previous, draft: update(previous.draft) }),
    close: () => setState((previous) => previous && { ...previous, open: false }),
    finish: () => setState(null),
  };
}

/** Server messages of the schema library, said the way a person at a packing station would. */
export function plainMessage(message: string): string {
  if (/^Too small: expected string to have >=1 character/.test(message)) return 'Required';
  if (/expected (number|string|boolean), received (undefined|null|NaN)/.test(message)) return 'Required';
  if (/expected number, received/.test(message)) return 'Enter a number';
  if (/^Invalid email/.test(message)) return 'Enter an email address, e.g. name@example.com';
  if (/^Must be an upper-case ISO 3166-1 alpha-2 country code/.test(message)) return 'Choose a country (two-letter code such as DK)';
  if (/^Must be an upper-case ISO 4217 currency code/.test(message)) return 'Enter a three-letter currency code such as DKK';
  if (/^Invalid option: expected one of/.test(message))
    return `Choose one of ${message
      .replace(/^Invalid option: expected one of /, '')
      .replaceAll('|', ', ')
      .replaceAll('"', '')}`;
  const atLeast = /^Too small: expected number to be >=?(-?[\d.]+)/.exec(message);
  if (atLeast) return `Must be at least ${atLeast[1]}`;
  const atMost = /^Too big: expected number to be <=?(-?[\d.]+)/.exec(message);
  if (atMost) return `Must be at most ${atMost[1]}`;
  const tooLong = /^Too big: expected string to have <=(\d+)/.exec(message);
  if (tooLong) return `At most ${tooLong[1]} characters`;
  return message;
}

/** Field messages keyed by body path (`conditions.0.min`), in plain words. */
export function plainFieldErrors(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(fieldErrors(error))) out[path] = plainMessage(message);
  return out;
}

/** The first message at `path` or anywhere below it (`receivingCountries` covers `receivingCountries.2`). */
export function errorUnder(errors: Record<string, string>, path: string): string | undefined {
  return errors[path] ?? Object.entries(errors).find(([key]) => key.startsWith(`${path}.`))?.[1];
}

/** A check made before sending, reported the same way the server reports one. */
export function invalid(path: string, message: string): ApiError {
  return new ApiError('VALIDATION_FAILED', message, { details: [{ path: `body.${path}`, message }] });
}

/**
 * A form inside a dialog: submit with Enter or the button, busy while saving, and on failure the
 * message in plain words with focus moved to the first field that needs attention. What was typed
 * stays, since the draft is the caller's.
 */
export function EditorForm({
  onSubmit,
  onCancel,
  submitLabel,
  busyLabel = 'Saving…',
  disabled,
  children,
}: {
  onSubmit: () => Promise<void>;
  onCancel: () => void;
  submitLabel: string;
  busyLabel?: string;
  disabled?: boolean;
  children: (errors: Record<string, string>) => ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const form = useRef<HTMLFormElement>(null);
  // The dialog focuses its close button when it opens (after this mounts); start in the first field instead.
  useEffect(() => {
    const frame = requestAnimationFrame(() =>
      form.current?.querySelector<HTMLElement>('input:not([type="hidden"]):not(:disabled), select:not(:disabled), textarea')?.focus(),
    );
    return () => cancelAnimationFrame(frame);
  }, []);
  useEffect(() => {
    if (!error || !form.current) return;
    const target =
      form.current.querySelector<HTMLElement>('[aria-invalid="true"], .field-invalid input, .field-invalid select') ??
      form.current.querySelector<HTMLElement>('[role="alert"]');
    // The alert itself is not focusable; it becomes so, so that a screen reader starts reading there.
    if (target && !target.hasAttribute('tabindex') && !target.matches('input, select, textarea, button')) target.setAttribute('tabindex', '-1');
    target?.focus();
  }, [error, attempt]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || holdsUnchosenCountry(form.current)) return;
    setBusy(true);
    setError(null);
    try {
      await onSubmit();
    } catch (caught) {
      setError(caught);
      setAttempt((n) => n + 1);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form ref={form} onSubmit={(event) => void submit(event)} noValidate>
      {children(plainFieldErrors(error))}
      <FormError error={error} />
      <FormActions>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={busy || disabled}>
          {busy ? busyLabel : submitLabel}
        </button>
      </FormActions>
    </form>
  );
}

/** `conditions.0.min` → "Condition 1 from"; `zipcode` → "Postal code": the words of the form's labels. */
function plainPath(path: string): string {
  const words = path
    .replace(/^config\./, '')
    .split('.')
    .map((part) => (/^\d+$/.test(part) ? String(Number(part) + 1) : fieldWord(part)))
    .join(' ');
  return (words.charAt(0).toUpperCase() + words.slice(1)).replace(/\burl\b/gi, 'URL');
}

/**
 * A failed save. Validation problems are listed in plain words (each is also shown at its field);
 * anything else goes to the app's error notice.
 */
export function FormError({ error }: { error: unknown }) {
  if (!(error instanceof ApiError) || error.code !== 'VALIDATION_FAILED' || !error.details?.length) return <ErrorNotice error={error} />;
  const problems = Object.entries(plainFieldErrors(error));
  return (
    <div role="alert" className="error-notice">
      <strong>{problems.length === 1 ? 'One field needs attention:' : `${problems.length} fields need attention:`}</strong>
      <ul>
        {problems.map(([path, message]) => (
          <li key={path}>{fieldProblem(path ? plainPath(path) : '', message)}</li>
        ))}
      </ul>
    </div>
  );
}

export { ConfirmDialog } from '../../components/ConfirmDialog';

/** The thing being deleted, kept while its confirmation is open. */
export function useConfirmTarget<T>() {
  const [state, setState] = useState<{ open: boolean; target: T | null }>({ open: false, target: null });
  return {
    open: state.open,
    target: state.target,
    ask: (target: T) => setState({ open: true, target }),
    cancel: () => setState((previous) => ({ ...previous, open: false })),
  };
}

/**
 * "Delete <name>?" for a settings row asked for with useConfirmTarget: runs `remove`, then closes
 * and lets the screen reload its list. `consequence` says what the delete does to the rest.
 */
export function DeleteConfirmDialog<T extends { id: string; name: string }>(props: {
  confirm: ReturnType<typeof useConfirmTarget<T>>;
  noun: string;
  consequence: string;
  remove: (target: T) => Promise<unknown>;
  onDeleted: () => void;
}) {
  const { confirm } = props;
  return (
    <ConfirmDialog
      open={confirm.open}
      title={`Delete ${props.noun}`}
      message={
        <p>
          Delete <strong>{confirm.target?.name}</strong>? {props.consequence}
        </p>
      }
      confirmLabel={`Delete ${props.noun}`}
      onCancel={confirm.cancel}
      onConfirm={async () => {
        if (confirm.target) await props.remove(confirm.target);
        confirm.cancel();
        props.onDeleted();
      }}
    />
  );
}

/** The Edit / Delete buttons of a settings row, each named after the row for screen readers. */
export function editDeleteColumn<T extends { name: string }>(
  onEdit: (row: T) => void,
  onDelete: (row: T) => void,
  options: { editDisabled?: boolean; /** Another action of the row, shown first (e.g. "Test label"). */ first?: (row: T) => ReactNode } = {},
): ColumnDef<T> {
  return {
    id: 'actions',
    header: 'Actions',
    cell: ({ row }) => (
      <RowActions>
        {options.first?.(row.original)}
        <button type="button" onClick={() => onEdit(row.original)} aria-label={`Edit ${row.original.name}`} disabled={options.editDisabled}>
          Edit
        </button>
        <button type="button" className="danger" onClick={() => onDelete(row.original)} aria-label={`Delete ${row.original.name}`}>
          Delete
        </button>
      </RowActions>
    ),
  };
}

/**
 * Buttons inside a table row. The table already leaves keys pressed on them alone; a double click on
 * a button must not also open the row.
 */
export function RowActions({ children }: { children: ReactNode }) {
  return (
    <span className="row-actions" onDoubleClick={(event) => event.stopPropagation()}>
      {children}
    </span>
  );
}

/** Copies a secret with the system clipboard; says so out loud, or says how to copy it by hand. */
export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setStatus('copied');
    } catch {
      setStatus('failed');
    }
  };
  return (
    <>
      <button type="button" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" className="copy-status">
        {status === 'copied' ? 'Copied to the clipboard.' : status === 'failed' ? 'Could not copy: select the text and press Ctrl+C.' : ''}
      </span>
    </>
  );
}

/** A secret in a read-only box (selected on focus, so Ctrl+C works too) with a Copy button. */
export function SecretField({ label, value }: { label: string; value: string }) {
  const id = useId();
  return (
    <div className="field secret-field">
      <label htmlFor={id}>{label}</label>
      <div className="secret-row">
        <input id={id} readOnly value={value} spellCheck={false} onFocus={(event) => event.currentTarget.select()} />
        <CopyButton value={value} />
      </div>
    </div>
  );
}

const regionNames = new Intl.DisplayNames(undefined, { type: 'region' });

export function countryName(code: string | null | undefined): string {
  if (!code) return '—';
  return code === '*' ? 'All countries' : (regionNames.of(code) ?? code);
}

/** A labelled checkbox with an optional line of explanation. */
export function CheckboxField({
  label,
  checked,
  onChange,
  hint,
  disabled,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: string;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="checkbox-field">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      <label htmlFor={id}>{label}</label>
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
    </div>
  );
}

/** `''` → undefined, else the number typed (NaN for nonsense, which the server reports at its field). */
export function numberOrUndefined(text: string): number | undefined {
  const trimmed = text.trim().replace(',', '.');
  return trimmed === '' ? undefined : Number(trimmed);
}

export function emptyToNull(text: string): string | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}

/** An amount in minor units (øre, cents) of the currency, as money. */
export function formatMinor(amount: number, currency: string): string {
  return formatMoney(amount / 100, currency);
}

export function formatMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** A settings list: its load error with a retry, then one page of rows (SETTINGS_PAGE_SIZE a page). */
export function SettingsTable<T extends { id: string }>({
  label,
  columns,
  list,
  page,
  onPageChange,
  onOpen,
  empty,
}: {
  label: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TanStack column value types vary per column
  columns: ColumnDef<T, any>[];
  list: Loaded<Page<T>>;
  page: number;
  onPageChange: (page: number) => void;
  onOpen?: ((row: T) => void) | undefined;
  empty: string;
}) {
  return (
    <>
      <ListError error={list.error} onRetry={list.reload} />
      <DataTable
        label={label}
        columns={columns}
        rows={list.data?.data ?? []}
        getRowId={(row) => row.id}
        total={list.data?.total ?? 0}
        page={page}
        limit={SETTINGS_PAGE_SIZE}
        onPageChange={onPageChange}
        onOpen={onOpen}
        loading={list.loading}
        failed={Boolean(list.error)}
        empty={empty}
      />
    </>
  );
}

/** A list that could not be loaded: what went wrong, and a way to try again. */
export function ListError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  if (!error) return null;
  return (
    <div className="list-error">
      <ErrorNotice error={error} />
      <button type="button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

/**
 * A link ending in `?new` (an empty choice elsewhere, the first-day checklist) opens the screen's
 * "New …" form at once, once `ready` (its lists are loaded); the address bar then drops the `?new`.
 */
export function useStartNewFromLink(ready: boolean, startNew: () => void): void {
  const path = useRoutePath();
  const wanted = path.endsWith('?new');
  useEffect(() => {
    if (!wanted || !ready) return;
    startNew();
    window.history.replaceState(null, '', `#${path.slice(0, -'?new'.length)}`);
  }, [wanted, ready]);
}
