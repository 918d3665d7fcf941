import { CONTENT_WIDTH, PaperLayout, formatDate, formatWeight, orderText, partyLines, writePaperPdf, type ShippingPaperData } from './paper';

/**
 * The packing list: what is in each parcel, for the packer who checks it and the receiver who unpacks
 * it. One A4 document for the whole shipment; prices are left out on purpose (they are the invoice's).
 */
export async function renderPackingList(data: ShippingPaperData): Promise<Buffer> {
  const layout = await PaperLayout.create((page) => {
    page.paragraph(`Packing list ${data.reference} (continued)`, { bold: true, size: 10, maxLines: 1 });
    page.gap(4);
  }, data);

  layout.paragraph(data.isReturn ? 'Packing list (return)' : 'Packing list', { bold: true, size: 20, maxLines: 1 });
  layout.gap(6);

  const totalKg = data.parcels.reduce((sum, parcel) => sum + parcel.weightKg, 0);
  const totalItems = data.parcels.reduce((sum, parcel) => sum + parcel.lines.reduce((lines, line) => lines + line.quantity, 0), 0);
  const details: [string, string][] = [['Shipment', data.reference]];
  const order = orderText(data.order);
  if (order) details.push(['Order', order]);
  details.push(
    ['Date', formatDate(data.date)],
    ['Carrier', `${data.carrierName}, ${data.productName}`],
    ['Tracking number', data.trackingNumber],
    ['Parcels', String(data.parcels.length)],
    ['Total weight', formatWeight(totalKg)],
    ['Items', String(totalItems)],
  );
  // 100 points: "Tracking number" in DejaVu Sans Bold, wider than Helvetica, still fits.
  layout.keyValues(details, { size: 9.5, captionWidth: 100 });
  layout.gap(10);
  layout.blocks(
    [
      { title: 'Sender', lines: partyLines(data.sender) },
      { title: 'Receiver', lines: partyLines(data.receiver) },
    ],
    { size: 9.5 },
  );

  const columns = [
    { header: 'SKU', width: 120, maxLines: 2 },
    { header: 'Description', width: CONTENT_WIDTH - 120 - 90 - 60, maxLines: 3 },
    { header: 'Location', width: 90, maxLines: 1 },
    { header: 'Quantity', width: 60, align: 'right' as const },
  ];
  data.parcels.forEach((parcel, index) => {
    layout.gap(14);
    // The parcel's heading stays with its first lines.
    layout.ensure(60);
    const measured = parcel.length > 0 && parcel.width > 0 && parcel.height > 0 ? `, ${parcel.length} × ${parcel.width} × ${parcel.height} cm` : '';
    layout.paragraph(`Parcel ${index + 1}/${data.parcels.length}: ${formatWeight(parcel.weightKg)}${measured}`, { bold: true, size: 11, maxLines: 1 });
    layout.gap(3);
    if (parcel.lines.length === 0) {
      layout.paragraph('No order lines in this parcel.', { size: 9 });
      return;
    }
    layout.table(
      columns,
      parcel.lines.map((line) => [line.sku, line.description ?? '', line.location ?? '', String(line.quantity)]),
      { size: 8.5 },
    );
    const quantity = parcel.lines.reduce((sum, line) => sum + line.quantity, 0);
    layout.paragraph(`${parcel.lines.length} line${parcel.lines.length === 1 ? '' : 's'}, ${quantity} item${quantity === 1 ? '' : 's'}`, { size: 8.5 });
  });

  return writePaperPdf(layout, { title: `Packing list ${data.reference}`, footer: `Packing list · ${data.reference}` });
}
