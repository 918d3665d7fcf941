/**
 * The notes under a field: its hint, a warning and its error. A hint the error repeats word for
 * word ("At least 8 characters" under the setup screen's password, refused for being short) is
 * left out, so the words are said once, as the error.
 */
export function fieldNotes(notes: { hint?: string | undefined; warning?: string | undefined; error?: string | undefined }) {
  const same = (a: string | undefined, b: string | undefined) => !!a && !!b && a.trim().toLowerCase() === b.trim().toLowerCase();
  return {
    hint: same(notes.hint, notes.error) ? undefined : notes.hint,
    warning: same(notes.warning, notes.error) ? undefined : notes.warning,
    error: notes.error,
  };
}
