/**
 * Send and batch send (decisions §8): book with the carrier, then do what the shipment's shipping
 * rule asks for after dispatch. The booking itself lives in booking.ts, shared with returns.
 */
import { ApiError } from '../../../src-shared/errors';
import type { Shipment } from '../../../src-shared/schemas/shipment';
import type { PrintJob } from '../../../src-shared/schemas/printing';
import type { SendResponse } from '../../../src-shared/schemas/send';
import { inWriteTransaction } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { beginBooking, callCarrier, finishBooking } from './booking';
import { createReturn, liveRuleOrNull } from './returns';
import { readShipment, recordError } from './repository';
import { autoPrintAfterSend } from '../printing/jobs';

/**
 * POST /shipments/{id}/send: 409 unless pending or error, 422 SHIPMENT_INCOMPLETE (nothing changed),
 * 422 CARRIER_ERROR with `errors[]` when the carrier fails (the shipment is then in error). Answers the
 * shipment with the print jobs the send started (`printJobs`, `[]` when the rule prints nothing).
 */
export async function sendShipment(app: AppContext, orgId: string, shipmentId: string, options: SendOptions = {}): Promise<SendResponse> {
  const prepared = inWriteTransaction(app.db, (tx) => beginBooking(app, tx, app.now(), orgId, shipmentId, { confirmRebook: options.confirmRebook === true }));
  const outcome = await callCarrier(app, prepared);
  const { shipment, failure } = finishBooking(app, prepared, outcome);
  if (failure) throw failure;
  return afterSend(app, orgId, shipment, options);
}

export interface SendOptions {
  /** The sending station's printers, preferred over the rule's when the rule prints (autoPrintAfterSend). */
  stationPrinterIds?: readonly string[] | undefined;
  /** The user confirmed that an unanswered booking did not go through (decisions §13). */
  confirmRebook?: boolean;
}

/**
 * What the applied rule asks for once the booking is committed. Runs after commit, so nothing here can
 * undo a booking: a failure is recorded on the shipment and the send still answers 200.
 */
async function afterSend(app: AppContext, orgId: string, shipment: Shipment, options: SendOptions): Promise<SendResponse> {
  const rule = liveRuleOrNull(app.db, orgId, shipment.shippingRuleId);
  if (!rule) return { ...shipment, printJobs: [] };

  // Printing seam: autoPrintLabels / autoPrintDocuments print the new documents; a printer problem is a
  // failed job (or an AUTO_PRINT_FAILED error on the shipment), never a failed send.
  const printed = await autoPrintAfterSend(app, orgId, shipment, rule, options.stationPrinterIds ?? []);
  const printJobs: PrintJob[] = [...printed.jobs];

  // Returns are outbound-only; a return sent again from error must not create a return of itself.
  if (rule.autoCreateReturnShipment && shipment.type === 'outbound' && shipment.returnForShipmentId === null) {
    try {
      const returned = await createReturn(app, orgId, shipment.id);
      // The return label goes in the parcel: it prints with the outbound label, where that prints.
      if (rule.autoPrintLabels && returned.status === 'dispatched') {
        printJobs.push(...(await autoPrintAfterSend(app, orgId, returned, { ...rule, autoPrintDocuments: false }, options.stationPrinterIds ?? [])).jobs);
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      inWriteTransaction(app.db, (tx) =>
        recordError(tx, app.now(), shipment.id, 'AUTO_RETURN_FAILED', `Rule ${rule.name} asks for a return shipment, but it was not created: ${message}`),
      );
    }
    return { ...readShipment(app.db, orgId, shipment.id), printJobs };
  }
  return { ...(printed.acted ? readShipment(app.db, orgId, shipment.id) : shipment), printJobs };
}

export interface BatchSendResult {
  results: { shipmentId: string; status: 'sent' | 'failed'; code?: string; message?: string }[];
  summary: { total: number; sent: number; failed: number };
}

/** Shipments of a batch being booked at once; each carrier's call slots (4 by default) bound its own share. */
const BATCH_SENDS_AT_A_TIME = 16;

/**
 * POST /shipments/batch-send: each shipment is sent on its own, several at a time, and a failure
 * (unknown id, wrong state, incomplete, carrier error) is a failed result that never stops the rest.
 * Results keep the order of the ids.
 */
export async function batchSend(
  app: AppContext,
  orgId: string,
  shipmentIds: readonly string[],
  options: { stationPrinterIds?: readonly string[] | undefined; confirmRebook?: boolean | readonly string[] } = {},
): Promise<BatchSendResult> {
  const results: BatchSendResult['results'] = new Array(shipmentIds.length);
  const confirmed = (shipmentId: string) =>
    options.confirmRebook === true || (Array.isArray(options.confirmRebook) && options.confirmRebook.includes(shipmentId));
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < shipmentIds.length; index = next++) {
      const shipmentId = shipmentIds[index] as string;
      try {
        await sendShipment(app, orgId, shipmentId, { stationPrinterIds: options.stationPrinterIds, confirmRebook: confirmed(shipmentId) });
        results[index] = { shipmentId, status: 'sent' };
      } catch (error) {
        const apiError = error instanceof ApiError ? error : null;
        results[index] = {
          shipmentId,
          status: 'failed',
          code: apiError?.code ?? 'INTERNAL_ERROR',
          message: apiError ? failureMessage(apiError) : 'Something went wrong inside Shipdesk; the error has been logged',
        };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_SENDS_AT_A_TIME, shipmentIds.length) }, worker));
  const sent = results.filter((result) => result.status === 'sent').length;
  return { results, summary: { total: results.length, sent, failed: results.length - sent } };
}

/** A carrier failure's message with the carrier's own errors, which a batch result has no other room for. */
function failureMessage(error: ApiError): string {
  return error.errors?.length ? `${error.message}: ${error.errors.map((item) => `${item.code}: ${item.message}`).join('; ')}` : error.message;
}
