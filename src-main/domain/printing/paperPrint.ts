/**
 * Printing an A4 paper made on request (pick list, packing slips, handover list) straight through the
 * printer's driver, like a printer's test label: there is no shipment document for a print job to
 * point at. A printer that does not take it is 422 PRINTER_OFFLINE with the driver's words.
 */
import { ApiError } from '../../../src-shared/errors';
import type { PrinterDriver } from '../../../src-shared/schemas/printing';
import type { AppContext } from '../../app/kernel/context';
import { PrintError } from '../../printing/driver';
import { printingOf } from '../../printing/services';
import { pdfLib } from '../../platform/lazyLibraries';
import { defaultPrinterRow, findPrinterRow } from './printers';

export interface PaperPrinted {
  printerId: string;
  printerName: string;
  pageCount: number;
  printedAt: string;
}

/**
 * Prints `render`'s PDF on the printer named, else the organization's default PDF printer; a ZPL
 * printer is refused before anything is drawn. `name` is the paper in words ("pick list").
 */
export async function printPaperPdf(
  app: AppContext,
  orgId: string,
  options: { printerId?: string | undefined; copies?: number | undefined; name: string; render: () => Promise<Buffer> },
): Promise<PaperPrinted> {
  const printer = options.printerId ? findPrinterRow(app.db, orgId, options.printerId) : defaultPrinterRow(app.db, orgId, 'pdf');
  if (!printer)
    throw new ApiError('PRINTER_OFFLINE', `There is no default PDF printer to print the ${options.name} on; choose a printer or make one the default for PDF`);
  if (printer.format !== 'pdf') {
    throw new ApiError('VALIDATION_FAILED', `Printer '${printer.name}' prints ZPL labels; the ${options.name} is an A4 PDF, so choose a PDF printer`, {
      details: [{ path: 'body.printerId', message: `'${printer.name}' prints ZPL labels; choose a PDF printer` }],
    });
  }
  const pdf = await options.render();
  const pageCount = (await pdfLib().PDFDocument.load(pdf, { updateMetadata: false })).getPageCount();
  const printedAt = app.now().toISOString();
  try {
    await printingOf(app).drivers[printer.driver as PrinterDriver].print(pdf, {
      format: 'pdf',
      size: 'A4',
      copies: options.copies ?? 1,
      target: printer.target,
      // The time makes each print its own spooler title and hot-folder file.
      jobName: `Shipdesk-${options.name.replace(/ /g, '-')}-${printedAt.replace(/[^0-9]/g, '')}`,
      printJobId: printer.id,
      attempt: 1,
    });
  } catch (failure) {
    if (failure instanceof PrintError) throw new ApiError('PRINTER_OFFLINE', `Printer '${printer.name}' did not take the ${options.name}: ${failure.message}`);
    throw failure;
  }
  return { printerId: printer.id, printerName: printer.name, pageCount, printedAt };
}
