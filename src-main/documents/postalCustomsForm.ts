import { A4_PAGE, A6_PAGE, PaperLayout, formatMoney, formatWeight, partyLines, writePaperPdf, type CustomsPaperData, type ShippingPaperData } from './paper';
import { formatNetKg, invoiceLines, type InvoiceLine } from './invoice';

/**
 * The UPU's customs declarations for postal items (issue 21): the CN22 (A6, contents up to 300 SDR)
 * and the CN23 (A4, any value). Both show the sender, the addressee, each kind of goods with its
 * quantity, net weight, value, HS code and origin, the totals, the category of the item, and a
 * certificate to date and sign. The goods are those of the invoice (invoiceLines), so the form, the
 * invoice and the carrier's declaration agree.
 */

/** The UPU's categories of item, from the declaration's reason for export. */
const categories = ['Gift', 'Commercial sample', 'Documents', 'Returned goods', 'Sale of goods', 'Other'] as const;
type Category = (typeof categories)[number];

export function categoryOf(reason: CustomsPaperData['exportReason'] | undefined): Category {
  switch (reason) {
    case 'gift':
      return 'Gift';
    case 'sample':
      return 'Commercial sample';
    case 'documents':
      return 'Documents';
    case 'return':
      return 'Returned goods';
    case 'sale':
      return 'Sale of goods';
    default:
      return 'Other';
  }
}

function categoryText(reason: CustomsPaperData['exportReason'] | undefined): string {
  const chosen = categoryOf(reason);
  return categories.map((category) => `[${category === chosen ? 'X' : ' '}] ${category}`).join('   ');
}

interface FormTotals {
  currency: string;
  valueCents: number;
  netGrams: number;
  grossKg: number;
}

function totalsOf(data: ShippingPaperData, lines: readonly InvoiceLine[]): FormTotals {
  return {
    currency: data.customs?.currency ?? lines[0]?.currency ?? '',
    valueCents: lines.reduce((sum, line) => sum + line.totalCents, 0),
    netGrams: lines.reduce((sum, line) => sum + (line.netGrams ?? 0), 0),
    grossKg: data.parcels.reduce((sum, parcel) => sum + parcel.weightKg, 0),
  };
}

const CERTIFICATE =
  'I certify that the particulars given in this customs declaration are correct and that this item contains no dangerous article, and no article prohibited by law or by postal or customs rules.';

const dateOf = (data: ShippingPaperData) => data.customs?.invoiceDate ?? data.date.slice(0, 10);

function exporterRows(data: ShippingPaperData): [string, string][] {
  const exporter = data.customs?.exporter;
  return [
    ['EORI', exporter?.eoriNumber ?? '-'],
    ['VAT no.', exporter?.vatNumber ?? '-'],
  ];
}

/** CN22: an A6 form for an item worth up to 300 SDR. */
export async function renderCn22(data: ShippingPaperData): Promise<Buffer> {
  const lines = invoiceLines(data);
  const totals = totalsOf(data, lines);
  const layout = await PaperLayout.create(
    (page) => {
      page.paragraph(`CN 22 ${data.reference} (continued)`, { bold: true, size: 7, maxLines: 1 });
      page.gap(2);
    },
    data,
    A6_PAGE,
  );
  const width = layout.contentWidth;
  layout.paragraph('CUSTOMS DECLARATION CN 22', { bold: true, size: 11, maxLines: 1 });
  layout.paragraph(`May be opened officially · ${data.carrierName}`, { size: 6.5, maxLines: 1 });
  layout.gap(3);
  layout.keyValues([['Shipment', data.reference], ['Tracking no.', data.trackingNumber || '-'], ...exporterRows(data)], { size: 6.5, captionWidth: 52 });
  layout.gap(3);
  layout.blocks(
    [
      { title: 'From', lines: partyLines(data.sender).slice(0, 6) },
      { title: 'To', lines: partyLines(data.receiver).slice(0, 6) },
    ],
    { size: 6 },
  );
  layout.gap(3);
  layout.paragraph('Category of item', { bold: true, size: 6.5, maxLines: 1 });
  layout.paragraph(categoryText(data.customs?.exportReason), { size: 6, maxLines: 3 });
  layout.gap(3);
  const fixed = { qty: 18, net: 30, value: 40, hs: 44, origin: 24 };
  layout.table(
    [
      { header: 'Description', width: width - Object.values(fixed).reduce((sum, w) => sum + w, 0), maxLines: 2 },
      { header: 'Qty', width: fixed.qty, align: 'right' },
      { header: 'Net kg', width: fixed.net, align: 'right' },
      { header: 'Value', width: fixed.value, align: 'right' },
      { header: 'HS code', width: fixed.hs },
      { header: 'Origin', width: fixed.origin },
    ],
    lines.map((line) => [
      line.description,
      String(line.quantity),
      line.netGrams === null ? '-' : formatNetKg(line.netGrams),
      formatMoney(line.totalCents / 100),
      line.tarrifNumber || '-',
      line.countryOfOrigin || '-',
    ]),
    { size: 6 },
  );
  layout.gap(2);
  layout.keyValues(
    [
      ['Total value', `${formatMoney(totals.valueCents / 100)} ${totals.currency}`],
      ['Total net weight', `${formatNetKg(totals.netGrams)} kg`],
      ['Total gross weight', formatWeight(totals.grossKg)],
    ],
    { size: 7, bold: true, captionWidth: 80 },
  );
  layout.gap(3);
  layout.ensure(60);
  layout.paragraph(CERTIFICATE, { size: 5.5, maxLines: 4 });
  layout.gap(12);
  layout.rule({ width: width * 0.6 });
  layout.gap(2);
  layout.paragraph(`Date and sender's signature: ${dateOf(data)}, ${data.sender.name}`, { size: 6, maxLines: 2 });
  return writePaperPdf(layout, { title: `CN 22 ${data.reference}`, footer: `CN 22 · ${data.reference}` });
}

/** CN23: an A4 form for an item of any value. */
export async function renderCn23(data: ShippingPaperData): Promise<Buffer> {
  const lines = invoiceLines(data);
  const totals = totalsOf(data, lines);
  const layout = await PaperLayout.create(
    (page) => {
      page.paragraph(`CN 23 ${data.reference} (continued)`, { bold: true, size: 10, maxLines: 1 });
      page.gap(4);
    },
    data,
    A4_PAGE,
  );
  const width = layout.contentWidth;
  layout.paragraph('CUSTOMS DECLARATION CN 23', { bold: true, size: 18, maxLines: 1 });
  layout.paragraph(`May be opened officially · Designated operator: ${data.carrierName}`, { size: 9, maxLines: 1 });
  layout.gap(8);
  layout.blocks(
    [
      { title: 'From (sender)', lines: partyLines(data.sender) },
      { title: 'To (addressee)', lines: partyLines(data.receiver) },
    ],
    { size: 9 },
  );
  layout.gap(8);
  layout.keyValues(
    [
      ['Shipment', data.reference],
      ['Tracking number', data.trackingNumber || '-'],
      ['Invoice', data.customs ? `${data.customs.invoiceNumber} of ${data.customs.invoiceDate}` : '-'],
      ["Sender's EORI", data.customs?.exporter.eoriNumber ?? '-'],
      ["Sender's VAT no.", data.customs?.exporter.vatNumber ?? '-'],
      ['Term of trade', data.termOfTrade],
      ['Parcels', String(data.parcels.length)],
    ],
    { size: 9, captionWidth: 110 },
  );
  layout.gap(8);
  layout.paragraph('Category of item', { bold: true, size: 9.5, maxLines: 1 });
  layout.paragraph(categoryText(data.customs?.exportReason), { size: 9, maxLines: 2 });
  if (data.customs?.exportReason === 'repair') layout.paragraph('Explanation: sent for repair', { size: 9, maxLines: 1 });
  layout.gap(8);
  const fixed = { no: 22, qty: 36, net: 52, value: 62, currency: 34, hs: 64, origin: 44 };
  layout.table(
    [
      { header: '#', width: fixed.no },
      { header: 'Detailed description of contents', width: width - Object.values(fixed).reduce((sum, w) => sum + w, 0), maxLines: 3 },
      { header: 'Qty', width: fixed.qty, align: 'right' },
      { header: 'Net kg', width: fixed.net, align: 'right' },
      { header: 'Value', width: fixed.value, align: 'right' },
      { header: 'Curr.', width: fixed.currency },
      { header: 'HS code', width: fixed.hs },
      { header: 'Origin', width: fixed.origin },
    ],
    lines.map((line, index) => [
      String(index + 1),
      line.description,
      String(line.quantity),
      line.netGrams === null ? '-' : formatNetKg(line.netGrams),
      formatMoney(line.totalCents / 100),
      line.currency || '-',
      line.tarrifNumber || '-',
      line.countryOfOrigin || '-',
    ]),
    { size: 8 },
  );
  layout.gap(6);
  layout.keyValues(
    [
      ['Total value', `${formatMoney(totals.valueCents / 100)} ${totals.currency}`],
      ['Total net weight', `${formatNetKg(totals.netGrams)} kg`],
      ['Total gross weight', formatWeight(totals.grossKg)],
    ],
    { size: 10, bold: true, captionWidth: 130 },
  );
  layout.gap(16);
  layout.ensure(100);
  layout.paragraph(CERTIFICATE, { size: 9 });
  layout.gap(24);
  layout.paragraph(`Place and date: ${data.sender.city}, ${dateOf(data)}`, { size: 9, maxLines: 1 });
  layout.gap(24);
  layout.rule({ width: 200 });
  layout.gap(4);
  layout.paragraph(`Sender's signature, for ${data.sender.name}`, { size: 9, maxLines: 1 });
  return writePaperPdf(layout, { title: `CN 23 ${data.reference}`, footer: `CN 23 · ${data.reference}` });
}
