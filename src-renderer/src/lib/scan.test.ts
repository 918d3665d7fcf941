import { describe, expect, it } from 'vitest';
import { cleanScan, exactMatches, judgeScan, scanMatch, type LastScan } from './scan';

const reference = (item: { reference: string }) => item.reference;
const refs = (...references: string[]) => references.map((ref) => ({ reference: ref }));

describe('records a scan names', () => {
  it('are those whose key is exactly the code, never one it is only a part of', () => {
    expect(exactMatches(refs('1001', '10010', 'A1001'), '1001', reference)).toEqual(refs('1001'));
    expect(exactMatches(refs('10010', 'A1001'), '1001', reference)).toEqual([]);
  });

  it('ignore case only when nothing matches exactly (a scanner left in caps lock)', () => {
    expect(exactMatches(refs('SHP-000123', 'shp-000123'), 'shp-000123', reference)).toEqual(refs('shp-000123'));
    expect(exactMatches(refs('SHP-000123', 'SHP-0001234'), 'shp-000123', reference)).toEqual(refs('SHP-000123'));
  });

  it('open the only record found, else the only exact one, else none', () => {
    expect(scanMatch(refs('SHP-1-2'), 1, 'SHP-1', reference)).toEqual({ reference: 'SHP-1-2' });
    expect(scanMatch(refs('SHP-1', 'SHP-1-2', 'RET-SHP-1'), 3, 'SHP-1', reference)).toEqual({ reference: 'SHP-1' });
    expect(scanMatch(refs('1001', '1001'), 2, '1001', reference)).toBeNull();
    expect(scanMatch(refs('SHP-1-2'), 40, 'SHP-1', reference)).toBeNull();
  });
});

describe('a finished scan', () => {
  it('drops a scanner’s control characters and surrounding spaces', () => {
    expect(cleanScan('\x02 SHP-\x1d000123 \r')).toBe('SHP-000123');
  });

  it('is the same scan read twice within the window, and new after it', () => {
    const memory: { last: LastScan | null } = { last: null };
    expect(judgeScan(memory, '1001', 1000)).toEqual({ kind: 'scan', code: '1001' });
    expect(judgeScan(memory, '1001\r', 1300)).toEqual({ kind: 'repeat', code: '1001' });
    // The window slides from the last read: 1300 + 500.
    expect(judgeScan(memory, '1001', 1799)).toEqual({ kind: 'repeat', code: '1001' });
    expect(judgeScan(memory, '1001', 2299)).toEqual({ kind: 'scan', code: '1001' });
    expect(judgeScan(memory, '1002', 2300)).toEqual({ kind: 'scan', code: '1002' });
    expect(judgeScan(memory, ' \x02 ', 2301)).toEqual({ kind: 'empty' });
  });
});
