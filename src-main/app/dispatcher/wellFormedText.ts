import { MAX_DETAILS, type ErrorDetail } from '../../../src-shared/errors';

/**
 * A lone UTF-16 surrogate (`"x\ud800y"` as a JSON escape, or a string handed over IPC). In unicode
 * mode a regular expression reads a string by code points, so a proper pair (an emoji) is one code
 * point outside this class and only unpaired halves match. `String.prototype.isWellFormed` says the
 * same faster; it is ES2024 (this project's TypeScript lib is ES2023), so it is looked up and the
 * expression is the fallback.
 */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const LONE_SURROGATES = /[\uD800-\uDFFF]/gu;
const nativeIsWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;
/** The native check where there is one (Node 22, Chromium): several times faster than the expression. */
const wellFormed: (text: string) => boolean = nativeIsWellFormed ? (text) => nativeIsWellFormed.call(text) : (text) => !LONE_SURROGATE.test(text);

/**
 * Whether every string and key of `value` is well formed: the common case, answered by a walk that
 * allocates nothing but its stack, so an ordinary or a huge body pays little for the check.
 */
function allWellFormed(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (!wellFormed(item)) return false;
    } else if (Array.isArray(item)) {
      for (const element of item) pending.push(element);
    } else if (item !== null && typeof item === 'object') {
      for (const key in item) {
        if (!Object.hasOwn(item, key)) continue;
        if (!wellFormed(key)) return false;
        pending.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return true;
}

export const NOT_UNICODE_MESSAGE = 'Contains a character that is not valid Unicode (an unpaired surrogate such as \\ud800); it cannot be stored as sent';

/** A key shown in a path with its unpaired surrogates written as escapes, so the path itself reads. */
function shownKey(key: string): string {
  return key.replace(LONE_SURROGATES, (half) => `\\u${half.charCodeAt(0).toString(16)}`);
}

/** Marks a key that is itself not well formed (its value is not walked: the field is refused anyway). */
const BAD_KEY = Symbol('badKey');

/** A place in the input: its key and its parent, so a path is only spelled out for a problem. */
interface Place {
  parent: Place | null;
  key: string;
}

function pathOf(place: Place): string {
  const keys: string[] = [];
  for (let at: Place | null = place; at; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
}

/**
 * Every string of a call's input, object keys included, that SQLite could not store as it is:
 * SQLite keeps UTF-8, which has no unpaired surrogates, so a create would answer "x\ud800y" and
 * read back "x\ufffdy" (decisions §1: what a 2xx answers is what is stored). One linear walk with
 * its own stack (a deeply nested body cannot overflow the call stack, and paths are spelled out only
 * for problems, so depth costs nothing), stopping at MAX_DETAILS.
 */
export function notWellFormedText(where: string, value: unknown): ErrorDetail[] {
  if (allWellFormed(value)) return [];
  const problems: ErrorDetail[] = [];
  const pending: { place: Place; value: unknown }[] = [{ place: { parent: null, key: where }, value }];
  while (pending.length > 0 && problems.length < MAX_DETAILS) {
    const { place, value: item } = pending.pop() as { place: Place; value: unknown };
    if (typeof item === 'string') {
      if (!wellFormed(item)) problems.push({ path: pathOf(place), message: NOT_UNICODE_MESSAGE });
    } else if (Array.isArray(item)) {
      // Pushed in reverse so the problems come out in the input's order.
      for (let index = item.length - 1; index >= 0; index--) pending.push({ place: { parent: place, key: String(index) }, value: item[index] });
    } else if (item !== null && typeof item === 'object') {
      const keys = Object.keys(item);
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index] as string;
        const bad = !wellFormed(key);
        const child = { parent: place, key: bad ? shownKey(key) : key };
        // A bad key is reported as a string value would be, at its own path, before its value is looked at.
        pending.push(bad ? { place: child, value: BAD_KEY } : { place: child, value: (item as Record<string, unknown>)[key] });
      }
    } else if (item === BAD_KEY) {
      problems.push({ path: pathOf(place), message: `The field name ${NOT_UNICODE_MESSAGE.charAt(0).toLowerCase()}${NOT_UNICODE_MESSAGE.slice(1)}` });
    }
  }
  return problems;
}
