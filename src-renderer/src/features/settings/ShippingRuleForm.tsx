import { useEffect } from 'react';
import { countryCodes } from '../../../../src-shared/schemas/common';
import type { Carrier } from '../../../../src-shared/schemas/carrier';
import type { Printer } from '../../../../src-shared/schemas/printing';
import type { SenderAddress } from '../../../../src-shared/schemas/senderAddress';
import type { ShippingRuleExpanded } from '../../../../src-shared/schemas/shippingRule';
import { Field } from '../../components/forms';
import { EmptyChoice } from '../../components/EmptyChoice';
import { CountriesPicker } from '../../components/CountryPicker';
import { useOperation } from '../../lib/useOperation';
import { useOrgId } from '../../lib/session';
import { ConditionsEditor, conditionBody, conditionDraftOf, type ConditionDraft } from './ConditionsEditor';
import { CheckboxField, emptyToNull, errorUnder, invalid } from './shared';

const flagNames = [
  'emailNotification',
  'phoneNotification',
  'generateProformaInvoice',
  'generateCommercialInvoice',
  'generatePackingList',
  'autoPrintLabels',
  'autoPrintDocuments',
  'autoCreateReturnShipment',
] as const;
type Flag = (typeof flagNames)[number];

export interface RuleDraft extends Record<Flag, boolean> {
  name: string;
  description: string;
  carrierId: string;
  productId: string;
  services: string[];
  senderAddressId: string;
  /** Codes chosen in the picker, or ['*'] for every country. */
  receivingCountries: string[];
  conditions: ConditionDraft[];
  labelPrinterId: string;
  documentPrinterId: string;
  returnShippingRuleId: string;
}

export function blankRule(): RuleDraft {
  return {
    name: '',
    description: '',
    carrierId: '',
    productId: '',
    services: [],
    senderAddressId: '',
    receivingCountries: [],
    conditions: [],
    labelPrinterId: '',
    documentPrinterId: '',
    returnShippingRuleId: '',
    ...(Object.fromEntries(flagNames.map((flag) => [flag, false])) as Record<Flag, boolean>),
  };
}

export function ruleDraftOf(rule: ShippingRuleExpanded): RuleDraft {
  return {
    name: rule.name,
    description: rule.description ?? '',
    carrierId: rule.carrierId,
    productId: rule.productId,
    services: [...rule.services],
    senderAddressId: rule.senderAddressId,
    receivingCountries: [...rule.receivingCountries],
    conditions: rule.conditions.map(conditionDraftOf),
    labelPrinterId: rule.labelPrinterId ?? '',
    documentPrinterId: rule.documentPrinterId ?? '',
    returnShippingRuleId: rule.returnShippingRuleId ?? '',
    ...(Object.fromEntries(flagNames.map((flag) => [flag, rule[flag]])) as Record<Flag, boolean>),
  };
}

/** The create/PATCH body. The picker gives only codes; a stored one outside the list (old data) is named before anything is sent. */
export function ruleBody(draft: RuleDraft) {
  const { receivingCountries } = draft;
  if (receivingCountries.length === 0) throw invalid('receivingCountries', 'Choose at least one country, or Every country');
  const unknown = receivingCountries.filter((code) => code !== '*' && !countryCodes.has(code));
  if (unknown.length > 0) throw invalid('receivingCountries', `Not a country code: ${unknown.join(', ')}. Remove it and choose the country from the list.`);
  return {
    name: draft.name.trim(),
    description: emptyToNull(draft.description),
    carrierId: draft.carrierId,
    productId: draft.productId,
    services: draft.services,
    senderAddressId: draft.senderAddressId,
    receivingCountries,
    conditions: draft.conditions.map(conditionBody),
    labelPrinterId: emptyToNull(draft.labelPrinterId),
    documentPrinterId: emptyToNull(draft.documentPrinterId),
    returnShippingRuleId: emptyToNull(draft.returnShippingRuleId),
    ...(Object.fromEntries(flagNames.map((flag) => [flag, draft[flag]])) as Record<Flag, boolean>),
  };
}

export interface RuleFormChoices {
  carriers: Carrier[];
  addresses: SenderAddress[];
  rules: { id: string; name: string }[];
  /** Null while they cannot be had (no printing set up, or the list failed). */
  printers: Printer[] | null;
  defaultCurrency: string;
}

export function ShippingRuleFields({
  draft,
  onChange,
  errors,
  choices,
  ruleId,
}: {
  draft: RuleDraft;
  onChange: (update: (draft: RuleDraft) => RuleDraft) => void;
  errors: Record<string, string>;
  choices: RuleFormChoices;
  ruleId: string | null;
}) {
  const orgId = useOrgId();
  const read = useOperation('carriers.products', draft.carrierId ? { params: { orgId, carrierId: draft.carrierId } } : null);
  // No carrier, no products (the hook would still show the last carrier's while nothing is read).
  const products = { ...read, data: draft.carrierId ? read.data : [] };
  const product = products.data?.find((item) => item.productId === draft.productId);
  const set = <K extends keyof RuleDraft>(key: K, value: RuleDraft[K]) => onChange((current) => ({ ...current, [key]: value }));
  const flag = (key: Flag, label: string, hint?: string) => (
    <CheckboxField label={label} checked={draft[key]} onChange={(checked) => set(key, checked)} hint={hint} />
  );

  const chooseCarrier = (carrierId: string) =>
    onChange((current) => {
      const carrier = choices.carriers.find((item) => item.id === carrierId);
      // The carrier's own address is the likely sender; one already chosen stays.
      return { ...current, carrierId, productId: '', services: [], senderAddressId: current.senderAddressId || carrier?.senderAddressId || '' };
    });
  // Where only one carrier or one sender address exists, a new rule starts with it: one choice fewer.
  const onlyCarrier = ruleId === null && choices.carriers.length === 1 ? choices.carriers[0] : undefined;
  const onlyAddress = ruleId === null && choices.addresses.length === 1 ? choices.addresses[0] : undefined;
  useEffect(() => {
    if (onlyCarrier && !draft.carrierId) chooseCarrier(onlyCarrier.id);
    else if (onlyAddress && !draft.senderAddressId) set('senderAddressId', onlyAddress.id);
  }, [onlyCarrier?.id, onlyAddress?.id, draft.carrierId, draft.senderAddressId]);
  const chooseProduct = (productId: string) =>
    onChange((current) => {
      const offered = new Set(products.data?.find((item) => item.productId === productId)?.services.map((service) => service.serviceId));
      return { ...current, productId, services: current.services.filter((service) => offered.has(service)) };
    });
  const toggleService = (serviceId: string, on: boolean) =>
    onChange((current) => ({ ...current, services: on ? [...current.services, serviceId] : current.services.filter((item) => item !== serviceId) }));

  const printerSelect = (key: 'labelPrinterId' | 'documentPrinterId', label: string) => (
    <Field label={label} error={errors[key]} hint={choices.printers === null ? 'Printers could not be listed; the current choice is kept.' : undefined}>
      <select value={draft[key]} onChange={(event) => set(key, event.target.value)} disabled={choices.printers === null}>
        <option value="">The default printer for the format</option>
        {/* Papers are A4 PDFs: only PDF printers take them (the server refuses others too). */}
        {(choices.printers ?? [])
          .filter((printer) => key === 'labelPrinterId' || printer.format === 'pdf')
          .map((printer) => (
            <option key={printer.id} value={printer.id}>
              {printer.name} ({printer.format.toUpperCase()}, {printer.labelSize})
            </option>
          ))}
        {choices.printers === null && draft[key] && <option value={draft[key]}>The printer chosen before</option>}
      </select>
    </Field>
  );

  return (
    <>
      <div className="form-grid">
        <Field label="Name (required)" error={errors.name}>
          <input value={draft.name} onChange={(event) => set('name', event.target.value)} autoFocus />
        </Field>
        <Field label="Description" error={errors.description}>
          <input value={draft.description} onChange={(event) => set('description', event.target.value)} />
        </Field>
      </div>

      <fieldset>
        <legend>Carrier and product</legend>
        <div className="form-grid">
          <Field label="Carrier (required)" error={errors.carrierId}>
            <select value={draft.carrierId} onChange={(event) => chooseCarrier(event.target.value)}>
              <option value="">Choose a carrier</option>
              {choices.carriers.map((carrier) => (
                <option key={carrier.id} value={carrier.id}>
                  {carrier.name}
                </option>
              ))}
            </select>
          </Field>
          <Field
            label="Product (required)"
            error={errors.productId ?? (products.error ? 'The products of this carrier could not be loaded' : undefined)}
            hint={draft.carrierId ? product?.description : 'Choose a carrier first'}
          >
            <select value={draft.productId} onChange={(event) => chooseProduct(event.target.value)} disabled={!draft.carrierId}>
              <option value="">{products.loading && draft.carrierId ? 'Loading products…' : 'Choose a product'}</option>
              {(['outbound', 'inbound'] as const).map((direction) => {
                const group = (products.data ?? []).filter((item) => item.type === direction);
                return (
                  group.length > 0 && (
                    <optgroup key={direction} label={direction === 'outbound' ? 'Outbound' : 'Returns (inbound)'}>
                      {group.map((item) => (
                        <option key={item.productId} value={item.productId}>
                          {item.name}
                        </option>
                      ))}
                    </optgroup>
                  )
                );
              })}
              {draft.productId && !product && !products.loading && <option value={draft.productId}>{draft.productId} (no longer offered)</option>}
            </select>
          </Field>
          <Field label="Sender address (required)" error={errors.senderAddressId}>
            <select value={draft.senderAddressId} onChange={(event) => set('senderAddressId', event.target.value)}>
              <option value="">Choose a sender address</option>
              {choices.addresses.map((address) => (
                <option key={address.id} value={address.id}>
                  {address.name} ({address.city}, {address.countryCode})
                </option>
              ))}
            </select>
          </Field>
        </div>
        <EmptyChoice of="carrier" options={choices.carriers} />
        <EmptyChoice of="senderAddress" options={choices.addresses} />
        {product && product.services.length > 0 && (
          <fieldset className="inline-checks">
            <legend>Services</legend>
            {product.services.map((service) => (
              <CheckboxField
                key={service.serviceId}
                label={service.name}
                checked={draft.services.includes(service.serviceId)}
                onChange={(checked) => toggleService(service.serviceId, checked)}
              />
            ))}
          </fieldset>
        )}
        {errorUnder(errors, 'services') && <small className="field-error">{errorUnder(errors, 'services')}</small>}
      </fieldset>

      <Field
        label="Receiving countries (required)"
        error={errorUnder(errors, 'receivingCountries')}
        hint="Type a country's name or code and choose it; “Every country” stands for all and replaces the others"
      >
        <CountriesPicker value={draft.receivingCountries} onChange={(codes) => set('receivingCountries', codes)} />
      </Field>

      <ConditionsEditor
        conditions={draft.conditions}
        onChange={(update) => onChange((current) => ({ ...current, conditions: update(current.conditions) }))}
        errors={errors}
        defaultCurrency={choices.defaultCurrency}
      />

      <div className="grid-2">
        <fieldset>
          <legend>Notifications</legend>
          {flag('emailNotification', 'Email the receiver')}
          {flag('phoneNotification', 'Text the receiver')}
        </fieldset>
        <fieldset>
          <legend>Documents</legend>
          {flag('generateProformaInvoice', 'Proforma invoice')}
          {flag('generateCommercialInvoice', 'Commercial invoice', 'Customs papers for destinations outside the EU')}
          {flag('generatePackingList', 'Packing list')}
        </fieldset>
        <fieldset>
          <legend>Printing when the shipment is sent</legend>
          {flag('autoPrintLabels', 'Print labels automatically')}
          {flag('autoPrintDocuments', 'Print documents automatically')}
          {printerSelect('labelPrinterId', 'Label printer')}
          {printerSelect('documentPrinterId', 'Document printer')}
          <EmptyChoice of="printer" options={choices.printers} />
        </fieldset>
        <fieldset>
          <legend>Returns</legend>
          <Field label="Return shipping rule" error={errors.returnShippingRuleId} hint="Its carrier and product are used for return labels">
            <select value={draft.returnShippingRuleId} onChange={(event) => set('returnShippingRuleId', event.target.value)}>
              <option value="">The carrier’s own return product</option>
              {choices.rules
                .filter((rule) => rule.id !== ruleId)
                .map((rule) => (
                  <option key={rule.id} value={rule.id}>
                    {rule.name}
                  </option>
                ))}
            </select>
          </Field>
          {flag('autoCreateReturnShipment', 'Create a return label when sent', 'The return is booked at once and printed with the outbound label')}
        </fieldset>
      </div>
    </>
  );
}
