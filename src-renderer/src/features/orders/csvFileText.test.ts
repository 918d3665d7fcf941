import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src-shared/errors';
import { csvFileText } from './csvFileText';

describe('csvFileText (the import screen reading the chosen file)', () => {
  it('reads a UTF-8 file, dropping the byte-order mark Excel writes to "CSV UTF-8"', async () => {
    const file = new Blob([new Uint8Array([0xef, 0xbb, 0xbf]), 'orderNumber;customerName\nN-1;Søren 📦\n']);
    expect(await csvFileText(file)).toBe('orderNumber;customerName\nN-1;Søren 📦\n');
  });

  it('refuses a file that is not UTF-8, naming the line and how to save it, instead of sending "S\ufffdren"', async () => {
    const windows1252 = new Blob(['orderNumber;customerName\nN-1;S', new Uint8Array([0xf8]), 'ren\n']);
    const refusal = await csvFileText(windows1252).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).code).toBe('VALIDATION_FAILED');
    expect((refusal as ApiError).message).toBe(
      'The CSV file is not UTF-8 text (line 2 has a character that cannot be read); save it as "CSV UTF-8" in Excel, or as UTF-8 in other programs',
    );
  });
});
