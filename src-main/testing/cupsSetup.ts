/**
 * vitest globalSetup: makes sure a real CUPS scheduler runs with the ShipdeskPDF queue (a cups-pdf
 * virtual printer) before the printing tests, via scripts/ensure-cups-pdf-printer.sh. It never fails
 * the suite: tests read the outcome with `inject('cups')` and skip, saying why, only when CUPS is not
 * installed on this machine. CI installs CUPS (scripts/install-system-deps.sh), so there an absent
 * CUPS is an error, as is a CUPS that is installed but cannot be set up.
 */
import { spawnSync } from 'node:child_process';
import { CUPS_TEST_QUEUE, cupsPdfOutputDir } from './cupsPdf';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

export type CupsTestPrinter = { state: 'ready'; queue: string; outputDir: string } | { state: 'absent'; reason: string } | { state: 'broken'; reason: string };

declare module 'vitest' {
  interface ProvidedContext {
    cups: CupsTestPrinter;
  }
}

export { CUPS_TEST_QUEUE } from './cupsPdf';
const script = fileURLToPath(new URL('../../scripts/ensure-cups-pdf-printer.sh', import.meta.url));

function ensureCups(): CupsTestPrinter {
  const result = spawnSync('bash', [script, CUPS_TEST_QUEUE], { encoding: 'utf8', timeout: 60_000 });
  const said = `${result.stderr ?? ''}${result.stdout ?? ''}`.trim() || String(result.error ?? '');
  if (result.status === 0) return { state: 'ready', queue: CUPS_TEST_QUEUE, outputDir: cupsPdfOutputDir() };
  if (result.status === 3 && !process.env.CI) return { state: 'absent', reason: `CUPS tests skipped: ${said}` };
  return { state: 'broken', reason: `CUPS could not be set up for the printing tests: ${said}` };
}

export default function setup(project: TestProject): void {
  project.provide('cups', ensureCups());
}
