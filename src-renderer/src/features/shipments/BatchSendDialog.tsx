import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Dialog } from '../../components/Dialog';
import { batchOutcomeUnknown, SEND_AGAIN_ADVICE } from '../../lib/sendFailure';
import { BulkResults } from './BulkResults';
import type { BatchSend } from './batchSend';
import { useInitialFocus } from './useInitialFocus';

/**
 * Batch send from the table's selection: confirm, a progress bar while the chunks go, then one line
 * per shipment — sent, or failed with the reason in plain words and the code.
 */
export function BatchSendDialog({
  open,
  onClose,
  selection,
  batch,
}: {
  open: boolean;
  onClose: () => void;
  selection: { id: string; reference: string }[];
  batch: BatchSend;
}) {
  const finished = !batch.running && batch.total > 0;
  const failed = batch.outcomes.filter((outcome) => outcome.status === 'failed');
  const sent = batch.outcomes.length - failed.length;
  const idle = !batch.running && batch.total === 0;
  const unknown = failed.filter((outcome) => batchOutcomeUnknown(outcome.code));
  const [confirmRebook, setConfirmRebook] = useState(false);
  const sendButton = useInitialFocus<HTMLButtonElement>(open && idle);
  return (
    <Dialog title="Send shipments" open={open} onClose={onClose} wide>
      <div>
        {idle && (
          <>
            <p>
              Book {selection.length} selected shipment{selection.length === 1 ? '' : 's'} with their carriers. Shipments that cannot be sent are listed
              afterwards with the reason; the others still go.
            </p>
            <div className="form-actions">
              <button type="button" onClick={onClose}>
                Not now
              </button>
              <button type="button" className="primary" ref={sendButton} onClick={() => void batch.start(selection)}>
                Send {selection.length}
              </button>
            </div>
          </>
        )}
        <BulkResults
          label="Send results"
          running={batch.running}
          done={batch.done}
          total={batch.total}
          runningWord="Sending"
          summary={`${sent} sent, ${failed.length} failed.`}
          rows={batch.outcomes.map((outcome) => ({
            shipmentId: outcome.shipmentId,
            reference: outcome.reference,
            ok: outcome.status === 'sent',
            result: outcome.status === 'sent' ? 'Sent' : 'Failed',
            reason: outcome.status === 'failed' && (
              <>
                <strong>{outcome.summary}</strong> {outcome.message} <code>{outcome.code}</code>
                {batchOutcomeUnknown(outcome.code) && (
                  <>
                    <br />
                    <strong>What to do:</strong> {SEND_AGAIN_ADVICE}
                  </>
                )}
              </>
            ),
          }))}
        />
        {finished && (
          <div className="form-actions">
            {failed.length > 0 && (
              <button type="button" onClick={() => void batch.start(failed.map((outcome) => ({ id: outcome.shipmentId, reference: outcome.reference })))}>
                Try the {failed.length} failed again
              </button>
            )}
            {unknown.length > 0 && (
              <button type="button" className="danger" onClick={() => setConfirmRebook(true)}>
                Book the {unknown.length} unanswered again…
              </button>
            )}
            <button type="button" className="primary" onClick={onClose}>
              Close
            </button>
          </div>
        )}
        <ConfirmDialog
          open={confirmRebook}
          title={`Book ${unknown.length} shipment${unknown.length === 1 ? '' : 's'} again?`}
          confirmLabel="Book again"
          onConfirm={() => {
            setConfirmRebook(false);
            const shipments = unknown.map((outcome) => ({ id: outcome.shipmentId, reference: outcome.reference }));
            void batch.start(shipments, { confirmRebook: shipments.map((shipment) => shipment.id) });
          }}
          onCancel={() => setConfirmRebook(false)}
          message={
            <>
              <p>
                Their carriers did not answer whether they booked {unknown.map((outcome) => outcome.reference).join(', ')}. Where a carrier can be asked,
                Shipdesk asks it first and takes the booking it finds. Where it cannot, a new booking is made.
              </p>
              <p>Check with those carriers first: a shipment they did book would be booked and charged twice.</p>
            </>
          }
        />
      </div>
    </Dialog>
  );
}
