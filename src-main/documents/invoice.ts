import {
  CONTENT_WIDTH,
  MARGIN,
  PaperLayout,
  formatDate,
  formatMoney,
  formatWeight,
  orderText,
  partyLines,
  writePaperPdf,
  type CustomsPaperData,
  type PaperLine,
  type ShippingPaperData,
} from './paper';

/**
 * The customs invoices that travel with a shipment leaving the customs union (USERS 8): the commercial
 * invoice of a sale, or the proforma invoice of goods sent without one (samples, replacements,
 * returns). One A4 document for the whole shipment: seller, buyer, term of trade, every line with its
 * HS code and origin, totals per currency, the weight, and a declaration to sign.
 */
export type InvoiceKind = 'proforma' | 'commercial';

const titles: Record<InvoiceKind, string> = { proforma: 'Proforma invoice', commercial: 'Commercial invoice' };
const numberPrefix: Record<InvoiceKind, string> = { proforma: 'PRO', commercial: 'INV' };

/** `INV-<reference>` or `PRO-<reference>`: one invoice per shipment, found again by the shipment's reference. */
export function invoiceNumber(kind: InvoiceKind, reference: string): string {
  return `${numberPrefix[kind]}-${reference}`;
}

export interface InvoiceLine {
  sku: string;
  description: string;
  tarrifNumber: string;
  countryOfOrigin: string;
  quantity: number;
  /** Null when the line has no price. */
  unitPrice: number | null;
  currency: string;
  /** In cents, so totals add up exactly. */
  totalCents: number;
  /** Net weight of the line (unit weight × quantity) in grams, so totals add up exactly; null when unknown. */
  netGrams: number | null;
}

/**
 * The shipment's lines for customs: the same goods packed in several parcels (a split) are one line
 * with their quantities added, since the invoice declares goods, not parcels.
 */
export function invoiceLines(data: ShippingPaperData): InvoiceLine[] {
  const byGoods = new Map<string, InvoiceLine>();
  const key = (line: PaperLine) =>
    JSON.stringify([line.sku, line.description, line.tarrifNumber, line.countryOfOrigin, line.unitPrice, line.currency, line.unitWeightKg ?? null]);
  for (const parcel of data.parcels) {
    for (const line of parcel.lines) {
      const cents = line.unitPrice === null ? 0 : Math.round(line.unitPrice * 100) * line.quantity;
      const grams = line.unitWeightKg === null || line.unitWeightKg === undefined ? null : Math.round(line.unitWeightKg * 1000) * line.quantity;
      const existing = byGoods.get(key(line));
      if (existing) {
        existing.quantity += line.quantity;
        existing.totalCents += cents;
        if (existing.netGrams !== null && grams !== null) existing.netGrams += grams;
        continue;
      }
      byGoods.set(key(line), {
        sku: line.sku,
        description: line.description ?? '',
        tarrifNumber: line.tarrifNumber ?? '',
        countryOfOrigin: line.countryOfOrigin ?? '',
        quantity: line.quantity,
        unitPrice: line.unitPrice,
        currency: line.currency ?? '',
        totalCents: cents,
        netGrams: grams,
      });
    }
  }
  return [...byGoods.values()];
}

/** Totals per currency, in the order the currencies first appear; lines without a currency are totalled apart. */
export function totalsByCurrency(lines: readonly InvoiceLine[]): { currency: string; cents: number }[] {
  const totals = new Map<string, number>();
  for (const line of lines) totals.set(line.currency, (totals.get(line.currency) ?? 0) + line.totalCents);
  return [...totals].map(([currency, cents]) => ({ currency, cents }));
}

const reasonWords: Record<CustomsPaperData['exportReason'], string> = {
  sale: 'Sale of goods',
  gift: 'Gift',
  sample: 'Commercial sample',
  documents: 'Documents',
  return: 'Returned goods',
  repair: 'Repair',
  other: 'Other',
};

/** Kilograms with three decimals, from grams, as customs forms state net weight. */
export function formatNetKg(grams: number): string {
  return (grams / 1000).toFixed(3);
}

export async function renderInvoice(data: ShippingPaperData, kind: InvoiceKind): Promise<Buffer> {
  const title = titles[kind];
  const number = invoiceNumber(kind, data.reference);
  const layout = await PaperLayout.create((page) => {
    page.paragraph(`${title} ${number} (continued)`, { bold: true, size: 10, maxLines: 1 });
    page.gap(4);
  }, data);

  layout.paragraph(title, { bold: true, size: 20, maxLines: 1 });
  if (kind === 'proforma') {
    layout.gap(2);
    layout.paragraph('Proforma invoice — no commercial value / for customs purposes', { bold: true, size: 10.5 });
  }
  layout.gap(6);

  const lines = invoiceLines(data);
  const totalKg = data.parcels.reduce((sum, parcel) => sum + parcel.weightKg, 0);
  const customs = data.customs ?? null;
  const details: [string, string][] = [
    ['Invoice number', number],
    // An export's invoice carries the declaration's date, the one the carrier was sent.
    ['Invoice date', customs?.invoiceDate ?? formatDate(data.date)],
    ['Shipment', data.reference],
  ];
  const order = orderText(data.order);
  if (order) details.push(['Order', order]);
  // A paperless invoice is made before the carrier gives a tracking number.
  details.push(data.trackingNumber ? ['Tracking number', `${data.trackingNumber} (${data.carrierName})`] : ['Carrier', data.carrierName]);
  details.push(['Term of trade', data.termOfTrade], ['Parcels', String(data.parcels.length)], ['Total weight', formatWeight(totalKg)]);
  if (customs) {
    details.push(
      ['Exporter EORI', customs.exporter.eoriNumber ?? '-'],
      ['Exporter VAT no.', customs.exporter.vatNumber ?? '-'],
      ['Reason for export', reasonWords[customs.exportReason]],
    );
  }
  // 100 points: "Tracking number" in DejaVu Sans Bold, wider than Helvetica, still fits.
  layout.keyValues(details, { size: 9.5, captionWidth: 100 });
  layout.gap(10);
  layout.blocks(
    [
      { title: 'Seller / exporter', lines: partyLines(data.sender) },
      { title: 'Buyer / consignee', lines: partyLines(data.receiver) },
    ],
    { size: 9.5 },
  );
  layout.gap(14);

  // An export declares each line's net weight; the column is left out of a paper that declares none.
  const fixed = { no: 22, sku: 70, hs: 58, origin: 38, qty: 36, price: 56, currency: 30, total: 62, net: customs ? 48 : 0 };
  const descriptionWidth = CONTENT_WIDTH - Object.values(fixed).reduce((sum, width) => sum + width, 0);
  const netColumn = customs ? [{ header: 'Net kg', width: fixed.net, align: 'right' as const }] : [];
  layout.table(
    [
      { header: '#', width: fixed.no },
      { header: 'Description', width: descriptionWidth, maxLines: 3 },
      { header: 'SKU', width: fixed.sku, maxLines: 2 },
      { header: 'HS code', width: fixed.hs },
      { header: 'Origin', width: fixed.origin },
      { header: 'Qty', width: fixed.qty, align: 'right' },
      { header: 'Unit price', width: fixed.price, align: 'right' },
      { header: 'Curr.', width: fixed.currency },
      { header: 'Total', width: fixed.total, align: 'right' },
      ...netColumn,
    ],
    lines.map((line, index) => [
      String(index + 1),
      line.description,
      line.sku,
      line.tarrifNumber || '-',
      line.countryOfOrigin || '-',
      String(line.quantity),
      line.unitPrice === null ? '-' : formatMoney(line.unitPrice),
      line.currency || '-',
      formatMoney(line.totalCents / 100),
      ...(customs ? [line.netGrams === null ? '-' : formatNetKg(line.netGrams)] : []),
    ]),
    { size: 8 },
  );
  if (lines.length === 0) layout.paragraph('This shipment has no order lines.', { size: 9 });

  // Totals, right-aligned under the table.
  layout.gap(6);
  const totals = totalsByCurrency(lines);
  const quantity = lines.reduce((sum, line) => sum + line.quantity, 0);
  const totalsWidth = 220;
  const totalsAt = { x: MARGIN + CONTENT_WIDTH - totalsWidth, width: totalsWidth, captionWidth: 120, valueAlign: 'right' as const };
  const moneyRows = totals.map(({ currency, cents }): [string, string] => [`Total ${currency || '(no currency)'}`, formatMoney(cents / 100)]);
  layout.keyValues(moneyRows, { size: 10, bold: true, ...totalsAt });
  layout.keyValues(
    [
      ['Total quantity', String(quantity)],
      ...(customs ? [['Total net weight', `${formatNetKg(lines.reduce((sum, line) => sum + (line.netGrams ?? 0), 0))} kg`] as [string, string]] : []),
      ['Total weight', formatWeight(totalKg)],
    ],
    { size: 10, ...totalsAt },
  );

  // The declaration and signature keep together.
  layout.gap(18);
  layout.ensure(110);
  if (kind === 'proforma')
    layout.paragraph('Proforma invoice — no commercial value / for customs purposes. The values are stated for customs purposes only.', { size: 9 });
  layout.paragraph('I declare that the information on this invoice is true and correct, and that the goods are of the origin shown above.', { size: 9 });
  layout.gap(24);
  layout.paragraph(`Place and date: ${data.sender.city}, ${formatDate(data.date)}`, { size: 9, maxLines: 1 });
  layout.gap(24);
  layout.rule({ width: 200 });
  layout.gap(4);
  layout.paragraph(`Signature, for ${data.sender.name}`, { size: 9, maxLines: 1 });

  return writePaperPdf(layout, { title: `${title} ${number}`, footer: `${title} ${number} · ${data.reference}` });
}
