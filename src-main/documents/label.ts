import type { DocumentFormat, LabelSize } from '../../src-shared/schemas/carrier';
import { cleanText, fontsFor, standardFonts, unicodeFonts, type DocumentFonts } from './documentFonts';
import {
  QUIET_MODULES,
  encodeCode128,
  fitText,
  renderPdf,
  renderZpl,
  textWidth,
  wrapText,
  type BarcodeItem,
  type BoxItem,
  type Layout,
  type TextItem,
} from './labelDrawing';
import { POINTS_PER_MM, labelDimensions } from './labelSizes';

export { ELLIPSIS, LabelRenderError, type LabelRenderErrorCode } from './labelDrawing';

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
  /** Printed under the name; the caller leaves it out when the name or attention shows it. */
  company?: string | null;
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

/** Design sizes are for a 100×150 mm label; other pages scale from it. */
const DESIGN_WIDTH_MM = 100;
const DESIGN_HEIGHT_MM = 150;
/** 0.375 mm is exactly 3 dots on a 203 dpi printer. */
const MODULE_MM = 0.375;

function layoutLabel(data: LabelData, size: LabelSize, fonts: DocumentFonts): Layout {
  const page = labelDimensions[size];
  const scale = Math.min(page.widthMm / DESIGN_WIDTH_MM, page.heightMm / DESIGN_HEIGHT_MM);
  const mm = (value: number) => value * POINTS_PER_MM * scale;
  const margin = mm(4);
  const contentWidth = page.widthPt - 2 * margin;
  const texts: TextItem[] = [];
  const boxes: BoxItem[] = [];
  let y = margin;

  const width = (text: string, bold: boolean, fontSize: number) => textWidth(fonts, text, bold, fontSize);
  const fit = (raw: string, bold: boolean, designSize: number, maxWidth: number) => fitText(fonts, raw, bold, designSize * scale, maxWidth);

  const line = (raw: string, bold: boolean, designSize: number, x = margin, maxWidth = contentWidth) => {
    const { text, fontSize } = fit(raw, bold, designSize, maxWidth);
    texts.push({ text, bold, size: fontSize, x, top: y, width: maxWidth, align: 'left' });
    y += designSize * scale * 1.22;
  };

  // The receiver's name and street lines wrap onto a second line rather than lose their end.
  const wrapped = (raw: string, bold: boolean, designSize: number) => {
    for (const { text, fontSize } of wrapText(fonts, raw, bold, designSize * scale, contentWidth, 2)) {
      texts.push({ text, bold, size: fontSize, x: margin, top: y, width: contentWidth, align: 'left' });
      y += designSize * scale * 1.22;
    }
  };

  const rule = () => {
    y += mm(1);
    const thickness = Math.max(0.75, 1.2 * scale);
    boxes.push({ x: margin, top: y - thickness / 2, width: contentWidth, height: thickness });
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
  if (sender.company) line(sender.company, false, 8);
  if (sender.attention) line(`Att. ${sender.attention}`, false, 8);
  line(sender.address1, false, 8);
  if (sender.address2) line(sender.address2, false, 8);
  line(`${sender.countryCode}-${sender.postalCode} ${sender.city}`, false, 8);
  if (sender.phone) line(`Tel. ${sender.phone}`, false, 8);
  rule();

  // Receiver, large: this is what the driver reads.
  line('To', true, 7);
  const receiver = data.receiver;
  wrapped(receiver.name, true, 15);
  if (receiver.company) line(receiver.company, true, 11);
  if (receiver.attention) line(`Att. ${receiver.attention}`, false, 11);
  wrapped(receiver.address1, false, 12);
  if (receiver.address2) wrapped(receiver.address2, false, 12);
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
  texts.push({
    text: trackingText.text,
    bold: true,
    size: trackingText.fontSize,
    x: margin,
    top: trackingTop,
    width: contentWidth,
    align: 'center',
    pdfOnly: true,
  });
  const barcode: BarcodeItem = {
    data: data.trackingNumber,
    bars,
    symbolModules,
    x: (page.widthPt - totalModules * moduleWidth) / 2,
    top: barsBottom - barHeight,
    height: barHeight,
    moduleWidth,
  };
  return { size, fonts, texts, boxes, barcode };
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
