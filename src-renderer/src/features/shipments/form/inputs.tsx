import type { InputHTMLAttributes } from 'react';
import { Field } from '../../../components/forms';
import type { FieldMessages } from './model';

/**
 * A labelled text input bound to one path of the form; `name` is that path so a failed save can
 * move focus to the first field with a message.
 */
export function TextInput({
  label,
  path,
  value,
  onChange,
  errors,
  hint,
  ...rest
}: {
  label: string;
  path: string;
  value: string;
  onChange: (value: string) => void;
  errors: FieldMessages;
  hint?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'name'>) {
  return (
    <Field label={label} error={errors[path]} {...(hint ? { hint } : {})}>
      <input name={path} value={value} onChange={(event) => onChange(event.target.value)} {...rest} />
    </Field>
  );
}

/** Numbers are typed as text (a comma is fine); `inputMode` brings up a number pad on touch screens. */
export function NumberInput(props: Parameters<typeof TextInput>[0]) {
  return <TextInput inputMode="decimal" autoComplete="off" {...props} />;
}

/** Moves focus to the field at `path` (after adding a parcel or line, or to the first error). */
export function focusField(form: HTMLElement | null, path: string): void {
  requestAnimationFrame(() => form?.querySelector<HTMLElement>(`[name="${CSS.escape(path)}"]`)?.focus());
}

/** The first field marked invalid, else the form's error message (made focusable for it). */
export function focusFirstInvalid(form: HTMLElement | null): void {
  const target = form?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? form?.querySelector<HTMLElement>('[role="alert"]');
  if (target && !target.matches('input, select, textarea, button') && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target?.focus();
}
