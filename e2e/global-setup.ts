/**
 * Playwright globalSetup: makes sure a real CUPS scheduler runs with the ShipdeskPDF queue (a cups-pdf
 * virtual printer) before the browser flow prints to it, via scripts/ensure-cups-pdf-printer.sh, the
 * same script the vitest printing tests use.
 *
 * It never throws: the outcome goes to the test workers in an environment variable (workers inherit
 * the runner's environment), read with `cupsForTests()`. The flow prints to CUPS only when it is
 * `ready`; on a machine without CUPS it says why it left the print assertions out (an annotation on
 * the test). With CI set, an absent CUPS is `broken` instead, and the flow fails: CI installs CUPS
 * (scripts/install-system-deps.sh), so the print step always runs there.
 */
import { spawnSync } from 'node:child_process';
import { CUPS_ENV, CUPS_TEST_QUEUE, cupsPdfOutputDir, type CupsForTests } from './cups';

const script = new URL('../scripts/ensure-cups-pdf-printer.sh', import.meta.url).pathname;

function ensureCups(): CupsForTests {
  const result = spawnSync('bash', [script, CUPS_TEST_QUEUE], { encoding: 'utf8', timeout: 60_000 });
  const said = `${result.stderr ?? ''}${result.stdout ?? ''}`.trim() || String(result.error ?? '');
  if (result.status === 3) {
    return process.env.CI
      ? { state: 'broken', reason: `CUPS is required on CI but is not installed: ${said}` }
      : { state: 'absent', reason: `CUPS print step not run: ${said}` };
  }
  if (result.status !== 0) return { state: 'broken', reason: `CUPS could not be set up for the print step: ${said}` };
  // The printed page is measured with pdfinfo (poppler-utils), installed alongside CUPS.
  const pdfinfo = spawnSync('pdfinfo', ['-v'], { encoding: 'utf8' });
  if (pdfinfo.error) return { state: 'broken', reason: 'CUPS is ready but pdfinfo is missing (apt-get install poppler-utils)' };
  return { state: 'ready', queue: CUPS_TEST_QUEUE, outputDir: cupsPdfOutputDir() };
}

export default function globalSetup(): void {
  const cups = ensureCups();
  process.env[CUPS_ENV] = JSON.stringify(cups);
  console.info(cups.state === 'ready' ? `CUPS queue ${cups.queue} ready; PDFs land in ${cups.outputDir}` : cups.reason);
}
