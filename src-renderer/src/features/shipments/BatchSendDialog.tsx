import { Dialog } from '../../components/Dialog';
import { Progress } from '../../components/Progress';
import { Link } from '../../app/router';
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
  const sendButton = useInitialFocus<HTMLButtonElement>(open && idle);
  const closeButton = useInitialFocus<HTMLButtonElement>(open && finished);
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
        {batch.total > 0 && <Progress label={batch.running ? 'Sending' : 'Done'} done={batch.done} total={batch.total} />}
        {finished && (
          <p role="status">
            {sent} sent, {failed.length} failed.
          </p>
        )}
        {batch.outcomes.length > 0 && (
          // When done, the failed ones come first: they are the ones that need someone.
          <table className="plain" aria-label="Send results">
            <thead>
              <tr>
                <th scope="col">Shipment</th>
                <th scope="col">Result</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {(finished ? [...failed, ...batch.outcomes.filter((outcome) => outcome.status === 'sent')] : batch.outcomes).map((outcome) => (
                <tr key={outcome.shipmentId}>
                  <td>
                    <Link to={`/shipments/${encodeURIComponent(outcome.shipmentId)}`}>{outcome.reference}</Link>
                  </td>
                  <td>
                    <span className={`status status-${outcome.status === 'sent' ? 'done' : 'failed'}`}>{outcome.status === 'sent' ? 'Sent' : 'Failed'}</span>
                  </td>
                  <td className="wrap">
                    {outcome.status === 'failed' && (
                      <>
                        <strong>{outcome.summary}</strong> {outcome.message} <code>{outcome.code}</code>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {finished && (
          <div className="form-actions">
            {failed.length > 0 && (
              <button type="button" onClick={() => void batch.start(failed.map((outcome) => ({ id: outcome.shipmentId, reference: outcome.reference })))}>
                Try the {failed.length} failed again
              </button>
            )}
            <button type="button" className="primary" ref={closeButton} onClick={onClose}>
              Close
            </button>
          </div>
        )}
      </div>
    </Dialog>
  );
}
