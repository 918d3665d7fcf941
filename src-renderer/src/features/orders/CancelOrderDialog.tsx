import { useState } from 'react';
import type { OrderDetail } from '../../../../src-shared/schemas/order';
import { client } from '../../lib/api';
import { useOrgId } from '../../lib/session';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FormActions } from '../../components/forms';
import { useFocusWhenOpen } from './focus';

/** Asks before cancelling: a cancelled order stays cancelled (decisions §5). */
export function CancelOrderDialog({ order, open, onClose, onCancelled }: { order: OrderDetail; open: boolean; onClose: () => void; onCancelled: () => void }) {
  const orgId = useOrgId();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const keepButton = useFocusWhenOpen<HTMLButtonElement>(open);
  const openShipments = order.shipments.filter((shipment) => shipment.status !== 'cancelled').length;

  const close = () => {
    setError(null);
    onClose();
  };

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await client.call('orders.update', { params: { orgId, orderId: order.id }, body: { status: 'cancelled' } });
      close();
      onCancelled();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog title={`Cancel order ${order.orderNumber}?`} open={open} onClose={close}>
      <div>
        <p>The order will be marked cancelled and no more shipments can be made from it. This cannot be undone.</p>
        {openShipments > 0 && (
          <p>
            Its {openShipments} {openShipments === 1 ? 'shipment is' : 'shipments are'} not cancelled by this: cancel {openShipments === 1 ? 'it' : 'them'} on the
            shipment’s own page if needed.
          </p>
        )}
        <ErrorNotice error={error} />
        <FormActions>
          <button type="button" onClick={close} ref={keepButton}>
            Keep the order
          </button>
          <button type="button" className="danger" onClick={() => void confirm()} disabled={busy}>
            {busy ? 'Cancelling…' : 'Cancel order'}
          </button>
        </FormActions>
      </div>
    </Dialog>
  );
}
