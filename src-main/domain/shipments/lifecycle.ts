import { ApiError } from '../../../src-shared/errors';
import type { ShipmentStatus } from '../../../src-shared/schemas/shipment';

/** decisions §4: the statuses a PATCH may move a shipment to. The only copy of this table. */
export const patchTransitions: Record<ShipmentStatus, readonly ShipmentStatus[]> = {
  draft: ['pending', 'on_hold', 'cancelled'],
  pending: ['draft', 'on_hold', 'cancelled'],
  on_hold: ['draft', 'pending', 'cancelled'],
  error: ['draft', 'pending', 'on_hold', 'cancelled'],
  processing: [],
  dispatched: [],
  partly_dispatched: [],
  cancelled: [],
};

/** decisions §4: the source statuses each operation accepts. */
export const allowedSources = {
  updateFields: ['draft', 'pending', 'on_hold', 'error'],
  split: ['draft', 'pending'],
  send: ['pending', 'error'],
  cancel: ['draft', 'pending', 'on_hold', 'error', 'dispatched', 'partly_dispatched'],
  delete: ['draft', 'pending', 'on_hold', 'error'],
  createReturn: ['dispatched', 'partly_dispatched'],
} as const satisfies Record<string, readonly ShipmentStatus[]>;
export type ShipmentAction = keyof typeof allowedSources;

/** Not booked with a carrier, so cancelling needs no void: what cancelling an order cancels with it. */
export const unbookedStatuses: readonly ShipmentStatus[] = allowedSources.updateFields;

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
    throw new ApiError(
      'SHIPMENT_INVALID_STATE',
      `Shipment ${shipmentId} is ${status}; it can ${actionWords[action]} only when ${allowed.join(', ')}`,
    );
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
