/**
 * The two tracking operations of decisions §13: ask the carrier about one shipment now, and set the
 * status by hand for a carrier nobody can ask (the `local` carrier: the warehouse's own van).
 */
import { ApiError } from '../../../src-shared/errors';
import type { ManualTrackingEventInput, Shipment } from '../../../src-shared/schemas/shipment';
import type { AppContext } from '../../app/kernel/context';
import type { JsonText } from '../../app/kernel/jsonText';
import type { CarrierCallLog } from '../../carriers/adapter';
import { CarrierFailure } from '../../carriers/errors';
import { plainSentence } from '../../carriers/platform/plainWords';
import { inWriteTransaction } from '../../db/tx';
import { carrierCall } from '../carriers/carrierCalls';
import { adapterOfRow, findCarrierRowOfBooking } from '../carriers/carriers';
import { bookedShipmentOf } from '../shipments/bookedShipment';
import { carrierErrorsOf } from '../shipments/booking';
import { masked, writeCarrierCalls } from '../shipments/carrierLogs';
import { findShipmentRow, readShipmentJson, recordActivity, type ShipmentRow } from '../shipments/repository';
import { isTracked, writeTracking } from './applyTracking';

function assertTracked(row: ShipmentRow): void {
  if (!isTracked(row)) {
    throw new ApiError('SHIPMENT_INVALID_STATE', `Shipment ${row.reference} is ${row.status}; only a dispatched shipment has tracking (send it first)`);
  }
}

/** `POST …/tracking/refresh`: the carrier's answer is stored like the poller's; a failure keeps what was known. */
export async function refreshTracking(app: AppContext, orgId: string, shipmentId: string): Promise<JsonText<Shipment>> {
  const row = findShipmentRow(app.db, orgId, shipmentId);
  assertTracked(row);
  const carrierRow = findCarrierRowOfBooking(app.db, orgId, row.carrierId);
  const adapter = adapterOfRow(carrierRow);
  if (!adapter.track) {
    throw new ApiError(
      'CONFLICT',
      `${carrierRow.name} cannot be asked where shipment ${row.reference} is: nobody else knows where your own deliveries are. Set its status by hand (tracking events).`,
    );
  }
  const call = carrierCall(app, carrierRow);
  const started = performance.now();
  let answers;
  try {
    answers = await adapter.track(call.context, [bookedShipmentOf(app.db, row)]);
  } catch (error) {
    const errors = carrierErrorsOf(error).map((item) => ({ code: item.code, message: masked(call.secrets, item.message) as string }));
    const calls: CarrierCallLog[] = call.context.http.calls.length
      ? call.context.http.calls
      : [
          {
            request: { operation: 'track', trackingNumber: row.trackingNumber },
            response: null,
            statusCode: null,
            error: errors.map((item) => item.message).join('; '),
            durationMs: performance.now() - started,
          },
        ];
    // The failed call is kept in logs[]; status and events stay as they were.
    inWriteTransaction(app.db, (tx) => writeCarrierCalls(tx, app.now(), shipmentId, call.secrets, calls));
    const auth = error instanceof CarrierFailure && error.kind === 'auth';
    const advice = auth ? plainSentence('auth', carrierRow.name) : plainSentence(errors, carrierRow.name);
    throw new ApiError(
      auth ? 'CARRIER_AUTH_FAILED' : 'CARRIER_ERROR',
      `${carrierRow.name} could not be asked about shipment ${row.reference}; its tracking is unchanged.${advice ? ` ${advice}` : ''}`,
      { errors },
    );
  }
  inWriteTransaction(app.db, (tx) =>
    writeTracking(tx, app.now(), shipmentId, {
      answer: answers.get(shipmentId) ?? null,
      carrierTracks: true,
      calls: call.context.http.calls,
      secrets: call.secrets,
    }),
  );
  return readShipmentJson(app.db, orgId, shipmentId);
}

/** `POST …/tracking/events`: only for a carrier without `track`; the others are asked, not told. */
export function addManualTrackingEvent(app: AppContext, orgId: string, shipmentId: string, input: ManualTrackingEventInput): JsonText<Shipment> {
  const now = app.now();
  inWriteTransaction(app.db, (tx) => {
    const row = findShipmentRow(tx, orgId, shipmentId);
    assertTracked(row);
    const carrierRow = findCarrierRowOfBooking(tx, orgId, row.carrierId);
    if (adapterOfRow(carrierRow).track) {
      throw new ApiError(
        'CONFLICT',
        `${carrierRow.name} reports the tracking of shipment ${row.reference} itself, so its status cannot be set by hand; use tracking refresh to ask it now.`,
      );
    }
    const description = input.description.trim();
    writeTracking(tx, now, shipmentId, {
      answer: { status: input.status, events: [{ at: now.toISOString(), code: input.status, description, location: null }] },
      carrierTracks: false,
    });
    recordActivity(tx, now, shipmentId, 'updated', `Tracking status set by hand: ${input.status.replaceAll('_', ' ')} (${description})`);
  });
  return readShipmentJson(app.db, orgId, shipmentId);
}
