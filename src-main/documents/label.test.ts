import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import bwipjs from 'bwip-js/node';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, type PDFNumber, type PDFPage } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { labelSizes, type LabelSize } from '../../src-shared/schemas/carrier';
import { pdfText } from '../testing/shippingPapers';
import { LabelRenderError, renderLabel, type LabelData } from './label';

/** The physical sizes, written out here rather than imported, so a wrong table cannot agree with itself. */
const physicalMm: Record<LabelSize, [number, number]> = {
  A4: [210, 297],
  A6: [105, 148],
  '100X150': [100, 150],
  '100X192': [100, 192],
};
const pt = (mm: number) => (mm * 72) / 25.4;
const dots = (mm: number) => mm * 8;

function sample(overrides: Partial<LabelData> = {}): LabelData {
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
      address2: 'c/o Hansen',
      postalCode: '2200',
      city: 'København N',
      countryCode: 'DK',
      phone: '+45 87654321',
    },
    parcelNumber: 2,
    parcelCount: 3,
    weightKg: 1.25,
    // Midday UTC, so the local date is the same in every time zone the tests run in.
    createdAt: '2026-03-04T12:00:00Z',
    servicePointId: 'SP-4411',
    ...overrides,
  };
}

interface PdfFacts {
  pageCount: number;
  width: number;
  height: number;
  /** The page's content stream(s), inflated. */
  content: string;
  /** Every string shown with Tj, decoded from WinAnsi. */
  texts: string[];
  fontSizes: number[];
  /** Text origins (Td) in points. */
  origins: [number, number][];
  images: { name: string; stream: PDFRawStream }[];
}

const winAnsi = new TextDecoder('windows-1252');

function streamBytes(stream: PDFRawStream): Buffer {
  const filter = stream.dict.get(PDFName.of('Filter'));
  return filter === PDFName.of('FlateDecode') ? inflateSync(stream.contents) : Buffer.from(stream.contents);
}

async function readPdf(bytes: Buffer): Promise<PdfFacts> {
  const doc = await PDFDocument.load(bytes);
  const pages = doc.getPages();
  const page = pages[0] as PDFPage;
  const { width, height } = page.getSize();
  const contents = page.node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)) : [contents];
  const content = streams.map((stream) => streamBytes(stream as PDFRawStream).toString('latin1')).join('\n');
  const texts = [...content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)].map((match) => winAnsi.decode(Buffer.from(match[1] ?? '', 'hex')));
  const fontSizes = [...content.matchAll(/ ([\d.]+) Tf/g)].map((match) => Number(match[1]));
  const origins = [...content.matchAll(/(-?[\d.]+) (-?[\d.]+) Td/g)].map((match): [number, number] => [Number(match[1]), Number(match[2])]);
  const xObjects = page.node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict);
  const images = (xObjects?.entries() ?? [])
    .map(([name, ref]) => ({ name: name.toString(), stream: doc.context.lookup(ref) }))
    .filter(
      (entry): entry is { name: string; stream: PDFRawStream } =>
        entry.stream instanceof PDFRawStream && entry.stream.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'),
    );
  return { pageCount: pages.length, width, height, content, texts, fontSizes, origins, images };
}

const intOf = (dict: PDFDict, key: string) => (dict.get(PDFName.of(key)) as PDFNumber).asNumber();

/** The bar/space runs in modules of the one-row, one-byte-per-module barcode image. */
function runsOf(row: Buffer): { runs: number[]; leadingWhite: number; trailingWhite: number } {
  const black = [...row].map((byte) => byte === 0x00);
  const first = black.indexOf(true);
  const last = black.lastIndexOf(true);
  const runs: number[] = [];
  for (let i = first; i <= last;) {
    let j = i;
    while (j <= last && black[j] === black[i]) j += 1;
    runs.push(j - i);
    i = j;
  }
  return { runs, leadingWhite: first, trailingWhite: row.length - 1 - last };
}

describe('renderLabel pdf', () => {
  it.each(labelSizes)('%s is one page of the physical size', async (size) => {
    const pdf = await renderLabel(sample(), 'pdf', size);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const facts = await readPdf(pdf);
    const [widthMm, heightMm] = physicalMm[size];
    expect(facts.pageCount).toBe(1);
    expect(Math.abs(facts.width - pt(widthMm))).toBeLessThanOrEqual(0.5);
    expect(Math.abs(facts.height - pt(heightMm))).toBeLessThanOrEqual(0.5);
    // Everything drawn lies on the page.
    for (const [x, y] of facts.origins) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(facts.width);
      expect(y).toBeGreaterThan(0);
      expect(y).toBeLessThan(facts.height);
    }
  });

  it('shows carrier, product, both addresses, reference, parcel, weight, date and tracking number as text', async () => {
    const { texts } = await readPdf(await renderLabel(sample(), 'pdf', '100X150'));
    expect(texts).toEqual(
      expect.arrayContaining([
        'Local delivery',
        'Own delivery, parcel',
        'Shipdesk Warehouse ApS',
        'Lagervej 12',
        'DK-8000 Aarhus C',
        'Søren Ærø Åberg',
        'Att. Lise Møller',
        'Nørrebrogade 1, 3. tv',
        'c/o Hansen',
        '2200 København N',
        'DK',
        'ORDER-1001',
        'Parcel 2/3',
        '1.25 kg',
        '2026-03-04',
        'SP-4411',
        'LOC000001234',
      ]),
    );
  });

  it('embeds the Code 128 of the tracking number as an image and draws it', async () => {
    const facts = await readPdf(await renderLabel(sample({ trackingNumber: 'LOC000001234' }), 'pdf', '100X150'));
    expect(facts.images).toHaveLength(1);
    const image = facts.images[0];
    if (!image) throw new Error('no image');
    expect(facts.content).toContain(`${image.name} Do`);
    expect(intOf(image.stream.dict, 'Height')).toBe(1);
    expect(intOf(image.stream.dict, 'BitsPerComponent')).toBe(1);
    const row = streamBytes(image.stream);
    expect(intOf(image.stream.dict, 'Width')).toBe(row.length * 8);

    const { runs, leadingWhite, trailingWhite } = runsOf(row);
    expect(leadingWhite).toBeGreaterThanOrEqual(10);
    expect(trailingWhite).toBeGreaterThanOrEqual(10);
    // A Code 128 start (A, B or C) and the stop pattern.
    expect(['211412', '211214', '211232']).toContain(runs.slice(0, 6).join(''));
    expect(runs.slice(-7).join('')).toBe('2331112');
    const [expected] = bwipjs.raw({ bcid: 'code128', text: 'LOC000001234' });
    expect(expected && 'sbs' in expected ? expected.sbs : []).toEqual(runs);
  });

  it('scales the layout with the page: A4 is a big label, not a small one in a corner', async () => {
    const small = await readPdf(await renderLabel(sample(), 'pdf', '100X150'));
    const large = await readPdf(await renderLabel(sample(), 'pdf', 'A4'));
    expect(Math.max(...large.fontSizes)).toBeGreaterThan(1.9 * Math.max(...small.fontSizes));
    const lowestText = (facts: PdfFacts) => Math.min(...facts.origins.map(([, y]) => y)) / facts.height;
    expect(lowestText(large)).toBeCloseTo(lowestText(small), 1);
  });

  it('replaces characters no font of the label has instead of crashing', async () => {
    // Chinese is in neither Helvetica nor DejaVu Sans, so this label stays on Helvetica.
    const receiver = { ...sample().receiver, name: 'Søren 你好', city: 'Kraków', address1: 'Nørrebrogade 5\nlok. 3' };
    const { texts } = await readPdf(await renderLabel(sample({ receiver }), 'pdf', 'A6'));
    expect(texts).toContain('Søren ??');
    expect(texts).toContain('2200 Kraków');
    expect(texts).toContain('Nørrebrogade 5 lok. 3');
  });

  it('wraps a name too long for one line onto a second, and cuts what does not fit in two with an ellipsis', async () => {
    const receiver = { ...sample().receiver, name: 'Very Long Company Name '.repeat(10) };
    const { texts, origins, width } = await readPdf(await renderLabel(sample({ receiver }), 'pdf', '100X150'));
    const first = texts.findIndex((text) => text.startsWith('Very Long Company'));
    expect(texts[first]?.endsWith('…')).toBe(false);
    expect(texts[first + 1]).toMatch(/^(Very|Long|Company|Name) .*…$/);
    expect(Math.max(...origins.map(([x]) => x))).toBeLessThan(width);
  });

  it('keeps every word of a street line that needs two lines, in PDF and in ZPL', async () => {
    const address1 = 'Industrivej Syd 1234, Bygning C, Port 7, Lager 3, indgang fra gården';
    const receiver = { ...sample().receiver, address1 };
    const { texts } = await readPdf(await renderLabel(sample({ receiver }), 'pdf', 'A6'));
    const first = texts.findIndex((text) => text.startsWith('Industrivej'));
    expect(first).toBeGreaterThan(-1);
    expect(`${texts[first]} ${texts[first + 1]}`).toBe(address1);
    expect(texts.join('\n')).not.toContain('…');

    const zpl = (await renderLabel(sample({ receiver }), 'zpl', '100X150')).toString('utf8');
    const fields = [...zpl.matchAll(/\^FD(.*?)\^FS/g)].map((match) => match[1]);
    const zplFirst = fields.findIndex((field) => field?.startsWith('Industrivej'));
    expect(`${fields[zplFirst]} ${fields[zplFirst + 1]}`).toBe(address1);
  });

  it("prints the receiver's company between the name and the contact", async () => {
    const receiver = { ...sample().receiver, name: 'Jens Hansen', company: 'Hansen Tømrer ApS', attention: 'Varemodtagelsen' };
    const { texts } = await readPdf(await renderLabel(sample({ receiver }), 'pdf', '100X150'));
    const name = texts.indexOf('Jens Hansen');
    expect(texts.slice(name, name + 3)).toEqual(['Jens Hansen', 'Hansen Tømrer ApS', 'Att. Varemodtagelsen']);
  });

  it('fits a pasted wall of text quickly', async () => {
    const receiver = { ...sample().receiver, name: 'x'.repeat(100_000) };
    const started = performance.now();
    const { texts } = await readPdf(await renderLabel(sample({ receiver }), 'pdf', '100X150'));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(texts.some((text) => /^x+…$/.test(text))).toBe(true);
  });

  it('refuses a tracking number Code 128 cannot carry, with a stable code', async () => {
    for (const trackingNumber of ['', '   ', 'LOC-ØRESUND', 'LOC\n1']) {
      for (const format of ['pdf', 'zpl'] as const) {
        await expect(renderLabel(sample({ trackingNumber }), format, '100X150')).rejects.toMatchObject({ code: 'LABEL_TRACKING_NUMBER_INVALID' });
      }
    }
    await expect(renderLabel(sample({ trackingNumber: '' }), 'pdf', 'A4')).rejects.toBeInstanceOf(LabelRenderError);
  });

  const hasPoppler = (() => {
    try {
      execFileSync('pdfinfo', ['-v'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(!hasPoppler)('poppler reads the same page size and text', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'shipdesk-label-'));
    try {
      const file = join(folder, 'label.pdf');
      writeFileSync(file, await renderLabel(sample(), 'pdf', '100X150'));
      const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
      expect(info).toMatch(/Pages:\s+1\n/);
      expect(info).toMatch(/Page size:\s+283\.46\d? x 425\.19\d? pts/);
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      for (const expected of ['LOC000001234', 'Søren Ærø Åberg', '2200 København N', 'Parcel 2/3', '1.25 kg', 'ORDER-1001', '2026-03-04']) {
        expect(text).toContain(expected);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it.skipIf(!hasPoppler)('prints Polish letters WinAnsi lacks in the embedded font, and replaces what that lacks', async () => {
    const receiver = { ...sample().receiver, name: 'Łukasz Wołodźko 你好', city: 'Kraków', address1: 'ul. Długa 5\nlok. 3' };
    const text = pdfText(await renderLabel(sample({ receiver }), 'pdf', 'A6'));
    expect(text).toContain('Łukasz Wołodźko ??');
    expect(text).toContain('2200 Kraków');
    expect(text).toContain('ul. Długa 5 lok. 3');
  });
});

describe('renderLabel zpl', () => {
  const commands = new Set(['XA', 'CI', 'PW', 'LL', 'LH', 'PO', 'PQ', 'FO', 'GB', 'FB', 'A0', 'FH', 'FD', 'FS', 'BY', 'BC', 'XZ']);

  it.each(labelSizes)('%s is one complete label of the physical size at 203 dpi', async (size) => {
    const zpl = (await renderLabel(sample(), 'zpl', size)).toString('utf8').trim();
    const [widthMm, heightMm] = physicalMm[size];
    expect(zpl.startsWith('^XA')).toBe(true);
    expect(zpl.endsWith('^XZ')).toBe(true);
    expect(zpl).toContain('^CI28');
    expect(zpl).toContain(`^PW${dots(widthMm)}\n`);
    expect(zpl).toContain(`^LL${dots(heightMm)}\n`);
    expect(zpl).toMatch(/\^BY\d+\^BCN,\d+,Y,N,N,A\^FH_\^FDLOC000001234\^FS/);
    for (const [, x, y] of zpl.matchAll(/\^FO(\d+),(\d+)/g)) {
      expect(Number(x)).toBeLessThan(dots(widthMm));
      expect(Number(y)).toBeLessThan(dots(heightMm));
    }
  });

  it('prints the label text in UTF-8', async () => {
    const zpl = (await renderLabel(sample(), 'zpl', '100X150')).toString('utf8');
    for (const expected of [
      '^FDSøren Ærø Åberg^FS',
      '^FD2200 København N^FS',
      '^FDParcel 2/3^FS',
      '^FD1.25 kg^FS',
      '^FDORDER-1001^FS',
      '^FD2026-03-04^FS',
      '^FDShipdesk Warehouse ApS^FS',
    ]) {
      expect(zpl).toContain(expected);
    }
  });

  it('a ^ or ~ in the data cannot inject a command', async () => {
    const receiver = { ...sample().receiver, name: 'Evil^XZ^XA^FO0,0^FDowned~JR_x\\y', address1: 'Line one\n^XZ' };
    const zpl = (await renderLabel(sample({ receiver, reference: '~DGR:X' }), 'zpl', '100X150')).toString('utf8');
    expect(zpl.match(/\^XA/g)).toHaveLength(1);
    expect(zpl.match(/\^XZ/g)).toHaveLength(1);
    expect(zpl).not.toContain('~');
    for (const [, command] of zpl.matchAll(/\^(..)/g)) expect(commands).toContain(command);
    expect(zpl).toContain('^FH_^FDEvil_5EXZ_5EXA_5EFO0,0_5EFDowned_7EJR_5Fx_5Cy^FS');
    expect(zpl).toContain('^FH_^FDLine one _5EXZ^FS');
    expect(zpl).toContain('^FH_^FD_7EDGR:X^FS');
  });

  it('does not crash on characters no printer font has', async () => {
    const receiver = { ...sample().receiver, name: 'Łukasz 🚚' };
    const zpl = (await renderLabel(sample({ receiver }), 'zpl', 'A6')).toString('utf8');
    expect(zpl).toContain('^FDŁukasz ?^FS');
  });
});
