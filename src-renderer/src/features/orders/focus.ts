import { useEffect, useRef } from 'react';

const FIELD = 'input:not([disabled]), select:not([disabled]), textarea:not([disabled])';
const CONTROL = `${FIELD}, button:not([disabled])`;

/**
 * Where focus goes when a dialog opens, instead of its close button (the native dialog's choice):
 * the element itself when it is a control, else the first field inside it. Waits a frame, as the
 * dialog is shown by an effect that runs after the children's.
 */
export function useFocusWhenOpen<T extends HTMLElement>(open: boolean) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (!open) return;
    const frame = requestAnimationFrame(() => {
      const element = ref.current;
      (element?.matches(CONTROL) ? element : element?.querySelector<HTMLElement>(FIELD))?.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [open]);
  return ref;
}
