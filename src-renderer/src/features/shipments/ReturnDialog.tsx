import type { Shipment } from '../../../../src-shared/schemas/shipment';
import { Dialog } from '../../components/Dialog';
import { StatusBadge } from '../../components/StatusBadge';
import { navigate } from '../../app/router';
import { useInitialFocus } from './useInitialFocus';

/**
 * The return just made. It is booked at once; when the booking fails the return is still kept, in
 * error, with the carrier's reasons (decisions §7), so the user can fix and send it.
 */
export function ReturnDialog({ shipment, onClose }: { shipment: Shipment | null; onClose: () => void }) {
  const failed = shipment?.status === 'error';
  const openButton = useInitialFocus<HTMLButtonElement>(shipment !== null);
  return (
    <Dialog title={failed ? 'Return made, booking failed' : 'Return made'} open={shipment !== null} onClose={onClose}>
      {shipment && (
        <div>
          <p>
            Return <strong>{shipment.reference}</strong> <StatusBadge status={shipment.status} />
          </p>
          {shipment.tracking && (
            <p>
              Tracking number <code>{shipment.tracking.number}</code>
            </p>
          )}
          {failed && (
            <div className="error-notice" role="alert">
              <strong>The carrier did not book the return.</strong> It is kept; open it to fix it and send it again.
              <ul>
                {shipment.errors.map((error) => (
                  <li key={error.id}>
                    {error.message} <code>{error.code}</code>
                  </li>
                ))}
              </ul>
            </div>
          )}
          <div className="form-actions">
            <button type="button" onClick={onClose}>
              Stay here
            </button>
            <button
              type="button"
              className="primary"
              ref={openButton}
              onClick={() => {
                onClose();
                navigate(`/shipments/${encodeURIComponent(shipment.id)}`);
              }}
            >
              Open the return
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
