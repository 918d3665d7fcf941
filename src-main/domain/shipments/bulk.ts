/**
 * Bulk actions on a selection of shipments (issue 20), shaped like batch send (decisions §8): each
 * shipment is changed by the operation that changes one (PATCH status, PATCH shippingRuleId, cancel),
 * so in its own transaction and by the same rules, and its result is true whatever happens to the
 * others. Results keep the order of the ids.
 */
import { ApiError } from '../../../src-shared/errors';
import type { BulkResponse, BulkResult } from '../../../src-shared/schemas/bulk';
import type { ShipmentStatus } from '../../../src-shared/schemas/shipment';
import type { AppContext } from '../../app/kernel/context';
import { findShippingRuleRow } from '../shippingRules/rules';
import { findShipmentRow } from './repository';
import { cancelShipment, updateShipment } from './update';

/** What one shipment's action did when it changed nothing because the shipment was already there. */
type Outcome = { alreadyThere: string } | void;

/**
 * Runs `act` for each shipment, `atATime` at once (1: one after the other, in the ids' order). A
 * refusal or failure of one is its result, never the batch's.
 */
export async function forEachShipment(
  shipmentIds: readonly string[],
  atATime: number,
  act: (shipmentId: string) => Outcome | Promise<Outcome>,
): Promise<BulkResponse> {
  const results: BulkResult[] = new Array(shipmentIds.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < shipmentIds.length; index = next++) {
      const shipmentId = shipmentIds[index] as string;
      try {
        const outcome = await act(shipmentId);
        results[index] = outcome ? { shipmentId, status: 'done', message: outcome.alreadyThere } : { shipmentId, status: 'done' };
      } catch (error) {
        results[index] = failedResult(shipmentId, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(atATime, shipmentIds.length) }, worker));
  return summarized(results);
}

export function summarized(results: BulkResult[]): BulkResponse {
  const done = results.filter((result) => result.status === 'done').length;
  return { results, summary: { total: results.length, done, failed: results.length - done } };
}

export function failedResult(shipmentId: string, error: unknown): BulkResult {
  if (error instanceof ApiError) {
    // A carrier's own errors have no other room in a batch result (as in batch send).
    const carrier = error.errors?.length ? `: ${error.errors.map((item) => `${item.code}: ${item.message}`).join('; ')}` : '';
    return { shipmentId, status: 'failed', code: error.code, message: error.message + carrier };
  }
  console.error(`Bulk action on ${shipmentId} failed unexpectedly:`, error);
  return { shipmentId, status: 'failed', code: 'INTERNAL_ERROR', message: 'Something went wrong inside Shipdesk; the error has been logged' };
}

const statusOf = (app: AppContext, orgId: string, shipmentId: string) => findShipmentRow(app.db, orgId, shipmentId).status as ShipmentStatus;

/**
 * Put on hold: the PATCH move to on_hold (from draft, pending or error). One already on hold is done
 * with nothing to do: the selection asked for it to be on hold, and it is.
 */
export function batchHold(app: AppContext, orgId: string, shipmentIds: readonly string[]): Promise<BulkResponse> {
  return forEachShipment(shipmentIds, 1, (shipmentId) => {
    if (statusOf(app, orgId, shipmentId) === 'on_hold') return { alreadyThere: 'Already on hold; nothing changed' };
    updateShipment(app, orgId, shipmentId, { status: 'on_hold' });
  });
}

/**
 * Release: on_hold → pending, and only from on hold (a draft is finished, not released; an error is
 * sent again). One already pending is done with nothing to do.
 */
export function batchRelease(app: AppContext, orgId: string, shipmentIds: readonly string[]): Promise<BulkResponse> {
  return forEachShipment(shipmentIds, 1, (shipmentId) => {
    // Read and changed in the same turn of the event loop: nothing of this process runs in between.
    const status = statusOf(app, orgId, shipmentId);
    if (status === 'pending') return { alreadyThere: 'Already pending; nothing changed' };
    if (status !== 'on_hold') {
      throw new ApiError('SHIPMENT_INVALID_STATE', `Shipment ${shipmentId} is ${status}; only a shipment on hold can be released`);
    }
    updateShipment(app, orgId, shipmentId, { status: 'pending' });
  });
}

/** Calls to carriers (voids) of one batch at once; each carrier's own slots still bound its share. */
const CANCELS_AT_A_TIME = 8;

/** Cancel, as the single cancel does: a booked shipment is voided with its carrier first. One already cancelled is done. */
export function batchCancel(app: AppContext, orgId: string, shipmentIds: readonly string[]): Promise<BulkResponse> {
  return forEachShipment(shipmentIds, CANCELS_AT_A_TIME, async (shipmentId) => {
    if (statusOf(app, orgId, shipmentId) === 'cancelled') return { alreadyThere: 'Already cancelled; nothing changed' };
    await cancelShipment(app, orgId, shipmentId);
  });
}

/**
 * Change the shipping rule: what PATCH shippingRuleId does, per shipment (decisions §4). An unknown
 * rule is the request's fault, answered 404 before any shipment is touched.
 */
export function batchApplyRule(app: AppContext, orgId: string, shipmentIds: readonly string[], shippingRuleId: string): Promise<BulkResponse> {
  findShippingRuleRow(app.db, orgId, shippingRuleId);
  return forEachShipment(shipmentIds, 1, (shipmentId) => {
    updateShipment(app, orgId, shipmentId, { shippingRuleId });
  });
}
