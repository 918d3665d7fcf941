import { cloneElement, useId, type ReactElement, type ReactNode } from 'react';
import { ApiError } from '../../../src-shared/errors';
import { fieldNotes } from './fieldNotes';

/**
 * Field messages from a VALIDATION_FAILED answer, keyed by the path inside the body
 * (`body.parcels.0.weight` → `parcels.0.weight`), so each form field shows its own message.
 */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !error.details) return {};
  const out: Record<string, string> = {};
  for (const detail of error.details) {
    const path = detail.path.replace(/^body\.?/, '');
    out[path] ??= detail.message;
  }
  return out;
}

/**
 * A labelled control with its hint and error, wired with aria attributes. `warning` is something to
 * check that does not stop the save (unlike `error`).
 */
export function Field({
  label,
  error,
  hint,
  warning,
  children,
}: {
  label: string;
  error?: string | undefined;
  hint?: string;
  warning?: string | undefined;
  children: ReactElement<Record<string, unknown>>;
}) {
  const id = useId();
  ({ hint, warning, error } = fieldNotes({ hint, warning, error }));
  // A description the control carries itself (a hint shared by several fields) is kept beside the field's own.
  const own = typeof children.props['aria-describedby'] === 'string' ? children.props['aria-describedby'] : null;
  const describedBy = [own, hint ? `${id}-hint` : null, warning ? `${id}-warning` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
      {warning && (
        <small id={`${id}-warning`} className="field-warning">
          {warning}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      )}
    </div>
  );
}

export function FormActions({ children }: { children: ReactNode }) {
  return <div className="form-actions">{children}</div>;
}
