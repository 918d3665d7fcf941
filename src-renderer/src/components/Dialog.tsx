import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal dialog on the native <dialog>: focus is trapped and Escape closes it, as the browser
 * provides. Closing never loses what was typed: the caller keeps the form state.
 */
export function Dialog({ title, open, onClose, children, wide }: { title: string; open: boolean; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // showModal() focuses the first focusable element, the close button. Start where the caller
      // marked with data-autofocus (React's autoFocus runs before showModal and is lost), else on the
      // first control of the body.
      // (A selector list matches in document order, so the mark is looked for on its own first;
      // a disabled control cannot take focus and is skipped.)
      const first =
        dialog.querySelector<HTMLElement>('.dialog-body [data-autofocus]') ??
        dialog.querySelector<HTMLElement>(
          '.dialog-body input:not([type=hidden]):not(:disabled), .dialog-body select:not(:disabled), .dialog-body textarea:not(:disabled), .dialog-body button:not(:disabled)',
        );
      first?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} className={wide ? 'dialog dialog-wide' : 'dialog'} onClose={onClose} onCancel={onClose}>
      <header className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      {open && <div className="dialog-body">{children}</div>}
    </dialog>
  );
}
