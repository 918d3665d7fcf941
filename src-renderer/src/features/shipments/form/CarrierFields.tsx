import { useOperation } from '../../../lib/useOperation';
import { Field } from '../../../components/forms';
import { ErrorNotice } from '../../../components/ErrorNotice';
import { CarrierPicker } from '../../../components/CarrierPicker';
import { EmptyChoice } from '../../../components/EmptyChoice';
import { productName, serviceNames, useProductNames } from '../productNames';
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
  const carriers = useOperation('carriers.list', { params: { orgId }, query: { limit: 100 } });
  const addresses = useOperation('senderAddresses.list', { params: { orgId }, query: { limit: 100 } });
  const carrier = carriers.data?.data.find((candidate) => candidate.id === form.carrierId);

  return (
    <fieldset>
      <legend>Carrier</legend>
      <ErrorNotice error={carriers.error ?? addresses.error} title="Carriers or sender addresses could not be loaded" />
      {mode === 'create' ? (
        <CarrierChoiceFields form={form} errors={errors} onChange={onChange} />
      ) : (
        <RuleChoice
          orgId={orgId}
          form={form}
          errors={errors}
          onChange={onChange}
          carrierName={carrier?.name ?? form.carrierId}
          carriers={carriers.data?.data}
        />
      )}
      <div className="form-grid wide-grid">
        <Field
          label="Sender address"
          error={errors.senderAddressId}
          hint={mode === 'create' ? 'Left on the carrier’s, the carrier’s own sender address is used' : undefined}
        >
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
      <EmptyChoice of="senderAddress" options={addresses.data?.data} />
    </fieldset>
  );
}

function CarrierChoiceFields({ form, errors, onChange }: { form: ShipmentForm; errors: FieldMessages; onChange: (patch: Partial<ShipmentForm>) => void }) {
  return (
    <CarrierPicker
      value={{ carrierId: form.carrierId, productId: form.productId, services: form.services }}
      onChange={(choice) => onChange(choice)}
      // Returns need an inbound product, outbound shipments an outbound one.
      direction={form.type}
      namePrefix="carrierSettings."
      errors={{
        carrierId: errors['carrierSettings.carrierId'] ?? errors['carrierSettings'],
        productId: errors['carrierSettings.productId'],
        services: errors['carrierSettings.services'],
      }}
    />
  );
}

function RuleChoice({
  orgId,
  form,
  errors,
  onChange,
  carrierName,
  carriers,
}: {
  orgId: string;
  form: ShipmentForm;
  errors: FieldMessages;
  onChange: (patch: Partial<ShipmentForm>) => void;
  carrierName: string;
  /** The organization's carriers, as CarrierFields loaded them (undefined while they load). */
  carriers: readonly { id: string }[] | undefined;
}) {
  const rules = useOperation('shippingRules.list', { params: { orgId }, query: { limit: 100 } });
  const products = useProductNames(orgId, carriers);
  return (
    <>
      <p>
        Now: <strong>{carrierName}</strong>, product <strong>{productName(products, form.carrierId, form.productId)}</strong>
        {form.services.length > 0 && <>, services {serviceNames(products, form.carrierId, form.productId, form.services).join(', ')}</>}.
      </p>
      <div className="form-grid wide-grid">
        <Field label="Shipping rule" error={errors.shippingRuleId} hint="Choosing a rule applies its carrier, product, services and sender address">
          <select name="shippingRuleId" value={form.shippingRuleId} onChange={(event) => onChange({ shippingRuleId: event.target.value })}>
            <option value="">Keep the current carrier and product</option>
            {(rules.data?.data ?? []).map((rule) => (
              <option key={rule.id} value={rule.id}>
                {rule.name} · {rule.carrier.name} · {productName(products, rule.carrierId, rule.productId)}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <ErrorNotice error={rules.error} title="Shipping rules could not be loaded" />
    </>
  );
}
