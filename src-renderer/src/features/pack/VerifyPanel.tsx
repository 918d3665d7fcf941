import { useId } from 'react';
import { Dialog } from '../../components/Dialog';
import type { PackCue } from './packStore';
import { boxUnits, boxWeight, openBox, progress, ticked, weightText, type Verification } from './verification';

/**
 * The items of the shipment being checked (issue 20): each line with what is packed of it, the boxes
 * with their weights, the last cue in words (read out by screen readers as each scan is counted), and
 * the keys that act on an empty scan box.
 */
export function VerifyPanel({
  verification,
  cue,
  sending,
  onUndo,
  onNextBox,
  onSend,
}: {
  verification: Verification;
  cue: PackCue | null;
  sending: boolean;
  onUndo: () => void;
  onNextBox: () => void;
  onSend: () => void;
}) {
  const titleId = useId();
  const { ticked: done, total, complete } = progress(verification);
  const open = openBox(verification);
  return (
    <section className="pack-verify" aria-labelledby={titleId}>
      <h3 id={titleId}>
        Items: {done} of {total} packed
      </h3>
      {/* A live region of its own, present from the start, so each count is read out as it changes. */}
      <p className={`pack-cue${cue ? ` pack-cue-${cue.tone}` : ''}`} role="status" aria-live="polite" aria-atomic="true">
        {/* A new span per cue restarts its flash; the region itself stays, as screen readers watch it. */}
        <span key={cue?.seq ?? 0}>{cue?.text ?? 'Scan each item (its SKU or barcode) as it goes into the box.'}</span>
      </p>
      <table className="plain pack-lines">
        <caption className="visually-hidden">Items to pack</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">SKU</th>
            <th scope="col">Barcode</th>
            <th scope="col">Bin</th>
            <th scope="col">Packed</th>
          </tr>
        </thead>
        <tbody>
          {verification.lines.map((line) => {
            const count = ticked(verification, line.id);
            const state = count >= line.quantity ? 'done' : count > 0 ? 'partly' : 'todo';
            return (
              <tr key={line.id} className={`pack-line-${state}`}>
                <td className="wrap">{line.description || '—'}</td>
                <td>
                  <code>{line.sku}</code>
                </td>
                <td>{line.barcode ? <code>{line.barcode}</code> : '—'}</td>
                <td>{line.location || '—'}</td>
                <td className="pack-count">
                  {count} of {line.quantity}
                  {state === 'done' && <span aria-hidden="true"> ✓</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <ol className="pack-boxes" aria-label="Boxes">
        {verification.weights.map((_, box) => {
          const units = boxUnits(verification, box);
          const weight = boxWeight(verification, box);
          return (
            <li key={box} className={box === open ? 'pack-box-open' : undefined}>
              Box {box + 1}
              {box === open && verification.weights.length > 1 ? ' (open)' : ''}: {units} {units === 1 ? 'unit' : 'units'},{' '}
              {weight.weight > 0 ? `${weightText(weight)}${weight.fromScale ? ' from the scale' : ' (items’ weights)'}` : 'not weighed'}
            </li>
          );
        })}
      </ol>
      <div className="actions pack-actions">
        <button type="button" className="primary pack-send" onClick={onSend} disabled={sending || done === 0} aria-keyshortcuts="Enter">
          {sending ? 'Sending…' : complete ? 'Send and print' : 'Send what is packed…'} <kbd aria-hidden="true">Enter</kbd>
        </button>
        <button type="button" onClick={onNextBox} disabled={sending} aria-keyshortcuts="F2 +">
          Next box <kbd aria-hidden="true">F2</kbd>
        </button>
        <button type="button" onClick={onUndo} disabled={sending || verification.steps.length === 0} aria-keyshortcuts="Backspace Control+Z">
          Undo last <kbd aria-hidden="true">Backspace</kbd>
        </button>
      </div>
    </section>
  );
}

/**
 * "Send what is packed?" for a short pack: the units not ticked go into a new shipment (a split,
 * decisions §7) to be packed later, the rest is sent. Focus starts on going on packing, so a stray
 * Enter sends nothing; Tab then Enter confirms.
 */
export function ShortPackDialog({
  open,
  reference,
  verification,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  reference: string;
  verification: Verification | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const rest = verification
    ? verification.lines.map((line) => ({ line, left: line.quantity - ticked(verification, line.id) })).filter(({ left }) => left > 0)
    : [];
  const { ticked: done, total } = verification ? progress(verification) : { ticked: 0, total: 0 };
  return (
    <Dialog title={`Send ${reference} with ${done} of ${total} units?`} open={open} onClose={onCancel}>
      <p>These are not packed. They move into a new shipment of the same order, to be packed and sent later:</p>
      <ul>
        {rest.map(({ line, left }) => (
          <li key={line.id}>
            {left} × {line.sku}
            {line.description ? ` ${line.description}` : ''}
          </li>
        ))}
      </ul>
      <div className="form-actions">
        <button type="button" onClick={onCancel} data-autofocus>
          Go on packing
        </button>
        <button type="button" className="danger" onClick={onConfirm}>
          Send the packed part
        </button>
      </div>
    </Dialog>
  );
}
