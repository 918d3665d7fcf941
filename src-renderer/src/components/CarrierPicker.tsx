import { useEffect, useId } from 'react';
import { useOperation } from '../lib/useOperation';
import { useOrgId } from '../lib/session';
import { ErrorNotice } from './ErrorNotice';
import { Field } from './forms';
import { EmptyChoice } from './EmptyChoice';

/** A carrier, one of its products and the product's services, as chosen by hand. `carrierId: ''` is "no choice". */
export interface CarrierChoice {
  carrierId: string;
  productId: string;
  services: string[];
}

export const noCarrierChoice: CarrierChoice = { carrierId: '', productId: '', services: [] };

/** What is missing before the choice can be sent, in words; null when complete (or when nothing was chosen). */
export function carrierChoiceProblem(choice: CarrierChoice): string | null {
  return choice.carrierId && !choice.productId ? 'Choose a product for the chosen carrier.' : null;
}

/** The choice as the split, batch split and order-shipment bodies take it; nothing when no carrier was chosen. */
export function carrierChoiceBody(choice: CarrierChoice): { carrierId?: string; productId?: string; services?: string[] } {
  if (!choice.carrierId || !choice.productId) return {};
  return { carrierId: choice.carrierId, productId: choice.productId, services: choice.services };
}

/** The organization's configured carriers (one page holds them: plans allow far fewer than 100). */
export function useCarriers() {
  const orgId = useOrgId();
  return useOperation('carriers.list', { params: { orgId }, query: { limit: 100 } });
}

/**
 * Carrier, product and services. With `keepLabel` the empty choice means "keep what the shipment
 * has" (split); without it a carrier is asked for. Products are filtered to the shipment's direction.
 */
export function CarrierPicker({
  value,
  onChange,
  keepLabel,
  direction = 'outbound',
  errors = {},
  namePrefix = '',
}: {
  value: CarrierChoice;
  onChange: (next: CarrierChoice) => void;
  keepLabel?: string;
  direction?: 'outbound' | 'inbound';
  /** Messages by field: carrierId, productId, services. */
  errors?: Record<string, string | undefined>;
  /** Prefix of the controls' names, so a form can find the field a server message names. */
  namePrefix?: string;
}) {
  const orgId = useOrgId();
  const servicesId = useId();
  const carriers = useCarriers();
  const products = useOperation('carriers.products', value.carrierId ? { params: { orgId, carrierId: value.carrierId } } : null);
  // No carrier, no products (the hook would still show the last carrier's while nothing is read).
  const offered = (value.carrierId ? (products.data ?? []) : []).filter((product) => product.type === direction);
  const product = offered.find((candidate) => candidate.productId === value.productId);

  // Where a carrier must be chosen and the organization has one, it is chosen: one click fewer.
  const onlyCarrier = carriers.data?.data.length === 1 ? carriers.data.data[0] : undefined;
  useEffect(() => {
    if (keepLabel === undefined && !value.carrierId && onlyCarrier) onChange({ carrierId: onlyCarrier.id, productId: '', services: [] });
  }, [keepLabel, value.carrierId, onlyCarrier?.id]);

  const toggleService = (serviceId: string) =>
    onChange({
      ...value,
      services: value.services.includes(serviceId) ? value.services.filter((id) => id !== serviceId) : [...value.services, serviceId],
    });

  return (
    <div className="carrier-picker">
      <div className="form-grid">
        <Field label="Carrier" error={errors.carrierId}>
          <select
            name={`${namePrefix}carrierId`}
            value={value.carrierId}
            onChange={(event) => onChange({ carrierId: event.target.value, productId: '', services: [] })}
          >
            <option value="">{keepLabel ?? 'Choose a carrier…'}</option>
            {carriers.data?.data.map((carrier) => (
              <option key={carrier.id} value={carrier.id}>
                {carrier.name}
              </option>
            ))}
          </select>
        </Field>
        <EmptyChoice of="carrier" options={carriers.data?.data} />
        <Field label="Product" error={errors.productId}>
          <select
            name={`${namePrefix}productId`}
            value={value.productId}
            disabled={!value.carrierId}
            onChange={(event) => {
              const next = offered.find((candidate) => candidate.productId === event.target.value);
              // Services the new product does not offer are dropped rather than sent and refused.
              const allowed = new Set(next?.services.map((service) => service.serviceId));
              onChange({ ...value, productId: event.target.value, services: value.services.filter((id) => allowed.has(id)) });
            }}
          >
            <option value="">{value.carrierId ? 'Choose a product…' : 'Choose a carrier first'}</option>
            {offered.map((candidate) => (
              <option key={candidate.productId} value={candidate.productId}>
                {candidate.name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      {product && product.services.length > 0 && (
        <fieldset aria-describedby={errors.services ? `${servicesId}-error` : undefined}>
          <legend>Services</legend>
          {product.services.map((service) => (
            <label key={service.serviceId} className="check">
              <input type="checkbox" checked={value.services.includes(service.serviceId)} onChange={() => toggleService(service.serviceId)} /> {service.name}
            </label>
          ))}
          {errors.services && (
            <small id={`${servicesId}-error`} className="field-error">
              {errors.services}
            </small>
          )}
        </fieldset>
      )}
      <ErrorNotice error={carriers.error ?? products.error} title="The carriers could not be loaded" />
    </div>
  );
}
