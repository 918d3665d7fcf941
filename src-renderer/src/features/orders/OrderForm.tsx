import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { OrderChannel } from '../../../../src-shared/schemas/orderChannel';
import type { OrderDetail } from '../../../../src-shared/schemas/order';
import { weightUnits } from '../../../../src-shared/schemas/shipment';
import { client } from '../../lib/api';
import { useOrgId } from '../../lib/session';
import { navigate } from '../../app/router';
import { Dialog } from '../../components/Dialog';
import { EmptyChoice } from '../../components/EmptyChoice';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Field, FormActions, fieldErrors } from '../../components/forms';
import { CountryPicker, holdsUnchosenCountry } from '../../components/CountryPicker';
import {
  draftOfOrder,
  emptyLine,
  missingFields,
  orderBody,
  orderTotal,
  orderUpdateBody,
  useOrderDraft,
  type AddressDraft,
  type LineDraft,
  type OrderDraft,
} from './orderDraft';
import { formatMoney } from './money';
import { useFocusWhenOpen } from './focus';

const upper = (value: string) => value.toUpperCase();

/** "New order": a manual order with its address and lines; what is typed survives closing and failures. */
export function NewOrderDialog({
  open,
  onClose,
  channels,
  channelsError,
}: {
  open: boolean;
  onClose: () => void;
  /** Undefined while they load. */
  channels: OrderChannel[] | undefined;
  channelsError?: unknown;
}) {
  const orgId = useOrgId();
  const { draft, change, clear } = useOrderDraft();
  // Manual channels first: that is where hand-made orders belong.
  const sortedChannels = [...(channels ?? [])].sort((a, b) => Number(b.type === 'manual') - Number(a.type === 'manual'));
  const orderChannelId = draft.orderChannelId || sortedChannels[0]?.id || '';
  const create = async () => {
    const order = await client.call('orders.create', { params: { orgId }, body: orderBody(draft, orderChannelId) });
    clear();
    onClose();
    navigate(`/orders/${order.id}`);
  };
  return (
    <Dialog title="New order" open={open} onClose={onClose} wide>
      {channels && channels.length === 0 ? (
        <div className="notice">
          <p>Orders belong to an order channel: where they come from (a shop, or “manual” for orders typed here).</p>
          <EmptyChoice of="orderChannel" options={channels} />
        </div>
      ) : channels ? (
        <OrderForm title="New order" submitLabel="Create order" draft={draft} change={change} onSubmit={create} onCancel={onClose}>
          {(errors) => (
            <Field label="Order channel (required)" error={errors.orderChannelId}>
              <select value={orderChannelId} onChange={(event) => change((current) => ({ ...current, orderChannelId: event.target.value }))} required>
                {sortedChannels.map((channel) => (
                  <option key={channel.id} value={channel.id}>
                    {channel.name} ({channel.type})
                  </option>
                ))}
              </select>
            </Field>
          )}
        </OrderForm>
      ) : channelsError ? (
        <ErrorNotice error={channelsError} title="The order channels could not be loaded" />
      ) : (
        <p className="loading">Loading the order channels…</p>
      )}
    </Dialog>
  );
}

/**
 * "Edit order": the order's number, customer, address and lines, as in "New order". Lines keep
 * their ids (what shipments hold of them stays theirs) and the fields the form does not show.
 */
export function EditOrderDialog({
  order,
  open,
  onClose,
  onSaved,
}: {
  order: OrderDetail;
  open: boolean;
  onClose: () => void;
  onSaved: (order: OrderDetail) => void;
}) {
  const orgId = useOrgId();
  const [draft, setDraft] = useState(() => draftOfOrder(order));
  const save = async () => {
    const saved = await client.call('orders.update', { params: { orgId, orderId: order.id }, body: orderUpdateBody(draft, order) });
    onSaved(saved);
    onClose();
  };
  return (
    <Dialog title={`Edit order ${order.orderNumber}`} open={open} onClose={onClose} wide>
      <OrderForm title={`Edit order ${order.orderNumber}`} submitLabel="Save order" draft={draft} change={setDraft} onSubmit={save} onCancel={onClose} />
    </Dialog>
  );
}

/** The fields of an order and its lines; `children` come first (the channel, for a new order), with the field errors. */
function OrderForm({
  title,
  submitLabel,
  draft,
  change,
  onSubmit,
  onCancel,
  children,
}: {
  title: string;
  submitLabel: string;
  draft: OrderDraft;
  change: (update: (draft: OrderDraft) => OrderDraft) => void;
  onSubmit: () => Promise<void>;
  onCancel: () => void;
  children?: (errors: Record<string, string>) => ReactNode;
}) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // Shown once a save was tried, then kept up to date as the fields are filled in.
  const [tried, setTried] = useState(false);
  const errors = { ...fieldErrors(error), ...(tried ? missingFields(draft) : {}) };
  const total = orderTotal(draft.lines);
  const firstField = useFocusWhenOpen<HTMLInputElement>(true);
  const form = useRef<HTMLFormElement>(null);
  const addLineButton = useRef<HTMLButtonElement>(null);
  const [addedLine, setAddedLine] = useState<number | null>(null);
  const addressHint = useId();

  const set = <K extends keyof OrderDraft>(key: K, value: OrderDraft[K]) => change((current) => ({ ...current, [key]: value }));
  const setAddress = (key: keyof AddressDraft, value: string) => change((current) => ({ ...current, address: { ...current.address, [key]: value } }));
  const setLine = (index: number, patch: Partial<LineDraft>) =>
    change((current) => ({ ...current, lines: current.lines.map((line, i) => (i === index ? { ...line, ...patch } : line)) }));

  const focusFirstProblem = () =>
    // To the first field in question, else to the message: the form is taller than the dialog.
    requestAnimationFrame(() => {
      const invalid = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
      if (invalid) invalid.focus();
      else form.current?.querySelector('[role="alert"]')?.scrollIntoView({ block: 'nearest' });
    });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (holdsUnchosenCountry(form.current)) return;
    if (Object.keys(missingFields(draft)).length) {
      focusFirstProblem();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSubmit();
    } catch (caught) {
      setError(caught);
      focusFirstProblem();
    } finally {
      setBusy(false);
    }
  };

  // Marked as the other forms mark them (" (required)" in the label).
  const addressField = (key: keyof AddressDraft, label: string, extra: { required?: boolean; type?: string } = {}) => (
    <Field label={extra.required ? `${label} (required)` : label} error={errors[`shippingAddress.${key}`]}>
      <input type={extra.type ?? 'text'} value={draft.address[key]} required={extra.required} onChange={(event) => setAddress(key, event.target.value)} />
    </Field>
  );

  return (
    <form ref={form} className="order-form" onSubmit={(event) => void submit(event)} noValidate aria-label={title}>
      <div className="form-grid">
        {children?.(errors)}
        <Field label="Order number (required)" error={errors.orderNumber}>
          <input value={draft.orderNumber} onChange={(event) => set('orderNumber', event.target.value)} required ref={firstField} />
        </Field>
        <Field label="Customer name" error={errors.customerName}>
          <input value={draft.customerName} onChange={(event) => set('customerName', event.target.value)} autoComplete="off" />
        </Field>
        <Field label="Customer email" error={errors.customerEmail}>
          <input type="email" value={draft.customerEmail} onChange={(event) => set('customerEmail', event.target.value)} autoComplete="off" />
        </Field>
      </div>

      <fieldset aria-describedby={addressHint}>
        <legend>Shipping address</legend>
        {/* An order may come without an address (the shipment gets one); a partial one cannot be shipped to. */}
        <p id={addressHint} className="hint">
          May be left empty. Once any of it is filled in, the fields marked required are needed.
        </p>
        <div className="form-grid">
          {addressField('name', 'Name', { required: true })}
          {addressField('company', 'Company')}
          {addressField('attention', 'Attention')}
          {addressField('address1', 'Address', { required: true })}
          {addressField('address2', 'Address, second line')}
          {addressField('postalCode', 'Postal code', { required: true })}
          {addressField('city', 'City', { required: true })}
          <Field label="Country (required)" error={errors['shippingAddress.countryCode']}>
            <CountryPicker value={draft.address.countryCode} onChange={(code) => setAddress('countryCode', code)} />
          </Field>
          {addressField('phone', 'Phone', { type: 'tel' })}
          {addressField('email', 'Email', { type: 'email' })}
        </div>
      </fieldset>

      {draft.lines.map((line, index) => (
        <LineFields
          key={line.key}
          line={line}
          index={index}
          errors={errors}
          focusName={line.key === addedLine}
          onChange={(patch) => setLine(index, patch)}
          onRemove={
            draft.lines.length > 1
              ? () => {
                  change((current) => ({ ...current, lines: current.lines.filter((_, i) => i !== index) }));
                  // The button that had focus is gone with its line.
                  addLineButton.current?.focus();
                }
              : undefined
          }
        />
      ))}
      <div className="actions">
        <button
          type="button"
          ref={addLineButton}
          onClick={() => {
            const line = emptyLine(draft.lines.at(-1)?.currency);
            change((current) => ({ ...current, lines: [...current.lines, line] }));
            setAddedLine(line.key);
          }}
        >
          Add line
        </button>
        <span className="muted" aria-live="polite">
          {draft.lines.length} {draft.lines.length === 1 ? 'line' : 'lines'}
          {total ? ` · total ${formatMoney(total.amount, total.currency)}` : ''}
        </span>
      </div>

      <Field label="Service point" error={errors.servicePointId} hint="The carrier's id of the service point the customer chose at checkout, if any">
        <input value={draft.servicePointId} onChange={(event) => set('servicePointId', event.target.value)} autoComplete="off" />
      </Field>
      <Field label="Notes" error={errors.notes}>
        <textarea rows={2} value={draft.notes} onChange={(event) => set('notes', event.target.value)} />
      </Field>

      <ErrorNotice error={error} />
      <FormActions>
        <button type="button" onClick={onCancel}>
          Close
        </button>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Saving…' : submitLabel}
        </button>
      </FormActions>
    </form>
  );
}

function LineFields({
  line,
  index,
  errors,
  focusName,
  onChange,
  onRemove,
}: {
  line: LineDraft;
  index: number;
  errors: Record<string, string>;
  focusName: boolean;
  onChange: (patch: Partial<LineDraft>) => void;
  onRemove: (() => void) | undefined;
}) {
  const error = (key: string) => errors[`orderLines.${index}.${key}`];
  const name = useRef<HTMLInputElement>(null);
  // A line just added gets focus, so the keyboard carries on typing into it.
  useEffect(() => {
    if (focusName) name.current?.focus();
  }, [focusName]);
  return (
    <fieldset className="order-line">
      <legend>Line {index + 1}</legend>
      <div className="form-grid">
        <Field label="Name (required)" error={error('name')}>
          <input ref={name} value={line.name} onChange={(event) => onChange({ name: event.target.value })} required />
        </Field>
        <Field label="SKU" error={error('sku')}>
          <input value={line.sku} onChange={(event) => onChange({ sku: event.target.value })} />
        </Field>
        <Field label="Bin location" error={error('location')} hint="Where it is picked from, e.g. A-03-2">
          <input value={line.location} onChange={(event) => onChange({ location: event.target.value })} />
        </Field>
        <Field label="Quantity (required)" error={error('quantity')}>
          <input
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            value={line.quantity}
            onChange={(event) => onChange({ quantity: event.target.value })}
            required
          />
        </Field>
        <div className="field-pair">
          <Field label="Weight per unit" error={error('weight')}>
            <input inputMode="decimal" value={line.weight} onChange={(event) => onChange({ weight: event.target.value })} />
          </Field>
          <Field label="Weight unit" error={error('weightUnit')}>
            <select value={line.weightUnit} onChange={(event) => onChange({ weightUnit: event.target.value as LineDraft['weightUnit'] })}>
              {weightUnits.map((unit) => (
                <option key={unit} value={unit}>
                  {unit}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <Field label="Unit price" error={error('unitPrice')}>
          <input inputMode="decimal" value={line.unitPrice} onChange={(event) => onChange({ unitPrice: event.target.value })} />
        </Field>
        <Field label="Currency (e.g. DKK)" error={error('currency')}>
          <input value={line.currency} maxLength={3} onChange={(event) => onChange({ currency: upper(event.target.value) })} />
        </Field>
        <Field label="HS code" error={error('hsCode')}>
          <input value={line.hsCode} onChange={(event) => onChange({ hsCode: event.target.value })} />
        </Field>
        <Field label="Country of origin" error={error('countryOfOrigin')}>
          <CountryPicker value={line.countryOfOrigin} onChange={(countryOfOrigin) => onChange({ countryOfOrigin })} />
        </Field>
      </div>
      <div className="actions">
        <label className="check">
          <input type="checkbox" checked={line.requiresShipping} onChange={(event) => onChange({ requiresShipping: event.target.checked })} /> Requires shipping
        </label>
        {onRemove && (
          <button type="button" className="danger" onClick={onRemove} aria-label={`Remove line ${index + 1}`}>
            Remove line
          </button>
        )}
      </div>
    </fieldset>
  );
}
