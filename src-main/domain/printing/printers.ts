import { and, count, desc, eq, isNull, ne, or } from 'drizzle-orm';
import { ApiError, validationError } from '../../../src-shared/errors';
import type { PageQuery } from '../../../src-shared/schemas/common';
import type { DocumentFormat, LabelSize } from '../../../src-shared/schemas/carrier';
import {
  normalizePrinterTarget,
  printerProblems,
  type DiscoveredPrinter,
  type Printer,
  type PrinterCreateInput,
  type PrinterDriver,
  type PrinterUpdateInput,
} from '../../../src-shared/schemas/printing';
import { printers, shippingRules } from '../../db/schema';
import { newId } from '../../db/ids';
import { inWriteTransaction, type ReadDb, type WriteTx } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { printingOf } from '../../printing/services';
import { paginate } from '../pagination';
import { updateColumns } from '../../db/updateColumns';

export type PrinterRow = typeof printers.$inferSelect;

export function toPrinter(row: PrinterRow): Printer {
  return {
    id: row.id,
    name: row.name,
    driver: row.driver as PrinterDriver,
    target: row.target,
    format: row.format as DocumentFormat,
    labelSize: row.labelSize as LabelSize,
    isDefault: row.isDefault,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const live = (orgId: string) => and(eq(printers.orgId, orgId), isNull(printers.deletedAt));

/** The live printer, or 404 PRINTER_NOT_FOUND (also for a deleted one or another organization's). */
export function findPrinterRow(db: ReadDb, orgId: string, printerId: string): PrinterRow {
  const row = db
    .select()
    .from(printers)
    .where(and(live(orgId), eq(printers.id, printerId)))
    .get();
  if (!row) throw new ApiError('PRINTER_NOT_FOUND', `Printer ${printerId} does not exist in this organization`);
  return row;
}

/** The organization's default printer for a document format, if it has one. */
export function defaultPrinterRow(db: ReadDb, orgId: string, format: DocumentFormat): PrinterRow | undefined {
  return db
    .select()
    .from(printers)
    .where(and(live(orgId), eq(printers.format, format), eq(printers.isDefault, true)))
    .orderBy(desc(printers.updatedAt))
    .get();
}

/** One default per format per organization: marking one takes the mark from the others. */
function clearOtherDefaults(tx: WriteTx, orgId: string, format: string, keepId: string, now: string): void {
  tx.update(printers)
    .set({ isDefault: false, updatedAt: now })
    .where(and(live(orgId), eq(printers.format, format), eq(printers.isDefault, true), ne(printers.id, keepId)))
    .run();
}

export function createPrinter(app: AppContext, orgId: string, input: PrinterCreateInput): Printer {
  const now = app.now().toISOString();
  return inWriteTransaction(app.db, (tx) => {
    const row: PrinterRow = {
      id: newId('printer'),
      orgId,
      name: input.name,
      driver: input.driver,
      target: normalizePrinterTarget(input.driver, input.target),
      format: input.format,
      labelSize: input.labelSize,
      isDefault: input.isDefault,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    tx.insert(printers).values(row).run();
    if (row.isDefault) clearOtherDefaults(tx, orgId, row.format, row.id, now);
    return toPrinter(row);
  });
}

export function listPrinters(app: AppContext, orgId: string, query: PageQuery) {
  const total = app.db.select({ n: count() }).from(printers).where(live(orgId)).get()?.n ?? 0;
  return paginate(query, total, (limit, offset) =>
    app.db.select().from(printers).where(live(orgId)).orderBy(desc(printers.createdAt), desc(printers.id)).limit(limit).offset(offset).all().map(toPrinter),
  );
}

export function getPrinter(app: AppContext, orgId: string, printerId: string): Printer {
  return toPrinter(findPrinterRow(app.db, orgId, printerId));
}

/**
 * Driver, target and format are checked together once merged: changing the driver alone may make the
 * target wrong. A printer that changes format leaves the old format's default behind (it is no
 * longer a printer of that format) and takes the new one's only when the body says so. One that a
 * rule prints packing lists and invoices on stays PDF: they exist only as PDF.
 */
export function updatePrinter(app: AppContext, orgId: string, printerId: string, input: PrinterUpdateInput): Printer {
  return inWriteTransaction(app.db, (tx) => {
    const row = findPrinterRow(tx, orgId, printerId);
    const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<PrinterRow>;
    const merged = { ...row, ...changes };
    const problems = printerProblems({ driver: merged.driver as PrinterDriver, target: merged.target, format: merged.format });
    if (problems.length) throw validationError('body', problems);
    if (merged.format !== row.format) {
      if (input.isDefault === undefined) merged.isDefault = false;
      const rule = merged.format !== 'pdf' ? ruleUsingPrinter(tx, orgId, printerId, 'documents') : undefined;
      if (rule) {
        throw new ApiError(
          'CONFLICT',
          `Shipping rule ${rule.name} (${rule.id}) prints its packing lists and invoices on this printer, and they are PDF; choose another document printer in the rule first`,
        );
      }
    }
    const now = app.now().toISOString();
    const updated: PrinterRow = { ...merged, target: normalizePrinterTarget(merged.driver as PrinterDriver, merged.target), updatedAt: now };
    tx.update(printers).set(updateColumns(updated)).where(eq(printers.id, printerId)).run();
    if (updated.isDefault) clearOtherDefaults(tx, orgId, updated.format, updated.id, now);
    return toPrinter(updated);
  });
}

/**
 * Soft delete: print jobs keep naming the printer. Refused while a live shipping rule auto-prints to
 * it, as a sender address is: the rule would otherwise print to nothing after every send.
 */
export function deletePrinter(app: AppContext, orgId: string, printerId: string): { message: string } {
  return inWriteTransaction(app.db, (tx) => {
    findPrinterRow(tx, orgId, printerId);
    const rule = ruleUsingPrinter(tx, orgId, printerId, 'any');
    if (rule) {
      throw new ApiError('CONFLICT', `This printer is used by shipping rule ${rule.name} (${rule.id}); choose another printer in the rule first`);
    }
    const now = app.now().toISOString();
    tx.update(printers).set({ deletedAt: now, isDefault: false, updatedAt: now }).where(eq(printers.id, printerId)).run();
    return { message: `Printer ${printerId} deleted` };
  });
}

/** A live shipping rule that prints on this printer: its labels or documents (`any`), or its documents only. */
function ruleUsingPrinter(db: ReadDb, orgId: string, printerId: string, use: 'any' | 'documents'): { id: string; name: string } | undefined {
  const asDocumentPrinter = eq(shippingRules.documentPrinterId, printerId);
  return db
    .select({ id: shippingRules.id, name: shippingRules.name })
    .from(shippingRules)
    .where(
      and(
        eq(shippingRules.orgId, orgId),
        isNull(shippingRules.deletedAt),
        use === 'any' ? or(eq(shippingRules.labelPrinterId, printerId), asDocumentPrinter) : asDocumentPrinter,
      ),
    )
    .get();
}

/** What the operating system offers; the desktop app adds Electron's printer list. */
export function discoverPrinters(app: AppContext): Promise<DiscoveredPrinter[]> {
  return printingOf(app).discover();
}
