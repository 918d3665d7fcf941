/**
 * What a shipment's status allows (decisions §4), the one copy for both sides: the server refuses by
 * it (src-main/domain/shipments/lifecycle.ts) and the app offers only the buttons it allows.
 */
import type { ShipmentStatus } from './schemas/shipment';

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
