import { useId, useState, type FormEvent } from 'react';
import type { ParcelOrderLine } from '../../../../src-shared/schemas/shipment';
import { client } from '../../lib/api';
import { useOrgId } from '../../lib/session';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Field, FormActions, fieldErrors } from '../../components/forms';
import { CarrierPicker, carrierChoiceBody, carrierChoiceProblem, noCarrierChoice, type CarrierChoice } from '../../components/CarrierPicker';
import { useFocusWhenOpen } from '../orders/focus';
import { linesInOtherParcels, planSplit, unitsOf } from './splitPlan';
import { Problems, splitTarget, staleTitle, useCurrentShipment, type SplitDialogProps } from './common';

/**
 * Moves whole order lines of a parcel into one new shipment. The choices are kept here, outside the
 * dialog body, so a refusal or closing the dialog loses nothing; only a successful split clears them.
 */
export function SplitDialog({ shipment: given, parcelId, open, onClose, onDone }: SplitDialogProps) {
  const orgId = useOrgId();
  const { shipment, refreshAfter } = useCurrentShipment(given);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [carrier, setCarrier] = useState<CarrierChoice>(noCarrierChoice);
  const [reference, setReference] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const { parcel, parcelNumber, lines } = splitTarget(shipment, parcelId);
  const plan = planSplit(shipment, lines, parcelId, selected);
  const carrierProblem = carrierChoiceProblem(carrier);
  const problems = carrierProblem ? [...plan.problems, carrierProblem] : plan.problems;
  const errors = fieldErrors(error);
  const firstField = useFocusWhenOpen<HTMLUListElement>(open);

  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };

  const close = () => {
    setError(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (problems.length) return;
    setBusy(true);
    setError(null);
    try {
      const body = { orderLineIds: plan.moving.map((line) => line.id), ...carrierChoiceBody(carrier), reference: reference.trim() || undefined };
      const result = await client.call('shipments.split', { params: { orgId, shipmentId: shipment.id, parcelId }, body });
      setSelected(new Set());
      setCarrier(noCarrierChoice);
      setReference('');
      onDone({ originalShipment: result.originalShipment, newShipments: [result.newShipment] });
    } catch (caught) {
      setError(caught);
      refreshAfter(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog title={parcel ? `Split parcel ${parcelNumber} of ${shipment.reference}` : `Split ${shipment.reference}`} open={open} onClose={close} wide>
      {!parcel ? (
        <p className="notice">This parcel is no longer in the shipment. Close this and look at the shipment again.</p>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <fieldset>
            <legend>Order lines to move into a new shipment</legend>
            <div className="actions">
              <button type="button" onClick={() => setSelected(new Set(lines.map((line) => line.id)))}>
                Tick all
              </button>
              <button type="button" onClick={() => setSelected(new Set())}>
                Tick none
              </button>
            </div>
            <ul className="check-list" ref={firstField}>
              {lines.map((line) => (
                <li key={line.id}>
                  <label className="check">
                    <input type="checkbox" checked={selected.has(line.id)} onChange={() => toggle(line.id)} /> <LineText line={line} />
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>

          <div className="grid-2 split-outcome" aria-live="polite">
            <LineSummary title={`Stays in ${shipment.reference}`} lines={plan.staying} extra={linesInOtherParcels(shipment, parcelId)} />
            <LineSummary title="Moves to the new shipment" lines={plan.moving} />
          </div>

          <fieldset>
            <legend>New shipment</legend>
            <CarrierPicker value={carrier} onChange={setCarrier} keepLabel="Keep the current carrier" direction={shipment.type} errors={errors} />
            <Field label="Reference (optional)" error={errors.reference} hint={`Left empty: ${shipment.reference}-2, -3, … (the next free one).`}>
              <input value={reference} onChange={(event) => setReference(event.target.value)} autoComplete="off" />
            </Field>
          </fieldset>

          <Problems problems={problems} />
          <ErrorNotice error={error} title={staleTitle(error, 'choices')} />
          <FormActions>
            <button type="button" onClick={close}>
              Close
            </button>
            <button type="submit" className="primary" disabled={busy || problems.length > 0}>
              {busy ? 'Splitting…' : `Move ${plan.moving.length} ${plan.moving.length === 1 ? 'line' : 'lines'}`}
            </button>
          </FormActions>
        </form>
      )}
    </Dialog>
  );
}

function LineText({ line }: { line: ParcelOrderLine }) {
  return (
    <>
      <strong>{line.quantity} ×</strong> <code>{line.sku}</code> {line.description}
    </>
  );
}

function LineSummary({ title, lines, extra = 0 }: { title: string; lines: ParcelOrderLine[]; extra?: number }) {
  const headingId = useId();
  return (
    <section className="card" aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      {lines.length === 0 ? (
        <p className="muted">No lines of this parcel.</p>
      ) : (
        <ul>
          {lines.map((line) => (
            <li key={line.id}>
              <LineText line={line} />
            </li>
          ))}
        </ul>
      )}
      <p className="muted">
        {lines.length} {lines.length === 1 ? 'line' : 'lines'}, {unitsOf(lines)} {unitsOf(lines) === 1 ? 'unit' : 'units'}
        {extra > 0 && ` · plus ${extra} ${extra === 1 ? 'line' : 'lines'} in other parcels`}
      </p>
    </section>
  );
}
