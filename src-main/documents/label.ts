import { deflateSync } from 'node:zlib';
import bwipjs from 'bwip-js/node';
import { PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib';
import type { DocumentFormat, LabelSize } from '../../src-shared/schemas/carrier';
import { cleanText, fontsFor, standardFonts, toCharacterSet, unicodeFonts, type DocumentFonts } from './documentFonts';
import { POINTS_PER_MM, ZPL_DOTS_PER_MM, labelDimensions } from './labelSizes';

/**
 * The shipping label renderer: one parcel's label as a PDF page of the label's physical size, or as
 * native ZPL for a 203 dpi thermal printer. Pure: data in, bytes out.
 *
 * Both formats come from one layout, computed in points from the top-left corner, so a PDF preview
 * shows what the thermal printer prints. Everything scales with the page, so A4 is a large label,
 * not a small one in a corner.
 *
 * A PDF label is drawn in Helvetica unless its text needs letters WinAnsi lacks, and then in DejaVu
 * Sans, embedded (documentFonts.ts decides, once per label). ZPL is measured with Helvetica as a
 * stand-in for the printer's own font, and its text goes to the printer as UTF-8 whatever the script.
 */

export interface LabelParty {
  name: string;
  attention?: string | null;
  address1: string;
  address2?: string | null;
  postalCode: string;
  city: string;
  countryCode: string;
  phone?: string | null;
}

export interface LabelData {
  carrierName: string;
  productName: string;
  trackingNumber: string;
  reference: string;
  sender: LabelParty;
  receiver: LabelParty;
  /** 1-based position of this parcel in the shipment. */
  parcelNumber: number;
  parcelCount: number;
  weightKg: number;
  /** ISO timestamp; printed as the local date. */
  createdAt: string;
  servicePointId?: string | null;
}

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

export interface LabelRenderOptions {
  /**
   * Embed the font even when Helvetica would do. Unembedded Helvetica is drawn with whatever stand-in
   * the viewer or printer has, often wider, which cuts text off the label's edge; booking keeps the
   * fast path, a label drawn again for a screen or an office printer embeds (labelRedraw.ts).
   */
  embedFont?: boolean;
}

export async function renderLabel(data: LabelData, format: DocumentFormat, size: LabelSize, options: LabelRenderOptions = {}): Promise<Buffer> {
  const fonts = format !== 'pdf' ? await standardFonts() : options.embedFont ? await embeddedFonts(data) : await fontsFor(data);
  const layout = layoutLabel(data, size, fonts);
  return format === 'pdf' ? renderPdf(layout) : renderZpl(layout);
}

/** The bundled Unicode font; Helvetica (and a warning from fontsFor) only if its files are missing. */
async function embeddedFonts(data: LabelData): Promise<DocumentFonts> {
  try {
    return await unicodeFonts();
  } catch {
    return fontsFor(data);
  }
}

// ---------------------------------------------------------------------------------------------
// Layout

interface TextItem {
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

interface RuleItem {
  x: number;
  top: number;
  width: number;
  thickness: number;
}

interface BarcodeItem {
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

interface Layout {
  size: LabelSize;
  /** The fonts the texts were measured with, and are drawn with. */
  fonts: DocumentFonts;
  texts: TextItem[];
  rules: RuleItem[];
  barcode: BarcodeItem;
}

/** Code 128 wants at least 10 modules of white either side. */
const QUIET_MODULES = 10;
/** Design sizes are for a 100×150 mm label; other pages scale from it. */
const DESIGN_WIDTH_MM = 100;
const DESIGN_HEIGHT_MM = 150;
/** 0.375 mm is exactly 3 dots on a 203 dpi printer. */
const MODULE_MM = 0.375;
export const ELLIPSIS = '\u2026';

function layoutLabel(data: LabelData, size: LabelSize, fonts: DocumentFonts): Layout {
  const page = labelDimensions[size];
  const scale = Math.min(page.widthMm / DESIGN_WIDTH_MM, page.heightMm / DESIGN_HEIGHT_MM);
  const mm = (value: number) => value * POINTS_PER_MM * scale;
  const margin = mm(4);
  const contentWidth = page.widthPt - 2 * margin;
  const texts: TextItem[] = [];
  const rules: RuleItem[] = [];
  let y = margin;

  const width = (text: string, bold: boolean, fontSize: number) =>
    (bold ? fonts.bold : fonts.regular).widthOfTextAtSize(toCharacterSet(text, fonts.characters), fontSize);

  /** Shrinks the text to at most 75% of its size to fit, then cuts it with an ellipsis. */
  const fit = (raw: string, bold: boolean, designSize: number, maxWidth: number) => {
    const text = cleanText(raw);
    let fontSize = designSize * scale;
    const full = width(text, bold, fontSize);
    if (full <= maxWidth) return { text, fontSize };
    fontSize = Math.max(fontSize * 0.75, (fontSize * maxWidth) / full);
    const chars = Array.from(text);
    // Start from a proportional guess so a pasted novel costs a few measurements, not thousands.
    let cut = Math.min(chars.length, Math.ceil((chars.length * maxWidth) / width(text, bold, fontSize)) + 2);
    let fitted = chars.slice(0, cut).join('');
    while (cut > 0 && width(fitted, bold, fontSize) > maxWidth) {
      cut -= 1;
      fitted = chars.slice(0, cut).join('').trimEnd() + ELLIPSIS;
    }
    return { text: fitted, fontSize };
  };

  const line = (raw: string, bold: boolean, designSize: number, x = margin, maxWidth = contentWidth) => {
    const { text, fontSize } = fit(raw, bold, designSize, maxWidth);
    texts.push({ text, bold, size: fontSize, x, top: y, width: maxWidth, align: 'left' });
    y += designSize * scale * 1.22;
  };

  const rule = () => {
    y += mm(1);
    rules.push({ x: margin, top: y, width: contentWidth, thickness: Math.max(0.75, 1.2 * scale) });
    y += mm(2);
  };

  // Header: carrier and product on the left, parcel count on the right.
  const parcel = fit(`Parcel ${data.parcelNumber}/${data.parcelCount}`, true, 14, contentWidth / 2);
  const parcelWidth = width(parcel.text, true, parcel.fontSize);
  texts.push({ text: parcel.text, bold: true, size: parcel.fontSize, x: margin, top: y, width: contentWidth, align: 'right' });
  line(data.carrierName, true, 14, margin, contentWidth - parcelWidth - mm(3));
  line(data.productName, false, 10);
  rule();

  // Sender, small.
  line('From', true, 6.5);
  const sender = data.sender;
  line(sender.name, false, 8);
  if (sender.attention) line(`Att. ${sender.attention}`, false, 8);
  line(sender.address1, false, 8);
  if (sender.address2) line(sender.address2, false, 8);
  line(`${sender.countryCode}-${sender.postalCode} ${sender.city}`, false, 8);
  if (sender.phone) line(`Tel. ${sender.phone}`, false, 8);
  rule();

  // Receiver, large: this is what the driver reads.
  line('To', true, 7);
  const receiver = data.receiver;
  line(receiver.name, true, 15);
  if (receiver.attention) line(`Att. ${receiver.attention}`, false, 11);
  line(receiver.address1, false, 12);
  if (receiver.address2) line(receiver.address2, false, 12);
  line(`${receiver.postalCode} ${receiver.city}`, true, 15);
  line(receiver.countryCode, true, 15);
  if (receiver.phone) line(`Tel. ${receiver.phone}`, false, 10);
  rule();

  // Details as caption/value rows.
  const captionWidth = mm(24);
  const details: [string, string][] = [
    ['Reference', data.reference],
    ['Weight', formatWeight(data.weightKg)],
    ['Date', formatDate(data.createdAt)],
  ];
  if (data.servicePointId) details.push(['Service point', data.servicePointId]);
  for (const [caption, value] of details) {
    const top = y;
    line(caption, true, 9, margin, captionWidth);
    y = top;
    line(value, false, 9, margin + captionWidth, contentWidth - captionWidth);
  }

  // Barcode at the bottom: bars, then the tracking number under them.
  const bars = encodeCode128(data.trackingNumber);
  const symbolModules = bars.reduce((sum, bar) => sum + bar, 0);
  const totalModules = symbolModules + 2 * QUIET_MODULES;
  const moduleWidth = Math.min(mm(MODULE_MM), page.widthPt / totalModules);
  const trackingText = fit(data.trackingNumber, true, 12, contentWidth);
  const trackingTop = page.heightPt - margin - trackingText.fontSize;
  const barsBottom = trackingTop - mm(1.5);
  const barHeight = Math.max(mm(8), Math.min(mm(20), barsBottom - y - mm(2)));
  texts.push({ text: trackingText.text, bold: true, size: trackingText.fontSize, x: margin, top: trackingTop, width: contentWidth, align: 'center', pdfOnly: true });
  const barcode: BarcodeItem = {
    data: data.trackingNumber,
    bars,
    symbolModules,
    x: (page.widthPt - totalModules * moduleWidth) / 2,
    top: barsBottom - barHeight,
    height: barHeight,
    moduleWidth,
  };
  return { size, fonts, texts, rules, barcode };
}

/** Bar and space widths from BWIPP's Code 128 encoder (subset choice and check digit are its job). */
function encodeCode128(trackingNumber: string): number[] {
  if (!/^[\x20-\x7e]+$/.test(trackingNumber) || trackingNumber.trim() === '') {
    throw new LabelRenderError('LABEL_TRACKING_NUMBER_INVALID', `Tracking number ${JSON.stringify(trackingNumber)} is not printable ASCII.`);
  }
  let bars: number[] | undefined;
  try {
    const [symbol] = bwipjs.raw({ bcid: 'code128', text: trackingNumber });
    bars = symbol && 'sbs' in symbol ? symbol.sbs : undefined;
  } catch (error) {
    throw new LabelRenderError('LABEL_BARCODE_FAILED', `Code 128 of ${trackingNumber} failed: ${String(error)}`);
  }
  if (!bars?.length) throw new LabelRenderError('LABEL_BARCODE_FAILED', 'Code 128 gave no bars.');
  return bars;
}

export function formatWeight(weightKg: number): string {
  return Number.isFinite(weightKg) ? `${Number(weightKg.toFixed(2))} kg` : '-';
}

/** The warehouse's local date of the shipment. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return cleanText(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

// ---------------------------------------------------------------------------------------------
// PDF

async function renderPdf(layout: Layout): Promise<Buffer> {
  const dimensions = labelDimensions[layout.size];
  const pageHeight = dimensions.heightPt;
  // No Info dictionary: producer and dates cost time on every label and nobody reads them.
  const doc = await PDFDocument.create({ updateMetadata: false });
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
  for (const rule of layout.rules) {
    const y = pageHeight - rule.top - rule.thickness / 2;
    content.push(`${num(rule.x)} ${num(y)} ${num(rule.width)} ${num(rule.thickness)} re f`);
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

/** Adds the barcode image to the page and returns the operators that draw it. */
function drawBarcode(doc: PDFDocument, page: PDFPage, barcode: BarcodeItem, pageHeight: number): string {
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

function renderZpl(layout: Layout): Buffer {
  const dimensions = labelDimensions[layout.size];
  const dots = (points: number) => Math.max(0, Math.round(points * DOTS_PER_POINT));
  // ^CI28: field data is UTF-8. ^LH0,0 and ^PON so a previous job's home or orientation cannot shift us.
  const out = ['^XA', '^CI28', `^PW${dimensions.widthDots}`, `^LL${dimensions.heightDots}`, '^LH0,0', '^PON', '^PQ1'];

  for (const rule of layout.rules) {
    const thickness = Math.max(1, dots(rule.thickness));
    out.push(`^FO${dots(rule.x)},${dots(rule.top)}^GB${dots(rule.width)},${thickness},${thickness}^FS`);
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
