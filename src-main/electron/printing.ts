import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserWindow } from 'electron';
import type { DiscoveredPrinter } from '../../src-shared/schemas/printing';
import { labelDimensions } from '../documents/labelSizes';
import { PrintError, type PrintDriver, type PrintingServices } from '../printing/driver';

/**
 * Printing in the desktop app. Where CUPS is present (Linux, macOS) its `lp` stays the way to print —
 * it names the media and reports a missing queue clearly. Where it is not (Windows), a `cups` printer's
 * target is the system printer's name and the PDF goes through Chromium's printing, silently and at
 * the document's own page size. Discovery adds Electron's printer list to what lpstat found.
 */
export function electronPrinting(base: PrintingServices): PrintingServices {
  return {
    drivers: { ...base.drivers, cups: systemPrinterDriver(base.drivers.cups) },
    discover: async () => mergeDiscovered(await base.discover(), await electronPrinters()),
  };
}

function systemPrinterDriver(spooler: PrintDriver): PrintDriver {
  return {
    async print(content, request) {
      try {
        await spooler.print(content, request);
      } catch (error) {
        if (!(error instanceof PrintError) || error.reason !== 'no_spooler') throw error;
        if (request.format !== 'pdf') {
          throw new PrintError(
            'wrong_format',
            `ZPL cannot be printed through '${request.target}' on this computer; add the label printer as a raw (port 9100) printer`,
          );
        }
        const { widthMm, heightMm } = labelDimensions[request.size];
        await printPdfSilently(content, request.target, { width: widthMm * 1000, height: heightMm * 1000 }, request.copies);
      }
    },
  };
}

const LOAD_SETTLE_MS = 500;
const PRINT_TIMEOUT_MS = 60_000;

/**
 * Prints a PDF on a system printer without a dialog: a hidden window shows the PDF and Chromium prints
 * it with the page size given in microns and no margins, so a 100×150 mm label stays 100×150 mm.
 * Resolves when the system has accepted the job; rejects with a readable PrintError otherwise.
 */
export async function printPdfSilently(pdf: Uint8Array, deviceName: string, pageSizeMicrons: { width: number; height: number }, copies = 1): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'shipdesk-print-'));
  const file = join(folder, 'document.pdf');
  const window = new BrowserWindow({
    show: false,
    webPreferences: {
      // Chromium's PDF viewer is a plugin; the window runs nothing of ours.
      plugins: true,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      partition: 'shipdesk-print',
    },
  });
  try {
    const known = await window.webContents.getPrintersAsync();
    if (!known.some((printer) => printer.name === deviceName)) {
      throw new PrintError('not_found', `Printer '${deviceName}' does not exist on this computer`);
    }
    await writeFile(file, pdf);
    await window.loadFile(file);
    // The viewer lays the pages out after the load event; printing at once can give a blank page.
    await new Promise((resolve) => setTimeout(resolve, LOAD_SETTLE_MS));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new PrintError('offline', `Printer '${deviceName}' did not take the job within ${PRINT_TIMEOUT_MS / 1000} s`)),
        PRINT_TIMEOUT_MS,
      );
      window.webContents.print(
        {
          silent: true,
          deviceName,
          pageSize: pageSizeMicrons,
          margins: { marginType: 'none' },
          landscape: false,
          printBackground: true,
          copies,
        },
        (success, failureReason) => {
          clearTimeout(timer);
          if (success) resolve();
          else reject(new PrintError('failed', `Printer '${deviceName}' did not print: ${failureReason || 'no reason given'}`));
        },
      );
    });
  } finally {
    window.destroy();
    await rm(folder, { recursive: true, force: true });
  }
}

/** The printers Chromium sees, by their system names (on Linux and macOS these are the CUPS queue names). */
async function electronPrinters(): Promise<DiscoveredPrinter[]> {
  const window = new BrowserWindow({ show: false, webPreferences: { sandbox: true, contextIsolation: true, partition: 'shipdesk-print' } });
  try {
    const printers = await window.webContents.getPrintersAsync();
    return printers.map((printer) => ({
      name: printer.displayName || printer.name,
      driver: 'cups' as const,
      target: printer.name,
      // Electron no longer reports the system default printer; lpstat does, where it exists.
      isDefault: false,
    }));
  } catch {
    return [];
  } finally {
    window.destroy();
  }
}

/** lpstat's entries win (they know the default); Electron adds the printers CUPS does not list. */
export function mergeDiscovered(fromSpooler: readonly DiscoveredPrinter[], fromElectron: readonly DiscoveredPrinter[]): DiscoveredPrinter[] {
  const seen = new Set(fromSpooler.map((printer) => printer.target));
  return [...fromSpooler, ...fromElectron.filter((printer) => !seen.has(printer.target))];
}
