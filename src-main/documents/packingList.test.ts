import { describe, expect, it } from 'vitest';
import { renderPackingList } from './packingList';
import { A4_POINTS, hasPoppler, paperLine, paperSample, pdfPages, pdfText } from '../testing/shippingPapers';

describe('renderPackingList', () => {
  it('is an A4 PDF', async () => {
    const pdf = await renderPackingList(paperSample());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pages = await pdfPages(pdf);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.width).toBeCloseTo(A4_POINTS.width, 1);
    expect(pages[0]!.height).toBeCloseTo(A4_POINTS.height, 1);
  });

  it.skipIf(!hasPoppler)('shows the shipment, the order, both parties and each parcel with its lines', async () => {
    const text = pdfText(await renderPackingList(paperSample()));
    for (const expected of [
      'Packing list',
      'SHP-000042',
      '1001 (ord_01example)',
      'LOC000000042',
      '2026-03-04',
      'Acme Warehouse ApS',
      'Søren Ærø Åberg',
      'SW1A 1AA London',
      'Parcel 1/2: 2.5 kg, 30 × 20 × 10 cm',
      'Parcel 2/2: 1.25 kg',
      'Ceramic mug no. 3',
      '3.75 kg',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).toMatch(/SKU-001\s+Ceramic mug no\. 1\s+A-1\s+2\n/);
    expect(text).toMatch(/SKU-002\s+Ceramic mug no\. 2\s+A-2\s+3\n/);
    // Prices belong on the invoice, not on the paper that goes in the box.
    expect(text).not.toContain('12.50');
  });

  it('flows 150 lines onto further pages, each A4, and survives long and non-Latin-1 text', async () => {
    const lines = Array.from({ length: 150 }, (_, n) => paperLine(n + 1, n === 7 ? { description: 'Łódź 你好 😀 '.repeat(40), sku: 'S'.repeat(120) } : {}));
    const pdf = await renderPackingList(paperSample({ parcels: [{ weightKg: 30, length: 60, width: 40, height: 40, lines }] }));
    const pages = await pdfPages(pdf);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const page of pages) {
      expect(page.width).toBeCloseTo(A4_POINTS.width, 1);
      expect(page.height).toBeCloseTo(A4_POINTS.height, 1);
    }
    if (hasPoppler) {
      const text = pdfText(pdf);
      expect(text).toContain('SKU-150');
      // "Łódź" makes the whole list DejaVu Sans, which has that emoji but no Chinese.
      expect(text).toContain('Łódź ?? 😀');
      expect(text).toContain('Packing list SHP-000042 (continued)');
      expect(text).toContain(`Page ${pages.length} of ${pages.length}`);
      expect(text).toContain('150 lines, 150 items');
    }
  });
});
