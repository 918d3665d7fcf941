import { useCallback, useRef, type KeyboardEvent } from 'react';

/**
 * The scan reader (USERS 5). A keyboard-wedge scanner "types" its code and presses Enter, often with
 * control characters around it (STX \x02 before, GS \x1d between GS1 fields, CR). One rule for every
 * box a scanner types into — the pack screen and the list searches:
 * - control characters are dropped as they arrive, and surrounding whitespace when the scan ends;
 * - Enter ends a scan;
 * - the same code again within REPEAT_WINDOW_MS is one scan read twice (a double trigger, or a
 *   scanner in continuous mode), not a second scan, and is ignored.
 */

/** How long the same code counts as the same scan repeated. */
export const REPEAT_WINDOW_MS = 500;

/** Control characters (C0, DEL, C1) never belong in a reference or an order number. */
export function stripControlCharacters(value: string): string {
  return [...value]
    .filter((ch) => {
      const code = ch.charCodeAt(0);
      return code >= 0x20 && !(code >= 0x7f && code <= 0x9f);
    })
    .join('');
}

/** What a finished scan means: the code without control characters and surrounding whitespace. */
export function cleanScan(raw: string): string {
  return stripControlCharacters(raw).trim();
}

/** The last code read and when (milliseconds on a monotonic clock). */
export interface LastScan {
  code: string;
  at: number;
}

/**
 * Whether `code` read at `at` is `last` read again. The window slides: a scanner that keeps repeating
 * every 200 ms is one scan until it pauses for the whole window.
 */
export function isRepeatedScan(last: LastScan | null, code: string, at: number, windowMs: number = REPEAT_WINDOW_MS): boolean {
  return last !== null && last.code === code && at - last.at >= 0 && at - last.at < windowMs;
}

export type ScanVerdict = { kind: 'scan'; code: string } | { kind: 'repeat'; code: string } | { kind: 'empty' };

/** Judges the text of a box when Enter ends it, and remembers it for the next judgement. */
export function judgeScan(memory: { last: LastScan | null }, raw: string, at: number, windowMs: number = REPEAT_WINDOW_MS): ScanVerdict {
  const code = cleanScan(raw);
  if (!code) return { kind: 'empty' };
  const repeat = isRepeatedScan(memory.last, code, at, windowMs);
  memory.last = { code, at };
  return repeat ? { kind: 'repeat', code } : { kind: 'scan', code };
}

export interface ScanReaderHandlers {
  /** A new scan (or a typed search ended with Enter). */
  onScan: (code: string) => void;
  /** The same code again within the repeat window: ignored, this is only told. */
  onRepeat?: (code: string) => void;
  /** Enter in an empty box: no scanner sends that, so it is a person's key press. */
  onEmptyEnter?: () => void;
  /**
   * Empty the box after each scan (an uncontrolled input, like the pack screen's). Without it the
   * text is selected, so the next scan replaces it instead of being appended to it.
   */
  clearAfterScan?: boolean;
}

/**
 * The scan reader for one input: its `onKeyDown` ends a scan on Enter. Give the input's `onChange`
 * stripControlCharacters too, so what a scanner types around its code never shows in the box.
 */
export function useScanReader(handlers: ScanReaderHandlers) {
  const memory = useRef<{ last: LastScan | null }>({ last: null });
  const latest = useRef(handlers);
  latest.current = handlers;

  const onKeyDown = useCallback((event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    event.preventDefault();
    const input = event.currentTarget;
    const verdict = judgeScan(memory.current, input.value, performance.now());
    if (verdict.kind === 'empty') latest.current.onEmptyEnter?.();
    else if (verdict.kind === 'repeat') latest.current.onRepeat?.(verdict.code);
    else latest.current.onScan(verdict.code);
    if (latest.current.clearAfterScan) input.value = '';
    else input.select();
  }, []);

  return { onKeyDown };
}

/**
 * The records whose key (reference, order number) is exactly the scanned `code`; when none is, the
 * ones equal to it ignoring case. A scan never means a record it is only a part of.
 */
export function exactMatches<T>(found: readonly T[], code: string, keyOf: (item: T) => string): T[] {
  const exact = found.filter((item) => keyOf(item) === code);
  if (exact.length) return exact;
  const folded = code.toLowerCase();
  return found.filter((item) => keyOf(item).toLowerCase() === folded);
}

/**
 * The one record a search box's Enter opens among what its search found (`total` in all): the only
 * one found, else the only exact match (1001 also finds 10010). Null when none or several are: the
 * list shows them. (Keys need not be unique: two channels may share an order number.)
 */
export function scanMatch<T>(found: readonly T[], total: number, code: string, keyOf: (item: T) => string): T | null {
  if (total === 1 && found.length === 1) return found[0] ?? null;
  const exact = exactMatches(found, code, keyOf);
  return exact.length === 1 ? (exact[0] ?? null) : null;
}
