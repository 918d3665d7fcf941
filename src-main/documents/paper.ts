import { deflateSync } from 'node:zlib';
import type { PDFFont } from 'pdf-lib';
import { pdfLib } from '../platform/lazyLibraries';
import { cleanText, fontsFor, toCharacterSet, type DocumentFonts } from './documentFonts';
import { ELLIPSIS, formatDate, formatWeight } from './label';
import { QUIET_MODULES, drawBarcode, encodeCode128, num, type BarcodeItem } from './labelDrawing';
import { POINTS_PER_MM, labelDimensions } from './labelSizes';

/**
 * What the A4 shipping papers (packing list, proforma and commercial invoice) share: the shipment as
 * they show it, and a layout that flows text and tables over as many A4 pages as the lines need.
 * Pure: data in, bytes out. Like a label, a paper is in Helvetica unless its data needs letters
 * WinAnsi lacks, and then in DejaVu Sans (documentFonts.ts, one decision per document); a control
 * character or a letter neither font has (Chinese, most emoji) is replaced, never a crash.
 */

export interface PaperParty {
  name: string;
  attention?: string | null;
  /** Printed under the name; the caller leaves it out when the name or attention shows it. */
  company?: string | null;
  address1: string;
  address2?: string | null;
  postalCode: string;
  city: string;
  countryCode: string;
  phone?: string | null;
  email?: string | null;
}

export interface PaperLine {
  sku: string;
  description: string | null;
  quantity: number;
  unitPrice: number | null;
  currency: string | null;
  countryOfOrigin: string | null;
  /** The HS code (the API's field name is spelled so). */
  tarrifNumber: string | null;
  /** Where the warehouse keeps it (a bin), for picking. */
  location: string | null;
  /** Net weight of one unit in kg, when known (customs papers). */
  unitWeightKg?: number | null;
}

export interface PaperParcel {
  weightKg: number;
  /** Centimetres; 0 when not measured. */
  length: number;
  width: number;
  height: number;
  lines: PaperLine[];
}

export interface ShippingPaperData {
  reference: string;
  /** The shipment's order: its number as the shop knows it, and our id. */
  order: { id: string; number: string | null } | null;
  trackingNumber: string;
  carrierName: string;
  productName: string;
  termOfTrade: string;
  /** ISO timestamp of the booking; printed as the local date. */
  date: string;
  /** A return shipment (inbound): the customer sends to the warehouse. */
  isReturn: boolean;
  sender: PaperParty;
  receiver: PaperParty;
  parcels: PaperParcel[];
  /** An export's customs declaration, as sent to the carrier (issue 21); absent or null for a shipment that stays inside. */
  customs?: CustomsPaperData | null;
}

/** What customs papers show of the declaration, so they agree with the carrier's copy. */
export interface CustomsPaperData {
  invoiceNumber: string;
  /** YYYY-MM-DD. */
  invoiceDate: string;
  exportReason: 'sale' | 'gift' | 'sample' | 'return' | 'repair' | 'documents' | 'other';
  currency: string;
  totalValue: number;
  exporter: { eoriNumber: string | null; vatNumber: string | null };
}

export { formatDate, formatWeight };

// ---------------------------------------------------------------------------------------------
// Layout

export const A4 = labelDimensions.A4;
const mm = (value: number) => value * POINTS_PER_MM;
export const MARGIN = mm(15);
export const CONTENT_WIDTH = A4.widthPt - 2 * MARGIN;
/** Room kept at the bottom of every page for the footer (document, reference, page n of m). */
const FOOTER_HEIGHT = mm(10);

/** A paper's page: A4 for every paper but the CN22, which is A6 with narrower margins. */
export interface PaperPage {
  widthPt: number;
  heightPt: number;
  margin: number;
  footerHeight: number;
}
export const A4_PAGE: PaperPage = { widthPt: A4.widthPt, heightPt: A4.heightPt, margin: MARGIN, footerHeight: FOOTER_HEIGHT };
export const A6_PAGE: PaperPage = { widthPt: labelDimensions.A6.widthPt, heightPt: labelDimensions.A6.heightPt, margin: mm(5), footerHeight: mm(6) };
const LINE_HEIGHT = 1.25;

interface TextItem {
  /** Already in the document's font's characters, and fitted: drawn as it is. */
  text: string;
  bold: boolean;
  size: number;
  x: number;
  /** Top of the capitals, points from the top of the page. */
  top: number;
  width: number;
  align: 'left' | 'right';
}

interface RuleItem {
  x: number;
  top: number;
  width: number;
  thickness: number;
  /** 0 black … 1 white. */
  gray: number;
}

interface Page {
  texts: TextItem[];
  rules: RuleItem[];
  /** Code 128 barcodes (the handover list's tracking numbers), drawn as on a label. */
  barcodes: BarcodeItem[];
}

export interface TableColumn {
  header: string;
  /** Points. */
  width: number;
  align?: 'left' | 'right';
  /** Longer text wraps up to this many lines, the last one cut with an ellipsis. */
  maxLines?: number;
}

/**
 * A cursor down A4 pages: each call places its text at `y` and moves it on, starting a new page (with
 * the document's running header) whenever the next block would reach the footer.
 */
export class PaperLayout {
  readonly pages: Page[] = [];
  /** Points from the top of the current page. */
  y: number;
  private page: Page = { texts: [], rules: [], barcodes: [] };
  readonly margin: number;
  readonly contentWidth: number;

  private constructor(
    /** The document's fonts: measured with here, drawn with by writePaperPdf. */
    readonly fonts: DocumentFonts,
    /** Draws the running header of every page after the first. */
    private readonly continuedHeader: (layout: PaperLayout) => void,
    readonly pageSize: PaperPage,
  ) {
    this.margin = pageSize.margin;
    this.contentWidth = pageSize.widthPt - 2 * pageSize.margin;
    this.y = this.margin;
    this.pages.push(this.page);
  }

  /**
   * `data` is what the document shows (the shipment): every string in it takes part in the choice
   * of font. Fixed wording of our own is WinAnsi.
   */
  static async create(continuedHeader: (layout: PaperLayout) => void, data: unknown, pageSize: PaperPage = A4_PAGE): Promise<PaperLayout> {
    return new PaperLayout(await fontsFor(data), continuedHeader, pageSize);
  }

  get bottom(): number {
    return this.pageSize.heightPt - this.margin - this.pageSize.footerHeight;
  }

  newPage(): void {
    this.page = { texts: [], rules: [], barcodes: [] };
    this.pages.push(this.page);
    this.y = this.margin;
    this.continuedHeader(this);
  }

  /** Starts a new page unless `height` more points fit on this one; answers whether it did. */
  ensure(height: number): boolean {
    if (this.y + height <= this.bottom) return false;
    this.newPage();
    return true;
  }

  gap(points: number): void {
    this.y += points;
  }

  lineHeight(size: number): number {
    return size * LINE_HEIGHT;
  }

  /** What the document's font draws of a user's text: control characters are spaces, missing letters replaced. */
  prepare(raw: string): string {
    return toCharacterSet(cleanText(raw), this.fonts.characters);
  }

  private measure(text: string, bold: boolean, size: number): number {
    return (bold ? this.fonts.bold : this.fonts.regular).widthOfTextAtSize(text, size);
  }

  /** The longest prefix of `chars` (at least one character) that fits `width` with `suffix` after it. */
  private fittingPrefix(chars: readonly string[], suffix: string, bold: boolean, size: number, width: number): number {
    let low = 1;
    let high = chars.length;
    // Binary search: a pasted novel costs a few dozen measurements, not thousands.
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (this.measure(chars.slice(0, mid).join('').trimEnd() + suffix, bold, size) <= width) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  /** One line, cut with an ellipsis when it is wider than `width`. */
  cut(raw: string, bold: boolean, size: number, width: number): string {
    return this.wrap(raw, bold, size, width, 1)[0] ?? '';
  }

  /**
   * Word-wrapped lines of at most `width`; a word wider than a line is broken. Past `maxLines` the last
   * line ends in an ellipsis, so a long description never pushes the table off its columns.
   */
  wrap(raw: string, bold: boolean, size: number, width: number, maxLines: number): string[] {
    const text = this.prepare(raw);
    if (text === '') return [''];
    const fits = (candidate: string) => this.measure(candidate, bold, size) <= width;
    const lines: string[] = [];
    let rest = text;
    /** Where the last line began, for the ellipsis. */
    let lastLineSource = text;
    while (rest !== '' && lines.length < maxLines) {
      lastLineSource = rest;
      if (fits(rest)) {
        lines.push(rest);
        rest = '';
        break;
      }
      const chars = Array.from(rest);
      const prefix = this.fittingPrefix(chars, '', bold, size, width);
      // Break at the last space inside what fits (or just after it), unless there is none: one long word is broken.
      const head = chars.slice(0, prefix + 1).join('');
      const space = head.lastIndexOf(' ');
      const breakAt = space > 0 ? space : chars.slice(0, prefix).join('').length;
      lines.push(rest.slice(0, breakAt).trimEnd());
      rest = rest.slice(breakAt).trimStart();
    }
    if (rest !== '') {
      // More text than lines: the last line takes what is left from its start and ends in an ellipsis.
      const chars = Array.from(lastLineSource);
      const prefix = this.fittingPrefix(chars, ELLIPSIS, bold, size, width);
      lines[lines.length - 1] = chars.slice(0, prefix).join('').trimEnd() + ELLIPSIS;
    }
    return lines;
  }

  /** Places already prepared text on the current page; it does not move the cursor. */
  put(text: string, options: { bold?: boolean; size: number; x?: number; top?: number; width?: number; align?: 'left' | 'right' }): void {
    this.page.texts.push({
      text,
      bold: options.bold ?? false,
      size: options.size,
      x: options.x ?? this.margin,
      top: options.top ?? this.y,
      width: options.width ?? this.contentWidth,
      align: options.align ?? 'left',
    });
  }

  /**
   * A Code 128 barcode of `data` at the cursor (it does not move it), as wide as its modules need up to
   * `maxWidth`, with its quiet zones inside that width. Throws LabelRenderError for text Code 128 cannot carry.
   */
  barcode(data: string, options: { x: number; height: number; maxWidth: number; maxModuleWidth: number }): void {
    const bars = encodeCode128(data);
    const symbolModules = bars.reduce((sum, width) => sum + width, 0);
    const moduleWidth = Math.min(options.maxModuleWidth, options.maxWidth / (symbolModules + 2 * QUIET_MODULES));
    this.page.barcodes.push({ data, bars, symbolModules, x: options.x, top: this.y, height: options.height, moduleWidth });
  }

  /** A horizontal line across `width` at the cursor. */
  rule(options: { x?: number; width?: number; thickness?: number; gray?: number } = {}): void {
    this.page.rules.push({
      x: options.x ?? this.margin,
      top: this.y,
      width: options.width ?? this.contentWidth,
      thickness: options.thickness ?? 0.75,
      gray: options.gray ?? 0,
    });
  }

  /** Wrapped text across the page (or `width`), flowing onto the next page line by line. */
  paragraph(raw: string, options: { bold?: boolean; size: number; maxLines?: number; x?: number; width?: number }): void {
    const bold = options.bold ?? false;
    const width = options.width ?? this.contentWidth;
    for (const line of this.wrap(raw, bold, options.size, width, options.maxLines ?? 20)) {
      this.ensure(this.lineHeight(options.size));
      this.put(line, { bold, size: options.size, ...(options.x !== undefined ? { x: options.x } : {}), width });
      this.y += this.lineHeight(options.size);
    }
  }

  /** Caption and value rows; a long value wraps to two lines, then is cut. Amounts align right. */
  keyValues(
    rows: readonly (readonly [string, string])[],
    options: { size: number; x?: number; width?: number; captionWidth: number; bold?: boolean; valueAlign?: 'left' | 'right' },
  ): void {
    const x = options.x ?? this.margin;
    const width = options.width ?? this.contentWidth;
    const step = this.lineHeight(options.size);
    const bold = options.bold ?? false;
    for (const [caption, value] of rows) {
      const lines = this.wrap(value, bold, options.size, width - options.captionWidth, 2);
      this.ensure(lines.length * step);
      this.put(this.cut(caption, true, options.size, options.captionWidth - 4), { bold: true, size: options.size, x, width: options.captionWidth });
      for (const line of lines) {
        this.put(line, { bold, size: options.size, x: x + options.captionWidth, width: width - options.captionWidth, align: options.valueAlign ?? 'left' });
        this.y += step;
      }
    }
  }

  /**
   * Blocks side by side (sender and receiver): a bold title, then lines each cut to the block's width.
   * The cursor ends below the tallest block.
   */
  blocks(blocks: readonly { title: string; lines: readonly string[] }[], options: { size: number }): void {
    const gutter = mm(6);
    const width = (this.contentWidth - gutter * (blocks.length - 1)) / blocks.length;
    const step = this.lineHeight(options.size);
    const tallest = Math.max(...blocks.map((block) => block.lines.length + 1));
    this.ensure(tallest * step);
    const top = this.y;
    blocks.forEach((block, index) => {
      const x = this.margin + index * (width + gutter);
      this.y = top;
      this.put(this.cut(block.title, true, options.size, width), { bold: true, size: options.size, x, width });
      this.y += step;
      for (const line of block.lines) {
        this.put(this.cut(line, false, options.size, width), { size: options.size, x, width });
        this.y += step;
      }
    });
    this.y = top + tallest * step;
  }

  /**
   * A table whose rows flow over pages; the header row is repeated at the top of every page the table
   * continues on. Cells wrap within their column (`maxLines`, default 1, then an ellipsis).
   */
  table(columns: readonly TableColumn[], rows: readonly (readonly string[])[], options: { size: number }): void {
    const size = options.size;
    const step = this.lineHeight(size);
    const padding = 2.5;
    const cellPadding = 3;
    const header = () => {
      let x = this.margin;
      for (const column of columns) {
        const text = this.cut(column.header, true, size, column.width - cellPadding);
        this.put(text, { bold: true, size, x, width: column.width - cellPadding, align: column.align ?? 'left' });
        x += column.width;
      }
      this.y += step;
      this.rule({ thickness: 0.75 });
      this.y += padding;
    };
    // A header alone at the foot of a page helps nobody: keep it with at least one row.
    this.ensure(2 * step + padding * 2);
    header();
    for (const row of rows) {
      const cells = columns.map((column, index) => this.wrap(row[index] ?? '', false, size, column.width - cellPadding, column.maxLines ?? 1));
      const height = Math.max(...cells.map((lines) => lines.length)) * step + padding;
      if (this.ensure(height)) header();
      let x = this.margin;
      columns.forEach((column, index) => {
        (cells[index] ?? []).forEach((line, lineIndex) => {
          this.put(line, { size, x, top: this.y + lineIndex * step, width: column.width - cellPadding, align: column.align ?? 'left' });
        });
        x += column.width;
      });
      this.y += height;
      this.rule({ thickness: 0.3, gray: 0.7 });
      this.y += padding;
    }
  }
}

/** A party as address lines, the way a customs officer or a packer reads it. */
export function partyLines(party: PaperParty): string[] {
  const lines = [party.name];
  if (party.company) lines.push(party.company);
  if (party.attention) lines.push(`Att. ${party.attention}`);
  lines.push(party.address1);
  if (party.address2) lines.push(party.address2);
  lines.push(`${party.postalCode} ${party.city}`.trim());
  lines.push(party.countryCode);
  if (party.phone) lines.push(`Tel. ${party.phone}`);
  if (party.email) lines.push(party.email);
  return lines;
}

/** The order as a caption's value: its number and our id, or just the id. */
export function orderText(order: ShippingPaperData['order']): string | null {
  if (!order) return null;
  return order.number ? `${order.number} (${order.id})` : order.id;
}

// ---------------------------------------------------------------------------------------------
// PDF

/**
 * Writes the laid-out pages as an A4 PDF, with `footer` (left) and "Page n of m" (right, or
 * `pageLabel`'s words, e.g. per order of a file of packing slips) at the bottom of every page. Content streams are written directly, as for labels: the layout has placed everything.
 */
export async function writePaperPdf(
  layout: PaperLayout,
  options: { title: string; footer: string; pageLabel?: (index: number, count: number) => string },
): Promise<Buffer> {
  const doc = await pdfLib().PDFDocument.create({ updateMetadata: false });
  // The Info title is UTF-16: any name shows in a viewer's document properties.
  doc.setTitle(cleanText(options.title));
  const { regular, bold } = await layout.fonts.embed(doc);
  const pageCount = layout.pages.length;
  const footerSize = 7.5;
  const { widthPt, heightPt } = layout.pageSize;
  const margin = layout.margin;
  const contentWidth = layout.contentWidth;
  const footerTop = heightPt - margin - footerSize;
  const footerText = layout.cut(options.footer, false, footerSize, contentWidth * 0.75);

  layout.pages.forEach((laidOut, index) => {
    const page = doc.addPage([widthPt, heightPt]);
    const fontKeys = new Map<PDFFont, string>([
      [regular, page.node.newFontDictionary('F', regular.ref).toString()],
      [bold, page.node.newFontDictionary('F', bold.ref).toString()],
    ]);
    const texts: TextItem[] = [
      ...laidOut.texts,
      { text: footerText, bold: false, size: footerSize, x: margin, top: footerTop, width: contentWidth * 0.75, align: 'left' },
      {
        text: layout.prepare(options.pageLabel?.(index, pageCount) ?? `Page ${index + 1} of ${pageCount}`),
        bold: false,
        size: footerSize,
        x: margin,
        top: footerTop,
        width: contentWidth,
        align: 'right',
      },
    ];
    const content: string[] = ['q'];
    for (const rule of laidOut.rules) {
      const y = heightPt - rule.top - rule.thickness / 2;
      content.push(`${num(rule.gray)} g ${num(rule.x)} ${num(y)} ${num(rule.width)} ${num(rule.thickness)} re f`);
    }
    content.push('0 g');
    for (const item of texts) {
      const font = item.bold ? bold : regular;
      const x = item.align === 'right' ? item.x + item.width - font.widthOfTextAtSize(item.text, item.size) : item.x;
      // Helvetica's and DejaVu Sans's caps are about 0.72 em high: put the baseline so they start at `top`.
      const baseline = heightPt - item.top - item.size * 0.76;
      content.push(`BT ${fontKeys.get(font)} ${num(item.size)} Tf ${num(x)} ${num(baseline)} Td ${font.encodeText(item.text).toString()} Tj ET`);
    }
    for (const barcode of laidOut.barcodes) content.push(drawBarcode(doc, page, barcode, heightPt));
    content.push('Q');
    const stream = doc.context.stream(deflateSync(Buffer.from(content.join('\n'), 'latin1')), { Filter: 'FlateDecode' });
    page.node.addContentStream(doc.context.register(stream));
  });

  const bytes = await doc.save({ useObjectStreams: false });
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Money as customs forms write it: two decimals, no grouping, so a value is never misread. */
export function formatMoney(amount: number): string {
  return (Math.round(amount * 100) / 100).toFixed(2);
}
