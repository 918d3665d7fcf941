import { useCallback, useEffect, type RefObject } from 'react';
import { stripControlCharacters } from '../../lib/scan';

/** Whether an element takes typed text itself, so typing there is meant for it. */
function takesText(element: Element | null): boolean {
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  if (element instanceof HTMLInputElement) return !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'image', 'range', 'color'].includes(element.type);
  return element instanceof HTMLElement && element.isContentEditable;
}

const dialogOpen = () => document.querySelector('dialog[open]') !== null;

/**
 * Keeps a scan box ready on a screen built around it (USERS 5: "keep one focused input"): it is
 * focused on arrival and when the window comes back to the front, and a key typed while nothing that
 * takes text has focus (the page, a button, a link) moves focus there first, so the scan lands in the
 * box. Clicking elsewhere is allowed; an open dialog keeps its focus. Space and keys with Ctrl, Alt or
 * Cmd are left alone (buttons, shortcuts). Answers a function that puts focus back, for after an action.
 */
export function useScanFocus(input: RefObject<HTMLInputElement | null>): () => void {
  const focusScan = useCallback(() => {
    if (!dialogOpen()) input.current?.focus();
  }, [input]);

  useEffect(() => {
    focusScan();
    const onWindowFocus = () => {
      if (!takesText(document.activeElement)) focusScan();
    };
    // Capture phase, before the key reaches the focused element: the browser then types the character
    // into the box that has focus by the time the key is handled.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey || event.isComposing) return;
      if (event.key.length !== 1 || event.key === ' ') return;
      const active = document.activeElement;
      if (active === input.current || takesText(active) || dialogOpen()) return;
      focusScan();
    };
    window.addEventListener('focus', onWindowFocus);
    document.addEventListener('keydown', onKeyDown, true);
    return () => {
      window.removeEventListener('focus', onWindowFocus);
      document.removeEventListener('keydown', onKeyDown, true);
    };
  }, [focusScan, input]);

  return focusScan;
}

/** Puts focus back in the box when it was left nowhere (a button that went away with its result). */
export function refocusIfLost(focusScan: () => void): void {
  const active = document.activeElement;
  if (!active || active === document.body) focusScan();
}

/**
 * A scan read while a dialog is open on a scan screen (USERS 4 and 5): its characters would land on
 * the dialog's focused button, and its Enter would press it — "Print again", a second label with no
 * warning, and the scan lost. Characters typed where no text is taken are held instead, and the
 * Enter that ends them is kept from the button and hands them over as a scan. A bare Enter (a person
 * pressing the focused button) and typing into a text field are left alone.
 */
export function useScanInDialog(onScan: (code: string) => void): void {
  useEffect(() => {
    let held = '';
    const onKeyDown = (event: KeyboardEvent) => {
      if (!dialogOpen() || takesText(document.activeElement)) {
        held = '';
        return;
      }
      // Passed over without losing what is held: a scanner may type its STX or GS as Ctrl+B, Ctrl+].
      if (event.ctrlKey || event.altKey || event.metaKey || event.isComposing) return;
      if (event.key === 'Enter' && held) {
        event.preventDefault();
        event.stopPropagation();
        const code = stripControlCharacters(held).trim();
        held = '';
        if (code) onScan(code);
      } else if (event.key.length === 1 && event.key !== ' ') {
        // Held, not typed: on a focused <select> a scan's letters would choose another printer.
        event.preventDefault();
        held += event.key;
      }
    };
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, [onScan]);
}
