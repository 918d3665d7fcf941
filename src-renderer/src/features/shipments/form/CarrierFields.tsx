import { client, useLoad } from '../../../lib/api';
import { Field } from '../../../components/forms';
import { ErrorNotice } from '../../../components/ErrorNotice';
import type { FieldMessages, ShipmentForm } from './model';

/**
 * Carrier, product and services (create), or a shipping rule to re-apply (edit: PATCH cannot change
 * carrier settings, decisions §4), and the sender address.
 */
export function CarrierFields({
  orgId,
  form,
  mode,
  errors,
  onChange,
}: {
  orgId: string;
  form: ShipmentForm;
  mode: 'create' | 'edit';
  errors: FieldMessages;
  onChange: (patch: Partial<ShipmentForm>) => void;
}) {
  const carriers = useLoad(() => client.call('carriers.list', { params: { orgId }, query: { limit: 100 } }), `carriers:${orgId}`);
  const addresses = useLoad(() => client.call('senderAddresses.list', { params: { orgId }, query: { limit: 100 } }), `addresses:${orgId}`);
  const carrier = carriers.data?.data.find((candidate) => candidate.id === form.carrierId);

  return (
    <fieldset>
      <legend>Carrier</legend>
      <ErrorNotice error={carriers.error ?? addresses.error} title="Carriers or sender addresses could not be loaded" />
      {mode === 'create' ? (
        <CarrierChoice orgId={orgId} form={form} errors={errors} onChange={onChange} carriers={carriers.data?.data ?? []} loading={carriers.loading} />
      ) : (
        <RuleChoice orgId={orgId} form={form} errors={errors} onChange={onChange} carrierName={carrier?.name ?? form.carrierId} />
      )}
      <div className="form-grid wide-grid">
        <Field label="Sender address" error={errors.senderAddressId} hint={mode === 'create' ? 'Left on the carrier’s, the carrier’s own sender address is used' : undefined}>
          <select name="senderAddressId" value={form.senderAddressId} onChange={(event) => onChange({ senderAddressId: event.target.value })}>
            {mode === 'create' && <option value="">The carrier’s{carrier ? ` (${carrier.senderAddress.name})` : ''}</option>}
            {(addresses.data?.data ?? []).map((address) => (
              <option key={address.id} value={address.id}>
                {address.name} · {address.address1}, {address.city}
              </option>
            ))}
          </select>
        </Field>
      </div>
    </fieldset>
  );
}

function CarrierChoice({
  orgId,
  form,
  errors,
  onChange,
  carriers,
  loading,
}: {
  orgId: string;
  form: ShipmentForm;
  errors: FieldMessages;
  onChange: (patch: Partial<ShipmentForm>) => void;
  carriers: { id: string; name: string }[];
  loading: boolean;
}) {
  const products = useLoad(
    () => (form.carrierId ? client.call('carriers.products', { params: { orgId, carrierId: form.carrierId } }) : Promise.resolve([])),
    `products:${orgId}:${form.carrierId}`,
  );
  // Returns need an inbound product, outbound shipments an outbound one.
  const offered = (products.data ?? []).filter((product) => product.type === form.type);
  const product = offered.find((candidate) => candidate.productId === form.productId);

  return (
    <>
      <div className="form-grid">
        <Field label="Carrier" error={errors['carrierSettings.carrierId'] ?? errors['carrierSettings']}>
          <select
            name="carrierSettings.carrierId"
            value={form.carrierId}
            onChange={(event) => onChange({ carrierId: event.target.value, productId: '', services: [] })}
          >
            <option value="">{loading ? 'Loading…' : carriers.length === 0 ? 'No carriers set up yet' : 'Choose a carrier'}</option>
            {carriers.map((carrier) => (
              <option key={carrier.id} value={carrier.id}>
                {carrier.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Product" error={errors['carrierSettings.productId']}>
          <select
            name="carrierSettings.productId"
            value={form.productId}
            disabled={!form.carrierId}
            onChange={(event) => {
              const next = offered.find((candidate) => candidate.productId === event.target.value);
              const allowed = new Set(next?.services.map((service) => service.serviceId));
              onChange({ productId: event.target.value, services: form.services.filter((service) => allowed.has(service)) });
            }}
          >
            <option value="">{products.loading ? 'Loading…' : 'Choose a product'}</option>
            {offered.map((candidate) => (
              <option key={candidate.productId} value={candidate.productId}>
                {candidate.name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <ErrorNotice error={products.error} title="The carrier’s products could not be loaded" />
      {product && product.services.length > 0 && (
        <fieldset className="checks">
          <legend>Services</legend>
          {product.services.map((service) => (
            <label key={service.serviceId}>
              <input
                type="checkbox"
                name="carrierSettings.services"
                checked={form.services.includes(service.serviceId)}
                onChange={(event) =>
                  onChange({ services: event.target.checked ? [...form.services, service.serviceId] : form.services.filter((id) => id !== service.serviceId) })
                }
              />{' '}
              {service.name}
            </label>
          ))}
          {errors['carrierSettings.services'] && <p className="field-error">{errors['carrierSettings.services']}</p>}
        </fieldset>
      )}
    </>
  );
}

function RuleChoice({
  orgId,
  form,
  errors,
  onChange,
  carrierName,
}: {
  orgId: string;
  form: ShipmentForm;
  errors: FieldMessages;
  onChange: (patch: Partial<ShipmentForm>) => void;
  carrierName: string;
}) {
  const rules = useLoad(() => client.call('shippingRules.list', { params: { orgId }, query: { limit: 100 } }), `rules:${orgId}`);
  return (
    <>
      <p>
        Now: <strong>{carrierName}</strong>, product <code>{form.productId}</code>
        {form.services.length > 0 && <>, services {form.services.join(', ')}</>}.
      </p>
      <div className="form-grid wide-grid">
        <Field label="Shipping rule" error={errors.shippingRuleId} hint="Choosing a rule applies its carrier, product, services and sender address">
          <select name="shippingRuleId" value={form.shippingRuleId} onChange={(event) => onChange({ shippingRuleId: event.target.value })}>
            <option value="">Keep the current carrier and product</option>
            {(rules.data?.data ?? []).map((rule) => (
              <option key={rule.id} value={rule.id}>
                {rule.name} · {rule.carrier.name} {rule.productId}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <ErrorNotice error={rules.error} title="Shipping rules could not be loaded" />
    </>
  );
}
