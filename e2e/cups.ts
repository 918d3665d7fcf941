export { CUPS_TEST_QUEUE, cupsPdfOutputDir, pdfFilesIn, waitForPrintedPdf } from '../src-main/testing/cupsPdf';

/** What e2e/global-setup.ts found; handed to the workers in an environment variable. */
export type CupsForTests = { state: 'ready'; queue: string; outputDir: string } | { state: 'absent'; reason: string } | { state: 'broken'; reason: string };

export const CUPS_ENV = 'SHIPDESK_E2E_CUPS';

export function cupsForTests(): CupsForTests {
  const raw = process.env[CUPS_ENV];
  if (!raw) return { state: 'broken', reason: `${CUPS_ENV} is not set: run the suite through playwright.config.ts (its globalSetup sets up CUPS)` };
  return JSON.parse(raw) as CupsForTests;
}
