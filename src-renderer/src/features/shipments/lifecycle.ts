import type { Shipment, ShipmentStatus } from '../../../../src-shared/schemas/shipment';

/**
 * What a shipment's status allows (decisions §4), so the screens only offer what the server will
 * accept. The server still checks; these lists only decide which buttons are shown.
 */

/** PATCH status transitions, from → allowed targets (cancelling goes through the cancel action). */
const patchTargets: Record<ShipmentStatus, readonly ShipmentStatus[]> = {
  draft: ['pending', 'on_hold'],
  pending: ['draft', 'on_hold'],
  on_hold: ['draft', 'pending'],
  error: ['draft', 'pending', 'on_hold'],
  processing: [],
  dispatched: [],
  partly_dispatched: [],
  cancelled: [],
};

const editable: readonly ShipmentStatus[] = ['draft', 'pending', 'on_hold', 'error'];

export const canEdit = (status: ShipmentStatus) => editable.includes(status);
export const canDelete = (status: ShipmentStatus) => editable.includes(status);
export const canSend = (status: ShipmentStatus) => status === 'pending' || status === 'error';
export const canCancel = (status: ShipmentStatus) => status !== 'processing' && status !== 'cancelled';
export const canSplit = (status: ShipmentStatus) => status === 'draft' || status === 'pending';
export const canCreateReturn = (shipment: Pick<Shipment, 'status' | 'type'>) =>
  shipment.type === 'outbound' && (shipment.status === 'dispatched' || shipment.status === 'partly_dispatched');

/** The status moves offered as buttons, in the words of the packing station. */
export function statusMoves(status: ShipmentStatus): { target: ShipmentStatus; label: string }[] {
  const label = (target: ShipmentStatus): string => {
    if (target === 'on_hold') return 'Put on hold';
    if (target === 'draft') return 'Back to draft';
    // pending: releasing a held shipment, or marking a draft (or a failed one) ready to send.
    if (status === 'on_hold') return 'Release';
    return 'Mark ready to send';
  };
  return patchTargets[status].map((target) => ({ target, label: label(target) }));
}
