/**
 * Bulk actions on a selection of shipments (issue 20), shaped like batch send (decisions §8): each
 * shipment is changed by the operation that changes one (PATCH status, PATCH shippingRuleId, cancel),
 * so in its own transaction and by the same rules, and its result is true whatever happens to the
 * others. Results keep the order of the ids.
 */
import { ApiError } from '../../../src-shared/errors';
import type { BulkResponse, BulkResult } from '../../../src-shared/schemas/bulk';
import type { ShipmentStatus } from '../../../src-shared/schemas/shipment';
import { allowedSources } from '../../../src-shared/shipmentLifecycle';
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

/** "on hold", "partly dispatched": a status as a sentence says it. */
const said = (status: string) => status.replace(/_/g, ' ');

/**
 * The shipment's status, refused in words when `action` does not take it: a batch's results are read
 * by a person at a list, so they name the shipment by its reference and its status as the screen does
 * (the single operations' 409s, which name the id and the PATCH table, stay as they are).
 */
function statusFor(
  app: AppContext,
  orgId: string,
  shipmentId: string,
  allowed: readonly ShipmentStatus[],
  action: string,
  already?: ShipmentStatus,
): ShipmentStatus {
  const row = findShipmentRow(app.db, orgId, shipmentId);
  const status = row.status as ShipmentStatus;
  if (status !== already && !allowed.includes(status)) {
    const only = allowed.map(said);
    const list = only.length > 1 ? `${only.slice(0, -1).join(', ')} or ${only.at(-1)}` : only[0];
    const why = status === 'processing' ? 'is being booked with its carrier right now' : `is ${said(status)}`;
    throw new ApiError('SHIPMENT_INVALID_STATE', `Shipment ${row.reference} ${why}; only ${list} shipments can ${action}`);
  }
  return status;
}

/**
 * Put on hold: the PATCH move to on_hold (from draft, pending or error). One already on hold is done
 * with nothing to do: the selection asked for it to be on hold, and it is.
 */
export function batchHold(app: AppContext, orgId: string, shipmentIds: readonly string[]): Promise<BulkResponse> {
  return forEachShipment(shipmentIds, 1, (shipmentId) => {
    // Read and changed in the same turn of the event loop: nothing of this process runs in between.
    if (statusFor(app, orgId, shipmentId, ['draft', 'pending', 'error'], 'be put on hold', 'on_hold') === 'on_hold') {
      return { alreadyThere: 'Already on hold; nothing changed' };
    }
    updateShipment(app, orgId, shipmentId, { status: 'on_hold' });
  });
}

/**
 * Release: on_hold → pending, and only from on hold (a draft is finished, not released; an error is
 * sent again). One already pending is done with nothing to do.
 */
export function batchRelease(app: AppContext, orgId: string, shipmentIds: readonly string[]): Promise<BulkResponse> {
  return forEachShipment(shipmentIds, 1, (shipmentId) => {
    if (statusFor(app, orgId, shipmentId, ['on_hold'], 'be released', 'pending') === 'pending') return { alreadyThere: 'Already pending; nothing changed' };
    updateShipment(app, orgId, shipmentId, { status: 'pending' });
  });
}

/** Calls to carriers (voids) of one batch at once; each carrier's own slots still bound its share. */
const CANCELS_AT_A_TIME = 8;

/** Cancel, as the single cancel does: a booked shipment is voided with its carrier first. One already cancelled is done. */
export function batchCancel(app: AppContext, orgId: string, shipmentIds: readonly string[]): Promise<BulkResponse> {
  return forEachShipment(shipmentIds, CANCELS_AT_A_TIME, async (shipmentId) => {
    if (statusFor(app, orgId, shipmentId, allowedSources.cancel, 'be cancelled', 'cancelled') === 'cancelled') {
      return { alreadyThere: 'Already cancelled; nothing changed' };
    }
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
    statusFor(app, orgId, shipmentId, allowedSources.updateFields, 'have their shipping rule changed');
    updateShipment(app, orgId, shipmentId, { shippingRuleId });
  });
}
