import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { PaperLine, ShippingPaperData } from '../documents/paper';

/** A4 in points, written out here rather than imported, so a wrong table cannot agree with itself. */
export const A4_POINTS = { width: (210 * 72) / 25.4, height: (297 * 72) / 25.4 };

/** An order line for the papers; `n` makes its SKU and description unique. */
export function paperLine(n: number, overrides: Partial<PaperLine> = {}): PaperLine {
  return {
    sku: `SKU-${String(n).padStart(3, '0')}`,
    description: `Ceramic mug no. ${n}`,
    quantity: 1,
    unitPrice: 10,
    currency: 'EUR',
    countryOfOrigin: 'DK',
    tarrifNumber: '6912.00',
    location: `A-${n}`,
    ...overrides,
  };
}

export function paperSample(overrides: Partial<ShippingPaperData> = {}): ShippingPaperData {
  return {
    reference: 'SHP-000042',
    order: { id: 'ord_01example', number: '1001' },
    trackingNumber: 'LOC000000042',
    carrierName: 'Own trucks',
    productName: 'Parcel',
    termOfTrade: 'DDP',
    // Midday UTC, so the local date is the same in every time zone the tests run in.
    date: '2026-03-04T12:00:00Z',
    isReturn: false,
    sender: { name: 'Acme Warehouse ApS', address1: 'Industrivej 12', postalCode: '8000', city: 'Aarhus', countryCode: 'DK', phone: '+4512345678' },
    receiver: {
      name: 'Søren Ærø Åberg',
      attention: 'Goods in',
      address1: '1 High Street',
      postalCode: 'SW1A 1AA',
      city: 'London',
      countryCode: 'GB',
      email: 'soren@example.co.uk',
    },
    parcels: [
      {
        weightKg: 2.5,
        length: 30,
        width: 20,
        height: 10,
        lines: [
          paperLine(1, { quantity: 2, unitPrice: 12.5 }),
          paperLine(2, { quantity: 3, unitPrice: 0.1, currency: 'DKK', tarrifNumber: '0902.10', countryOfOrigin: 'CN' }),
        ],
      },
      { weightKg: 1.25, length: 0, width: 0, height: 0, lines: [paperLine(3, { quantity: 1, unitPrice: 99.99 })] },
    ],
    ...overrides,
  };
}

/** Page count and sizes of a PDF, parsed back with pdf-lib. */
export async function pdfPages(bytes: Uint8Array): Promise<{ width: number; height: number }[]> {
  const pdf = await PDFDocument.load(bytes);
  return pdf.getPages().map((page) => page.getSize());
}

export const hasPoppler = (() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** The PDF's text as poppler's `pdftotext -layout` reads it (each page ends in a form feed). */
export function pdfText(bytes: Uint8Array): string {
  const folder = mkdtempSync(join(tmpdir(), 'shipdesk-paper-'));
  try {
    const file = join(folder, 'paper.pdf');
    writeFileSync(file, bytes);
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
