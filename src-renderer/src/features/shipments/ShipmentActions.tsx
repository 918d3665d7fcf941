import { useState } from 'react';
import type { Shipment, ShipmentStatus } from '../../../../src-shared/schemas/shipment';
import { client } from '../../lib/api';
import { humanize } from '../../lib/format';
import { navigate } from '../../app/router';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { canCancel, canCreateReturn, canDelete, canEdit, canSend, statusMoves } from './lifecycle';
import { sendBodyOf } from './printerChoice';
import { sendFailureStep } from '../../lib/sendFailure';

/** The actions the shipment's status allows (decisions §4); nothing else is offered. */
export function ShipmentActions({
  orgId,
  shipment,
  onChanged,
  onError,
  onReturn,
}: {
  orgId: string;
  shipment: Shipment;
  /** After an action: the shipment as the server now has it, or null to read it again. */
  onChanged: (shipment: Shipment | null) => void;
  onError: (error: unknown) => void;
  onReturn: (returnShipment: Shipment) => void;
}) {
  const [busy, setBusy] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<'cancel' | 'delete' | 'return' | 'rebook' | null>(null);
  const params = { orgId, shipmentId: shipment.id };
  const { status } = shipment;

  const run = async (label: string, action: () => Promise<void>) => {
    setBusy(label);
    onError(null);
    try {
      await action();
    } catch (error) {
      onError(error);
      // A failed send leaves the shipment in error with its reasons: show them.
      onChanged(null);
    } finally {
      setBusy(null);
    }
  };

  const send = (confirmRebook = false) =>
    run('send', async () => {
      try {
        // The page shows the shipment; the jobs the send started reach its Print jobs card as pushes.
        const body = { ...sendBodyOf(params.orgId), ...(confirmRebook ? { confirmRebook: true } : {}) };
        const { printJobs: _started, ...shipment } = await client.call('shipments.send', { params, body });
        onChanged(shipment);
      } catch (error) {
        // The carrier cannot be asked whether it booked: only the user, having checked, can say book again.
        if (sendFailureStep(error) === 'confirm-rebook') setConfirm('rebook');
        throw error;
      }
    });
  const rebook = () => {
    setConfirm(null);
    void send(true);
  };
  const move = (target: ShipmentStatus) => run(target, async () => onChanged(await client.call('shipments.update', { params, body: { status: target } })));
  const cancel = () => {
    setConfirm(null);
    void run('cancel', async () => onChanged(await client.call('shipments.cancel', { params })));
  };
  const remove = () => {
    setConfirm(null);
    void run('delete', async () => {
      await client.call('shipments.delete', { params });
      navigate('/shipments');
    });
  };
  const createReturn = () => {
    setConfirm(null);
    void run('return', async () => {
      const made = await client.call('shipments.createReturn', { params });
      onReturn(made);
      onChanged(null);
    });
  };

  const working = busy !== null;
  return (
    <div className="actions" role="group" aria-label="Shipment actions">
      {canSend(status) && (
        <button type="button" className="primary" disabled={working} onClick={() => void send()}>
          {busy === 'send' ? 'Sending…' : status === 'error' ? 'Send again' : 'Send'}
        </button>
      )}
      {canEdit(status) && (
        <button type="button" disabled={working} onClick={() => navigate(`/shipments/${encodeURIComponent(shipment.id)}/edit`)}>
          Edit
        </button>
      )}
      {statusMoves(status).map((move_) => (
        <button key={move_.target} type="button" disabled={working} onClick={() => void move(move_.target)}>
          {busy === move_.target ? `${humanize(move_.target)}…` : move_.label}
        </button>
      ))}
      {canCreateReturn(shipment) && (
        <button type="button" disabled={working} onClick={() => setConfirm('return')}>
          {busy === 'return' ? 'Creating return…' : 'Create return'}
        </button>
      )}
      {canCancel(status) && (
        <button type="button" className="danger" disabled={working} onClick={() => setConfirm('cancel')}>
          {busy === 'cancel' ? 'Cancelling…' : 'Cancel shipment'}
        </button>
      )}
      {canDelete(status) && (
        <button type="button" className="danger" disabled={working} onClick={() => setConfirm('delete')}>
          {busy === 'delete' ? 'Deleting…' : 'Delete'}
        </button>
      )}
      <ConfirmDialog
        open={confirm === 'cancel'}
        title={`Cancel ${shipment.reference}?`}
        confirmLabel="Cancel shipment"
        onConfirm={cancel}
        onCancel={() => setConfirm(null)}
        message={
          <p>
            {status === 'dispatched' || status === 'partly_dispatched'
              ? 'Its labels are voided with the carrier and can no longer be used.'
              : 'It will not be sent. It stays in the list as cancelled.'}
          </p>
        }
      />
      {/* A return is booked with the carrier at once, and a real carrier charges for it: one click is not enough. */}
      <ConfirmDialog
        open={confirm === 'return'}
        title={`Create a return for ${shipment.reference}?`}
        confirmLabel="Create return"
        onConfirm={createReturn}
        onCancel={() => setConfirm(null)}
        message={
          <p>A return shipment back to the warehouse is booked with the carrier right away, and the carrier may charge for it. Its label is made at once.</p>
        }
      />
      <ConfirmDialog
        open={confirm === 'rebook'}
        title={`Book ${shipment.reference} again?`}
        confirmLabel="Book again"
        onConfirm={rebook}
        onCancel={() => setConfirm(null)}
        message={
          <>
            <p>
              The carrier did not answer whether it booked {shipment.reference}, and Shipdesk cannot ask it. Check with the carrier first (its website or
              customer service).
            </p>
            <p>Book again only if the carrier has no booking for it: otherwise the parcel is booked and charged twice.</p>
          </>
        }
      />
      <ConfirmDialog
        open={confirm === 'delete'}
        title={`Delete ${shipment.reference}?`}
        confirmLabel="Delete shipment"
        onConfirm={remove}
        onCancel={() => setConfirm(null)}
        message={<p>The shipment and its parcels are removed for good.</p>}
      />
    </div>
  );
}
