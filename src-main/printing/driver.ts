import type { DocumentFormat, LabelSize } from '../../src-shared/schemas/carrier';
import type { DiscoveredPrinter, PrinterDriver } from '../../src-shared/schemas/printing';

/**
 * One small interface per way of printing (decisions §9). A driver resolves once the printer or the
 * spooler has the document and throws a PrintError whose message a packer can act on.
 */
export interface PrintRequest {
  format: DocumentFormat;
  /** The document's physical size, passed on to the spooler so a 100×150 label stays 100×150. */
  size: LabelSize;
  copies: number;
  /** Queue name, `host:port` or folder, as stored on the printer. */
  target: string;
  /** `<reference>-<documentId>`: the spooler's job title and the start of the file driver's file name. */
  jobName: string;
  /** The print job and its attempt (1, 2, … per retry): each attempt is its own file in a hot folder. */
  printJobId: string;
  attempt: number;
}

export interface PrintDriver {
  print(content: Uint8Array, request: PrintRequest): Promise<void>;
}

/**
 * - `not_found`: the queue, host or folder does not exist;
 * - `offline`: it exists but does not take work now (refused, paused, timed out, spooler down);
 * - `wrong_format`: the printer cannot print this kind of document;
 * - `no_spooler`: this computer has no print system for the driver (no `lp`);
 * - `failed`: anything else the printer or spooler said.
 */
export type PrintFailureReason = 'not_found' | 'offline' | 'wrong_format' | 'no_spooler' | 'failed';

export class PrintError extends Error {
  override readonly name = 'PrintError';
  constructor(
    readonly reason: PrintFailureReason,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The drivers and printer discovery one process uses. Plain Node gets `nodePrinting()`; the desktop
 * app wraps it with Electron's printing (src-main/electron/printing.ts) and passes it in AppContext.
 */
export interface PrintingServices {
  drivers: Readonly<Record<PrinterDriver, PrintDriver>>;
  discover(): Promise<DiscoveredPrinter[]>;
}
