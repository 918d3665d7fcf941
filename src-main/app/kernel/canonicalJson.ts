/** JSON.stringify replacer writing every object's keys in sorted order; arrays keep theirs. */
function sortedKeys(_key: string, value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * JSON with every object's keys sorted, so two values that differ only in key order (a client that
 * builds its JSON anew) give the same text. Throws as JSON.stringify does on values nested too deep.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, sortedKeys);
}
