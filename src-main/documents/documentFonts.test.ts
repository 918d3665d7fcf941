import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { hasPoppler, paperLine, paperSample, pdfText } from '../testing/shippingPapers';
import { FONT_FILES, fontFolder, fontsFor, standardFonts, toCharacterSet, unicodeFonts } from './documentFonts';
import { renderInvoice } from './invoice';
import { renderLabel, type LabelData } from './label';
import { labelDimensions } from './labelSizes';
import { renderPackingList } from './packingList';
import { PaperLayout } from './paper';

/** A Danish warehouse's receivers in Poland, Greece, Ukraine and Slovakia. */
const names = { city: 'Łódź', greek: 'Αθήνα', cyrillic: 'Київ', slovak: 'Škoda Žilina' };

function label(overrides: Partial<LabelData> = {}): LabelData {
  return {
    carrierName: 'Local delivery',
    productName: 'Own delivery, parcel',
    trackingNumber: 'LOC000001234',
    reference: 'ORDER-1001',
    sender: { name: 'Shipdesk Warehouse ApS', address1: 'Lagervej 12', postalCode: '8000', city: 'Aarhus C', countryCode: 'DK', phone: '+45 12345678' },
    receiver: {
      name: 'Søren Ærø Åberg',
      attention: 'Lise Møller',
      address1: 'Nørrebrogade 1, 3. tv',
      postalCode: '2200',
      city: 'København N',
      countryCode: 'DK',
    },
    parcelNumber: 1,
    parcelCount: 1,
    weightKg: 1.25,
    createdAt: '2026-03-04T12:00:00Z',
    servicePointId: null,
    ...overrides,
  };
}

const foreignLabel = () =>
  label({
    receiver: {
      name: names.slovak,
      attention: names.greek,
      address1: 'ul. Piotrkowska 104',
      address2: names.cyrillic,
      postalCode: '90-001',
      city: names.city,
      countryCode: 'PL',
    },
  });

const foreignPapers = () =>
  paperSample({
    receiver: { name: names.slovak, attention: names.greek, address1: 'ul. Piotrkowska 104', postalCode: '90-001', city: names.city, countryCode: 'PL' },
    parcels: [{ weightKg: 2, length: 0, width: 0, height: 0, lines: [paperLine(1, { description: `Mug from ${names.cyrillic}` })] }],
  });

/** The fonts a PDF names, and how many font programs it embeds (FontFile2: TrueType). */
async function fontFacts(pdf: Uint8Array): Promise<{ baseFonts: string[]; embedded: number }> {
  const doc = await PDFDocument.load(pdf);
  const baseFonts: string[] = [];
  let embedded = 0;
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    if (object.get(PDFName.of('Type')) === PDFName.of('Font') && object.get(PDFName.of('Subtype')) !== PDFName.of('CIDFontType2')) {
      baseFonts.push(String(object.get(PDFName.of('BaseFont'))));
    }
    if (object.has(PDFName.of('FontFile2'))) embedded += 1;
  }
  return { baseFonts: baseFonts.sort(), embedded };
}

/** Every word poppler finds, with its right edge in points. */
function words(pdf: Uint8Array): { text: string; xMax: number }[] {
  const folder = mkdtempSync(join(tmpdir(), 'shipdesk-fonts-'));
  try {
    const file = join(folder, 'document.pdf');
    writeFileSync(file, pdf);
    const html = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' });
    return [...html.matchAll(/<word xMin="[\d.]+" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g)].map((match) => ({
      xMax: Number(match[1]),
      text: match[2] ?? '',
    }));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('the font decision', () => {
  it('keeps Helvetica for text WinAnsi can show, and for strangers neither font has', async () => {
    expect((await fontsFor(label())).kind).toBe('standard');
    expect((await fontsFor({ name: 'Café 你好', lines: [['Ærø', null, 3]] })).kind).toBe('standard');
    // WinAnsi has Š and Ž (not Ł, ź, Greek or Cyrillic): a Slovak address needs no embedded font.
    expect((await fontsFor({ name: names.slovak })).kind).toBe('standard');
    // Right-to-left scripts are not laid out: they stay "?" rather than print backwards.
    expect((await fontsFor({ city: 'תל אביב' })).kind).toBe('standard');
    // A control character is a space on paper, not a reason to embed a font.
    expect((await fontsFor({ address: 'Line one\nline two\u0085' })).kind).toBe('standard');
  });

  it('takes DejaVu Sans when any string, however deep, has a letter WinAnsi lacks', async () => {
    for (const text of [names.city, names.greek, names.cyrillic]) {
      expect((await fontsFor({ parcels: [{ lines: [{ description: `Mug, ${text}` }] }] })).kind).toBe('unicode');
    }
    // "ź" alone once fell back to "z": now it is printed as written.
    expect((await fontsFor(['Gdańsk'])).kind).toBe('unicode');
  });

  it('replaces only what the chosen font lacks', async () => {
    const standard = await standardFonts();
    const unicode = await unicodeFonts();
    expect(toCharacterSet('Łódź Київ Škoda 😀', standard.characters)).toBe('?ódz ???? Škoda ?');
    // DejaVu Sans has a few emoji, but no Chinese.
    expect(toCharacterSet('Łódź Київ Αθήνα Škoda 😀 你好', unicode.characters)).toBe('Łódź Київ Αθήνα Škoda 😀 ??');
    expect(toCharacterSet('שלום', unicode.characters)).toBe('????');
  });

  it('finds the font files beside the code, with their license', () => {
    const folder = fontFolder();
    expect(folder).toBeDefined();
    for (const file of [FONT_FILES.regular, FONT_FILES.bold, 'LICENSE']) expect(existsSync(join(folder as string, file))).toBe(true);
    expect(readFileSync(join(folder as string, 'LICENSE'), 'utf8')).toContain('Bitstream Vera Fonts Copyright');
  });
});

describe('labels in other scripts', () => {
  it('a WinAnsi label still uses the standard Helvetica, embeds no font and stays small', async () => {
    const pdf = await renderLabel(label(), 'pdf', '100X150');
    expect(await fontFacts(pdf)).toEqual({ baseFonts: ['/Helvetica', '/Helvetica-Bold'], embedded: 0 });
    expect(pdf.toString('latin1')).not.toContain('/FontFile2');
    // 1.8 kB before Unicode fonts existed.
    expect(pdf.length).toBeLessThan(2200);
  });

  it.skipIf(!hasPoppler)('a Slovak receiver is WinAnsi: Helvetica prints Škoda Žilina as written', async () => {
    const pdf = await renderLabel(label({ receiver: { ...label().receiver, name: names.slovak, city: 'Žilina' } }), 'pdf', '100X150');
    expect((await fontFacts(pdf)).embedded).toBe(0);
    expect(pdfText(pdf)).toContain(names.slovak);
  });

  it('embeds subsets of DejaVu Sans when the receiver is in Łódź, Αθήνα or Київ', async () => {
    const pdf = await renderLabel(foreignLabel(), 'pdf', '100X150');
    const facts = await fontFacts(pdf);
    expect(facts.embedded).toBe(2);
    expect(facts.baseFonts).toEqual([expect.stringMatching(/^\/DejaVuSans-\d+$/), expect.stringMatching(/^\/DejaVuSans-Bold-\d+$/)]);
    // Only the glyphs used: a few kB, not the 1.4 MB of the two fonts.
    expect(pdf.length).toBeLessThan(20_000);
  });

  it.skipIf(!hasPoppler)('prints every name as written, without "?"', async () => {
    for (const size of ['100X150', 'A6', 'A4'] as const) {
      const text = pdfText(await renderLabel(foreignLabel(), 'pdf', size));
      for (const expected of [names.slovak, `Att. ${names.greek}`, names.cyrillic, `90-001 ${names.city}`, 'Shipdesk Warehouse ApS', 'LOC000001234']) {
        expect(text).toContain(expected);
      }
      expect(text).not.toContain('?');
    }
  });

  it.skipIf(!hasPoppler)('wraps a long name and cuts what two lines cannot hold with an ellipsis, measured in the font it is drawn in', async () => {
    const name = 'Товариство з обмеженою відповідальністю Київська Логістика Ω'.repeat(3);
    const pdf = await renderLabel(label({ receiver: { ...label().receiver, name, city: names.city } }), 'pdf', '100X150');
    const lines = pdfText(pdf)
      .split('\n')
      .map((line) => line.trim());
    const first = lines.findIndex((line) => line.startsWith('Товариство з обмеженою'));
    expect(lines[first]).not.toContain('…');
    expect(lines[first + 1]).toMatch(/…$/);
    const pageWidth = labelDimensions['100X150'].widthPt;
    for (const word of words(pdf)) expect(word.xMax).toBeLessThanOrEqual(pageWidth);
  });

  it.skipIf(!hasPoppler)('keeps every letter findable in the text layer, whichever label used the glyph first', async () => {
    // "Š" is drawn from the glyphs S and ˇ: a later label's bold "S" must still read as S.
    await renderLabel(label({ receiver: { ...label().receiver, name: 'Škoda', city: names.city } }), 'pdf', 'A6');
    const text = pdfText(
      await renderLabel(label({ carrierName: 'Sameday Sp. z o.o.', receiver: { ...label().receiver, name: 'Szczecin', city: names.city } }), 'pdf', 'A6'),
    );
    expect(text).toContain('Sameday Sp. z o.o.');
    expect(text).toContain('Szczecin');
  });

  it('fits a pasted wall of Cyrillic quickly', async () => {
    const started = performance.now();
    const pdf = await renderLabel(label({ receiver: { ...label().receiver, name: 'Ж'.repeat(100_000) } }), 'pdf', '100X150');
    expect(performance.now() - started).toBeLessThan(2000);
    if (hasPoppler) expect(pdfText(pdf)).toMatch(/Ж+…/);
  });

  it('ZPL keeps the names as UTF-8 for the printer’s scalable font', async () => {
    const zpl = (await renderLabel(foreignLabel(), 'zpl', '100X150')).toString('utf8');
    expect(zpl).toContain('^CI28');
    for (const expected of [names.slovak, `Att. ${names.greek}`, names.cyrillic, `90-001 ${names.city}`]) {
      expect(zpl).toMatch(new RegExp(`\\^A0N,\\d+,\\d+\\^FH_\\^FD${expected}\\^FS`));
    }
    expect(zpl).not.toContain('?');
  });
});

describe('shipping papers in other scripts', () => {
  const papers = [
    ['packing list', () => renderPackingList(foreignPapers())],
    ['proforma invoice', () => renderInvoice(foreignPapers(), 'proforma')],
    ['commercial invoice', () => renderInvoice(foreignPapers(), 'commercial')],
  ] as const;

  it.each(papers)('%s embeds DejaVu Sans for a receiver in Łódź', async (_, render) => {
    expect((await fontFacts(await render())).embedded).toBe(2);
  });

  it.skipIf(!hasPoppler).each(papers)('%s prints every name as written, without "?"', async (_, render) => {
    const text = pdfText(await render());
    // Captions are measured in DejaVu Sans Bold too, which is wider than Helvetica: none is cut.
    for (const expected of [
      names.slovak,
      `Att. ${names.greek}`,
      `90-001 ${names.city}`,
      `Mug from ${names.cyrillic}`,
      'Acme Warehouse ApS',
      'SHP-000042',
      'Tracking number',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('?');
  });

  it('a WinAnsi paper still uses Helvetica and embeds no font', async () => {
    const pdf = await renderPackingList(paperSample());
    expect(await fontFacts(pdf)).toEqual({ baseFonts: ['/Helvetica', '/Helvetica-Bold'], embedded: 0 });
  });

  it('wraps in the font the paper is drawn in', async () => {
    const unicode = await unicodeFonts();
    const layout = await PaperLayout.create(() => undefined, { receiver: names.cyrillic });
    expect(layout.fonts.kind).toBe('unicode');
    const text = `${names.greek} ${names.cyrillic} `.repeat(30);
    const lines = layout.wrap(text, false, 9, 120, 3);
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(unicode.regular.widthOfTextAtSize(line, 9)).toBeLessThanOrEqual(120);
    expect(lines[0]).toMatch(/^Αθήνα Київ/);
    expect(lines[2]?.endsWith('…')).toBe(true);
  });
});
