/**
 * Carrier-like PDF labels for the printing tests, and what poppler reads back from a PDF: its page
 * sizes (`pdfinfo`) and each word's box (`pdftotext -bbox`, points from the page's top-left).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts, degrees, rgb } from 'pdf-lib';
import { mmToPoints } from '../documents/labelSizes';

export interface DrawnWord {
  text: string;
  /** Millimetres from the page's left edge, and from its top edge to the word's baseline. */
  xMm: number;
  baselineMm: number;
  sizePt: number;
}

export interface SheetPage {
  widthMm: number;
  heightMm: number;
  words: DrawnWord[];
  /** A rectangle drawn like a label's border: mm from the left and the top. */
  frame?: { xMm: number; topMm: number; widthMm: number; heightMm: number };
  /** /Rotate of the page; words are then given in the page's own (unturned) space. */
  rotate?: 0 | 90 | 180 | 270;
  /** Where the MediaBox starts, so user space does not begin at (0, 0). */
  originPt?: { x: number; y: number };
}

/** A PDF of the given pages, text in Helvetica, as a carrier's label file might be. */
export async function sheetPdf(pages: readonly SheetPage[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const sheet of pages) {
    const [width, height] = [mmToPoints(sheet.widthMm), mmToPoints(sheet.heightMm)];
    const page = pdf.addPage([width, height]);
    const origin = sheet.originPt ?? { x: 0, y: 0 };
    page.setMediaBox(origin.x, origin.y, width, height);
    const x = (mm: number) => origin.x + mmToPoints(mm);
    const y = (mmFromTop: number) => origin.y + height - mmToPoints(mmFromTop);
    if (sheet.frame) {
      const frame = sheet.frame;
      page.drawRectangle({
        x: x(frame.xMm),
        y: y(frame.topMm + frame.heightMm),
        width: mmToPoints(frame.widthMm),
        height: mmToPoints(frame.heightMm),
        borderColor: rgb(0, 0, 0),
        borderWidth: 1.5,
      });
    }
    for (const word of sheet.words) page.drawText(word.text, { x: x(word.xMm), y: y(word.baselineMm), size: word.sizePt, font });
    if (sheet.rotate) page.setRotation(degrees(sheet.rotate));
  }
  const bytes = await pdf.save({ useObjectStreams: false });
  return bytes;
}

export interface ReadWord {
  text: string;
  /** Points from the page's top-left, as poppler reads the page upright. */
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
  page: number;
}

function withFile<T>(pdf: Uint8Array | string, read: (file: string) => T): T {
  if (typeof pdf === 'string') return read(pdf);
  const folder = mkdtempSync(join(tmpdir(), 'shipdesk-label-pdf-'));
  try {
    const file = join(folder, 'label.pdf');
    writeFileSync(file, pdf);
    return read(file);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Every word poppler finds, page by page (1-based). */
export function pdfWords(pdf: Uint8Array | string): ReadWord[] {
  return withFile(pdf, (file) => {
    const html = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' });
    const words: ReadWord[] = [];
    for (const [index, pageHtml] of html.split('<page ').slice(1).entries()) {
      for (const match of pageHtml.matchAll(/<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g)) {
        words.push({ xMin: Number(match[1]), yMin: Number(match[2]), xMax: Number(match[3]), yMax: Number(match[4]), text: match[5] ?? '', page: index + 1 });
      }
    }
    return words;
  });
}

/** Each page's size in points as shown (after /Rotate), from pdfinfo. */
export function pdfPageSizes(pdf: Uint8Array | string): { widthPt: number; heightPt: number; rotation: number }[] {
  return withFile(pdf, (file) => {
    const info = execFileSync('pdfinfo', ['-f', '1', '-l', '999', file], { encoding: 'utf8' });
    const sizes = [...info.matchAll(/Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/g)];
    const rotations = [...info.matchAll(/Page\s+\d+ rot:\s+(\d+)/g)];
    return sizes.map((size, index) => {
      const rotation = Number(rotations[index]?.[1] ?? 0);
      const [width, height] = [Number(size[1]), Number(size[2])];
      return rotation % 180 === 0 ? { widthPt: width, heightPt: height, rotation } : { widthPt: height, heightPt: width, rotation };
    });
  });
}

/** The word `text` as read back, or a failure naming what was read instead. */
export function wordIn(words: readonly ReadWord[], text: string): ReadWord {
  const found = words.find((word) => word.text === text);
  if (!found) throw new Error(`No word ${text} in the PDF; it has: ${words.map((word) => word.text).join(' ')}`);
  return found;
}
