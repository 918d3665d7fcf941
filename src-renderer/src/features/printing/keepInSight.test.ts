import { describe, expect, it } from 'vitest';
import type { PrintJob } from '../../../../src-shared/schemas/printing';
import { keepInSight } from './keepInSight';

const job = (id: string, status: PrintJob['status'] = 'failed'): PrintJob => ({
  id,
  printerId: 'prn_1',
  documentId: `doc_${id}`,
  shipmentId: 'shp_1',
  status,
  error: status === 'failed' ? 'offline' : null,
  attempts: 1,
  copies: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('rows kept in sight', () => {
  it('keeps a retried job where it was when the list read again leaves it out, and nothing else', () => {
    const shown = [job('a'), job('b'), job('c')];
    const retried = new Map([['b', job('b', 'done')]]);
    expect(keepInSight(shown, [job('new'), job('a'), job('c')], retried).map((row) => `${row.id}:${row.status}`)).toEqual([
      'new:failed',
      'b:done',
      'a:failed',
      'c:failed',
    ]);
    expect(keepInSight(shown, [job('a'), job('c')], new Map()).map((row) => row.id)).toEqual(['a', 'c']);
    // Still listed: the new read is what shows.
    expect(keepInSight(shown, [job('b')], retried)).toEqual([job('b')]);
  });
});
