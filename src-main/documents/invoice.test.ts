import { describe, expect, it } from 'vitest';
import { invoiceLines, invoiceNumber, renderInvoice, totalsByCurrency } from './invoice';
import { A4_POINTS, hasPoppler, paperLine, paperSample, pdfPages, pdfText } from '../testing/shippingPapers';

describe('invoice lines', () => {
  it('declares the same goods packed in several parcels once, with their quantities added', () => {
    const same = paperLine(1, { quantity: 2, unitPrice: 0.1 });
    const lines = invoiceLines(
      paperSample({
        parcels: [
          { weightKg: 1, length: 0, width: 0, height: 0, lines: [same, paperLine(2, { currency: 'DKK', unitPrice: null })] },
          { weightKg: 1, length: 0, width: 0, height: 0, lines: [{ ...same, quantity: 1, location: 'B-9' }] },
        ],
      }),
    );
    expect(lines).toEqual([
      expect.objectContaining({ sku: 'SKU-001', quantity: 3, unitPrice: 0.1, currency: 'EUR', totalCents: 30 }),
      expect.objectContaining({ sku: 'SKU-002', quantity: 1, unitPrice: null, currency: 'DKK', totalCents: 0 }),
    ]);
    // Cents, so 0.1 × 3 is 0.30 exactly.
    expect(totalsByCurrency(lines)).toEqual([
      { currency: 'EUR', cents: 30 },
      { currency: 'DKK', cents: 0 },
    ]);
  });

  it('numbers the invoice after the shipment reference', () => {
    expect(invoiceNumber('commercial', 'SHP-000042')).toBe('INV-SHP-000042');
    expect(invoiceNumber('proforma', 'SHP-000042')).toBe('PRO-SHP-000042');
  });
});

describe('renderInvoice', () => {
  it.each(['proforma', 'commercial'] as const)('%s: one A4 page for a small shipment', async (kind) => {
    const pages = await pdfPages(await renderInvoice(paperSample(), kind));
    expect(pages).toHaveLength(1);
    expect(pages[0]!.width).toBeCloseTo(A4_POINTS.width, 1);
    expect(pages[0]!.height).toBeCloseTo(A4_POINTS.height, 1);
  });

  it.skipIf(!hasPoppler)('commercial: seller, buyer, term of trade, lines with HS code and origin, totals per currency, weight, declaration', async () => {
    const text = pdfText(await renderInvoice(paperSample(), 'commercial'));
    for (const expected of [
      'Commercial invoice',
      'INV-SHP-000042',
      '2026-03-04',
      '1001 (ord_01example)',
      'Seller / exporter',
      'Acme Warehouse ApS',
      'Buyer / consignee',
      'Søren Ærø Åberg',
      'DDP',
      'Total EUR',
      '124.99',
      'Total DKK',
      '0.30',
      '3.75 kg',
      'I declare that the information on this invoice is true and correct',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).toMatch(/1\s+Ceramic mug no\. 1\s+SKU-001\s+6912\.00\s+DK\s+2\s+12\.50\s+EUR\s+25\.00/);
    expect(text).toMatch(/2\s+Ceramic mug no\. 2\s+SKU-002\s+0902\.10\s+CN\s+3\s+0\.10\s+DKK\s+0\.30/);
    expect(text).not.toContain('no commercial value');
  });

  it.skipIf(!hasPoppler)('proforma: says it has no commercial value', async () => {
    const text = pdfText(await renderInvoice(paperSample(), 'proforma'));
    expect(text).toContain('Proforma invoice — no commercial value / for customs purposes');
    expect(text).toContain('PRO-SHP-000042');
  });

  it('flows 150 lines onto further A4 pages, totals after the last line', async () => {
    const lines = Array.from({ length: 150 }, (_, n) => paperLine(n + 1, { description: n === 0 ? 'Ø'.repeat(500) : `Mug ${n + 1} 你好` }));
    const one = await pdfPages(await renderInvoice(paperSample(), 'commercial'));
    const pdf = await renderInvoice(paperSample({ parcels: [{ weightKg: 12, length: 0, width: 0, height: 0, lines }] }), 'commercial');
    const pages = await pdfPages(pdf);
    expect(pages.length).toBeGreaterThan(one.length + 1);
    for (const page of pages) expect(page.height).toBeCloseTo(A4_POINTS.height, 1);
    if (hasPoppler) {
      const text = pdfText(pdf)
        .split('\f')
        .filter((page) => page.trim() !== '');
      expect(text).toHaveLength(pages.length);
      const last = text.at(-1) as string;
      expect(last).toContain('SKU-150');
      expect(last).toMatch(/Total EUR\s+1500\.00/);
      expect(last).toContain(`Page ${pages.length} of ${pages.length}`);
      expect(text[1]).toContain('Commercial invoice INV-SHP-000042 (continued)');
    }
  });
});
