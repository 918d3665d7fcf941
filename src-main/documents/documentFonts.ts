import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import type { PDFDocument, PDFFont } from 'pdf-lib';
import { fontkitLib, pdfLib } from '../platform/lazyLibraries';
import { TrueTypeSubset, TrueTypeTables } from './trueTypeSubset';

/**
 * The fonts of the PDF labels and shipping papers, chosen once per document: Helvetica, one of the
 * PDF's standard fonts (nothing embedded, the fast path), when WinAnsi can show every character of
 * the document; otherwise DejaVu Sans, subset-embedded, so a receiver in Łódź, Αθήνα or Київ is
 * printed as written. Layout measures with the same font the document draws with.
 */
export interface DocumentFonts {
  readonly kind: 'standard' | 'unicode';
  /** For measuring only: these belong to a scratch document, never to one being drawn. */
  readonly regular: PDFFont;
  readonly bold: PDFFont;
  /** The code points both weights can show; anything else is replaced (`toCharacterSet`) before measuring and drawing. */
  readonly characters: ReadonlySet<number>;
  /** Adds the two weights to a document that is being drawn. */
  embed(doc: PDFDocument): Promise<{ regular: PDFFont; bold: PDFFont }>;
}

export const FONT_FILES = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' } as const;

/**
 * Where the font files are. Run from source (tsx, vitest) they sit beside this module. The built app
 * bundles this module into out/main, so there they are found from the app root, as the migrations
 * are (electron-builder.yml packs src-main/documents/fonts; Electron reads inside the asar archive).
 */
export function fontFolder(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'fonts')];
  // out/main/index.js or out/main/chunks/*.js: the app root is two or three levels up.
  for (let dir = here, level = 0; level < 4; dir = dirname(dir), level += 1) candidates.push(join(dir, 'src-main', 'documents', 'fonts'));
  return candidates.find((folder) => existsSync(join(folder, FONT_FILES.regular)) && existsSync(join(folder, FONT_FILES.bold)));
}

/** Control characters (a pasted newline, a tab) would break a line or a ZPL field: make them spaces. */
export function cleanText(text: string): string {
  return (
    text
      .normalize('NFC')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
      .trim()
  );
}

/**
 * What a font can show of a text. A letter with an accent it lacks falls back to the bare letter
 * ("ź" → "z" in Helvetica); anything else (Chinese, emoji) becomes "?" instead of making pdf-lib
 * throw or drawing an empty box.
 */
export function toCharacterSet(text: string, characters: ReadonlySet<number>): string {
  let out = '';
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0x3f;
    if (characters.has(codePoint)) {
      out += char;
      continue;
    }
    if (codePoint >= 0x300 && codePoint <= 0x36f) continue; // a lone combining accent
    const base = char.normalize('NFD').charAt(0);
    out += base !== char && characters.has(base.codePointAt(0) ?? 0) ? base : '?';
  }
  return out;
}

let standardPromise: Promise<DocumentFonts> | undefined;

/** Helvetica and Helvetica Bold: WinAnsi only, and nothing to embed. Loaded once. */
export function standardFonts(): Promise<DocumentFonts> {
  standardPromise ??= (async () => {
    const { PDFDocument, StandardFonts } = pdfLib();
    const scratch = await PDFDocument.create({ updateMetadata: false });
    const regular = await scratch.embedFont(StandardFonts.Helvetica);
    const bold = await scratch.embedFont(StandardFonts.HelveticaBold);
    return {
      kind: 'standard',
      regular,
      bold,
      characters: new Set(regular.getCharacterSet()),
      embed: async (doc) => ({ regular: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold) }),
    };
  })();
  return standardPromise;
}

type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];
type Font = ReturnType<Fontkit['create']>;
type Glyph = ReturnType<Font['glyphForCodePoint']>;
type Subset = ReturnType<Font['createSubset']>;
type SubsetStream = ReturnType<Subset['encodeStream']>;

/**
 * Scripts written right to left (Hebrew, Arabic) need reordering and, for Arabic, joined letter
 * forms, which our layout does not do: they stay "?" rather than print backwards or unjoined.
 */
function isRightToLeft(codePoint: number): boolean {
  return (
    (codePoint >= 0x0590 && codePoint <= 0x08ff) ||
    (codePoint >= 0xfb1d && codePoint <= 0xfdff) ||
    (codePoint >= 0xfe70 && codePoint <= 0xfeff) ||
    (codePoint >= 0x10800 && codePoint <= 0x10fff) ||
    (codePoint >= 0x1e800 && codePoint <= 0x1efff)
  );
}

/**
 * Parses a font file once for the whole process. Every document embeds the same parsed font (its
 * subset is the document's own), which saves re-reading the tables for each label. Two of fontkit's
 * methods are replaced, because a label must not cost ten WinAnsi labels:
 *
 * - `layout` is one glyph per code point from the font's cmap, with its advance width. That is what
 *   pdf-lib draws anyway (it writes glyph ids and ignores fontkit's positioning), it is right for
 *   Latin, Greek and Cyrillic, and it costs a hundredth of fontkit's shaper (0.2 ms per line). It
 *   also keeps ligatures out ("ﬁ" would break a text search).
 * - `createSubset` is trueTypeSubset.ts, which copies glyph bytes instead of re-encoding tables.
 */
function parseFont(bytes: Uint8Array): Font {
  const font = fontkitLib().create(bytes);
  const tables = new TrueTypeTables(bytes);
  font.createSubset = (): Subset => {
    const subset = new TrueTypeSubset(tables);
    return { includeGlyph: (glyph) => subset.includeGlyph(glyph), encodeStream: () => subsetStream(() => subset.encode()) };
  };
  const glyphs = new Map<number, Glyph>();
  const glyphOf = (char: string): Glyph => {
    const codePoint = char.codePointAt(0) ?? 0x3f;
    let glyph = glyphs.get(codePoint);
    if (!glyph) {
      glyph = font.glyphForCodePoint(codePoint);
      // A glyph fontkit made by its id first (fontkit's own subsetter does, for the S of Š) has no
      // code point, and the text layer (ToUnicode) of every later document would lose it.
      if (glyph.codePoints.length === 0) glyph.codePoints.push(codePoint);
      glyphs.set(codePoint, glyph);
    }
    return glyph;
  };
  // pdf-lib reads only the glyphs of a layout (PDFFont.widthOfTextAtSize, encodeText).
  font.layout = ((text: string) => ({ glyphs: Array.from(text, glyphOf) })) as unknown as Font['layout'];
  return font;
}

/** What pdf-lib reads a subset from: one 'data', then 'end' (or 'error'), once it has listened. */
function subsetStream(encode: () => Uint8Array): SubsetStream {
  const listeners = new Map<string, (value?: unknown) => unknown>();
  const stream = {
    on(event: string, listener: (value?: unknown) => unknown) {
      listeners.set(event, listener);
      return stream;
    },
  };
  queueMicrotask(() => {
    try {
      listeners.get('data')?.(encode());
      listeners.get('end')?.();
    } catch (error) {
      listeners.get('error')?.(error);
    }
  });
  return stream as SubsetStream;
}

let unicodePromise: Promise<DocumentFonts> | undefined;

/** DejaVu Sans and DejaVu Sans Bold, read and parsed on first use. Rejects when the files are missing. */
export function unicodeFonts(): Promise<DocumentFonts> {
  unicodePromise ??= (async () => {
    const folder = fontFolder();
    if (!folder)
      throw new Error(
        `${FONT_FILES.regular} and ${FONT_FILES.bold} were not found beside ${fileURLToPath(import.meta.url)} nor under the app's src-main/documents/fonts.`,
      );
    const regularBytes = new Uint8Array(readFileSync(join(folder, FONT_FILES.regular)));
    const boldBytes = new Uint8Array(readFileSync(join(folder, FONT_FILES.bold)));
    const parsed = new Map<Uint8Array, Font>([
      [regularBytes, parseFont(regularBytes)],
      [boldBytes, parseFont(boldBytes)],
    ]);
    const sharedFontkit: Fontkit = {
      create: (bytes) => {
        const font = parsed.get(bytes);
        if (!font) throw new Error('Only the bundled Unicode fonts are embedded.');
        return font;
      },
    };
    const embed = async (doc: PDFDocument) => {
      doc.registerFontkit(sharedFontkit);
      // pdf-lib compresses the font and its ToUnicode map with pako, in JavaScript; with zlib, which
      // is native (and what the label's own content stream uses), a label takes half the time.
      const { typedArrayFor } = pdfLib();
      doc.context.flateStream = (contents, dict = {}) => doc.context.stream(deflateSync(typedArrayFor(contents)), { ...dict, Filter: 'FlateDecode' });
      return { regular: await doc.embedFont(regularBytes, { subset: true }), bold: await doc.embedFont(boldBytes, { subset: true }) };
    };
    const { regular, bold } = await embed(await pdfLib().PDFDocument.create({ updateMetadata: false }));
    const boldCharacters = new Set(bold.getCharacterSet());
    const characters = new Set(regular.getCharacterSet().filter((codePoint) => boldCharacters.has(codePoint) && !isRightToLeft(codePoint)));
    return { kind: 'unicode', regular, bold, characters, embed };
  })();
  return unicodePromise;
}

let missingFontReported = false;

/**
 * The one font decision of a document, from every string in its data (however deep): Helvetica,
 * unless some character WinAnsi lacks is one the Unicode font has. A text whose only strangers are
 * ones neither font has (Chinese, most emoji) stays on the fast path. If the font files are missing
 * (a broken install), the document is still made, with Helvetica's replacements, and that is said once.
 */
export async function fontsFor(data: unknown): Promise<DocumentFonts> {
  const standard = await standardFonts();
  const missing = charactersMissingFrom(data, standard.characters);
  if (missing.size === 0) return standard;
  let unicode: DocumentFonts;
  try {
    unicode = await unicodeFonts();
  } catch (error) {
    if (!missingFontReported) {
      missingFontReported = true;
      console.warn(`PDF labels and papers fall back to Helvetica, so letters outside WinAnsi print as "?": ${String(error)}`);
    }
    return standard;
  }
  for (const codePoint of missing) if (unicode.characters.has(codePoint)) return unicode;
  return standard;
}

/** The code points of the strings in `data` that `characters` lacks, as the documents will clean them. */
function charactersMissingFrom(data: unknown, characters: ReadonlySet<number>): Set<number> {
  const missing = new Set<number>();
  const pending: unknown[] = [data];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      // Printable ASCII is in every font: most strings stop here.
      if (/^[\x20-\x7e]*$/.test(value)) continue;
      for (const char of cleanText(value)) {
        const codePoint = char.codePointAt(0) ?? 0;
        if (!characters.has(codePoint)) missing.add(codePoint);
      }
    } else if (Array.isArray(value)) {
      for (const item of value as unknown[]) pending.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const item of Object.values(value)) pending.push(item);
    }
  }
  return missing;
}
