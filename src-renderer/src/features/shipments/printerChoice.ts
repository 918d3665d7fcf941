import type { DocumentFormat, LabelSize } from '../../../../src-shared/schemas/carrier';
import type { Printer } from '../../../../src-shared/schemas/printing';
import type { ShipmentDocument } from '../../../../src-shared/schemas/shipment';
import { pageSizeMm, sizeLabel } from './documents';

/**
 * Documents print in groups, each on one printer: labels apart from papers (packing list,
 * invoices), and each by format. A station's label printer and its A4 printer are different
 * machines even when both take PDF (USERS 1: chosen by document type).
 */
export interface PrintGroup {
  /** Also the key the station remembers the printer under; labels keep the plain format. */
  key: string;
  format: DocumentFormat;
  kind: 'labels' | 'papers';
  /** The documents' size when they share one: printers with that media loaded come first. */
  size: string | null;
  documents: ShipmentDocument[];
}

export function printGroups(documents: readonly ShipmentDocument[]): PrintGroup[] {
  const groups = new Map<string, PrintGroup>();
  for (const document of documents) {
    const kind = document.documentType === 'label' ? 'labels' : 'papers';
    const key = kind === 'labels' ? document.format : `papers.${document.format}`;
    const group = groups.get(key) ?? { key, format: document.format, kind, size: document.size, documents: [] };
    if (group.size !== document.size) group.size = null;
    group.documents.push(document);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/**
 * The printer this station last used for a group, per organization: kept in localStorage, which
 * belongs to this machine, so each packing station remembers its own label printer.
 */
const keyOf = (orgId: string, groupKey: string) => `shipdesk.printer.${orgId}.${groupKey}`;

export function rememberedPrinter(orgId: string, groupKey: string): string | null {
  try {
    return localStorage.getItem(keyOf(orgId, groupKey));
  } catch {
    return null;
  }
}

/**
 * Every printer this station remembers for the organization, for a send: the server prints the
 * rule's automatic labels and papers on the one of them that fits (USERS 1: chosen by station).
 * Undefined when the station remembers none, so the send carries no body.
 */
function stationPrinterIds(orgId: string): string[] | undefined {
  try {
    const prefix = keyOf(orgId, '');
    const ids = new Set<string>();
    for (let index = 0; index < localStorage.length; index++) {
      const key = localStorage.key(index);
      const id = key?.startsWith(prefix) ? localStorage.getItem(key) : null;
      if (id) ids.add(id);
    }
    return ids.size ? [...ids].slice(0, 10) : undefined;
  } catch {
    return undefined;
  }
}

/** The body of a send from this station: its printers, when it remembers any. */
export function sendBodyOf(orgId: string): { stationPrinterIds: string[] } | undefined {
  const ids = stationPrinterIds(orgId);
  return ids ? { stationPrinterIds: ids } : undefined;
}

export function rememberPrinter(orgId: string, groupKey: string, printerId: string): void {
  try {
    localStorage.setItem(keyOf(orgId, groupKey), printerId);
  } catch {
    // Storage full or blocked: the choice is only not remembered.
  }
}

/**
 * The printers a group can go to: those of its format, and for labels also the others — the server
 * draws a label in the printer's format (a ZPL label comes out of an office printer as a PDF).
 * Papers are PDF only.
 */
export function printersFor(group: Pick<PrintGroup, 'kind' | 'format'>, printers: Printer[]): { same: Printer[]; drawn: Printer[] } {
  const same = printers.filter((printer) => printer.format === group.format);
  return { same, drawn: group.kind === 'labels' ? printers.filter((printer) => printer.format !== group.format) : [] };
}

/**
 * Remembered here, else among the printers for the format those with the documents' size loaded
 * (the default of them first), else the organization's default for the format, else the first; a
 * label with no printer of its format goes to one that draws it in its own.
 */
export function preselectPrinter(orgId: string, group: Pick<PrintGroup, 'key' | 'kind' | 'format' | 'size'>, printers: Printer[]): string {
  const { same, drawn } = printersFor(group, printers);
  const fitting = same.length ? same : drawn;
  // The station's printer wins even in the other format: a send prints the rule's labels there too.
  const remembered = rememberedPrinter(orgId, group.key);
  if (remembered && [...same, ...drawn].some((printer) => printer.id === remembered)) return remembered;
  const sized = fitting.filter((printer) => printer.labelSize === group.size);
  const pick = (list: Printer[]) => list.find((printer) => printer.isDefault) ?? list[0];
  return (pick(sized) ?? pick(fitting))?.id ?? '';
}

const mediaWords = (size: LabelSize) => (size.startsWith('A') ? `${size} paper` : `${pageSizeMm[size].width} × ${pageSizeMm[size].height} mm labels`);

/**
 * When the media loaded in the printer is not the documents' size, what to tell the packer (the
 * document still prints at its own size, so a 100 × 150 mm label lands in a corner of an A4 sheet,
 * and an A4 paper is cut off on a label roll). Null when every document fits the printer's media.
 */
export function mediaMismatch(printer: Pick<Printer, 'name' | 'labelSize'>, group: Pick<PrintGroup, 'kind' | 'documents'>): string | null {
  const sizes = [...new Set(group.documents.map((document) => document.size))].filter((size) => size !== printer.labelSize);
  if (sizes.length === 0) return null;
  const one = group.documents.length === 1;
  const what = group.kind === 'labels' ? (one ? 'this label is' : 'these labels are') : one ? 'this document is' : 'these documents are';
  return `${printer.name} has ${mediaWords(printer.labelSize)} loaded; ${what} ${sizes.map(sizeLabel).join(' and ')}.`;
}
