import { useState } from 'react';
import type { OrderDetail } from '../../../../src-shared/schemas/order';
import { client } from '../../lib/api';
import { useOrgId } from '../../lib/session';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FormActions } from '../../components/forms';
import { canEdit } from '../shipments/lifecycle';
import { useFocusWhenOpen } from './focus';

/**
 * Asks before cancelling: a cancelled order stays cancelled (decisions §5), and takes its shipments
 * not yet sent with it, while those already sent stay (docs/decisions.md). The dialog names both.
 */
export function CancelOrderDialog({ order, open, onClose, onCancelled }: { order: OrderDetail; open: boolean; onClose: () => void; onCancelled: () => void }) {
  const orgId = useOrgId();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const keepButton = useFocusWhenOpen<HTMLButtonElement>(open);
  const outbound = order.shipments.filter((shipment) => shipment.type === 'outbound');
  const unsent = outbound.filter((shipment) => canEdit(shipment.status)).map((shipment) => shipment.reference);
  const sent = outbound.filter((shipment) => shipment.status === 'dispatched' || shipment.status === 'partly_dispatched').map((shipment) => shipment.reference);

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
        {unsent.length > 0 && (
          <p>
            {unsent.length === 1 ? 'Its shipment not yet sent' : `Its ${unsent.length} shipments not yet sent`} ({unsent.join(', ')}) will be cancelled with it.
          </p>
        )}
        {sent.length > 0 && (
          <p>
            {sent.length === 1 ? 'The shipment already sent' : `The ${sent.length} shipments already sent`} ({sent.join(', ')}) stay as they are: cancel one on
            its own page to void its label, or create a return.
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
