import { z } from 'zod';
import { documentFormats, labelSizes } from './carrier';
import { booleanParam, id, pageQuery, requiredText, timestamp } from './common';

/**
 * Printers and print jobs (decisions §9). `cups` prints to a queue of the operating system, `raw`
 * sends ZPL to a networked label printer (`host:port`, 9100 unless said), `file` writes into a folder
 * that another program watches.
 */
export const printerDrivers = ['cups', 'raw', 'file'] as const;
export type PrinterDriver = (typeof printerDrivers)[number];

export const printJobStatuses = ['queued', 'printing', 'done', 'failed'] as const;
export type PrintJobStatus = (typeof printJobStatuses)[number];

/** The port networked label printers listen on for raw ZPL (JetDirect / "port 9100"). */
export const RAW_PRINTER_PORT = 9100;

// No control characters anywhere in a target; they would end up in file names or spooler arguments.
const hasControlCharacters = (value: string) => [...value].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);

/** `host`, `host:port`, `1.2.3.4:9100`, `[::1]:9100`. Returns null when it is none of these. */
export function parseRawTarget(target: string): { host: string; port: number } | null {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?))(?::(\d{1,5}))?$/.exec(target);
  if (!match) return null;
  const host = match[1] ?? match[2];
  const port = match[3] === undefined ? RAW_PRINTER_PORT : Number(match[3]);
  if (!host || port < 1 || port > 65535) return null;
  return { host, port };
}

const isAbsoluteFolder = (target: string) => target.startsWith('/') || /^[A-Za-z]:[\\/]/.test(target) || target.startsWith('\\\\');

/** Why `target` cannot be used with `driver`, or null when it can. */
export function printerTargetProblem(driver: PrinterDriver, target: string): string | null {
  if (target.length === 0) return 'Must not be empty';
  if (hasControlCharacters(target)) return 'Must not contain control characters';
  switch (driver) {
    case 'cups':
      if (target.length > 127) return 'A printer queue name has at most 127 characters';
      if (target.startsWith('-')) return 'A printer queue name does not start with "-"';
      // CUPS refuses these in queue names (lpadmin); a name shown with spaces is the queue's description.
      if (/[\s/#]/.test(target)) return 'A printer queue name has no spaces, "/" or "#"; use the queue name `lpstat -p` lists, not its description';
      return null;
    case 'raw':
      return parseRawTarget(target) ? null : 'Must be host:port of a networked label printer, e.g. 192.168.1.50:9100 (the port defaults to 9100)';
    case 'file':
      return isAbsoluteFolder(target) ? null : 'Must be an absolute folder path, e.g. /srv/hotfolder';
  }
}

/** Raw targets are stored with their port, so `zebra.local` and `zebra.local:9100` are the same printer. */
export function normalizePrinterTarget(driver: PrinterDriver, target: string): string {
  if (driver !== 'raw') return target;
  const parsed = parseRawTarget(target);
  if (!parsed) return target;
  return `${parsed.host.includes(':') ? `[${parsed.host}]` : parsed.host}:${parsed.port}`;
}

/** Problems of a whole printer (create, or a PATCH merged with the stored row), as zod-style issues. */
export function printerProblems(printer: { driver: PrinterDriver; target: string; format: string }): { path: string[]; message: string }[] {
  const problems: { path: string[]; message: string }[] = [];
  const target = printerTargetProblem(printer.driver, printer.target);
  if (target) problems.push({ path: ['target'], message: target });
  // Decisions §9: raw sends ZPL; a PDF needs a spooler that can render it (cups) or a folder (file).
  if (printer.driver === 'raw' && printer.format !== 'zpl') {
    problems.push({ path: ['format'], message: 'A raw (port 9100) printer takes ZPL; use a cups printer for PDF' });
  }
  return problems;
}

export const printerSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  driver: z.enum(printerDrivers),
  target: z.string(),
  format: z.enum(documentFormats),
  labelSize: z.enum(labelSizes),
  isDefault: z.boolean(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});
export type Printer = z.infer<typeof printerSchema>;

const printerFields = {
  name: requiredText(),
  driver: z.enum(printerDrivers),
  target: z.string().max(1000).describe('CUPS queue name (cups), host:port (raw, port 9100 by default) or an absolute folder (file)'),
  format: z.enum(documentFormats),
  labelSize: z.enum(labelSizes).describe('The media loaded in the printer; documents still print at their own size'),
  isDefault: z.boolean().describe('The organization has one default printer per format; setting it moves the mark here'),
};

export const printerCreateBody = z
  .strictObject({
    ...printerFields,
    labelSize: printerFields.labelSize.default('100X150'),
    isDefault: printerFields.isDefault.default(false),
  })
  .superRefine((printer, context) => {
    for (const problem of printerProblems(printer)) context.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  });
export type PrinterCreateInput = z.output<typeof printerCreateBody>;

/** Only the fields given change; driver, target and format are checked together after merging. */
export const printerUpdateBody = z.strictObject(printerFields).partial();
export type PrinterUpdateInput = z.output<typeof printerUpdateBody>;

export const discoveredPrinterSchema = z.strictObject({
  name: z.string(),
  driver: z.literal('cups'),
  target: z.string(),
  isDefault: z.boolean().describe('The operating system default printer'),
});
export type DiscoveredPrinter = z.infer<typeof discoveredPrinterSchema>;

export const printerTestResult = z.strictObject({
  printerId: z.string(),
  format: z.enum(documentFormats),
  labelSize: z.enum(labelSizes),
  printedAt: timestamp(),
  message: z.string().describe('What was sent where, and what to look for on the label'),
});
export type PrinterTestResult = z.infer<typeof printerTestResult>;

export const printJobSchema = z.strictObject({
  id: z.string(),
  printerId: z.string().nullable(),
  documentId: z.string(),
  shipmentId: z.string(),
  status: z.enum(printJobStatuses),
  error: z.string().nullable().describe('Why the last attempt failed, in words a packer can act on'),
  attempts: z.number().int(),
  copies: z.number().int(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});
export type PrintJob = z.infer<typeof printJobSchema>;

export const MAX_PRINT_COPIES = 10;

export const printShipmentBody = z.strictObject({
  printerId: id().optional().describe("Without it, each document goes to the organization's default printer for its format"),
  documentIds: z.array(id()).min(1).max(100).optional().describe("Without it, the shipment's labels"),
  copies: z.number().int().min(1).max(MAX_PRINT_COPIES).optional().describe('1 to 10, default 1'),
});
export type PrintShipmentInput = z.output<typeof printShipmentBody>;

export const printShipmentResponse = z.strictObject({ jobs: z.array(printJobSchema) });

export const printJobListQuery = pageQuery.extend({
  status: z.enum(printJobStatuses).optional(),
  shipmentId: id().optional(),
  settled: booleanParam()
    .optional()
    .describe('A failed job is settled when its document has printed since (on another printer, say): false leaves such jobs out, true lists only them'),
});
export type PrintJobListQuery = z.output<typeof printJobListQuery>;
