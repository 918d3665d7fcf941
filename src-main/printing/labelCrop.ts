import type { PDFPage } from 'pdf-lib';
import type { LabelSize } from '../../src-shared/schemas/carrier';
import { labelDimensions, mmToPoints } from '../documents/labelSizes';
import { pdfLib } from '../platform/lazyLibraries';

/**
 * A PDF label whose page is larger than the label it is printed on is cropped to the label at 100 %,
 * never shrunk (decisions §13): carriers return an A6 label on an A4 page (PostNord's A4 paper, GLS),
 * and CUPS shrinks such a page onto A6 media even with fit-to-page=false (its print-scaling=none crops
 * the middle of the page instead, where there is nothing).
 *
 * Where the label is taken from, in the page as a viewer shows it (its CropBox and /Rotate):
 *  - a page that fits the label either way round is left alone (the spooler turns a landscape one);
 *  - per side, a page much larger than the label is a sheet with the label in its top-left corner,
 *    so the label's width is taken from the left edge and its height from the top edge;
 *  - a side at most 6 mm off the label's (an A6 page, 105 mm, on a 100 mm roll) is the label on
 *    slightly different paper: the difference is cut, or left blank, evenly on both sides.
 * The crop embeds the page as a form (vectors and fonts kept), so text stays text at its own size.
 */

/** A page this close to the label (either way round) fits it: PDF sizes are rounded to whole points or mm. */
const FITS_WITHIN_PT = mmToPoints(1);
/** A side this close to the label's is centred, not anchored at the top-left. */
const CENTRED_WITHIN_PT = mmToPoints(6);

export interface CroppedLabel {
  content: Uint8Array;
  /** Whether any page was cropped; when not, `content` is the very bytes given. */
  cropped: boolean;
}

interface Box {
  left: number;
  bottom: number;
  right: number;
  top: number;
}

/** Crops every page of `pdf` that is larger than `size` to `size`; pages that fit are kept as they are. */
export async function cropLabelToSize(pdf: Uint8Array, size: LabelSize): Promise<CroppedLabel> {
  const label = labelDimensions[size];
  const { PDFDocument, degrees } = pdfLib();
  const source = await PDFDocument.load(pdf, { updateMetadata: false });
  const pages = source.getPages();
  if (pages.every((page) => fits(shownSize(page), label.widthPt, label.heightPt))) return { content: pdf, cropped: false };

  const out = await PDFDocument.create({ updateMetadata: false });
  const title = source.getTitle();
  if (title) out.setTitle(title);
  for (const [index, page] of pages.entries()) {
    if (fits(shownSize(page), label.widthPt, label.heightPt)) {
      const [copy] = await out.copyPages(source, [index]);
      if (copy) out.addPage(copy);
      continue;
    }
    const { region, at } = labelRegion(page, label.widthPt, label.heightPt);
    const rotation = shownRotation(page);
    const embedded = await out.embedPage(page, region);
    const target = out.addPage([label.widthPt, label.heightPt]);
    target.drawPage(embedded, { ...drawnAt(rotation, region, at, label.heightPt), rotate: degrees(-rotation) });
  }
  const bytes = await out.save({ useObjectStreams: false });
  return { content: bytes, cropped: true };
}

/** The page's visible box in its own user space: the CropBox, within the MediaBox. */
function visibleBox(page: PDFPage): Box {
  const media = page.getMediaBox();
  const crop = page.getCropBox();
  return {
    left: Math.max(media.x, crop.x),
    bottom: Math.max(media.y, crop.y),
    right: Math.min(media.x + media.width, crop.x + crop.width),
    top: Math.min(media.y + media.height, crop.y + crop.height),
  };
}

/** /Rotate as 0, 90, 180 or 270 (clockwise, as viewers turn the page). */
function shownRotation(page: PDFPage): 0 | 90 | 180 | 270 {
  const angle = (((Math.round(page.getRotation().angle / 90) * 90) % 360) + 360) % 360;
  return angle as 0 | 90 | 180 | 270;
}

function shownSize(page: PDFPage): { width: number; height: number } {
  const box = visibleBox(page);
  const [width, height] = [box.right - box.left, box.top - box.bottom];
  return shownRotation(page) % 180 === 0 ? { width, height } : { width: height, height: width };
}

function fits(page: { width: number; height: number }, width: number, height: number): boolean {
  const within = (a: number, b: number) => a <= b + FITS_WITHIN_PT;
  return (within(page.width, width) && within(page.height, height)) || (within(page.width, height) && within(page.height, width));
}

/**
 * Along one side of the shown page: where the label's stretch starts (from the left, or from the top)
 * and how much of it lies on the page.
 */
function stretch(pageLength: number, labelLength: number): { from: number; length: number; inset: number } {
  if (Math.abs(pageLength - labelLength) <= CENTRED_WITHIN_PT) {
    const offset = (pageLength - labelLength) / 2;
    // A page shorter than the label: all of it, with the blank split evenly (`inset` from the label's edge).
    return offset >= 0 ? { from: offset, length: labelLength, inset: 0 } : { from: 0, length: pageLength, inset: -offset };
  }
  return { from: 0, length: Math.min(pageLength, labelLength), inset: 0 };
}

/**
 * The part of the page that becomes the label, as a box in the page's own user space, and where its
 * shown top-left corner goes on the label (`at`: points in from the label's left and down from its top).
 */
function labelRegion(page: PDFPage, labelWidth: number, labelHeight: number): { region: Box; at: { x: number; down: number } } {
  const box = visibleBox(page);
  const shown = shownSize(page);
  const across = stretch(shown.width, labelWidth);
  const down = stretch(shown.height, labelHeight);
  // The region in shown coordinates: u from the shown left, v up from the shown bottom.
  const u0 = across.from;
  const u1 = across.from + across.length;
  const v1 = shown.height - down.from;
  const v0 = v1 - down.length;
  const [w, h] = [box.right - box.left, box.top - box.bottom];
  // Shown (u, v) back to user space (x, y) relative to the visible box, for each clockwise turn.
  let region: Box;
  switch (shownRotation(page)) {
    case 0:
      region = { left: u0, right: u1, bottom: v0, top: v1 };
      break;
    case 90: // shown (u, v) = (y, w - x)
      region = { left: w - v1, right: w - v0, bottom: u0, top: u1 };
      break;
    case 180: // shown (u, v) = (w - x, h - y)
      region = { left: w - u1, right: w - u0, bottom: h - v1, top: h - v0 };
      break;
    case 270: // shown (u, v) = (h - y, x)
      region = { left: v0, right: v1, bottom: h - u1, top: h - u0 };
      break;
  }
  return {
    region: { left: box.left + region.left, right: box.left + region.right, bottom: box.bottom + region.bottom, top: box.bottom + region.top },
    at: { x: across.inset, down: down.inset },
  };
}

/**
 * Where the embedded region (drawn from its own bottom-left corner, then turned) is put so that, shown
 * upright, its top-left corner lands `at` on a label `labelHeight` high.
 */
function drawnAt(rotation: 0 | 90 | 180 | 270, region: Box, at: { x: number; down: number }, labelHeight: number): { x: number; y: number } {
  const [w, h] = [region.right - region.left, region.top - region.bottom];
  // The upright size of the region on the label, and its bottom-left corner there.
  const shownHeight = rotation % 180 === 0 ? h : w;
  const x = at.x;
  const y = labelHeight - at.down - shownHeight;
  // Turning clockwise about the drawing point moves the region's corner; these put it back at (x, y).
  switch (rotation) {
    case 0:
      return { x, y };
    case 90:
      return { x, y: y + w };
    case 180:
      return { x: x + w, y: y + h };
    case 270:
      return { x: x + h, y };
  }
}
