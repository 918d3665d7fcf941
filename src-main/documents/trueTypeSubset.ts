/**
 * A TrueType font cut down to the glyphs one document uses, for embedding in a PDF (a FontFile2 of
 * a CIDFontType2 font, which needs only head, hhea, maxp, loca, glyf and hmtx). fontkit can do this
 * too, but its table encoder took 6 ms for a label's 50 glyphs, ten times the whole WinAnsi label;
 * this copies glyph bytes and takes a fraction of a millisecond.
 *
 * Hinting (the glyph programs and the fpgm, prep and cvt tables) is left out: it matters only to
 * screens at small pixel sizes, not to a label printer, and it was half of the bytes.
 */

export class TrueTypeTables {
  private readonly view: DataView;
  private readonly tables = new Map<string, { offset: number; length: number }>();
  /** Byte offsets of each glyph in glyf, numGlyphs + 1 entries. */
  private readonly loca: Uint32Array;
  private readonly numberOfHMetrics: number;
  readonly numGlyphs: number;

  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const numTables = this.view.getUint16(4);
    for (let i = 0; i < numTables; i++) {
      const entry = 12 + i * 16;
      const tag = String.fromCharCode(bytes[entry]!, bytes[entry + 1]!, bytes[entry + 2]!, bytes[entry + 3]!);
      this.tables.set(tag, { offset: this.view.getUint32(entry + 8), length: this.view.getUint32(entry + 12) });
    }
    for (const tag of ['head', 'hhea', 'maxp', 'loca', 'glyf', 'hmtx']) {
      if (!this.tables.has(tag)) throw new Error(`Not a TrueType font with glyf outlines: no ${tag} table.`);
    }
    this.numGlyphs = this.view.getUint16(this.table('maxp').offset + 4);
    this.numberOfHMetrics = this.view.getUint16(this.table('hhea').offset + 34);
    const longOffsets = this.view.getInt16(this.table('head').offset + 50) === 1;
    const locaAt = this.table('loca').offset;
    this.loca = new Uint32Array(this.numGlyphs + 1);
    for (let gid = 0; gid <= this.numGlyphs; gid++) {
      this.loca[gid] = longOffsets ? this.view.getUint32(locaAt + gid * 4) : this.view.getUint16(locaAt + gid * 2) * 2;
    }
  }

  table(tag: string): { offset: number; length: number } {
    const table = this.tables.get(tag);
    if (!table) throw new Error(`No ${tag} table.`);
    return table;
  }

  tableBytes(tag: string): Uint8Array {
    const { offset, length } = this.table(tag);
    return this.bytes.subarray(offset, offset + length);
  }

  /** The glyph's outline as stored (empty for a glyph with no outline, such as the space). */
  glyphBytes(gid: number): Uint8Array {
    const glyf = this.table('glyf').offset;
    return this.bytes.subarray(glyf + this.loca[gid]!, glyf + this.loca[gid + 1]!);
  }

  advanceWidth(gid: number): number {
    const hmtx = this.table('hmtx').offset;
    return this.view.getUint16(hmtx + 4 * Math.min(gid, this.numberOfHMetrics - 1));
  }

  leftSideBearing(gid: number): number {
    const hmtx = this.table('hmtx').offset;
    return gid < this.numberOfHMetrics
      ? this.view.getInt16(hmtx + 4 * gid + 2)
      : this.view.getInt16(hmtx + 4 * this.numberOfHMetrics + 2 * (gid - this.numberOfHMetrics));
  }
}

// Composite glyph flags (OpenType glyf table).
const ARG_1_AND_2_ARE_WORDS = 0x0001;
const WE_HAVE_A_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const WE_HAVE_AN_X_AND_Y_SCALE = 0x0040;
const WE_HAVE_A_TWO_BY_TWO = 0x0080;
const WE_HAVE_INSTRUCTIONS = 0x0100;

/**
 * One document's subset. New glyph ids are given in the order glyphs are included, after .notdef
 * (0); the parts of an accented letter drawn from other glyphs (S and ˇ of Š) are added when the
 * font is written, and their ids rewritten in the letter.
 */
export class TrueTypeSubset {
  private readonly oldIds: number[] = [0];
  private readonly newIds = new Map<number, number>([[0, 0]]);

  constructor(private readonly source: TrueTypeTables) {}

  /** The glyph's id in the subset. */
  includeGlyph(glyph: number | { id: number }): number {
    const gid = typeof glyph === 'number' ? glyph : glyph.id;
    if (gid < 0 || gid >= this.source.numGlyphs) throw new Error(`No glyph ${gid} in the font.`);
    let id = this.newIds.get(gid);
    if (id === undefined) {
      id = this.oldIds.length;
      this.oldIds.push(gid);
      this.newIds.set(gid, id);
    }
    return id;
  }

  /** The subset as a TrueType font file. */
  encode(): Uint8Array {
    const outlines: Uint8Array[] = [];
    // The list grows while it is walked: a composite glyph includes its components.
    for (let i = 0; i < this.oldIds.length; i++) outlines.push(this.outline(this.oldIds[i]!));
    const count = outlines.length;

    const locaBytes = new Uint8Array((count + 1) * 4);
    const loca = new DataView(locaBytes.buffer);
    let glyfLength = 0;
    outlines.forEach((outline, i) => {
      loca.setUint32(i * 4, glyfLength);
      glyfLength += pad4(outline.length);
    });
    loca.setUint32(count * 4, glyfLength);
    const glyf = new Uint8Array(glyfLength);
    let at = 0;
    for (const outline of outlines) {
      glyf.set(outline, at);
      at += pad4(outline.length);
    }

    const hmtxBytes = new Uint8Array(count * 4);
    const hmtx = new DataView(hmtxBytes.buffer);
    this.oldIds.forEach((gid, i) => {
      hmtx.setUint16(i * 4, this.source.advanceWidth(gid));
      hmtx.setInt16(i * 4 + 2, this.source.leftSideBearing(gid));
    });

    const head = this.source.tableBytes('head').slice();
    const headView = new DataView(head.buffer);
    headView.setUint32(8, 0); // checkSumAdjustment, set below once the whole file is known
    headView.setInt16(50, 1); // long loca offsets
    const hhea = this.source.tableBytes('hhea').slice();
    new DataView(hhea.buffer).setUint16(34, count); // numberOfHMetrics: every glyph has its own
    const maxp = this.source.tableBytes('maxp').slice();
    new DataView(maxp.buffer).setUint16(4, count); // numGlyphs

    return writeFont([
      ['glyf', glyf],
      ['head', head],
      ['hhea', hhea],
      ['hmtx', hmtxBytes],
      ['loca', locaBytes],
      ['maxp', maxp],
    ]);
  }

  /** A glyph's outline without its hinting program, with a composite's component ids rewritten. */
  private outline(gid: number): Uint8Array {
    const stored = this.source.glyphBytes(gid);
    if (stored.length < 10) return new Uint8Array(0);
    const view = new DataView(stored.buffer, stored.byteOffset, stored.byteLength);
    const contours = view.getInt16(0);
    if (contours >= 0) {
      // Header, end points of contours, then the instruction length and the instructions: dropped.
      const lengthAt = 10 + 2 * contours;
      const instructions = view.getUint16(lengthAt);
      const outline = new Uint8Array(stored.length - instructions);
      outline.set(stored.subarray(0, lengthAt));
      // The instruction length stays 0 (the new array is zeroed); flags and points follow.
      outline.set(stored.subarray(lengthAt + 2 + instructions), lengthAt + 2);
      return outline;
    }
    const outline = stored.slice();
    const out = new DataView(outline.buffer);
    let at = 10;
    let flags: number;
    do {
      flags = out.getUint16(at);
      out.setUint16(at, flags & ~WE_HAVE_INSTRUCTIONS);
      out.setUint16(at + 2, this.includeGlyph(out.getUint16(at + 2)));
      at += 4 + (flags & ARG_1_AND_2_ARE_WORDS ? 4 : 2);
      if (flags & WE_HAVE_A_SCALE) at += 2;
      else if (flags & WE_HAVE_AN_X_AND_Y_SCALE) at += 4;
      else if (flags & WE_HAVE_A_TWO_BY_TWO) at += 8;
    } while (flags & MORE_COMPONENTS);
    return outline.subarray(0, at);
  }
}

const pad4 = (length: number) => (length + 3) & ~3;

/** The sum of a block as big-endian 32-bit words, zero-padded to a multiple of four bytes. */
function checksum(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let sum = 0;
  const whole = bytes.length & ~3;
  for (let at = 0; at < whole; at += 4) sum = (sum + view.getUint32(at)) >>> 0;
  if (whole < bytes.length) {
    let last = 0;
    for (let at = whole; at < whole + 4; at++) last = (last << 8) | (bytes[at] ?? 0);
    sum = (sum + (last >>> 0)) >>> 0;
  }
  return sum;
}

/** An sfnt file of the given tables, which must be in tag order; head's checkSumAdjustment must be 0. */
function writeFont(tables: readonly (readonly [string, Uint8Array])[]): Uint8Array {
  const count = tables.length;
  const headerLength = 12 + 16 * count;
  const length = headerLength + tables.reduce((sum, [, data]) => sum + pad4(data.length), 0);
  const font = new Uint8Array(length);
  const view = new DataView(font.buffer);
  const entrySelector = Math.floor(Math.log2(count));
  const searchRange = 2 ** entrySelector * 16;
  view.setUint32(0, 0x00010000);
  view.setUint16(4, count);
  view.setUint16(6, searchRange);
  view.setUint16(8, entrySelector);
  view.setUint16(10, count * 16 - searchRange);
  let offset = headerLength;
  let headOffset: number | undefined;
  tables.forEach(([tag, data], i) => {
    const entry = 12 + i * 16;
    for (let c = 0; c < 4; c++) font[entry + c] = tag.charCodeAt(c);
    view.setUint32(entry + 4, checksum(data));
    view.setUint32(entry + 8, offset);
    view.setUint32(entry + 12, data.length);
    font.set(data, offset);
    if (tag === 'head') headOffset = offset;
    offset += pad4(data.length);
  });
  if (headOffset !== undefined) view.setUint32(headOffset + 8, (0xb1b0afba - checksum(font)) >>> 0);
  return font;
}
