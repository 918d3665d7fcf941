import { describe, expect, it } from 'vitest';
import { countOf, fileSize, importedSummary, shopChangesSummary } from './importCounts';
import { formatMoney } from './money';

describe('counts and sizes in words', () => {
  it('says one and many', () => {
    expect(countOf(1, 'order')).toBe('1 order');
    expect(countOf(0, 'order')).toBe('0 orders');
    expect(countOf(2, 'box', 'boxes')).toBe('2 boxes');
    expect(importedSummary({ created: 1, skipped: 3 })).toBe('1 order imported, 3 already there (skipped)');
    expect(shopChangesSummary({ updated: 0, held: 0 })).toBeNull();
    expect(shopChangesSummary({ updated: 2, held: 1 })).toBe(
      '2 orders updated from the shop, 1 change from the shop waits on its order (open the order to apply or dismiss)',
    );
  });

  it('gives a file’s size in the unit that fits', () => {
    expect(fileSize(900)).toBe('900 bytes');
    expect(fileSize(12_595)).toBe('12.3 KB');
    expect(fileSize(3 * 1024 * 1024)).toBe('3.0 MB');
  });
});

describe('amounts', () => {
  it('show a dash for no amount and the bare number with the code for an unknown currency', () => {
    expect(formatMoney(null, 'EUR')).toBe('—');
    expect(formatMoney(undefined, null)).toBe('—');
    expect(formatMoney(12.5, null)).toBe('12.50');
    expect(formatMoney(12.5, 'NOT-A-CODE')).toBe('12.50 NOT-A-CODE');
    expect(formatMoney(1250, 'EUR')).toBe(new Intl.NumberFormat(undefined, { style: 'currency', currency: 'EUR' }).format(1250));
  });
});
