import type { DocumentFormat, LabelSize } from '../../src-shared/schemas/carrier';
import type { PrinterDriver } from '../../src-shared/schemas/printing';
import { fontsFor, standardFonts } from './documentFonts';
import { formatDate } from './label';
import { QUIET_MODULES, encodeCode128, fitText, renderPdf, renderZpl, type BoxItem, type Layout, type TextItem } from './labelDrawing';
import { POINTS_PER_MM, labelDimensions } from './labelSizes';

/**
 * A printer's test label: what a lead prints once after setting up a printer, before the first
 * parcel depends on it. It is drawn at the printer's label size and in its format, like a real
 * label, so it shows the things that go wrong with label printers: a frame just inside the four edges
 * shows a label that is cut off, shrunk or shifted, and a Code 128 barcode lets the station test
 * its scanner. It says loudly that it is not a shipping label, so it never ends up on a parcel.
 */

export interface TestLabelData {
  printerName: string;
  driver: PrinterDriver;
  target: string;
  /** ISO timestamp of the test; printed in local time. */
  printedAt: string;
}

/** What the test label's barcode holds; a scanner that reads it types exactly this. */
export const TEST_LABEL_BARCODE = 'SHIPDESK-TEST';

export async function renderTestLabel(data: TestLabelData, format: DocumentFormat, size: LabelSize): Promise<Buffer> {
  const fonts = format === 'pdf' ? await fontsFor(data) : await standardFonts();
  const layout = layoutTestLabel(data, format, size, fonts);
  return format === 'pdf' ? renderPdf(layout) : renderZpl(layout);
}

function layoutTestLabel(data: TestLabelData, format: DocumentFormat, size: LabelSize, fonts: Layout['fonts']): Layout {
  const page = labelDimensions[size];
  // Sizes are designed for 100 mm wide; A4 scales up, like the shipping label.
  const scale = Math.min(page.widthMm / 100, page.heightMm / 150);
  const mm = (value: number) => value * POINTS_PER_MM * scale;
  const texts: TextItem[] = [];
  const frameInset = 1.5 * POINTS_PER_MM;
  const frameWidth = 0.75 * POINTS_PER_MM;
  const boxes: BoxItem[] = frame(page.widthPt, page.heightPt, frameInset, frameWidth);
  const margin = frameInset + frameWidth + mm(3);
  const contentWidth = page.widthPt - 2 * margin;
  let y = margin + mm(2);

  const line = (raw: string, bold: boolean, designSize: number, gapAfter = 0.35) => {
    const { text, fontSize } = fitText(fonts, raw, bold, designSize * scale, contentWidth);
    texts.push({ text, bold, size: fontSize, x: margin, top: y, width: contentWidth, align: 'center' });
    y += designSize * scale * (1 + gapAfter);
  };
  const rule = () => {
    const thickness = Math.max(0.75, 1.2 * scale);
    boxes.push({ x: margin, top: y, width: contentWidth, height: thickness });
    y += mm(4);
  };

  line('Shipdesk test label', true, 18);
  line('NOT A SHIPPING LABEL', true, 13, 0.8);
  rule();
  line(data.printerName, true, 13);
  line(`${format.toUpperCase()} · ${size} (${page.widthMm} × ${page.heightMm} mm)`, false, 10);
  line(`${data.driver} · ${data.target}`, false, 9);
  const printedAt = new Date(data.printedAt);
  const time = Number.isNaN(printedAt.getTime()) ? '' : ` ${String(printedAt.getHours()).padStart(2, '0')}:${String(printedAt.getMinutes()).padStart(2, '0')}`;
  line(`Printed ${formatDate(data.printedAt)}${time}`, false, 9, 0.8);
  rule();
  line('The frame should sit just inside all four edges.', false, 8);
  line(`Cut off, shrunk or shifted? Load ${page.widthMm} × ${page.heightMm} mm labels`, false, 8);
  line('or set the printer’s media to this size.', false, 8, 0.8);

  const bars = encodeCode128(TEST_LABEL_BARCODE);
  const symbolModules = bars.reduce((sum, bar) => sum + bar, 0);
  const moduleWidth = Math.min(mm(0.375), contentWidth / (symbolModules + 2 * QUIET_MODULES));
  // Under the bars the barcode's text, which a ZPL printer draws itself; above them what it is for.
  const barText = fitText(fonts, TEST_LABEL_BARCODE, true, 10 * scale, contentWidth);
  const barTextTop = page.heightPt - margin - barText.fontSize;
  texts.push({ text: barText.text, bold: true, size: barText.fontSize, x: margin, top: barTextTop, width: contentWidth, align: 'center', pdfOnly: true });
  const barsBottom = barTextTop - mm(1.5);
  const captionHeight = 8 * scale * 1.35;
  const barHeight = Math.max(mm(8), Math.min(mm(18), barsBottom - y - captionHeight));
  const barcodeTop = barsBottom - barHeight;
  y = barcodeTop - captionHeight;
  line('Scan to test the scanner', false, 8);
  return {
    size,
    fonts,
    texts,
    boxes,
    barcode: {
      data: TEST_LABEL_BARCODE,
      bars,
      symbolModules,
      x: (page.widthPt - (symbolModules + 2 * QUIET_MODULES) * moduleWidth) / 2,
      top: barcodeTop,
      height: barHeight,
      moduleWidth,
    },
  };
}

/** Four boxes, `inset` in from the page's edges, `thickness` wide. */
function frame(widthPt: number, heightPt: number, inset: number, thickness: number): BoxItem[] {
  const innerWidth = widthPt - 2 * inset;
  const innerHeight = heightPt - 2 * inset;
  return [
    { x: inset, top: inset, width: innerWidth, height: thickness },
    { x: inset, top: heightPt - inset - thickness, width: innerWidth, height: thickness },
    { x: inset, top: inset, width: thickness, height: innerHeight },
    { x: widthPt - inset - thickness, top: inset, width: thickness, height: innerHeight },
  ];
}
