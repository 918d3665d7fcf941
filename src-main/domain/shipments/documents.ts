/** The raw file behind a shipment document (decisions §8): GET …/documents/{documentId}/content. */
import { and, eq } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import { documents } from '../../db/schema';
import type { DocumentFormat } from '../../../src-shared/schemas/carrier';
import type { AppContext } from '../../app/kernel/context';
import { labelIn, planLabelRedraw } from './labelRedraw';
import { findShipmentRow } from './repository';

/** The bytes and how to serve them; the HTTP door sends them as they are (handlers' BinaryResult). */
export interface DocumentFile {
  contentType: string;
  data: Buffer;
  filename: string;
}

/**
 * ZPL is served as `application/zpl`, not `text/plain`: the type alone tells a print bridge or a
 * browser download that these bytes are a printer program to send as they are, not text to show.
 */
const contentTypes: Record<string, string> = { pdf: 'application/pdf', zpl: 'application/zpl' };

/** Only letters, digits, dot, dash and underscore reach the Content-Disposition header. */
const safeFilePart = (value: string) => value.replace(/[^A-Za-z0-9._-]+/g, '_');

/**
 * 404 SHIPMENT_NOT_FOUND for a shipment outside the organization; 404 SHIPMENT_DOCUMENT_NOT_FOUND for a
 * document that is not this shipment's (never revealing that it exists elsewhere). With a `format`
 * other than the stored one, the label is drawn again in it (labelRedraw.ts).
 */
export async function documentContent(app: AppContext, orgId: string, shipmentId: string, documentId: string, format?: DocumentFormat): Promise<DocumentFile> {
  const shipment = findShipmentRow(app.db, orgId, shipmentId);
  const document = app.db
    .select()
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.shipmentId, shipment.id)))
    .get();
  if (!document) throw new ApiError('SHIPMENT_DOCUMENT_NOT_FOUND', `Document ${documentId} does not exist on shipment ${shipmentId}`);
  const served = format ?? (document.format as DocumentFormat);
  const data = served === document.format ? document.content : await labelIn(planLabelRedraw(app, app.db, orgId, document), document, served);
  return {
    contentType: contentTypes[served] ?? 'application/octet-stream',
    data,
    filename: `${safeFilePart(shipment.reference)}-${document.documentType}-${document.id}.${safeFilePart(served)}`,
  };
}
