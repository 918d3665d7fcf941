import type { LabelSize } from '../../../src-shared/schemas/carrier';
import { decodeGif, encodePng, gifSize } from './gif';
import { pdfLib } from '../../platform/lazyLibraries';

/**
 * A UPS GIF label placed unscaled on a PDF page of its physical size (decisions §13). The contract
 * names neither the GIF's resolution nor its orientation: UPS draws its GIF labels at 200 dpi (a 4 in
 * side is 800 pixels) and lying on their side, so a landscape image is turned a quarter clockwise onto
 * a portrait page, the way it comes out of a 4 × 6 in label printer. Turning is not scaling: one image
 * pixel is still 1/200 in on paper.
 */

export const GIF_LABEL_DPI = 200;
const POINTS_PER_INCH = 72;
const MM_PER_INCH = 25.4;

/** Page size in points: the image's pixels at 200 dpi, portrait. */
export function gifPageSize(gif: Buffer): { width: number; height: number; turned: boolean } {
  const { width, height } = gifSize(gif);
  const toPoints = (pixels: number) => (pixels / GIF_LABEL_DPI) * POINTS_PER_INCH;
  const turned = width > height;
  return turned ? { width: toPoints(height), height: toPoints(width), turned } : { width: toPoints(width), height: toPoints(height), turned };
}

/** The label sizes a page can be, smallest first, in mm (with 3 mm for the inch-based 4 × 6 and 4 × 8 stock). */
const sizesMm: readonly { size: LabelSize; width: number; height: number }[] = [
  { size: '100X150', width: 103, height: 153 },
  { size: '100X192', width: 103, height: 206 },
  { size: 'A4', width: 210, height: 297 },
];

/** The smallest label size that holds the page, so printing crops nothing of the label (decisions §13). */
export function labelSizeOfPage(page: { width: number; height: number }): LabelSize {
  const mm = (points: number) => (points / POINTS_PER_INCH) * MM_PER_INCH;
  const found = sizesMm.find((candidate) => mm(page.width) <= candidate.width && mm(page.height) <= candidate.height);
  return found?.size ?? 'A4';
}

export async function gifLabelPdf(gif: Buffer): Promise<{ pdf: Buffer; size: LabelSize }> {
  const page = gifPageSize(gif);
  const { PDFDocument, degrees } = pdfLib();
  const document = await PDFDocument.create();
  const image = await document.embedPng(encodePng(decodeGif(gif)));
  const pdfPage = document.addPage([page.width, page.height]);
  if (page.turned) {
    // Drawn at the image's own size (page height × page width before the turn), turned about its corner.
    pdfPage.drawImage(image, { x: 0, y: page.height, width: page.height, height: page.width, rotate: degrees(-90) });
  } else {
    pdfPage.drawImage(image, { x: 0, y: 0, width: page.width, height: page.height });
  }
  // A fixed date keeps the bytes the same for the same label.
  document.setCreationDate(new Date(0));
  document.setModificationDate(new Date(0));
  return { pdf: Buffer.from(await document.save()), size: labelSizeOfPage(page) };
}
