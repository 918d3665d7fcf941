import { useState } from 'react';
import type { Parcel, ParcelOrderLine, Shipment } from '../../../../src-shared/schemas/shipment';
import { client } from '../../lib/api';
import { useOrgId } from '../../lib/session';
import { describeError } from '../../components/ErrorNotice';

/** The props both split dialogs take (the shipment detail mounts them). */
export interface SplitDialogProps {
  shipment: Shipment;
  parcelId: string;
  open: boolean;
  onClose: () => void;
  onDone: (result: { originalShipment: Shipment; newShipments: Shipment[] }) => void;
}

/** The parcel being split, its number as the shipment shows it (1-based), and its lines. */
export function splitTarget(shipment: Shipment, parcelId: string): { parcel: Parcel | undefined; parcelNumber: number; lines: ParcelOrderLine[] } {
  const index = shipment.parcels.findIndex((parcel) => parcel.id === parcelId);
  const parcel = shipment.parcels[index];
  return { parcel, parcelNumber: index + 1, lines: parcel?.orderLines ?? [] };
}

/** Why the split cannot be made yet, announced as it changes; nothing when it can. */
export function Problems({ problems }: { problems: readonly string[] }) {
  return (
    <div role="status" aria-live="polite">
      {problems.length > 0 && (
        <div className="problems">
          <strong>Before this can be split:</strong>
          <ul>
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** Refusals that mean the shipment changed under the dialog (someone else split, sent or cancelled it). */
const staleCodes = new Set(['PARCEL_INVALID_SPLIT', 'PARCEL_NOT_FOUND', 'SHIPMENT_INVALID_STATE']);

export const staleTitle = (error: unknown, kept: string) =>
  error && staleCodes.has(describeError(error).code)
    ? `That split is not possible: the shipment has changed since this was opened, and is shown as it is now. Your ${kept} are kept; adjust them and try again.`
    : undefined;

/**
 * The shipment as the dialog checks against: the one it was given, or a newer copy read after the
 * server refused the split because the parcel had changed, so the checks show what is wrong now.
 */
export function useCurrentShipment(given: Shipment): { shipment: Shipment; refreshAfter: (error: unknown) => void } {
  const orgId = useOrgId();
  const [reread, setReread] = useState<Shipment | null>(null);
  const shipment = reread && reread.id === given.id && reread.updatedAt > given.updatedAt ? reread : given;
  const refreshAfter = (error: unknown) => {
    if (!staleCodes.has(describeError(error).code)) return;
    client.call('shipments.get', { params: { orgId, shipmentId: given.id } }).then(setReread, () => {
      // The refusal is already on screen; a failed re-read adds nothing to it.
    });
  };
  return { shipment, refreshAfter };
}
