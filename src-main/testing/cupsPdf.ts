/**
 * The cups-pdf virtual printer as tests see it: which queue, where its PDFs land, and waiting for a
 * printed PDF to be complete. Plain Node (no test runner), so Vitest and Playwright share it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';

export const CUPS_TEST_QUEUE = 'ShipdeskPDF';

/** cups-pdf writes into the `Out` folder of its config, `${HOME}` being the submitting user's home (from passwd, not $HOME). */
export function cupsPdfOutputDir(): string {
  const home = userInfo().homedir;
  let out = '${HOME}/PDF';
  try {
    const line = readFileSync('/etc/cups/cups-pdf.conf', 'utf8')
      .split('\n')
      .find((candidate) => /^Out\s+/.test(candidate));
    if (line) out = line.replace(/^Out\s+/, '').trim();
  } catch {
    // The package default.
  }
  return out.replace('${HOME}', home).replace(/^~(?=\/|$)/, home) || join(home, 'PDF');
}

export function pdfFilesIn(dir: string): Set<string> {
  return new Set(existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.pdf')) : []);
}

/**
 * Waits for the PDF that cups-pdf makes of a document (it names the file after the job title,
 * `<reference>-<documentId>`) and for it to be complete, i.e. readable by pdfinfo. Answers the file
 * and its first page's size in points, or says what was missing after `timeoutMs`.
 */
export async function waitForPrintedPdf(
  dir: string,
  documentId: string,
  before: ReadonlySet<string>,
  timeoutMs = 15_000,
): Promise<{ file: string; widthPt: number; heightPt: number }> {
  const started = Date.now();
  let file: string | undefined;
  let info: string | undefined;
  while (Date.now() - started < timeoutMs) {
    file = [...pdfFilesIn(dir)].find((name) => !before.has(name) && name.includes(documentId));
    if (file && statSync(join(dir, file)).size > 0) {
      try {
        info = execFileSync('pdfinfo', [join(dir, file)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
        break;
      } catch {
        // Still being written.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!file) throw new Error(`No PDF for ${documentId} appeared in ${dir} within ${timeoutMs} ms`);
  if (!info) throw new Error(`${join(dir, file)} never became readable by pdfinfo`);
  const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info);
  if (!size) throw new Error(`pdfinfo gave no page size for ${file}:\n${info}`);
  return { file: join(dir, file), widthPt: Number(size[1]), heightPt: Number(size[2]) };
}
