import { useId, useState, type FormEvent } from 'react';
import type { OrderDetail } from '../../../../src-shared/schemas/order';
import { client } from '../../lib/api';
import { useOrgId } from '../../lib/session';
import { navigate } from '../../app/router';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Field, FormActions, fieldErrors } from '../../components/forms';
import { useFocusWhenOpen } from './focus';
import { CarrierPicker, carrierChoiceBody, carrierChoiceProblem, noCarrierChoice, type CarrierChoice } from '../../components/CarrierPicker';
import { ServicePointPicker } from '../../components/ServicePointPicker';
import type { ServicePoint } from '../../../../src-shared/schemas/carrier';
import { servicePointParty } from '../../../../src-shared/servicePointParty';

type Mode = 'rule' | 'carrier';

/**
 * A shipment from the order: by its shipping rule (or the best matching one), or with a carrier and
 * product chosen by hand. The choices live here, outside the dialog's body, so a refusal or closing
 * the dialog keeps them.
 */
export function CreateShipmentDialog({ order, open, onClose }: { order: OrderDetail; open: boolean; onClose: () => void }) {
  const orgId = useOrgId();
  const [mode, setMode] = useState<Mode>('rule');
  const [carrier, setCarrier] = useState<CarrierChoice>(noCarrierChoice);
  const [reference, setReference] = useState('');
  // The point picked here; until then the order's own (chosen at checkout), or the nearest where the product needs one.
  const [point, setPoint] = useState<ServicePoint | 'none' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const problemId = useId();
  const firstField = useFocusWhenOpen<HTMLFieldSetElement>(open);
  const errors = fieldErrors(error);
  const problem = mode === 'carrier' ? (carrier.carrierId ? carrierChoiceProblem(carrier) : 'Choose a carrier and a product.') : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (problem) return;
    setBusy(true);
    setError(null);
    try {
      const body = {
        ...(mode === 'carrier' ? carrierChoiceBody(carrier) : {}),
        reference: reference.trim() || undefined,
        ...(mode === 'carrier' ? servicePointBody(point) : {}),
      };
      const shipment = await client.call('orders.createShipment', { params: { orgId, orderId: order.id }, body });
      setReference('');
      onClose();
      navigate(`/shipments/${shipment.id}`);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  // An old refusal is not shown again on the next opening; the choices are.
  const close = () => {
    setError(null);
    onClose();
  };

  return (
    <Dialog title={`Create shipment for order ${order.orderNumber}`} open={open} onClose={close}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <fieldset ref={firstField}>
          <legend>Carrier</legend>
          <label className="check">
            <input type="radio" name="shipment-mode" checked={mode === 'rule'} onChange={() => setMode('rule')} />{' '}
            {order.shippingRule ? `By the order’s shipping rule “${order.shippingRule.name}”` : 'By the best matching shipping rule'}
          </label>
          <label className="check">
            <input type="radio" name="shipment-mode" checked={mode === 'carrier'} onChange={() => setMode('carrier')} /> Choose carrier and product
          </label>
        </fieldset>
        {mode === 'carrier' && (
          <CarrierPicker
            value={carrier}
            onChange={(next) => {
              setCarrier(next);
              setPoint(null);
            }}
            errors={errors}
          />
        )}
        {mode === 'carrier' && order.shippingAddress && (
          <ServicePointPicker
            carrierId={carrier.carrierId}
            productId={carrier.productId}
            address={order.shippingAddress}
            value={point === 'none' ? null : (point?.id ?? order.servicePointId)}
            onChange={(chosen) => setPoint(chosen ?? 'none')}
            unchosenHint="Left unchosen, the nearest one is used."
          />
        )}
        {order.servicePointId && mode === 'rule' && <p className="muted">Service point chosen at checkout: {order.servicePointId}.</p>}
        <Field label="Reference (optional)" error={errors.reference} hint="Left empty, the next number is used (SHP-…).">
          <input value={reference} onChange={(event) => setReference(event.target.value)} autoComplete="off" />
        </Field>
        <p className="muted">The shipment takes every line still to be shipped, addressed to the order’s shipping address.</p>
        <ErrorNotice error={error} />
        <FormActions>
          <button type="button" onClick={close}>
            Close
          </button>
          <button type="submit" className="primary" disabled={busy || Boolean(problem)} aria-describedby={problem ? problemId : undefined}>
            {busy ? 'Creating…' : 'Create shipment'}
          </button>
        </FormActions>
        {problem && (
          <p id={problemId} className="muted">
            {problem}
          </p>
        )}
      </form>
    </Dialog>
  );
}

/** The order-shipment body's service point: the one picked (with its party), none on purpose, or left to the order and the server. */
function servicePointBody(point: ServicePoint | 'none' | null): { servicePointId?: string | null; parties?: ReturnType<typeof servicePointParty>[] } {
  if (point === null) return {};
  if (point === 'none') return { servicePointId: null };
  return { servicePointId: point.id, parties: [servicePointParty(point)] };
}
