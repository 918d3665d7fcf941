/**
 * A stored label drawn again in another format (USERS 3): a PDF of a ZPL label, to preview it on
 * screen or print it on an office printer when the thermal printer is down, and a ZPL of a PDF label
 * for a thermal printer. Only labels Shipdesk drew itself can be drawn again (the carrier's
 * `redrawLabel`); the stored document is never changed, and nothing is booked again.
 */
import { ApiError } from '../../../src-shared/errors';
import type { DocumentFormat, LabelSize } from '../../../src-shared/schemas/carrier';
import type { AppContext } from '../../app/context';
import type { BookingRequest, CarrierAdapter, LabelRedrawContext } from '../../carriers/adapter';
import { carrierAdapterFor } from '../../carriers/catalogue';
import type { ReadDb } from '../../db/tx';
import { adapterConfigOf, findCarrierRowOfBooking } from '../carriers';
import { bookingRequest } from './booking';
import { loadShipmentRecord, type DocumentRow } from './repository';

/** Everything needed to draw one label again, read in one go so the drawing runs outside any transaction. */
export interface LabelRedraw {
  redraw: NonNullable<CarrierAdapter['redrawLabel']>;
  context: LabelRedrawContext;
  request: BookingRequest;
  parcelId: string;
  size: LabelSize;
}

/** How to draw the label again, or why it cannot be (a clause that ends the caller's message). */
export function planLabelRedraw(app: AppContext, db: ReadDb, orgId: string, document: DocumentRow): LabelRedraw | string {
  if (document.documentType !== 'label' || !document.parcelId) return 'only labels can be drawn in another format';
  const record = loadShipmentRecord(db, orgId, document.shipmentId);
  const carrierRow = findCarrierRowOfBooking(db, orgId, record.row.carrierId);
  const adapter = carrierAdapterFor(carrierRow.carrierSlug);
  if (!adapter?.redrawLabel) return `${carrierRow.name} makes its own labels, which Shipdesk cannot draw again`;
  const trackingNumber = record.row.trackingNumber;
  if (!trackingNumber || !record.parcels.some((parcel) => parcel.id === document.parcelId)) {
    return 'the booking it was drawn for is no longer complete';
  }
  const config = adapterConfigOf(app, carrierRow);
  return {
    redraw: adapter.redrawLabel,
    context: { config, trackingNumber, bookedAt: new Date(document.createdAt) },
    request: bookingRequest(record, adapter, config),
    parcelId: document.parcelId,
    size: document.size as LabelSize,
  };
}

/** Whether the document can be drawn again in the other format (a printer of that format can take it). */
export function canRedraw(app: AppContext, db: ReadDb, orgId: string, document: DocumentRow): boolean {
  return typeof planLabelRedraw(app, db, orgId, document) !== 'string';
}

/** The label in `format`, same size; 422 DOCUMENT_FORMAT_UNAVAILABLE naming why when it cannot be drawn. */
export async function labelIn(plan: LabelRedraw | string, document: DocumentRow, format: DocumentFormat): Promise<Buffer> {
  if (typeof plan === 'string') {
    throw new ApiError('DOCUMENT_FORMAT_UNAVAILABLE', `Document ${document.id} is ${document.format.toUpperCase()} and cannot be had as ${format.toUpperCase()}: ${plan}`);
  }
  return plan.redraw(plan.context, plan.request, plan.parcelId, { format, size: plan.size });
}
