import { useState } from 'react';
import { MAX_BATCH_SPLIT } from '../../../../src-shared/schemas/shipment';
import { client } from '../../lib/api';
import { useOrgId } from '../../lib/session';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FormActions } from '../../components/forms';
import { CarrierPicker, carrierChoiceBody, carrierChoiceProblem, noCarrierChoice, type CarrierChoice } from '../../components/CarrierPicker';
import { planBatchSplit, unitsOf, type BatchColumn } from './splitPlan';
import { Problems, splitTarget, staleTitle, useCurrentShipment, type SplitDialogProps } from './common';
import { BatchSplitGrid } from './BatchSplitGrid';
import { useFocusWhenOpen } from '../orders/focus';

let nextColumnKey = 1;
const newColumn = (): BatchColumn => ({ key: nextColumnKey++, reference: '', quantities: {} });
const startColumns = () => [newColumn(), newColumn()];

/**
 * Quantities of a parcel's order lines into several new shipments. The grid is checked as it is
 * typed; nothing is sent before Confirm, and then in one call that either makes every new shipment
 * or none. The grid is kept here, outside the dialog body, so a refusal or closing loses nothing.
 */
export function BatchSplitDialog({ shipment: given, parcelId, open, onClose, onDone }: SplitDialogProps) {
  const orgId = useOrgId();
  const { shipment, refreshAfter } = useCurrentShipment(given);
  const [columns, setColumns] = useState<BatchColumn[]>(startColumns);
  const [carrier, setCarrier] = useState<CarrierChoice>(noCarrierChoice);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const { parcel, parcelNumber, lines } = splitTarget(shipment, parcelId);
  const plan = planBatchSplit(shipment, lines, parcelId, columns);
  const carrierProblem = carrierChoiceProblem(carrier);
  const problems = carrierProblem ? [...plan.problems, carrierProblem] : plan.problems;
  const firstField = useFocusWhenOpen<HTMLDivElement>(open);

  const close = () => {
    setError(null);
    onClose();
  };

  const confirm = async () => {
    if (problems.length) return;
    setBusy(true);
    setError(null);
    try {
      const result = await client.call('shipments.batchSplit', {
        params: { orgId, shipmentId: shipment.id, parcelId },
        body: { shipments: plan.shipments, ...carrierChoiceBody(carrier) },
      });
      setColumns(startColumns());
      setCarrier(noCarrierChoice);
      onDone(result);
    } catch (caught) {
      // The grid stays exactly as typed, whatever the server said.
      setError(caught);
      refreshAfter(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={parcel ? `Split parcel ${parcelNumber} of ${shipment.reference} into several shipments` : `Split ${shipment.reference}`}
      open={open}
      onClose={close}
      wide
    >
      {!parcel ? (
        <p className="notice">This parcel is no longer in the shipment. Close this and look at the shipment again.</p>
      ) : (
        <div>
          <p className="muted">
            Type how many units of each line go into each new shipment. Empty counts as 0. Enter moves down a column. Nothing is sent until you confirm.
          </p>
          <div ref={firstField}>
            <BatchSplitGrid lines={lines} columns={columns} plan={plan} onChange={setColumns} />
          </div>
          <div className="actions">
            <button type="button" onClick={() => setColumns([...columns, newColumn()])} disabled={columns.length >= MAX_BATCH_SPLIT}>
              Add new shipment
            </button>
            <span className="muted" aria-live="polite">
              {plan.movingUnits} of {unitsOf(lines)} units into {columns.length} new {columns.length === 1 ? 'shipment' : 'shipments'}; {plan.stayingUnits}{' '}
              {plan.stayingUnits === 1 ? 'stays' : 'stay'} in {shipment.reference}.
            </span>
          </div>

          <fieldset>
            <legend>Carrier of the new shipments</legend>
            <CarrierPicker value={carrier} onChange={setCarrier} keepLabel="Keep the current carrier" direction={shipment.type} />
          </fieldset>

          <Problems problems={problems} />
          <ErrorNotice error={error} title={staleTitle(error, 'quantities')} />
          <FormActions>
            <button type="button" onClick={close}>
              Close
            </button>
            <button type="button" className="primary" onClick={() => void confirm()} disabled={busy || problems.length > 0}>
              {busy ? 'Splitting…' : `Confirm: make ${columns.length} ${columns.length === 1 ? 'shipment' : 'shipments'}`}
            </button>
          </FormActions>
        </div>
      )}
    </Dialog>
  );
}
