import type { InputHTMLAttributes } from 'react';
import { partyTypes } from '../../../../../src-shared/schemas/shipment';
import { Field } from '../../../components/forms';
import { CountryPicker } from '../../../components/CountryPicker';
import { humanize } from '../../../lib/format';
import { TextInput } from './inputs';
import type { FieldMessages, PartyForm, PartyType } from './model';

/** One party (receiver, sender, pickup, …): its address, as the carrier prints it. */
export function PartyFields({
  party,
  index,
  errors,
  onChange,
  onRemove,
}: {
  party: PartyForm;
  index: number;
  errors: FieldMessages;
  onChange: (party: PartyForm) => void;
  onRemove?: () => void;
}) {
  const at = `parties.${index}`;
  const text = (
    key: Exclude<keyof PartyForm, 'type' | 'attributes' | 'countryCode'>,
    label: string,
    extra: Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'name'> = {},
  ) => (
    <TextInput label={label} path={`${at}.${key}`} value={party[key]} errors={errors} onChange={(value) => onChange({ ...party, [key]: value })} {...extra} />
  );
  return (
    <fieldset>
      <legend>{humanize(party.type)}</legend>
      <div className="form-grid">
        <Field label="Party type" error={errors[`${at}.type`]}>
          <select name={`${at}.type`} value={party.type} onChange={(event) => onChange({ ...party, type: event.target.value as PartyType })}>
            {partyTypes.map((type) => (
              <option key={type} value={type}>
                {humanize(type)}
              </option>
            ))}
          </select>
        </Field>
        {text('name', 'Name', { autoComplete: 'off' })}
        {text('attention', 'Attention (optional)')}
        {text('address1', 'Address')}
        {text('address2', 'Address line 2 (optional)')}
        {text('postalCode', 'Postal code')}
        {text('city', 'City')}
        <Field label="Country" error={errors[`${at}.countryCode`]}>
          <CountryPicker name={`${at}.countryCode`} value={party.countryCode} onChange={(countryCode) => onChange({ ...party, countryCode })} />
        </Field>
        {text('phone', 'Phone (optional)', { type: 'tel' })}
        {text('email', 'Email (optional)', { type: 'email' })}
      </div>
      {onRemove && (
        <div className="form-actions">
          <button type="button" onClick={onRemove}>
            Remove {humanize(party.type).toLowerCase()} party
          </button>
        </div>
      )}
    </fieldset>
  );
}
