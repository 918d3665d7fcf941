import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import { describe, expect, it } from 'vitest';
import { FONT_FILES, fontFolder } from './documentFonts';
import { TrueTypeSubset, TrueTypeTables } from './trueTypeSubset';

const bytes = new Uint8Array(readFileSync(join(fontFolder() as string, FONT_FILES.regular)));
const original = fontkit.create(bytes);
const tables = new TrueTypeTables(bytes);

function subsetOf(text: string): { subset: TrueTypeSubset; ids: Map<string, number>; encoded: Uint8Array } {
  const subset = new TrueTypeSubset(tables);
  const ids = new Map<string, number>();
  for (const char of text) ids.set(char, subset.includeGlyph(original.glyphForCodePoint(char.codePointAt(0) ?? 0)));
  return { subset, ids, encoded: subset.encode() };
}

function sum32(data: Uint8Array): number {
  const padded = new Uint8Array((data.length + 3) & ~3);
  padded.set(data);
  const view = new DataView(padded.buffer);
  let sum = 0;
  for (let at = 0; at < padded.length; at += 4) sum = (sum + view.getUint32(at)) >>> 0;
  return sum;
}

describe('TrueTypeSubset', () => {
  it('numbers glyphs in the order they are included, after .notdef, each once', () => {
    const subset = new TrueTypeSubset(tables);
    const a = original.glyphForCodePoint(0x41);
    expect(subset.includeGlyph(a)).toBe(1);
    expect(subset.includeGlyph(original.glyphForCodePoint(0x416))).toBe(2);
    expect(subset.includeGlyph(a.id)).toBe(1);
    expect(subset.includeGlyph(0)).toBe(0);
    expect(() => subset.includeGlyph(tables.numGlyphs)).toThrow();
  });

  it('draws every included glyph exactly as the full font does, accented letters included', () => {
    const text = 'AaŠŽžłŁóźĆΑθήКиївЖ…?';
    const { ids, encoded } = subsetOf(text);
    const font = fontkit.create(encoded);
    for (const [char, id] of ids) {
      const full = original.glyphForCodePoint(char.codePointAt(0) ?? 0);
      const cut = font.getGlyph(id);
      expect(cut.path.toSVG(), char).toBe(full.path.toSVG());
      expect(cut.advanceWidth, char).toBe(full.advanceWidth);
    }
    // Š is built from S and a caron: the parts came along, so the subset has more glyphs than letters.
    expect(font.numGlyphs).toBeGreaterThan(ids.size + 1);
    expect(font.unitsPerEm).toBe(original.unitsPerEm);
  });

  it('writes a well-formed font: table checksums and the whole-file checksum hold, hinting left out', () => {
    const { encoded } = subsetOf('Łódź Київ');
    const view = new DataView(encoded.buffer, encoded.byteOffset, encoded.byteLength);
    const count = view.getUint16(4);
    const tags: string[] = [];
    for (let i = 0; i < count; i++) {
      const entry = 12 + i * 16;
      const tag = String.fromCharCode(...encoded.subarray(entry, entry + 4));
      tags.push(tag);
      const offset = view.getUint32(entry + 8);
      expect(offset % 4).toBe(0);
      const data = encoded.slice(offset, offset + view.getUint32(entry + 12));
      if (tag === 'head') new DataView(data.buffer).setUint32(8, 0);
      expect(view.getUint32(entry + 4), tag).toBe(sum32(data));
    }
    expect(tags).toEqual(['glyf', 'head', 'hhea', 'hmtx', 'loca', 'maxp']);
    expect(sum32(encoded)).toBe(0xb1b0afba);
    // Hinting was about half of the bytes; this subset is well under the full font's size.
    expect(encoded.length).toBeLessThan(6000);
  });
});
