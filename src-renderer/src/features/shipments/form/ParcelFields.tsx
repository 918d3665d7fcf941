import { weightUnits, type WeightUnit } from '../../../../../src-shared/schemas/shipment';
import { Field } from '../../../components/forms';
import { CountryPicker } from '../../../components/CountryPicker';
import { NumberInput, TextInput } from './inputs';
import { emptyOrderLine, NO_WEIGHT, weightProblem, type FieldMessages, type OrderLineForm, type ParcelForm } from './model';

/** One parcel: weight, size, and the order lines packed in it (what customs and the packing list show). */
export function ParcelFields({
  parcel,
  index,
  errors,
  onChange,
  onRemove,
  onLineAdded,
}: {
  parcel: ParcelForm;
  index: number;
  errors: FieldMessages;
  onChange: (parcel: ParcelForm) => void;
  onRemove?: () => void;
  onLineAdded: (path: string) => void;
}) {
  const at = `parcels.${index}`;
  const number = (key: 'weight' | 'length' | 'width' | 'height', label: string, path: string) => (
    <NumberInput label={label} path={path} value={parcel[key]} errors={errors} onChange={(value) => onChange({ ...parcel, [key]: value })} />
  );
  const setLine = (lineIndex: number, line: OrderLineForm) =>
    onChange({ ...parcel, orderLines: parcel.orderLines.map((old, i) => (i === lineIndex ? line : old)) });
  const addLine = () => {
    onChange({ ...parcel, orderLines: [...parcel.orderLines, emptyOrderLine()] });
    onLineAdded(`${at}.orderLines.${parcel.orderLines.length}.sku`);
  };
  return (
    <fieldset>
      <legend>Parcel {index + 1}</legend>
      <div className="form-grid">
        {/* A weight of 0 is said as it is typed, not first at send. */}
        <NumberInput
          label="Weight"
          path={`${at}.weight`}
          value={parcel.weight}
          errors={{ ...errors, [`${at}.weight`]: weightMessage(errors[`${at}.weight`], parcel.weight) }}
          onChange={(weight) => onChange({ ...parcel, weight })}
        />
        <Field label="Weight unit" error={errors[`${at}.weightUnit`]}>
          <select
            name={`${at}.weightUnit`}
            value={parcel.weightUnit}
            onChange={(event) => onChange({ ...parcel, weightUnit: event.target.value as WeightUnit })}
          >
            {weightUnits.map((unit) => (
              <option key={unit} value={unit}>
                {unit}
              </option>
            ))}
          </select>
        </Field>
        {number('length', 'Length (cm)', `${at}.dimensions.length`)}
        {number('width', 'Width (cm)', `${at}.dimensions.width`)}
        {number('height', 'Height (cm)', `${at}.dimensions.height`)}
      </div>
      {errors[`${at}.orderLines`] && <p className="field-error">{errors[`${at}.orderLines`]}</p>}
      {parcel.orderLines.map((line, lineIndex) => (
        <OrderLineFields
          key={lineIndex}
          line={line}
          path={`${at}.orderLines.${lineIndex}`}
          title={`Parcel ${index + 1}, order line ${lineIndex + 1}`}
          errors={errors}
          onChange={(next) => setLine(lineIndex, next)}
          onRemove={() => onChange({ ...parcel, orderLines: parcel.orderLines.filter((_, i) => i !== lineIndex) })}
        />
      ))}
      <div className="form-actions">
        <button type="button" onClick={addLine}>
          Add order line to parcel {index + 1}
        </button>
        {onRemove && (
          <button type="button" onClick={onRemove}>
            Remove parcel {index + 1}
          </button>
        )}
      </div>
    </fieldset>
  );
}

function OrderLineFields({
  line,
  path,
  title,
  errors,
  onChange,
  onRemove,
}: {
  line: OrderLineForm;
  path: string;
  title: string;
  errors: FieldMessages;
  onChange: (line: OrderLineForm) => void;
  onRemove: () => void;
}) {
  const text = (key: Exclude<keyof OrderLineForm, 'id'>, label: string, placeholder?: string) => (
    <TextInput
      label={label}
      path={`${path}.${key}`}
      value={line[key]}
      errors={errors}
      onChange={(value) => onChange({ ...line, [key]: value })}
      autoComplete="off"
      {...(placeholder ? { placeholder } : {})}
    />
  );
  return (
    <fieldset className="parcel-line">
      <legend>{title}</legend>
      <div className="line-grid">
        {text('sku', 'SKU')}
        {text('description', 'Description')}
        <NumberInput
          label="Quantity"
          path={`${path}.quantity`}
          value={line.quantity}
          errors={errors}
          onChange={(value) => onChange({ ...line, quantity: value })}
          inputMode="numeric"
        />
        <NumberInput
          label="Unit price"
          path={`${path}.unitPrice`}
          value={line.unitPrice}
          errors={errors}
          onChange={(value) => onChange({ ...line, unitPrice: value })}
        />
        {text('currency', 'Currency', 'DKK')}
        <Field label="Country of origin" error={errors[`${path}.countryOfOrigin`]}>
          <CountryPicker name={`${path}.countryOfOrigin`} value={line.countryOfOrigin} onChange={(countryOfOrigin) => onChange({ ...line, countryOfOrigin })} />
        </Field>
        {text('tarrifNumber', 'Tariff number (HS)')}
        <NumberInput
          label="Net weight per unit (kg)"
          path={`${path}.weight`}
          value={line.weight}
          errors={errors}
          onChange={(value) => onChange({ ...line, weight: value })}
        />
        <div className="line-remove">
          <button type="button" onClick={onRemove} aria-label={`Remove ${title.toLowerCase()}`}>
            Remove
          </button>
        </div>
      </div>
    </fieldset>
  );
}

/** The save's message for the weight, except its "more than 0", which follows the weight as it is typed. */
function weightMessage(saved: string | undefined, weight: string): string {
  const live = weightProblem(weight);
  return (saved === NO_WEIGHT ? live : (saved ?? live)) ?? '';
}
