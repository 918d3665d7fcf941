import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PrintError, type PrintRequest } from './driver';
import { fileDriver, hotFolderFileName, safeFileStem } from './file';

const folder = mkdtempSync(join(tmpdir(), 'shipdesk-hotfolder-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const request = (overrides: Partial<PrintRequest> = {}): PrintRequest => ({
  format: 'pdf',
  size: '100X150',
  copies: 1,
  target: folder,
  jobName: 'WEB-1001-doc_01abc',
  printJobId: 'pjb_01first',
  attempt: 1,
  ...overrides,
});

describe('file driver (hot folder)', () => {
  it('writes <reference>-<documentId>-<printJobId>-<attempt>.<format>, leaving no temporary file behind', async () => {
    const content = Buffer.from('%PDF-1.7 label');
    await fileDriver().print(content, request());
    expect(readdirSync(folder)).toEqual(['WEB-1001-doc_01abc-pjb_01first-1.pdf']);
    expect(readFileSync(join(folder, 'WEB-1001-doc_01abc-pjb_01first-1.pdf')).equals(content)).toBe(true);
  });

  it('one file per copy, ZPL with its extension; a reprint (a retry, or another job) is a new file, never an overwrite', async () => {
    await fileDriver().print(Buffer.from('^XA^XZ'), request({ format: 'zpl', copies: 2, jobName: 'R-2-doc_2' }));
    await fileDriver().print(Buffer.from('^XA^FDretry^XZ'), request({ format: 'zpl', jobName: 'R-2-doc_2', attempt: 2 }));
    await fileDriver().print(Buffer.from('^XA^FDagain^XZ'), request({ format: 'zpl', jobName: 'R-2-doc_2', printJobId: 'pjb_02second' }));
    expect(
      readdirSync(folder)
        .filter((name) => name.startsWith('R-2'))
        .sort(),
    ).toEqual(['R-2-doc_2-pjb_01first-1-copy2.zpl', 'R-2-doc_2-pjb_01first-1.zpl', 'R-2-doc_2-pjb_01first-2.zpl', 'R-2-doc_2-pjb_02second-1.zpl']);
    expect(readFileSync(join(folder, 'R-2-doc_2-pjb_01first-1.zpl'), 'utf8')).toBe('^XA^XZ');
    expect(readFileSync(join(folder, 'R-2-doc_2-pjb_01first-2.zpl'), 'utf8')).toBe('^XA^FDretry^XZ');
    expect(readFileSync(join(folder, 'R-2-doc_2-pjb_02second-1.zpl'), 'utf8')).toBe('^XA^FDagain^XZ');
  });

  it('makes any reference safe as a file name', () => {
    expect(safeFileStem('../../etc/passwd-doc_1')).toBe('__.._etc_passwd-doc_1');
    expect(safeFileStem('ORDER #12/A-doc_1')).toBe('ORDER_12_A-doc_1');
  });

  it('a very long reference is cut, never the document id, nor the job and attempt that keep the name unique', () => {
    const name = hotFolderFileName({ jobName: `${'R'.repeat(900)}-doc_01m844tnj42v9rx9rrf5w7mbcd`, printJobId: 'pjb_9', attempt: 3, format: 'pdf' }, 10);
    expect(name).toBe(`${'R'.repeat(160 - 31)}-doc_01m844tnj42v9rx9rrf5w7mbcd-pjb_9-3-copy10.pdf`);
    expect(name.length).toBeLessThan(255);
  });

  it('a missing folder or a file in its place: not_found with the path', async () => {
    const missing = join(folder, 'unmounted-share');
    const error = await fileDriver()
      .print(Buffer.from('x'), request({ target: missing }))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PrintError);
    expect((error as PrintError).reason).toBe('not_found');
    expect((error as PrintError).message).toBe(`Folder '${missing}' does not exist on this computer; create it or change the printer's folder`);

    const aFile = join(folder, 'not-a-folder');
    writeFileSync(aFile, '');
    const second = await fileDriver()
      .print(Buffer.from('x'), request({ target: aFile }))
      .catch((caught: unknown) => caught);
    expect((second as PrintError).message).toContain('is a file, not a folder');
  });
});
