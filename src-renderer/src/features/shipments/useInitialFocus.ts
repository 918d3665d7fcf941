import { useEffect, useRef } from 'react';

/**
 * Moves focus to an element when `when` turns true while a dialog is open: the printers have
 * loaded, a batch has finished. (Where focus should start when a dialog opens, mark the element
 * `data-autofocus`; Dialog handles that.) One frame later, so the element is rendered and enabled.
 */
export function useInitialFocus<T extends HTMLElement>(when = true) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (!when) return;
    const frame = requestAnimationFrame(() => ref.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [when]);
  return ref;
}
