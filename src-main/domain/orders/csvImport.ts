/**
 * Order import from CSV (decisions §5a): one row per order line; rows with the same
 * orderChannelId + orderNumber are one order. Each order is checked by orderCreateBody, the same
 * schema as POST /orders, and written by insertOrder in a savepoint of its own, so an order with
 * any row error imports nothing while the others go in. An order number already in its channel is
 * skipped, which makes importing the same file twice harmless.
 *
 * `row` in errors counts the header as row 1, as a spreadsheet numbers its rows (it is the file's
 * line number unless a quoted field holds a line break).
 */
import { and, eq } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import { orderCreateBody, type OrderImportResult } from '../../../src-shared/schemas/order';
import type { AppContext } from '../../app/kernel/context';
import { orders } from '../../db/schema';
import { inSavepoint, inWriteTransaction } from '../../db/tx';
import { findOrderChannelRow } from '../orderChannels/orderChannels';
import { insertOrder } from './orders';

// ---- CSV (RFC 4180) ----

export class CsvSyntaxError extends Error {
  constructor(
    readonly row: number,
    reason: string,
  ) {
    super(`Row ${row}: ${reason}`);
  }
}

/** The field separators a file may use: the comma, or the semicolon Excel writes where the comma is the decimal mark (Danish, German, …). */
export type CsvSeparator = ',' | ';';

/**
 * The file's separator, read from its header row: column names hold neither mark, so a header
 * with semicolons and no comma is a semicolon file (Excel's "CSV" under a Danish locale).
 */
export function detectSeparator(text: string): CsvSeparator {
  const headerLine = /^[^\r\n]*/.exec(text)?.[0] ?? '';
  return headerLine.includes(';') && !headerLine.includes(',') ? ';' : ',';
}

/**
 * Splits CSV text into records of fields: quoted fields may hold the separator, line breaks and `""`
 * (one quote); lines end in CRLF, LF or CR; a leading BOM is dropped; a final line break does not
 * start another record. A quote inside an unquoted field is kept as a character, as spreadsheets do.
 */
export function parseCsv(text: string, separator: CsvSeparator = ','): string[][] {
  const records: string[][] = [];
  let fields: string[] = [];
  let field = '';
  let inQuotes = false;
  let closedQuote = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endField = () => {
    fields.push(field);
    field = '';
    closedQuote = false;
  };
  while (i < text.length) {
    const c = text[i] as string;
    if (inQuotes) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        inQuotes = false;
        closedQuote = true;
        i += 1;
      } else {
        field += c;
        i += 1;
      }
      continue;
    }
    if (c === separator) {
      endField();
      i += 1;
    } else if (c === '\r' || c === '\n') {
      endField();
      records.push(fields);
      fields = [];
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else if (closedQuote) {
      throw new CsvSyntaxError(records.length + 1, 'text after the closing quote of a field; double a quote inside a quoted field ("")');
    } else if (c === '"' && field === '') {
      inQuotes = true;
      i += 1;
    } else {
      field += c;
      i += 1;
    }
  }
  if (inQuotes) throw new CsvSyntaxError(records.length + 1, 'a quoted field is not closed');
  if (field !== '' || closedQuote || fields.length > 0) {
    endField();
    records.push(fields);
  }
  return records;
}

// ---- Columns ----

type CellType = 'text' | 'number' | 'boolean';
type Cell = string | number | boolean;

interface ColumnSpec {
  /** Where the value goes in the orderCreateBody input: an order field, an address field or a line field. */
  target: 'order' | 'shippingAddress' | 'line';
  field: string;
  type: CellType;
}

const column = (target: ColumnSpec['target'], field: string, type: CellType = 'text'): ColumnSpec => ({ target, field, type });

/** The documented columns (docs/api.md "Importing orders from CSV"); header names ignore case. */
export const importColumns = {
  orderNumber: column('order', 'orderNumber'),
  orderChannelId: column('order', 'orderChannelId'),
  customerName: column('order', 'customerName'),
  customerEmail: column('order', 'customerEmail'),
  totalAmount: column('order', 'totalAmount', 'number'),
  currency: column('order', 'currency'),
  notes: column('order', 'notes'),
  servicePointId: column('order', 'servicePointId'),
  shippingName: column('shippingAddress', 'name'),
  shippingCompany: column('shippingAddress', 'company'),
  shippingAddress1: column('shippingAddress', 'address1'),
  shippingAddress2: column('shippingAddress', 'address2'),
  shippingCity: column('shippingAddress', 'city'),
  shippingPostalCode: column('shippingAddress', 'postalCode'),
  shippingCountryCode: column('shippingAddress', 'countryCode'),
  shippingPhone: column('shippingAddress', 'phone'),
  shippingEmail: column('shippingAddress', 'email'),
  lineName: column('line', 'name'),
  lineSku: column('line', 'sku'),
  lineQuantity: column('line', 'quantity', 'number'),
  lineUnitPrice: column('line', 'unitPrice', 'number'),
  lineWeight: column('line', 'weight', 'number'),
  lineWeightUnit: column('line', 'weightUnit'),
  lineHsCode: column('line', 'hsCode'),
  lineCountryOfOrigin: column('line', 'countryOfOrigin'),
  lineRequiresShipping: column('line', 'requiresShipping', 'boolean'),
  lineLocation: column('line', 'location'),
} satisfies Record<string, ColumnSpec>;

type ColumnName = keyof typeof importColumns;
const columnNames = Object.keys(importColumns) as ColumnName[];
const requiredColumns: readonly ColumnName[] = ['orderNumber', 'orderChannelId', 'lineName', 'lineQuantity'];
const byLowerName = new Map(columnNames.map((name) => [name.toLowerCase(), name]));
const orderLevel = columnNames.filter((name) => importColumns[name].target !== 'line');

function fileError(message: string, details: string[] = [message]): ApiError {
  return new ApiError('VALIDATION_FAILED', message, { details: details.map((detail) => ({ path: 'body', message: detail })) });
}

/**
 * The header's columns in file order, null for a column without a name (Excel keeps empty columns
 * that were once formatted); unknown, repeated or missing required columns fail the whole file.
 */
function readHeader(header: readonly string[], required: readonly ColumnName[]): (ColumnName | null)[] {
  const names = header.map((raw) => raw.trim());
  const unknown = names.filter((name) => name !== '' && !byLowerName.has(name.toLowerCase()));
  if (unknown.length > 0) {
    const list = unknown.map((name) => `"${name}"`).join(', ');
    throw fileError(
      `Unknown column${unknown.length > 1 ? 's' : ''} ${list} in the header row; the columns are ${columnNames.join(', ')}`,
      unknown.map((name) => `Unknown column "${name}"`),
    );
  }
  const columns = names.map((name) => (name === '' ? null : (byLowerName.get(name.toLowerCase()) as ColumnName)));
  const repeated = columns.filter((name, index) => name !== null && columns.indexOf(name) !== index);
  if (repeated.length > 0) throw fileError(`The column ${repeated[0]} appears more than once in the header row`);
  const missing = required.filter((name) => !columns.includes(name));
  if (missing.length > 0) throw fileError(`The header row lacks the required column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  return columns;
}

const booleanWords: Record<string, boolean> = { true: true, yes: true, '1': true, false: false, no: false, '0': false };

/**
 * The decimal mark goes with the separator, as spreadsheets write it: a dot in comma files, a comma
 * in semicolon files. The other mark is refused rather than guessed at, since "1.250" or "1,250" may
 * as well be a thousand and a quarter; no thousands separators.
 */
const numberFormats: Record<CsvSeparator, { pattern: RegExp; hint: string }> = {
  ',': { pattern: /^[+-]?(\d+(\.\d*)?|\.\d+)$/, hint: 'use a dot for decimals' },
  ';': { pattern: /^[+-]?(\d+(,\d*)?|,\d+)$/, hint: 'in a file separated by semicolons, use a comma for decimals' },
};

function readCell(name: ColumnName, raw: string, separator: CsvSeparator): { value?: Cell; error?: string } {
  const text = raw.trim();
  if (text === '') return {};
  switch (importColumns[name].type) {
    case 'number': {
      const { pattern, hint } = numberFormats[separator];
      if (!pattern.test(text)) return { error: `${name}: "${text}" is not a number (${hint})` };
      return { value: Number(text.replace(',', '.')) };
    }
    case 'boolean': {
      const value = booleanWords[text.toLowerCase()];
      if (value === undefined) return { error: `${name}: "${text}" is not one of true, false, yes, no, 1, 0` };
      return { value };
    }
    default:
      return { value: text };
  }
}

// ---- Rows into orders ----

interface RowError {
  row: number;
  message: string;
}

interface OrderDraft {
  firstRow: number;
  orderValues: Partial<Record<ColumnName, Cell>>;
  lines: { row: number; values: Partial<Record<ColumnName, Cell>> }[];
  errors: RowError[];
  /** `row:column` of cells that could not be read, so the schema does not report them again as missing. */
  unreadable: Set<string>;
}

/** The orderCreateBody input an order's rows describe; empty cells are left out. */
function orderInput(draft: OrderDraft): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const address: Record<string, unknown> = {};
  for (const name of orderLevel) {
    const value = draft.orderValues[name];
    if (value === undefined) continue;
    const spec = importColumns[name];
    (spec.target === 'order' ? input : address)[spec.field] = value;
  }
  if (Object.keys(address).length > 0) input.shippingAddress = address;
  input.orderLines = draft.lines.map(({ values }) => {
    const line: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(values)) line[importColumns[name as ColumnName].field] = value;
    return line;
  });
  return input;
}

const columnOf = (target: ColumnSpec['target'], field: PropertyKey | undefined) =>
  columnNames.find((name) => importColumns[name].target === target && importColumns[name].field === field);

/** Maps a schema issue back to the row and column it came from; null when that cell was already reported. */
function issueToRowError(draft: OrderDraft, path: readonly PropertyKey[], message: string): RowError | null {
  const [first, second, third] = path;
  let row = draft.firstRow;
  let name: string | undefined;
  if (first === 'orderLines' && typeof second === 'number') {
    row = draft.lines[second]?.row ?? row;
    name = columnOf('line', third) ?? 'line';
  } else if (first === 'shippingAddress') {
    name = columnOf('shippingAddress', second) ?? 'shippingAddress';
  } else {
    name = columnOf('order', first) ?? String(first ?? 'order');
  }
  return draft.unreadable.has(`${row}:${name}`) ? null : { row, message: `${name}: ${message}` };
}

/** Reads the data rows into one draft per order, with the errors found in each. */
function draftOrders(
  columns: readonly (ColumnName | null)[],
  records: readonly string[][],
  separator: CsvSeparator,
  defaultChannelId: string | undefined,
): { drafts: OrderDraft[]; loose: RowError[] } {
  const drafts = new Map<string, OrderDraft>();
  const loose: RowError[] = [];
  records.forEach((fields, index) => {
    const row = index + 2; // the header is row 1
    // A blank line, or a row of bare separators as Excel writes for rows once formatted.
    if (fields.every((field) => field.trim() === '')) return;
    const errors: RowError[] = [];
    if (fields.length !== columns.length) {
      errors.push({ row, message: `The row has ${fields.length} field(s); the header row has ${columns.length}` });
    }
    const values: Partial<Record<ColumnName, Cell>> = {};
    const unreadable: string[] = [];
    columns.forEach((name, position) => {
      if (name === null) {
        if (fields[position]?.trim()) errors.push({ row, message: `Column ${position + 1} has no name in the header row; name it or leave it empty` });
        return;
      }
      const cell = readCell(name, fields[position] ?? '', separator);
      if (cell.error) {
        errors.push({ row, message: cell.error });
        unreadable.push(`${row}:${name}`);
      } else if (cell.value !== undefined) values[name] = cell.value;
    });

    // A row that names no channel goes to the one the import was given, if any.
    if (values.orderChannelId === undefined && defaultChannelId !== undefined) values.orderChannelId = defaultChannelId;
    const { orderNumber, orderChannelId } = values;
    if (orderNumber === undefined || orderChannelId === undefined) {
      // Without its key the row belongs to no order; it is reported on its own.
      if (orderNumber === undefined) errors.push({ row, message: 'orderNumber: Required' });
      if (orderChannelId === undefined) errors.push({ row, message: 'orderChannelId: Required' });
      loose.push(...errors);
      return;
    }
    const key = JSON.stringify([orderChannelId, orderNumber]);
    let draft = drafts.get(key);
    const lineValues = Object.fromEntries(Object.entries(values).filter(([name]) => importColumns[name as ColumnName].target === 'line'));
    if (!draft) {
      const orderValues = Object.fromEntries(Object.entries(values).filter(([name]) => importColumns[name as ColumnName].target !== 'line'));
      draft = { firstRow: row, orderValues, lines: [], errors: [], unreadable: new Set() };
      drafts.set(key, draft);
    } else {
      // Later rows of an order may repeat its order columns or leave them empty, not change them.
      for (const name of orderLevel) {
        const value = values[name];
        if (value !== undefined && value !== draft.orderValues[name]) {
          const first = draft.orderValues[name];
          errors.push({
            row,
            message: `${name}: "${String(value)}" differs from ${first === undefined ? 'the empty value' : `"${String(first)}"`} in row ${draft.firstRow}, the first row of order ${String(orderNumber)}`,
          });
        }
      }
    }
    draft.lines.push({ row, values: lineValues });
    draft.errors.push(...errors);
    for (const cell of unreadable) draft.unreadable.add(cell);
  });
  return { drafts: [...drafts.values()], loose };
}

// ---- The import ----

/**
 * Orders written per transaction. A 1 MiB file holds about 10 000 orders and takes seconds to write;
 * between chunks the import lets the other requests through, so the packing stations never stall
 * behind it. Every order is still all or nothing, and importing again skips what is already in.
 */
const IMPORT_CHUNK = 100;

export interface ImportOptions {
  /**
   * The channel of rows that name none, so a file exported from a shop or an ERP can be imported
   * without Shipdesk's channel ids in it; the orderChannelId column is then optional.
   */
  orderChannelId?: string | undefined;
}

/**
 * `csv` is text already: every door decodes the file's bytes as UTF-8 and refuses a file in another
 * encoding (src-shared/utf8Text.ts), so a "\ufffd" here is one the file really holds, kept as it is.
 */
export async function importOrdersCsv(app: AppContext, orgId: string, csv: string, options: ImportOptions = {}): Promise<OrderImportResult> {
  if (options.orderChannelId !== undefined) findOrderChannelRow(app.db, orgId, options.orderChannelId);
  const separator = detectSeparator(csv.replace(/^\uFEFF/, ''));
  let records: string[][];
  try {
    records = parseCsv(csv, separator);
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw fileError(`The CSV file cannot be read: ${error.message}`);
    throw error;
  }
  const [header, ...rows] = records;
  if (!header || header.every((name) => name.trim() === '')) throw fileError('The CSV file is empty; it needs a header row and one row per order line');
  const required = options.orderChannelId === undefined ? requiredColumns : requiredColumns.filter((name) => name !== 'orderChannelId');
  const columns = readHeader(header, required);
  const { drafts, loose } = draftOrders(columns, rows, separator, options.orderChannelId);
  if (drafts.length === 0 && loose.length === 0) throw fileError('The CSV file has a header row but no order rows');

  const errors: RowError[] = [...loose];
  let created = 0;
  let skipped = 0;
  const now = app.now();
  for (let start = 0; start < drafts.length; start += IMPORT_CHUNK) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    inWriteTransaction(app.db, (tx) => {
      for (const draft of drafts.slice(start, start + IMPORT_CHUNK)) {
        const parsed = orderCreateBody.safeParse(orderInput(draft));
        if (!parsed.success) {
          for (const issue of parsed.error.issues) {
            const rowError = issueToRowError(draft, issue.path, issue.message);
            if (rowError) draft.errors.push(rowError);
          }
        }
        if (!parsed.success || draft.errors.length > 0) {
          errors.push(...draft.errors);
          continue;
        }
        const input = parsed.data;
        try {
          const outcome = inSavepoint(tx, (sp) => {
            findOrderChannelRow(sp, orgId, input.orderChannelId);
            const existing = sp
              .select({ id: orders.id })
              .from(orders)
              .where(and(eq(orders.orderChannelId, input.orderChannelId), eq(orders.orderNumber, input.orderNumber)))
              .get();
            if (existing) return 'skipped' as const;
            insertOrder(sp, now, orgId, input);
            return 'created' as const;
          });
          if (outcome === 'created') created += 1;
          else skipped += 1;
        } catch (error) {
          if (!(error instanceof ApiError) || error.status >= 500) throw error;
          errors.push({ row: draft.firstRow, message: error.message });
        }
      }
    });
  }
  errors.sort((a, b) => a.row - b.row);
  return { created, skipped, errors };
}
