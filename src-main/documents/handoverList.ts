import { LabelRenderError } from './labelDrawing';
import { CONTENT_WIDTH, MARGIN, PaperLayout, formatDate, formatWeight, partyLines, writePaperPdf, type PaperParty } from './paper';

/** One shipment handed to the driver, as the close-out took it. */
export interface HandoverShipment {
  reference: string;
  trackingNumber: string;
  parcelCount: number;
  weightKg: number;
}

export interface HandoverListData {
  orgName: string;
  carrierName: string;
  closeOutId: string;
  /** ISO timestamp of the close-out; printed as the local date and time. */
  createdAt: string;
  /** The sender address the close-out was made for; null: every sender address. */
  senderAddress: PaperParty | null;
  carrierReference: string | null;
  /** The carrier books in its sandbox (decisions §13): the list says TEST, so nobody hands it to a real driver. */
  testMode: boolean;
  shipments: HandoverShipment[];
  totals: { shipments: number; parcels: number; weightKg: number };
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function timeOf(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return Number.isNaN(date.getTime()) ? '' : ` ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

// Columns of the shipment table, in points.
const NUMBER_WIDTH = 26;
const REFERENCE_WIDTH = 130;
const PARCELS_WIDTH = 50;
const WEIGHT_WIDTH = 62;
const TRACKING_WIDTH = CONTENT_WIDTH - NUMBER_WIDTH - REFERENCE_WIDTH - PARCELS_WIDTH - WEIGHT_WIDTH;
/** A handheld scanner reads 0.33 mm modules at arm's length; narrower only when a long number needs it. */
const MAX_MODULE_WIDTH = 0.95;
const BARCODE_HEIGHT = 26;
const TEXT_SIZE = 9;

/**
 * The A4 handover list of a close-out (issue 21): carrier, date, each shipment with its tracking number
 * as a Code 128 barcode the driver can scan, parcels and weight, the totals, and lines for the driver's
 * name, the time and a signature. Pure: data in, bytes out.
 */
export async function renderHandoverList(data: HandoverListData): Promise<{ pdf: Buffer; pageCount: number }> {
  const date = `${formatDate(data.createdAt)}${timeOf(data.createdAt)}`;
  // Pages the table continues on repeat its header; the signature's page does not.
  let inTable = false;
  const layout = await PaperLayout.create((page) => {
    page.paragraph(`Handover list · ${data.carrierName} · ${date} (continued)`, { bold: true, size: 10, maxLines: 1 });
    page.gap(4);
    if (inTable) tableHeader(page);
  }, data);

  layout.paragraph(data.testMode ? 'Handover list · TEST' : 'Handover list', { bold: true, size: 20, maxLines: 1 });
  layout.gap(6);
  const details: [string, string][] = [
    ['Carrier', data.carrierName],
    ['Date', date],
    ['From', data.senderAddress ? partyLines(data.senderAddress).slice(0, 4).join(', ') : `${data.orgName}, every sender address`],
    ['Close-out', data.closeOutId],
  ];
  if (data.carrierReference) details.push(['Carrier reference', data.carrierReference]);
  if (data.testMode) details.push(['TEST', `${data.carrierName} is in test mode: these shipments were booked in its test system, and no driver collects them`]);
  details.push(['Handed over', totalsText(data.totals)]);
  layout.keyValues(details, { size: 9.5, captionWidth: 95 });
  layout.gap(12);

  tableHeader(layout);
  inTable = true;
  data.shipments.forEach((shipment, index) => {
    const rowHeight = BARCODE_HEIGHT + layout.lineHeight(TEXT_SIZE) + 6;
    // A new page repeats the table header (the layout's continued header draws it).
    layout.ensure(rowHeight);
    const top = layout.y;
    const textTop = top + 2;
    let x = MARGIN;
    layout.put(String(index + 1), { size: TEXT_SIZE, x, top: textTop, width: NUMBER_WIDTH - 4 });
    x += NUMBER_WIDTH;
    layout.put(layout.cut(shipment.reference, true, TEXT_SIZE, REFERENCE_WIDTH - 6), {
      bold: true,
      size: TEXT_SIZE,
      x,
      top: textTop,
      width: REFERENCE_WIDTH - 6,
    });
    x += REFERENCE_WIDTH;
    layout.y = top + 2;
    try {
      layout.barcode(shipment.trackingNumber, { x, height: BARCODE_HEIGHT, maxWidth: TRACKING_WIDTH - 8, maxModuleWidth: MAX_MODULE_WIDTH });
    } catch (error) {
      // A number Code 128 cannot carry is still written out below, for the driver to type.
      if (!(error instanceof LabelRenderError)) throw error;
    }
    layout.put(layout.cut(shipment.trackingNumber, false, TEXT_SIZE, TRACKING_WIDTH - 8), {
      size: TEXT_SIZE,
      x: x + 6,
      top: top + 2 + BARCODE_HEIGHT + 2,
      width: TRACKING_WIDTH - 8,
    });
    x += TRACKING_WIDTH;
    layout.put(String(shipment.parcelCount), { size: TEXT_SIZE, x, top: textTop, width: PARCELS_WIDTH - 6, align: 'right' });
    x += PARCELS_WIDTH;
    layout.put(formatWeight(shipment.weightKg), { size: TEXT_SIZE, x, top: textTop, width: WEIGHT_WIDTH, align: 'right' });
    layout.y = top + rowHeight;
    layout.rule({ thickness: 0.3, gray: 0.7 });
    layout.y += 3;
  });

  inTable = false;
  layout.gap(4);
  layout.ensure(layout.lineHeight(11) + 4);
  layout.rule({ thickness: 0.75 });
  layout.gap(4);
  layout.paragraph(`Total: ${totalsText(data.totals)}`, { bold: true, size: 11, maxLines: 2 });

  signatureBlock(layout);

  const pdf = await writePaperPdf(layout, {
    title: `Handover list ${data.carrierName} ${formatDate(data.createdAt)}`,
    footer: `Handover list · ${data.carrierName} · ${data.closeOutId} · ${plural(data.totals.shipments, 'shipment')}`,
  });
  return { pdf, pageCount: layout.pages.length };
}

function totalsText(totals: HandoverListData['totals']): string {
  return `${plural(totals.shipments, 'shipment')}, ${plural(totals.parcels, 'parcel')}, ${formatWeight(totals.weightKg)}`;
}

function tableHeader(layout: PaperLayout): void {
  const size = TEXT_SIZE;
  let x = MARGIN;
  const cells: [string, number, 'left' | 'right'][] = [
    ['#', NUMBER_WIDTH, 'left'],
    ['Reference', REFERENCE_WIDTH, 'left'],
    ['Tracking number', TRACKING_WIDTH, 'left'],
    ['Parcels', PARCELS_WIDTH, 'right'],
    ['Weight', WEIGHT_WIDTH, 'right'],
  ];
  for (const [text, width, align] of cells) {
    layout.put(text, {
      bold: true,
      size,
      x: text === 'Tracking number' ? x + 6 : x,
      width: align === 'right' && text === 'Parcels' ? width - 6 : width,
      align,
    });
    x += width;
  }
  layout.y += layout.lineHeight(size);
  layout.rule({ thickness: 0.75 });
  layout.y += 3;
}

/** What the driver fills in by hand: the list is the warehouse's proof of what left with whom, and when. */
function signatureBlock(layout: PaperLayout): void {
  const lineGap = 30;
  layout.gap(18);
  layout.ensure(layout.lineHeight(11) + 3 * lineGap + 20);
  layout.paragraph('Received by the driver', { bold: true, size: 11, maxLines: 1 });
  layout.paragraph('I have received the shipments listed above, with the parcels counted here.', { size: 9, maxLines: 2 });
  const half = (CONTENT_WIDTH - 24) / 2;
  for (const [left, right] of [
    ["Driver's name", 'Date and time'],
    ['Signature', 'Vehicle or route'],
  ] as const) {
    layout.gap(lineGap);
    layout.rule({ x: MARGIN, width: half, thickness: 0.5 });
    layout.rule({ x: MARGIN + half + 24, width: half, thickness: 0.5 });
    layout.gap(3);
    layout.put(left, { size: 8.5, x: MARGIN, width: half });
    layout.put(right, { size: 8.5, x: MARGIN + half + 24, width: half });
    layout.gap(layout.lineHeight(8.5));
  }
}
