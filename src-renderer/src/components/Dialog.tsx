import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * The element that last had focus. The button that opens a dialog is often re-rendered by the same
 * click (its row's state changes) before the dialog opens, and focus has fallen to the page by then.
 */
let lastFocused: HTMLElement | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener('focusin', (event) => {
    if (event.target instanceof HTMLElement) lastFocused = event.target;
  });
}

/**
 * A modal dialog on the native <dialog>: focus is trapped and Escape closes it, as the browser
 * provides. Closing never loses what was typed: the caller keeps the form state.
 *
 * `explicitClose` is for a dialog showing what cannot be shown again (a new API token): it has no ×
 * and Escape does nothing, so only its own button, which says what closing means, closes it.
 */
export function Dialog({
  title,
  open,
  onClose,
  children,
  wide,
  explicitClose,
}: {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
  explicitClose?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : lastFocused;
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
    if (!open) {
      if (dialog.open) dialog.close();
      if (opener.current) returnFocus(opener.current);
      opener.current = null;
    }
  }, [open]);
  // Most dialogs are unmounted by their parent rather than closed: return focus then too.
  useEffect(
    () => () => {
      if (opener.current) returnFocus(opener.current);
    },
    [],
  );
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      className={wide ? 'dialog dialog-wide' : 'dialog'}
      onClose={onClose}
      onCancel={(event) => (explicitClose ? event.preventDefault() : onClose())}
      // The browser lets a page refuse only the first of several Escapes in a row (cancel); refusing
      // the key itself holds for every press.
      onKeyDown={(event) => explicitClose && event.key === 'Escape' && event.preventDefault()}
    >
      <header className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        {!explicitClose && (
          <button type="button" className="icon-button" aria-label="Close dialog" title="Close (Esc)" onClick={onClose}>
            ×
          </button>
        )}
      </header>
      {open && <div className="dialog-body">{children}</div>}
    </dialog>
  );
}

/**
 * After a dialog closes, focus goes back where it was, so Tab and Enter carry on from there and not
 * from the top of the page. The opener is often re-rendered meanwhile (a table row after Save), so
 * the same control is found again by its name; failing that, the page's main area takes focus.
 * Focus someone placed on purpose meanwhile (the Pack screen's scan box) is left alone.
 */
function returnFocus(opener: HTMLElement): void {
  requestAnimationFrame(() => {
    if (document.activeElement && document.activeElement !== document.body) return;
    const name = opener.getAttribute('aria-label');
    const target = opener.isConnected ? opener : name ? document.querySelector<HTMLElement>(`[aria-label="${CSS.escape(name)}"]`) : null;
    const main = document.getElementById('main');
    if (!target) return main?.focus();
    target.focus();
    // A dialog's action often removes its opener a moment later (a deleted row leaves when the list
    // is read again): then the main area takes focus, not the top of the page.
    const watch = new MutationObserver(() => {
      if (target.isConnected) return;
      watch.disconnect();
      if (document.activeElement === document.body) main?.focus();
    });
    watch.observe(document.body, { childList: true, subtree: true });
    setTimeout(() => watch.disconnect(), 5000);
  });
}
