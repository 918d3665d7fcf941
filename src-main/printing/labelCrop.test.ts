import { PDFDocument, PDFName, PDFStream, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { labelDimensions, mmToPoints } from '../documents/labelSizes';
import { pdfPageSizes, pdfWords, sheetPdf, wordIn, type ReadWord, type SheetPage } from '../testing/labelPdfs';
import { cropLabelToSize } from './labelCrop';

/**
 * Cropping is checked with poppler, as a printer would read the result: the page size it shows and
 * where each word sits. A word inside the label keeps exactly the box it had on the carrier's page
 * (same place from the top-left, same size: 100 %); a word outside it is gone.
 */

/** An A6 label in the top-left quarter of an A4 sheet, with words in the other quarters. */
const a4Sheet: SheetPage = {
  widthMm: 210,
  heightMm: 297,
  frame: { xMm: 5, topMm: 5, widthMm: 95, heightMm: 138 },
  words: [
    { text: 'SHIPTO', xMm: 10, baselineMm: 20, sizePt: 20 },
    { text: 'TRACKING', xMm: 10, baselineMm: 135, sizePt: 14 },
    { text: 'OTHERQUARTER', xMm: 120, baselineMm: 20, sizePt: 14 },
    { text: 'FOOTER', xMm: 10, baselineMm: 280, sizePt: 14 },
  ],
};

const close = (a: number, b: number, within = 0.05) => Math.abs(a - b) <= within;

/** The same box, moved by (dx, dy) points. */
function expectBox(actual: ReadWord, expected: ReadWord, dx = 0, dy = 0) {
  const moved = { xMin: expected.xMin + dx, yMin: expected.yMin + dy, xMax: expected.xMax + dx, yMax: expected.yMax + dy };
  const got = { xMin: actual.xMin, yMin: actual.yMin, xMax: actual.xMax, yMax: actual.yMax };
  const ok = close(got.xMin, moved.xMin) && close(got.yMin, moved.yMin) && close(got.xMax, moved.xMax) && close(got.yMax, moved.yMax);
  expect(ok, `${actual.text} at ${JSON.stringify(got)}, expected ${JSON.stringify(moved)}`).toBe(true);
}

function expectPage(size: { widthPt: number; heightPt: number } | undefined, label: keyof typeof labelDimensions) {
  expect(size).toBeDefined();
  expect(close(size?.widthPt ?? 0, labelDimensions[label].widthPt, 0.01)).toBe(true);
  expect(close(size?.heightPt ?? 0, labelDimensions[label].heightPt, 0.01)).toBe(true);
}

describe('a label on a page larger than the label', () => {
  it('an A6 label in the top-left of an A4 sheet becomes an A6 page showing that corner at 100 %', async () => {
    const sheet = await sheetPdf([a4Sheet]);
    const { content, cropped } = await cropLabelToSize(sheet, 'A6');
    expect(cropped).toBe(true);
    const sizes = pdfPageSizes(content);
    expect(sizes).toHaveLength(1);
    expectPage(sizes[0], 'A6');
    expect(sizes[0]?.rotation).toBe(0);

    const before = pdfWords(sheet);
    const after = pdfWords(content);
    expect(after.map((word) => word.text).sort()).toEqual(['SHIPTO', 'TRACKING']);
    expectBox(wordIn(after, 'SHIPTO'), wordIn(before, 'SHIPTO'));
    expectBox(wordIn(after, 'TRACKING'), wordIn(before, 'TRACKING'));
    // 100 %: the 20 pt word is as wide as on the carrier's page (shrinking A4 onto A6 would halve it).
    const shipTo = wordIn(after, 'SHIPTO');
    const helvetica = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
    const scale = (shipTo.xMax - shipTo.xMin) / helvetica.widthOfTextAtSize('SHIPTO', 20);
    expect(scale).toBeGreaterThan(0.97);
    expect(scale).toBeLessThan(1.03);
  });

  it('keeps vectors and text: the page is embedded as a form, not drawn as a picture', async () => {
    const { content } = await cropLabelToSize(await sheetPdf([a4Sheet]), 'A6');
    const pdf = await PDFDocument.load(content);
    const { XObject } = pdf.getPage(0).node.normalizedEntries();
    const kinds = XObject.entries().map(([, ref]) => pdf.context.lookup(ref, PDFStream).dict.get(PDFName.of('Subtype'))?.toString());
    expect(kinds).toEqual(['/Form']);
  });

  it('on a 100 × 150 mm printer: the top-left 100 × 150 mm of the sheet, not scaled', async () => {
    const sheet = await sheetPdf([a4Sheet]);
    const { content, cropped } = await cropLabelToSize(sheet, '100X150');
    expect(cropped).toBe(true);
    expectPage(pdfPageSizes(content)[0], '100X150');
    const before = pdfWords(sheet);
    const after = pdfWords(content);
    expectBox(wordIn(after, 'SHIPTO'), wordIn(before, 'SHIPTO'));
    expectBox(wordIn(after, 'TRACKING'), wordIn(before, 'TRACKING'));
    expect(after.find((word) => word.text === 'OTHERQUARTER' || word.text === 'FOOTER')).toBeUndefined();
  });

  it('a page a few mm off the label (A6 on a 100 × 150 mm roll) is cut and padded evenly on both sides', async () => {
    const a6 = await sheetPdf([{ widthMm: 105, heightMm: 148, words: [{ text: 'SHIPTO', xMm: 10, baselineMm: 20, sizePt: 20 }] }]);
    const { content, cropped } = await cropLabelToSize(a6, '100X150');
    expect(cropped).toBe(true);
    expectPage(pdfPageSizes(content)[0], '100X150');
    // 2.5 mm cut from the left (and right); the page is 2 mm short, so 1 mm blank above (and below).
    expectBox(wordIn(pdfWords(content), 'SHIPTO'), wordIn(pdfWords(a6), 'SHIPTO'), -mmToPoints(2.5), mmToPoints(1));
  });

  it('crops each page of a file with several labels; a page that already fits is kept', async () => {
    const fitting: SheetPage = { widthMm: 105, heightMm: 148, words: [{ text: 'SECOND', xMm: 10, baselineMm: 20, sizePt: 12 }] };
    const third: SheetPage = { ...a4Sheet, words: [{ text: 'THIRD', xMm: 12, baselineMm: 40, sizePt: 16 }] };
    const file = await sheetPdf([a4Sheet, fitting, third]);
    const { content } = await cropLabelToSize(file, 'A6');
    const sizes = pdfPageSizes(content);
    expect(sizes).toHaveLength(3);
    for (const size of sizes) expectPage(size, 'A6');
    const before = pdfWords(file);
    const after = pdfWords(content);
    expect(after.map((word) => `${word.page}:${word.text}`)).toEqual(['1:SHIPTO', '1:TRACKING', '2:SECOND', '3:THIRD']);
    for (const text of ['SHIPTO', 'SECOND', 'THIRD']) expectBox(wordIn(after, text), wordIn(before, text));
  });

  it.each([90, 180, 270] as const)('a page turned by /Rotate %i: the corner shown top-left is taken, shown upright', async (rotate) => {
    // Where, in the page's own space, the corner that is shown top-left lies after the turn.
    const corner = {
      90: { xMm: 10, baselineMm: 285 },
      180: { xMm: 150, baselineMm: 285 },
      270: { xMm: 150, baselineMm: 20 },
    }[rotate];
    const opposite = { 90: { xMm: 150, baselineMm: 20 }, 180: { xMm: 10, baselineMm: 20 }, 270: { xMm: 10, baselineMm: 285 } }[rotate];
    const sheet = await sheetPdf([
      {
        widthMm: 210,
        heightMm: 297,
        rotate,
        words: [
          { text: 'CORNER', ...corner, sizePt: 14 },
          { text: 'FARAWAY', ...opposite, sizePt: 14 },
        ],
      },
    ]);
    const { content, cropped } = await cropLabelToSize(sheet, 'A6');
    expect(cropped).toBe(true);
    const [size] = pdfPageSizes(content);
    expectPage(size, 'A6');
    expect(size?.rotation).toBe(0);
    const after = pdfWords(content);
    expect(after.map((word) => word.text)).toEqual(['CORNER']);
    expectBox(wordIn(after, 'CORNER'), wordIn(pdfWords(sheet), 'CORNER'));
  });

  it('a MediaBox that does not start at (0, 0) is cropped from its own top-left', async () => {
    const sheet = await sheetPdf([{ ...a4Sheet, originPt: { x: -120, y: 45 } }]);
    const { content } = await cropLabelToSize(sheet, 'A6');
    expectPage(pdfPageSizes(content)[0], 'A6');
    const after = pdfWords(content);
    expect(after.map((word) => word.text).sort()).toEqual(['SHIPTO', 'TRACKING']);
    expectBox(wordIn(after, 'SHIPTO'), wordIn(pdfWords(sheet), 'SHIPTO'));
  });
});

describe('a label that already fits', () => {
  it.each([
    ['an A6 page on A6', 105, 148, 'A6'],
    ['a 100 × 150 page on 100 × 150', 100, 150, '100X150'],
    ['a page within 1 mm of the label', 100.8, 150.8, '100X150'],
    ['a landscape 150 × 100 page (the spooler turns it)', 150, 100, '100X150'],
    ['an A6 page on A4', 105, 148, 'A4'],
  ] as const)('%s is printed unchanged, byte for byte', async (_what, widthMm, heightMm, size) => {
    const pdf = await sheetPdf([{ widthMm, heightMm, words: [{ text: 'LABEL', xMm: 5, baselineMm: 15, sizePt: 12 }] }]);
    const result = await cropLabelToSize(pdf, size);
    expect(result.cropped).toBe(false);
    expect(result.content).toBe(pdf);
  });

  it('a damaged PDF is refused by the reader, so the caller can print it as it is', async () => {
    await expect(cropLabelToSize(Buffer.from('%PDF-1.7 not really'), 'A6')).rejects.toThrow();
  });
});
