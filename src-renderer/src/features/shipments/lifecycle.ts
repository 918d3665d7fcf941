import type { Shipment, ShipmentStatus } from '../../../../src-shared/schemas/shipment';
import { allowedSources, patchTransitions, type ShipmentAction } from '../../../../src-shared/shipmentLifecycle';

/**
 * What a shipment's status allows (decisions §4, src-shared/shipmentLifecycle.ts), so the screens
 * only offer what the server will accept. The server still checks; these only decide the buttons.
 */

const allows = (action: ShipmentAction, status: ShipmentStatus) => (allowedSources[action] as readonly ShipmentStatus[]).includes(status);

export const canEdit = (status: ShipmentStatus) => allows('updateFields', status);
export const canDelete = (status: ShipmentStatus) => allows('delete', status);
export const canSend = (status: ShipmentStatus) => allows('send', status);
export const canCancel = (status: ShipmentStatus) => allows('cancel', status);
export const canSplit = (status: ShipmentStatus) => allows('split', status);
export const canCreateReturn = (shipment: Pick<Shipment, 'status' | 'type'>) => shipment.type === 'outbound' && allows('createReturn', shipment.status);

/** The status moves offered as buttons, in the words of the packing station. */
export function statusMoves(status: ShipmentStatus): { target: ShipmentStatus; label: string }[] {
  const label = (target: ShipmentStatus): string => {
    if (target === 'on_hold') return 'Put on hold';
    if (target === 'draft') return 'Back to draft';
    // pending: releasing a held shipment, or marking a draft (or a failed one) ready to send.
    if (status === 'on_hold') return 'Release';
    return 'Mark ready to send';
  };
  // Cancelling is its own action (with a question first), not a status move.
  return patchTransitions[status].filter((target) => target !== 'cancelled').map((target) => ({ target, label: label(target) }));
}
