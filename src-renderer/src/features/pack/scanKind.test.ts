import { describe, expect, it } from 'vitest';
import { classifyScan, codeMatches, isGtin, parseWeight } from './scanKind';

type Line = { sku: string; barcode: string | null };
const lines: Line[] = [
  { sku: 'MUG-01', barcode: '5701234567899' },
  { sku: '1.25', barcode: null }, // a SKU that looks like a weight
  { sku: 'TEA-02', barcode: '036000291452' }, // a UPC-A
];
const codesOf = (line: Line) => [line.sku, line.barcode];
const classify = (code: string) => classifyScan(code, lines, codesOf);

describe('what a scan is, by its form', () => {
  it('a weight: a number with a unit, or with a decimal point or comma (kg)', () => {
    expect(parseWeight('1.25')).toEqual({ weight: 1.25, weightUnit: 'kg' });
    expect(parseWeight('1,25 kg')).toEqual({ weight: 1.25, weightUnit: 'kg' });
    expect(parseWeight('1250 g')).toEqual({ weight: 1250, weightUnit: 'g' });
    expect(parseWeight('1250g')).toEqual({ weight: 1250, weightUnit: 'g' });
    expect(parseWeight('2.5 LBS')).toEqual({ weight: 2.5, weightUnit: 'lb' });
    expect(parseWeight('12 oz')).toEqual({ weight: 12, weightUnit: 'oz' });
    expect(parseWeight('+0.840kg')).toEqual({ weight: 0.84, weightUnit: 'kg' });
    expect(classifyScan('0,5 kg')).toEqual({ kind: 'weight', weight: 0.5, weightUnit: 'kg' });
  });

  it('never a whole number alone, nor a code with a unit-like ending', () => {
    expect(parseWeight('1250')).toBeNull();
    expect(parseWeight('A-1001')).toBeNull();
    expect(parseWeight('1.2.3')).toBeNull();
    expect(parseWeight('12 kgs')).toBeNull();
    expect(parseWeight('SHP-000001')).toBeNull();
    expect(classifyScan('1250')).toEqual({ kind: 'code', code: '1250' });
  });

  it('an EAN: 8, 12, 13 or 14 digits with the right check digit', () => {
    expect(isGtin('5701234567899')).toBe(true); // EAN-13
    expect(isGtin('96385074')).toBe(true); // EAN-8
    expect(isGtin('036000291452')).toBe(true); // UPC-A
    expect(isGtin('10012345678902')).toBe(true); // GTIN-14
    expect(isGtin('5701234567891')).toBe(false); // one digit off
    expect(isGtin('570123456789')).toBe(false); // 12 digits, wrong check digit
    expect(isGtin('1234567')).toBe(false);
    expect(isGtin('123456789')).toBe(false); // 9 digits: no GTIN has that length
    expect(classifyScan('4006381333931')).toEqual({ kind: 'ean', code: '4006381333931' });
  });

  it('otherwise an order number, a reference, a label barcode or a SKU', () => {
    expect(classifyScan('A-1001')).toEqual({ kind: 'code', code: 'A-1001' });
    expect(classifyScan('SHP-000001-2')).toEqual({ kind: 'code', code: 'SHP-000001-2' });
    expect(classifyScan('00370123456789012345')).toEqual({ kind: 'code', code: '00370123456789012345' }); // an SSCC: 18+ digits
  });

  it('a code of a line being checked is that item first, whatever its form', () => {
    expect(classify('MUG-01')).toEqual({ kind: 'item', lines: [lines[0]] });
    expect(classify('5701234567899')).toEqual({ kind: 'item', lines: [lines[0]] });
    expect(classify('1.25')).toEqual({ kind: 'item', lines: [lines[1]] });
    expect(classify('1.5')).toEqual({ kind: 'weight', weight: 1.5, weightUnit: 'kg' });
    expect(classify('4006381333931')).toEqual({ kind: 'ean', code: '4006381333931' });
  });

  it('an item in another case (caps lock) or its GTIN printed with a leading zero more', () => {
    expect(classify('mug-01')).toEqual({ kind: 'item', lines: [lines[0]] });
    expect(classify('0036000291452')).toEqual({ kind: 'item', lines: [lines[2]] });
    expect(codeMatches('05701234567899', '5701234567899')).toBe(true);
    expect(codeMatches('0A-1', 'A-1')).toBe(false);
    expect(codeMatches('MUG', null)).toBe(false);
  });

  it('names every line with the code (two lines of one SKU)', () => {
    const twice = [...lines, { sku: 'MUG-01', barcode: null }];
    expect(classifyScan('MUG-01', twice, codesOf)).toEqual({ kind: 'item', lines: [twice[0], twice[3]] });
  });
});
