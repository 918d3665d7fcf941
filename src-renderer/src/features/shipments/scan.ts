/** A keyboard-wedge scanner may type control characters (GS, CR); they never belong in a reference. */
export function stripControlCharacters(value: string): string {
  return [...value].filter((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f).join('');
}
