import type { DocumentFormat } from '../../../../src-shared/schemas/carrier';
import type { Printer } from '../../../../src-shared/schemas/printing';

/**
 * The printer this station last used for a format, per organization: kept in localStorage, which
 * belongs to this machine, so each packing station remembers its own label printer.
 */
const keyOf = (orgId: string, format: DocumentFormat) => `shipdesk.printer.${orgId}.${format}`;

export function rememberedPrinter(orgId: string, format: DocumentFormat): string | null {
  try {
    return localStorage.getItem(keyOf(orgId, format));
  } catch {
    return null;
  }
}

export function rememberPrinter(orgId: string, format: DocumentFormat, printerId: string): void {
  try {
    localStorage.setItem(keyOf(orgId, format), printerId);
  } catch {
    // Storage full or blocked: the choice is only not remembered.
  }
}

/** Remembered here, else the organization's default for the format, else the first that fits. */
export function preselectPrinter(orgId: string, format: DocumentFormat, printers: Printer[]): string {
  const fitting = printers.filter((printer) => printer.format === format);
  const remembered = rememberedPrinter(orgId, format);
  if (remembered && fitting.some((printer) => printer.id === remembered)) return remembered;
  return (fitting.find((printer) => printer.isDefault) ?? fitting[0])?.id ?? '';
}
