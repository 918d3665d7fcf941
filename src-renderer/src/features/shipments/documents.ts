import type { DocumentFormat, LabelSize } from '../../../../src-shared/schemas/carrier';
import type { ShipmentDocument } from '../../../../src-shared/schemas/shipment';
import type { BinaryResponse } from '../../../../src-shared/client';
import { client } from '../../lib/api';
import { humanize } from '../../lib/format';

/** Physical page sizes in mm (portrait), as the label renderer makes them (src-main/documents/labelSizes.ts). */
export const pageSizeMm: Record<LabelSize, { width: number; height: number }> = {
  A4: { width: 210, height: 297 },
  A6: { width: 105, height: 148 },
  '100X150': { width: 100, height: 150 },
  '100X192': { width: 100, height: 192 },
};

export function sizeLabel(size: LabelSize): string {
  const { width, height } = pageSizeMm[size];
  return size.startsWith('A') ? `${size} (${width} × ${height} mm)` : `${width} × ${height} mm`;
}

export function documentTitle(document: Pick<ShipmentDocument, 'documentType' | 'format' | 'size'>): string {
  return `${humanize(document.documentType.replace(/_/g, ' '))} · ${document.format.toUpperCase()} · ${sizeLabel(document.size)}`;
}

/** The document's file; with `format`, a label drawn in that format (a PDF of a ZPL label, for the screen). */
export async function fetchDocument(orgId: string, shipmentId: string, documentId: string, format?: DocumentFormat): Promise<BinaryResponse> {
  // The operation table types this response as a string; both transports hand back the bytes (client.ts BinaryResponse).
  const file: unknown = await client.call('shipments.documentContent', { params: { orgId, shipmentId, documentId }, query: format ? { format } : {} });
  return file as BinaryResponse;
}

export function blobOf(file: BinaryResponse): Blob {
  // A copy into a plain ArrayBuffer: the bytes may sit in a larger (or shared) buffer.
  return new Blob([file.data.slice().buffer as ArrayBuffer], { type: file.contentType });
}

/** Saves the file through the browser's download (Electron shows its save dialog). */
export function saveFile(file: BinaryResponse, fallbackName: string): void {
  const url = URL.createObjectURL(blobOf(file));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = file.filename ?? fallbackName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Give the download a moment to start before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * A cancelled shipment's document, named so nobody prints it later from the downloads folder by
 * mistake: `SHP-1-label-doc_….pdf` → `SHP-1-label-doc_…-VOID.pdf`.
 */
export function voidFile(file: BinaryResponse, fallbackName: string): BinaryResponse {
  const name = file.filename ?? fallbackName;
  const dot = name.lastIndexOf('.');
  return { ...file, filename: dot > 0 ? `${name.slice(0, dot)}-VOID${name.slice(dot)}` : `${name}-VOID` };
}
