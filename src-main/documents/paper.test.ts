import { describe, expect, it } from 'vitest';
import { standardFonts } from './documentFonts';
import { A4, CONTENT_WIDTH, PaperLayout, formatMoney, writePaperPdf } from './paper';
import { A4_POINTS, hasPoppler, pdfPages, pdfText } from '../testing/shippingPapers';

const width = async (text: string, size: number) => (await standardFonts()).regular.widthOfTextAtSize(text, size);

describe('PaperLayout.wrap', () => {
  it('keeps short text on one line, as it is', async () => {
    const layout = await PaperLayout.create(() => undefined, {});
    expect(layout.wrap('Ceramic mug', false, 9, 200, 3)).toEqual(['Ceramic mug']);
    expect(layout.wrap('', false, 9, 200, 3)).toEqual(['']);
  });

  it('wraps at spaces within the width and ends the last allowed line in an ellipsis', async () => {
    const layout = await PaperLayout.create(() => undefined, {});
    const text = 'A very long description of a ceramic mug '.repeat(20).trim();
    const lines = layout.wrap(text, false, 9, 150, 3);
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(await width(line, 9)).toBeLessThanOrEqual(150);
    expect(lines[2]!.endsWith('\u2026')).toBe(true);
    expect(lines.slice(0, 2).join(' ')).toBe(text.slice(0, lines.slice(0, 2).join(' ').length));
    expect(layout.cut(text, false, 9, 150)).toBe(layout.wrap(text, false, 9, 150, 1)[0]);
  });

  it('breaks a word wider than the column instead of overflowing it', async () => {
    const layout = await PaperLayout.create(() => undefined, {});
    const sku = 'X'.repeat(200);
    const lines = layout.wrap(sku, false, 9, 60, 2);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^X+$/);
    expect(lines[1]).toMatch(/^X+\u2026$/);
    for (const line of lines) expect(await width(line, 9)).toBeLessThanOrEqual(60);
  });

  it('replaces what the chosen font cannot draw and turns control characters into spaces', async () => {
    // Text the document's data does not hold takes no part in the font decision: Helvetica here.
    const helvetica = await PaperLayout.create(() => undefined, {});
    expect(helvetica.wrap('Łódź\tCafé 你好😀', false, 9, 400, 1)).toEqual(['?ódz Café ???']);
    const dejaVu = await PaperLayout.create(() => undefined, { city: 'Łódź' });
    expect(dejaVu.wrap('Łódź\tCafé 你好', false, 9, 400, 1)).toEqual(['Łódź Café ??']);
  });
});

describe('PaperLayout pages', () => {
  it('flows onto further A4 pages with the running header, and writes "Page n of m"', async () => {
    let continued = 0;
    const layout = await PaperLayout.create((page) => {
      continued += 1;
      page.paragraph('Running header', { bold: true, size: 10, maxLines: 1 });
    }, {});
    layout.table(
      [
        { header: 'SKU', width: 100 },
        { header: 'Description', width: CONTENT_WIDTH - 100 },
      ],
      Array.from({ length: 150 }, (_, n) => [`SKU-${n}`, `Line ${n}`]),
      { size: 8.5 },
    );
    expect(layout.pages.length).toBeGreaterThanOrEqual(3);
    expect(continued).toBe(layout.pages.length - 1);
    const pdf = await writePaperPdf(layout, { title: 'Test', footer: 'Test footer' });
    const pages = await pdfPages(pdf);
    expect(pages).toHaveLength(layout.pages.length);
    for (const page of pages) {
      expect(page.width).toBeCloseTo(A4_POINTS.width, 1);
      expect(page.height).toBeCloseTo(A4_POINTS.height, 1);
    }
    expect(A4.widthPt).toBeCloseTo(595.28, 2);
    if (hasPoppler) {
      const text = pdfText(pdf).split('\f');
      for (let n = 0; n < pages.length; n++) {
        expect(text[n]).toContain(`Page ${n + 1} of ${pages.length}`);
        // The table's header is repeated on every page it continues on.
        expect(text[n]).toMatch(/SKU\s+Description/);
      }
      expect(text[1]).toContain('Running header');
      expect(text.join('')).toContain('SKU-149');
    }
  });
});

describe('formatMoney', () => {
  it('writes two decimals without grouping', () => {
    expect(formatMoney(0.1 + 0.2)).toBe('0.30');
    expect(formatMoney(1234567.5)).toBe('1234567.50');
    expect(formatMoney(0)).toBe('0.00');
  });
});
