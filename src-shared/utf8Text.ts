/**
 * Bytes read as UTF-8 text, or the line where they stop being UTF-8. Every place that turns a file
 * or a request body into text (the HTTP parsers, the CLI's `orders import`, the app's import
 * screen) decodes with this rather than with replacement: replacement turned the "ø" of a
 * Windows-1252 file into "\ufffd", and what a 2xx answered was then not what the file said
 * (decisions §1). A leading byte-order mark is dropped, as the readers after it always allowed.
 */
export type Utf8Decoding = { ok: true; text: string } | { ok: false; line: number };

const LINE_FEED = 0x0a;

export function decodeUtf8(bytes: Uint8Array): Utf8Decoding {
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, line: firstBadLine(bytes) };
  }
}

/**
 * The 1-based line of the first byte that is not UTF-8. A line feed byte never occurs inside a
 * multi-byte UTF-8 character, so each line can be checked on its own; one pass over the bytes.
 */
function firstBadLine(bytes: Uint8Array): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let line = 1;
  let start = 0;
  while (start <= bytes.length) {
    const end = bytes.indexOf(LINE_FEED, start);
    const stop = end === -1 ? bytes.length : end;
    try {
      decoder.decode(bytes.subarray(start, stop));
    } catch {
      return line;
    }
    if (end === -1) break;
    line += 1;
    start = end + 1;
  }
  return line;
}

/** What a CSV file that is not UTF-8 is answered with, in the words a spreadsheet user acts on. */
export function csvNotUtf8Message(line: number): string {
  return `The CSV file is not UTF-8 text (line ${line} has a character that cannot be read); save it as "CSV UTF-8" in Excel, or as UTF-8 in other programs`;
}
