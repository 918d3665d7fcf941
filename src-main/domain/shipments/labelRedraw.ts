/**
 * A stored label drawn again in another format (USERS 3): a PDF of a ZPL label, to preview it on
 * screen or print it on an office printer when the thermal printer is down, and a ZPL of a PDF label
 * for a thermal printer. Only labels Shipdesk drew itself can be drawn again (the carrier's
 * `redrawLabel`); the stored document is never changed, and nothing is booked again.
 */
import { ApiError } from '../../../src-shared/errors';
import type { DocumentFormat, LabelSize } from '../../../src-shared/schemas/carrier';
import type { AppContext } from '../../app/kernel/context';
import type { BookingRequest, CarrierAdapter, LabelRedrawContext } from '../../carriers/adapter';
import { carrierAdapterFor } from '../../carriers/catalogue';
import type { carriers } from '../../db/schema';
import type { ReadDb } from '../../db/tx';
import { adapterConfigOf, findCarrierRowOfBooking } from '../carriers/carriers';
import { bookingRequest } from './booking';
import { loadShipmentRecord, type DocumentRow, type ShipmentRecord } from './repository';

/** Everything needed to draw one label again, read in one go so the drawing runs outside any transaction. */
export interface LabelRedraw {
  redraw: NonNullable<CarrierAdapter['redrawLabel']>;
  context: LabelRedrawContext;
  request: BookingRequest;
  parcelId: string;
  size: LabelSize;
}

type CarrierRow = typeof carriers.$inferSelect;

interface RedrawSource {
  record: ShipmentRecord;
  carrierRow: CarrierRow;
  adapter: CarrierAdapter;
  redraw: NonNullable<CarrierAdapter['redrawLabel']>;
  trackingNumber: string;
  parcelId: string;
}

/** What a label is drawn again from, or why it cannot be (a clause that ends the caller's message). */
function redrawSource(db: ReadDb, orgId: string, document: DocumentRow): RedrawSource | string {
  if (document.documentType !== 'label' || !document.parcelId) return 'only labels can be drawn in another format';
  const record = loadShipmentRecord(db, orgId, document.shipmentId);
  const carrierRow = findCarrierRowOfBooking(db, orgId, record.row.carrierId);
  const adapter = carrierAdapterFor(carrierRow.carrierSlug);
  if (!adapter?.redrawLabel) return `${carrierRow.name} makes its own labels, which Shipdesk cannot draw again`;
  const trackingNumber = record.row.trackingNumber;
  if (!trackingNumber || !record.parcels.some((parcel) => parcel.id === document.parcelId)) {
    return 'the booking it was drawn for is no longer complete';
  }
  return { record, carrierRow, adapter, redraw: adapter.redrawLabel, trackingNumber, parcelId: document.parcelId };
}

/** How to draw the label again, or why it cannot be. Opens the carrier's config, so only when drawing. */
export function planLabelRedraw(app: AppContext, db: ReadDb, orgId: string, document: DocumentRow): LabelRedraw | string {
  const source = redrawSource(db, orgId, document);
  if (typeof source === 'string') return source;
  const config = adapterConfigOf(app, source.carrierRow);
  return {
    redraw: source.redraw,
    context: { config, trackingNumber: source.trackingNumber, bookedAt: new Date(document.createdAt) },
    request: bookingRequest(source.record, source.adapter, config),
    parcelId: source.parcelId,
    size: document.size as LabelSize,
  };
}

/** Whether the document can be drawn again in the other format (a printer of that format can take it); no config opened. */
export function canRedraw(db: ReadDb, orgId: string, document: DocumentRow): boolean {
  return typeof redrawSource(db, orgId, document) !== 'string';
}

/** The label in `format`, same size; 422 DOCUMENT_FORMAT_UNAVAILABLE naming why when it cannot be drawn. */
export async function labelIn(plan: LabelRedraw | string, document: DocumentRow, format: DocumentFormat): Promise<Buffer> {
  if (typeof plan === 'string') {
    throw new ApiError(
      'DOCUMENT_FORMAT_UNAVAILABLE',
      `Document ${document.id} is ${document.format.toUpperCase()} and cannot be had as ${format.toUpperCase()}: ${plan}`,
    );
  }
  return plan.redraw(plan.context, plan.request, plan.parcelId, { format, size: plan.size });
}
