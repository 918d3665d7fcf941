import { CONTENT_WIDTH, PaperLayout, formatDate, partyLines, writePaperPdf, type PaperParty } from './paper';

/** One order's packing slip: the customer's list of what is in the box, and how to send it back. */
export interface PackingSlip {
  orderNumber: string;
  /** ISO timestamp of the order; printed as its date. */
  orderDate: string;
  customerName: string | null;
  /** Null when the order has no shipping address yet. */
  shipTo: PaperParty | null;
  lines: { sku: string; name: string; quantity: number }[];
}

export interface PackingSlipsData {
  /** The organization as the customer knows it: its company name (else its name) and address lines. */
  sender: { name: string; lines: string[] };
  returnInstructions: string | null;
  slips: PackingSlip[];
}

/**
 * Packing slips, one order per page (an order with many lines continues on the next): customer-facing,
 * so no prices and no internal ids; the organization's return instructions at the foot. Each page's
 * footer counts the pages of its own order, since each slip goes into its own box.
 */
export async function renderPackingSlips(data: PackingSlipsData): Promise<{ pdf: Buffer; pageCount: number }> {
  let current: PackingSlip | undefined;
  let startingOrder = false;
  const layout = await PaperLayout.create((page) => {
    if (startingOrder || !current) return;
    page.paragraph(`Packing slip, order ${current.orderNumber} (continued)`, { bold: true, size: 10, maxLines: 1 });
    page.gap(4);
  }, data);
  /** The first page of each order, to number the pages per order. */
  const firstPages: number[] = [];

  data.slips.forEach((slip, index) => {
    current = slip;
    if (index > 0) {
      startingOrder = true;
      layout.newPage();
      startingOrder = false;
    }
    firstPages.push(layout.pages.length - 1);
    drawSlip(layout, data, slip);
  });

  const orderOfPage = (pageIndex: number) => {
    let order = 0;
    while (order + 1 < firstPages.length && (firstPages[order + 1] as number) <= pageIndex) order++;
    return order;
  };
  const pdf = await writePaperPdf(layout, {
    title: data.slips.length === 1 ? `Packing slip ${data.slips[0]?.orderNumber}` : `Packing slips (${data.slips.length} orders)`,
    footer: data.sender.name,
    pageLabel: (pageIndex, pageCount) => {
      const order = orderOfPage(pageIndex);
      const first = firstPages[order] as number;
      const last = (firstPages[order + 1] ?? pageCount) - 1;
      const number = data.slips[order]?.orderNumber ?? '';
      return last > first ? `Order ${number} · page ${pageIndex - first + 1} of ${last - first + 1}` : `Order ${number}`;
    },
  });
  return { pdf, pageCount: layout.pages.length };
}

function drawSlip(layout: PaperLayout, data: PackingSlipsData, slip: PackingSlip): void {
  layout.paragraph('Packing slip', { bold: true, size: 20, maxLines: 1 });
  layout.gap(6);
  const details: [string, string][] = [
    ['Order', slip.orderNumber],
    ['Order date', formatDate(slip.orderDate)],
  ];
  if (slip.customerName) details.push(['Customer', slip.customerName]);
  const items = slip.lines.reduce((sum, line) => sum + line.quantity, 0);
  details.push(['Items', String(items)]);
  layout.keyValues(details, { size: 9.5, captionWidth: 80 });
  layout.gap(10);
  layout.blocks(
    [
      { title: 'From', lines: [data.sender.name, ...data.sender.lines] },
      { title: 'Ship to', lines: slip.shipTo ? partyLines(slip.shipTo) : ['No shipping address on the order'] },
    ],
    { size: 9.5 },
  );
  layout.gap(14);
  if (slip.lines.length === 0) layout.paragraph('Nothing in this order needs shipping.', { size: 10 });
  else {
    layout.table(
      [
        { header: 'SKU', width: 130, maxLines: 2 },
        { header: 'Item', width: CONTENT_WIDTH - 130 - 60, maxLines: 3 },
        { header: 'Quantity', width: 60, align: 'right' },
      ],
      slip.lines.map((line) => [line.sku, line.name, String(line.quantity)]),
      { size: 9.5 },
    );
  }
  const instructions = data.returnInstructions?.trim();
  if (instructions) {
    layout.gap(16);
    layout.ensure(40);
    layout.paragraph('Returns', { bold: true, size: 11, maxLines: 1 });
    layout.gap(3);
    // The organization's own line breaks are kept: an address is written one part a line.
    for (const paragraph of instructions.split(/\r\n|\r|\n/)) {
      if (paragraph.trim() === '') layout.gap(layout.lineHeight(9.5) / 2);
      else layout.paragraph(paragraph, { size: 9.5, maxLines: 20 });
    }
  }
}
