/**
 * The most fields one object of a JSON body may have. No operation takes more than a few dozen, and
 * an open object (a carrier's parameters, customs data) holds a few; a thousand is only an attack.
 */
export const MAX_OBJECT_FIELDS = 1000;

/** Below this size no object can have more than MAX_OBJECT_FIELDS fields (each takes 4 bytes at least). */
const SCAN_FROM_LENGTH = 4 * MAX_OBJECT_FIELDS;

/**
 * Whether some object in this JSON text has more than `limit` fields, found in one pass over the
 * characters without building anything. JSON.parse builds such an object slowly (80 000 fields in
 * 1 MB: 100–150 ms here), on the one thread every request shares, so it is refused before parsing
 * (decisions §1, "Bounded work"). Malformed text is left for the parser to refuse.
 */
export function hasCrowdedObject(text: string, limit = MAX_OBJECT_FIELDS): boolean {
  if (text.length < SCAN_FROM_LENGTH) return false;
  // Per open container: the fields seen so far, or -1 for an array.
  const fields: number[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (char === 0x22) inString = false;
      continue;
    }
    if (char === 0x22) inString = true;
    else if (char === 0x7b) fields.push(0);
    else if (char === 0x5b) fields.push(-1);
    else if (char === 0x7d || char === 0x5d) fields.pop();
    else if (char === 0x3a) {
      const count = fields.at(-1);
      if (count !== undefined && count >= 0) {
        if (count + 1 > limit) return true;
        fields[fields.length - 1] = count + 1;
      }
    }
  }
  return false;
}
