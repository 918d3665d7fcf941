import { ApiError } from '../../../src-shared/errors';
import type { DocumentFormat, LabelSize } from '../../../src-shared/schemas/carrier';
import type { PrinterDriver, PrinterTestResult } from '../../../src-shared/schemas/printing';
import type { AppContext } from '../../app/kernel/context';
import { renderTestLabel } from '../../documents/testLabel';
import { PrintError } from '../../printing/driver';
import { printingOf } from '../../printing/services';
import { findPrinterRow } from './printers';

/**
 * Prints a printer's test label (USERS 1: the right printer the first time, found out while setting
 * it up rather than at the first parcel). Nothing is stored: there is no document or shipment behind
 * it, so it is not a print job. A printer that does not take it is 422 PRINTER_OFFLINE with the
 * driver's reason, the same words a failed print job would show.
 */
export async function printTestLabel(app: AppContext, orgId: string, printerId: string): Promise<PrinterTestResult> {
  const printer = findPrinterRow(app.db, orgId, printerId);
  const format = printer.format as DocumentFormat;
  const labelSize = printer.labelSize as LabelSize;
  const printedAt = app.now().toISOString();
  const content = await renderTestLabel(
    { printerName: printer.name, driver: printer.driver as PrinterDriver, target: printer.target, printedAt },
    format,
    labelSize,
  );
  const driver = printingOf(app).drivers[printer.driver as PrinterDriver];
  try {
    await driver.print(content, {
      format,
      size: labelSize,
      copies: 1,
      target: printer.target,
      // The time makes each test its own spooler title and hot-folder file, so a second test shows too.
      jobName: `Shipdesk-test-label-${printedAt.replace(/[^0-9]/g, '')}`,
      printJobId: printer.id,
      attempt: 1,
    });
  } catch (failure) {
    if (failure instanceof PrintError) throw new ApiError('PRINTER_OFFLINE', `Printer '${printer.name}' did not take the test label: ${failure.message}`);
    throw failure;
  }
  return {
    printerId: printer.id,
    format,
    labelSize,
    printedAt,
    message: `Test label sent to '${printer.name}'. Its frame should sit just inside all four edges of a ${labelSize} label, and its barcode should scan as SHIPDESK-TEST.`,
  };
}
