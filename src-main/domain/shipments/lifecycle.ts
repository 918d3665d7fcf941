import { ApiError } from '../../../src-shared/errors';
import type { ShipmentStatus } from '../../../src-shared/schemas/shipment';
import { allowedSources, patchTransitions, type ShipmentAction } from '../../../src-shared/shipmentLifecycle';

// The tables are shared with the app (src-shared/shipmentLifecycle.ts); the refusals are the server's.

const actionWords: Record<ShipmentAction, string> = {
  updateFields: 'be changed',
  split: 'be split',
  send: 'be sent',
  cancel: 'be cancelled',
  delete: 'be deleted',
  createReturn: 'get a return',
};

export function assertActionAllowed(action: ShipmentAction, shipmentId: string, status: ShipmentStatus): void {
  const allowed: readonly ShipmentStatus[] = allowedSources[action];
  if (!allowed.includes(status)) {
    throw new ApiError('SHIPMENT_INVALID_STATE', `Shipment ${shipmentId} is ${status}; it can ${actionWords[action]} only when ${allowed.join(', ')}`);
  }
}

/** The table has no moves to the status a shipment already has: that is a 409 too, naming the moves there are. */
export function assertTransition(shipmentId: string, from: ShipmentStatus, to: ShipmentStatus): void {
  const allowed = patchTransitions[from];
  if (!allowed.includes(to)) {
    const targets = allowed.length ? `allowed: ${allowed.join(', ')}` : 'no status change is allowed by PATCH (use send or cancel)';
    const move = from === to ? `is already ${from}` : `cannot move from ${from} to ${to}`;
    throw new ApiError('SHIPMENT_INVALID_STATE', `Shipment ${shipmentId} ${move}; ${targets}`);
  }
}

/**
 * decisions §13: while the carrier may hold a booking Shipdesk does not know of, the shipment is not
 * deleted, cancelled or renamed: its reference is what the carrier is asked for.
 */
export function assertBookingOutcomeKnown(row: { id: string; reference: string; bookingOutcomeUnknownAt: string | null }, what: string): void {
  if (row.bookingOutcomeUnknownAt) {
    throw new ApiError(
      'CARRIER_OUTCOME_UNKNOWN',
      `Shipment ${row.reference} cannot ${what} while the carrier may have booked it (no answer at ${row.bookingOutcomeUnknownAt}); send it again first, so Shipdesk can ask the carrier`,
      { status: 409 },
    );
  }
}
