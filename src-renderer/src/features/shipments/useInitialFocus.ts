import { useEffect, useRef } from 'react';

/**
 * Focus for the main button of a dialog. `autoFocus` does not work inside our <dialog>: React focuses
 * the element before `showModal()` runs (the dialog's effect comes after its children's), and
 * showModal then moves focus to the first control, the × button. One frame later the dialog is open.
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
