import { deflateSync } from 'node:zlib';
import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { bwipJs, pdfLib } from '../platform/lazyLibraries';
import type { LabelSize } from '../../src-shared/schemas/carrier';
import { cleanText, toCharacterSet, type DocumentFonts } from './documentFonts';
import { POINTS_PER_MM, ZPL_DOTS_PER_MM, labelDimensions } from './labelSizes';

/**
 * Draws a laid-out label page as PDF or as ZPL for a 203 dpi thermal printer. The layout (label.ts
 * for shipping labels, testLabel.ts for a printer's test label) decides every position in points
 * from the top-left corner; this module only draws it, so both formats show the same page.
 */

export type LabelRenderErrorCode = 'LABEL_TRACKING_NUMBER_INVALID' | 'LABEL_BARCODE_FAILED';

export class LabelRenderError extends Error {
  constructor(
    readonly code: LabelRenderErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'LabelRenderError';
  }
}

export interface TextItem {
  text: string;
  bold: boolean;
  /** Font size in points. */
  size: number;
  /** Left edge of the box the text is aligned in, points from the left. */
  x: number;
  /** Top of the text, points from the top. */
  top: number;
  /** Width of the alignment box. */
  width: number;
  align: 'left' | 'right' | 'center';
  /** The printer draws this text itself in ZPL (the barcode's interpretation line). */
  pdfOnly?: boolean;
}

/** A filled rectangle: a rule across the label, or one side of a frame. */
export interface BoxItem {
  x: number;
  top: number;
  width: number;
  height: number;
}

export interface BarcodeItem {
  data: string;
  /** Alternating bar and space widths in modules, starting with a bar (quiet zones excluded). */
  bars: readonly number[];
  /** Module count of the symbol alone. */
  symbolModules: number;
  /** Left edge of the quiet zone in points. */
  x: number;
  top: number;
  height: number;
  moduleWidth: number;
}

export interface Layout {
  size: LabelSize;
  /** The fonts the texts were measured with, and are drawn with. */
  fonts: DocumentFonts;
  texts: TextItem[];
  boxes: BoxItem[];
  barcode: BarcodeItem;
}

export const ELLIPSIS = '\u2026';

export function textWidth(fonts: DocumentFonts, text: string, bold: boolean, fontSize: number): number {
  return (bold ? fonts.bold : fonts.regular).widthOfTextAtSize(toCharacterSet(text, fonts.characters), fontSize);
}

/** Shrinks the text to at most 75% of `fontSize` to fit `maxWidth`, then cuts it with an ellipsis. */
export function fitText(fonts: DocumentFonts, raw: string, bold: boolean, fontSize: number, maxWidth: number): { text: string; fontSize: number } {
  const text = cleanText(raw);
  const full = textWidth(fonts, text, bold, fontSize);
  if (full <= maxWidth) return { text, fontSize };
  const size = Math.max(fontSize * 0.75, (fontSize * maxWidth) / full);
  const chars = Array.from(text);
  // Start from a proportional guess so a pasted novel costs a few measurements, not thousands.
  let cut = Math.min(chars.length, Math.ceil((chars.length * maxWidth) / textWidth(fonts, text, bold, size)) + 2);
  let fitted = chars.slice(0, cut).join('');
  while (cut > 0 && textWidth(fonts, fitted, bold, size) > maxWidth) {
    cut -= 1;
    fitted = chars.slice(0, cut).join('').trimEnd() + ELLIPSIS;
  }
  return { text: fitted, fontSize: size };
}

/**
 * Breaks text at spaces over at most `maxLines` lines at full size; only the last line shrinks and is
 * cut as fitText does. A long street or company name on a label is read, not guessed from a stump.
 */
export function wrapText(
  fonts: DocumentFonts,
  raw: string,
  bold: boolean,
  fontSize: number,
  maxWidth: number,
  maxLines: number,
): { text: string; fontSize: number }[] {
  const lines: { text: string; fontSize: number }[] = [];
  let rest = cleanText(raw);
  const fits = (text: string) => textWidth(fonts, text, bold, fontSize) <= maxWidth;
  while (lines.length < maxLines - 1 && !fits(rest)) {
    const words = rest.split(' ');
    let taken = 0;
    while (taken < words.length - 1 && fits(words.slice(0, taken + 1).join(' '))) taken += 1;
    // A first word wider than the line is shrunk and cut like any other text.
    if (taken === 0) break;
    lines.push({ text: words.slice(0, taken).join(' '), fontSize });
    rest = words.slice(taken).join(' ');
  }
  lines.push(fitText(fonts, rest, bold, fontSize, maxWidth));
  return lines;
}

/** Code 128 wants at least 10 modules of white either side. */
export const QUIET_MODULES = 10;

/** Bar and space widths from BWIPP's Code 128 encoder (subset choice and check digit are its job). */
export function encodeCode128(trackingNumber: string): number[] {
  if (!/^[\x20-\x7e]+$/.test(trackingNumber) || trackingNumber.trim() === '') {
    throw new LabelRenderError('LABEL_TRACKING_NUMBER_INVALID', `Tracking number ${JSON.stringify(trackingNumber)} is not printable ASCII.`);
  }
  let bars: number[] | undefined;
  try {
    const [symbol] = bwipJs().raw({ bcid: 'code128', text: trackingNumber });
    bars = symbol && 'sbs' in symbol ? symbol.sbs : undefined;
  } catch (error) {
    throw new LabelRenderError('LABEL_BARCODE_FAILED', `Code 128 of ${trackingNumber} failed: ${String(error)}`);
  }
  if (!bars?.length) throw new LabelRenderError('LABEL_BARCODE_FAILED', 'Code 128 gave no bars.');
  return bars;
}

// ---------------------------------------------------------------------------------------------
// PDF

export async function renderPdf(layout: Layout): Promise<Buffer> {
  const dimensions = labelDimensions[layout.size];
  const pageHeight = dimensions.heightPt;
  // No Info dictionary: producer and dates cost time on every label and nobody reads them.
  const doc = await pdfLib().PDFDocument.create({ updateMetadata: false });
  const { regular, bold } = await layout.fonts.embed(doc);
  const page = doc.addPage([dimensions.widthPt, dimensions.heightPt]);
  const fontKeys = new Map<PDFFont, string>([
    [regular, page.node.newFontDictionary('F', regular.ref).toString()],
    [bold, page.node.newFontDictionary('F', bold.ref).toString()],
  ]);

  // The content stream is written here rather than with page.drawText: the layout already decided
  // every position, and pdf-lib's per-call option checks and JavaScript deflate were a third of the time.
  const content: string[] = ['q', '0 g'];
  for (const item of layout.texts) {
    const font = item.bold ? bold : regular;
    const text = toCharacterSet(item.text, layout.fonts.characters);
    let x = item.x;
    if (item.align !== 'left') {
      const free = item.width - font.widthOfTextAtSize(text, item.size);
      x += item.align === 'right' ? free : free / 2;
    }
    // Helvetica's and DejaVu Sans's caps are about 0.72 em high: put the baseline so they start at `top`.
    const baseline = pageHeight - item.top - item.size * 0.76;
    content.push(`BT ${fontKeys.get(font)} ${num(item.size)} Tf ${num(x)} ${num(baseline)} Td ${font.encodeText(text).toString()} Tj ET`);
  }
  for (const box of layout.boxes) {
    content.push(`${num(box.x)} ${num(pageHeight - box.top - box.height)} ${num(box.width)} ${num(box.height)} re f`);
  }
  content.push(drawBarcode(doc, page, layout.barcode, pageHeight));
  content.push('Q');

  const stream = doc.context.stream(deflateSync(Buffer.from(content.join('\n'), 'latin1')), { Filter: 'FlateDecode' });
  page.node.addContentStream(doc.context.register(stream));
  // Object streams make a one-page document slower to write and no smaller worth mentioning.
  const bytes = await doc.save({ useObjectStreams: false, objectsPerTick: Number.POSITIVE_INFINITY });
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export const num = (value: number): string => String(Math.round(value * 100) / 100);

/**
 * The bars are one row of a 1-bit image, 8 pixels per module, stretched to the bar height: exact
 * bar widths at any printer resolution, a few hundred bytes, and no PNG to encode and decode again.
 */
const PIXELS_PER_MODULE = 8;

/** Adds the barcode image to the page and returns the operators that draw it (labels and A4 papers alike). */
export function drawBarcode(doc: PDFDocument, page: PDFPage, barcode: BarcodeItem, pageHeight: number): string {
  const modules = barcode.symbolModules + 2 * QUIET_MODULES;
  // One byte is 8 one-bit pixels, so with 8 pixels per module each module is one byte: 00 black, ff white.
  const row = new Uint8Array(modules).fill(0xff);
  let at = QUIET_MODULES;
  barcode.bars.forEach((widthInModules, index) => {
    if (index % 2 === 0) row.fill(0x00, at, at + widthInModules);
    at += widthInModules;
  });
  const image = doc.context.stream(row, {
    Type: 'XObject',
    Subtype: 'Image',
    Width: modules * PIXELS_PER_MODULE,
    Height: 1,
    ColorSpace: 'DeviceGray',
    BitsPerComponent: 1,
    Interpolate: false,
  });
  const name = page.node.newXObject('Image', doc.context.register(image)).toString();
  const width = modules * barcode.moduleWidth;
  const y = pageHeight - barcode.top - barcode.height;
  return `q ${num(width)} 0 0 ${num(barcode.height)} ${num(barcode.x)} ${num(y)} cm ${name} Do Q`;
}

// ---------------------------------------------------------------------------------------------
// ZPL

const DOTS_PER_POINT = ZPL_DOTS_PER_MM / POINTS_PER_MM;

export function renderZpl(layout: Layout): Buffer {
  const dimensions = labelDimensions[layout.size];
  const dots = (points: number) => Math.max(0, Math.round(points * DOTS_PER_POINT));
  // ^CI28: field data is UTF-8. ^LH0,0 and ^PON so a previous job's home or orientation cannot shift us.
  const out = ['^XA', '^CI28', `^PW${dimensions.widthDots}`, `^LL${dimensions.heightDots}`, '^LH0,0', '^PON', '^PQ1'];

  for (const box of layout.boxes) {
    // ^GB draws a border of the given thickness; as thick as the box's smaller side, it is filled.
    const width = Math.max(1, dots(box.width));
    const height = Math.max(1, dots(box.height));
    out.push(`^FO${dots(box.x)},${dots(box.top)}^GB${width},${height},${Math.min(width, height)}^FS`);
  }
  for (const item of layout.texts) {
    if (item.pdfOnly) continue;
    const height = Math.max(10, dots(item.size));
    // ^FB only to align: its text is short and ours, fitted to the box by the layout.
    const block = item.align === 'left' ? '' : `^FB${dots(item.width)},1,0,${item.align === 'right' ? 'R' : 'C'}`;
    out.push(`^FO${dots(item.x)},${dots(item.top)}${block}^A0N,${height},${height}^FH_^FD${zplFieldData(item.text)}^FS`);
  }

  const barcode = layout.barcode;
  const widestModule = Math.floor(dimensions.widthDots / (barcode.symbolModules + 2 * QUIET_MODULES));
  const moduleDots = Math.max(1, Math.min(Math.round(barcode.moduleWidth * DOTS_PER_POINT), widestModule));
  const symbolDots = barcode.symbolModules * moduleDots;
  const x = Math.max(0, Math.round((dimensions.widthDots - symbolDots) / 2));
  // Mode A lets the printer choose the Code 128 subsets; Y prints the tracking number under the bars.
  out.push(`^FO${x},${dots(barcode.top)}^BY${moduleDots}^BCN,${dots(barcode.height)},Y,N,N,A^FH_^FD${zplFieldData(barcode.data)}^FS`);
  out.push('^XZ');
  return Buffer.from(out.join('\n') + '\n', 'utf8');
}

/**
 * Field data for a ^FH_ field: `^` and `~` would start a command (a receiver named "^XZ" must not
 * end the label), `_` is the escape itself and `\` is special in ^FB, so all four go as hex.
 * Characters outside the Basic Multilingual Plane (emoji) no resident font has become "?".
 */
function zplFieldData(text: string): string {
  let out = '';
  for (const char of cleanText(text)) {
    const codePoint = char.codePointAt(0) ?? 0x3f;
    if (char === '^' || char === '~' || char === '_' || char === '\\') out += `_${codePoint.toString(16).toUpperCase()}`;
    else out += codePoint > 0xffff ? '?' : char;
  }
  return out;
}
