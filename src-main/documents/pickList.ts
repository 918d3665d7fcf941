import { CONTENT_WIDTH, PaperLayout, formatDate, writePaperPdf } from './paper';

/** One SKU to pick from one bin: the total, and which orders take how many. */
export interface PickListRow {
  /** The bin; null for lines that have none (listed last, under "No location"). */
  location: string | null;
  sku: string;
  name: string;
  quantity: number;
  orders: { orderNumber: string; quantity: number }[];
}

export interface PickListData {
  orgName: string;
  /** ISO timestamp; printed as the local date and time. */
  createdAt: string;
  orderCount: number;
  /** What narrowed the orders, in words ("Carrier: PostNord", "The 500 oldest of 730 pending orders"). */
  notes: string[];
  /** Grouped and sorted already (pickListRows). */
  rows: PickListRow[];
}

const byText = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * The pick list's rows from order lines: one per bin and SKU, bins in the order a picker walks them
 * (A-2 before A-10), lines without a bin last; the orders of each row in the order given.
 */
export function pickListRows(lines: readonly { location: string | null; sku: string; name: string; quantity: number; orderNumber: string }[]): PickListRow[] {
  const rows = new Map<string, PickListRow>();
  for (const line of lines) {
    if (line.quantity <= 0) continue;
    const key = JSON.stringify([line.location ?? '', line.sku]);
    const row = rows.get(key) ?? { location: line.location, sku: line.sku, name: line.name, quantity: 0, orders: [] };
    row.quantity += line.quantity;
    const order = row.orders.find((entry) => entry.orderNumber === line.orderNumber);
    if (order) order.quantity += line.quantity;
    else row.orders.push({ orderNumber: line.orderNumber, quantity: line.quantity });
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => {
    if ((a.location === null) !== (b.location === null)) return a.location === null ? 1 : -1;
    return byText.compare(a.location ?? '', b.location ?? '') || byText.compare(a.sku, b.sku);
  });
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function timeOf(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return Number.isNaN(date.getTime()) ? '' : ` ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The A4 pick list: a heading per bin, then its SKUs with the total to take and the orders they go to. */
export async function renderPickList(data: PickListData): Promise<{ pdf: Buffer; pageCount: number }> {
  const layout = await PaperLayout.create((page) => {
    page.paragraph(`Pick list ${formatDate(data.createdAt)} (continued)`, { bold: true, size: 10, maxLines: 1 });
    page.gap(4);
  }, data);

  layout.paragraph('Pick list', { bold: true, size: 20, maxLines: 1 });
  layout.gap(6);
  const items = data.rows.reduce((sum, row) => sum + row.quantity, 0);
  const details: [string, string][] = [
    ['Organization', data.orgName],
    ['Date', `${formatDate(data.createdAt)}${timeOf(data.createdAt)}`],
    ['Orders', String(data.orderCount)],
    ['To pick', `${plural(items, 'item')} in ${plural(data.rows.length, 'line')}`],
  ];
  for (const note of data.notes) details.push(['Note', note]);
  layout.keyValues(details, { size: 9.5, captionWidth: 80 });

  const columns = [
    { header: 'SKU', width: 110, maxLines: 2 },
    { header: 'Name', width: CONTENT_WIDTH - 110 - 55 - 14 - 170, maxLines: 2 },
    { header: 'Quantity', width: 55, align: 'right' as const },
    // Keeps the right-aligned quantity apart from the first order number.
    { header: '', width: 14 },
    { header: 'Orders', width: 170, maxLines: 4 },
  ];
  let index = 0;
  while (index < data.rows.length) {
    const location = data.rows[index]?.location ?? null;
    const group: PickListRow[] = [];
    while (index < data.rows.length && (data.rows[index]?.location ?? null) === location) group.push(data.rows[index++] as PickListRow);
    layout.gap(12);
    // A bin's heading stays with its first rows.
    layout.ensure(50);
    const units = group.reduce((sum, row) => sum + row.quantity, 0);
    layout.paragraph(`${location === null ? 'No location' : `Location ${location}`} · ${plural(units, 'item')}`, { bold: true, size: 11, maxLines: 1 });
    layout.gap(3);
    layout.table(
      columns,
      group.map((row) => [
        row.sku,
        row.name,
        String(row.quantity),
        '',
        row.orders.map((order) => (order.quantity === 1 ? order.orderNumber : `${order.orderNumber} ×${order.quantity}`)).join(', '),
      ]),
      { size: 9 },
    );
  }
  if (data.rows.length === 0) {
    layout.gap(12);
    layout.paragraph('Nothing to pick: every line of these orders is already shipped.', { size: 10 });
  }

  const pdf = await writePaperPdf(layout, {
    title: `Pick list ${formatDate(data.createdAt)}`,
    footer: `Pick list · ${data.orgName} · ${plural(data.orderCount, 'order')}`,
  });
  return { pdf, pageCount: layout.pages.length };
}
