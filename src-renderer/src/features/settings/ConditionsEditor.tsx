import { useRef, useState } from 'react';
import { conditionTypes, priceOperators, type Condition } from '../../../../src-shared/schemas/shippingRule';
import { Field } from '../../components/forms';
import { conditionTypeNames, operatorWords, type ConditionType, type PriceOperator } from './conditions';
import { errorUnder, numberOrUndefined } from './shared';

/** A condition as typed: numbers stay text until saving, so "1," or "" never jumps under the cursor. */
export interface ConditionDraft {
  /** Stable React key; not sent. */
  key: number;
  type: ConditionType;
  min: string;
  max: string;
  operator: PriceOperator;
  value: string;
  shippingPrice: string;
  currency: string;
}

let nextKey = 1;

export function newCondition(currency: string, type: ConditionType = 'weight'): ConditionDraft {
  return { key: nextKey++, type, min: '', max: '', operator: 'gte', value: '', shippingPrice: '', currency };
}

const text = (value: number | undefined) => (value === undefined ? '' : String(value));

export function conditionDraftOf(condition: Condition): ConditionDraft {
  const type = (conditionTypes as readonly string[]).includes(condition.type) ? (condition.type as ConditionType) : 'flatRate';
  return {
    key: nextKey++,
    type,
    min: text(condition.min),
    max: text(condition.max),
    operator: condition.operator ?? 'gte',
    value: text(condition.value),
    shippingPrice: text(condition.shippingPrice),
    currency: condition.currency,
  };
}

/** The condition in the shape its type asks for; blanks are left out so the server names them. */
export function conditionBody(draft: ConditionDraft) {
  const price = { shippingPrice: numberOrUndefined(draft.shippingPrice) as number, currency: draft.currency.trim().toUpperCase() };
  const min = numberOrUndefined(draft.min) as number;
  const max = numberOrUndefined(draft.max) as number;
  switch (draft.type) {
    case 'weight':
      return { type: 'weight' as const, min, max, ...price };
    case 'price':
      return { type: 'price' as const, operator: draft.operator, value: numberOrUndefined(draft.value) as number, ...price };
    case 'priceRange':
      return { type: 'priceRange' as const, min, max, ...price };
    case 'flatRate':
      return { type: 'flatRate' as const, ...price };
  }
}

const commonCurrencies = ['DKK', 'EUR', 'USD', 'GBP', 'SEK', 'NOK', 'CHF', 'PLN'];

export function ConditionsEditor({
  conditions,
  onChange,
  errors,
  defaultCurrency,
}: {
  conditions: ConditionDraft[];
  onChange: (update: (conditions: ConditionDraft[]) => ConditionDraft[]) => void;
  errors: Record<string, string>;
  defaultCurrency: string;
}) {
  const [added, setAdded] = useState<number | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const set = (key: number, patch: Partial<ConditionDraft>) => onChange((list) => list.map((item) => (item.key === key ? { ...item, ...patch } : item)));
  const add = () => {
    const condition = newCondition(conditions.at(-1)?.currency ?? defaultCurrency);
    setAdded(condition.key);
    onChange((list) => [...list, condition]);
  };
  const remove = (key: number) => {
    onChange((list) => list.filter((item) => item.key !== key));
    addButton.current?.focus();
  };

  return (
    <fieldset className="conditions">
      <legend>Conditions</legend>
      <p className="hint">
        The rule applies when at least one condition fits (a rule without conditions fits every order, at price 0). When several rules fit, the lowest shipping
        price wins.
      </p>
      <datalist id="condition-currencies">
        {commonCurrencies.map((code) => (
          <option key={code} value={code} />
        ))}
      </datalist>
      {conditions.map((condition, index) => {
        const at = (field: string) => errors[`conditions.${index}.${field}`];
        const bounds = condition.type === 'weight' ? ' (kg)' : ` (${condition.currency || 'order currency'})`;
        return (
          <fieldset key={condition.key} className="condition">
            <legend>Condition {index + 1}</legend>
            <div className="condition-row">
              <Field label="Kind" error={at('type')}>
                <select
                  value={condition.type}
                  onChange={(event) => set(condition.key, { type: event.target.value as ConditionType })}
                  autoFocus={added === condition.key}
                >
                  {conditionTypes.map((type) => (
                    <option key={type} value={type}>
                      {conditionTypeNames[type]}
                    </option>
                  ))}
                </select>
              </Field>
              {(condition.type === 'weight' || condition.type === 'priceRange') && (
                <>
                  <Field label={`From${bounds}`} error={at('min')}>
                    <input inputMode="decimal" value={condition.min} onChange={(event) => set(condition.key, { min: event.target.value })} />
                  </Field>
                  <Field label={`To${bounds}`} error={at('max')}>
                    <input inputMode="decimal" value={condition.max} onChange={(event) => set(condition.key, { max: event.target.value })} />
                  </Field>
                </>
              )}
              {condition.type === 'price' && (
                <>
                  <Field label="Order total is" error={at('operator')}>
                    <select value={condition.operator} onChange={(event) => set(condition.key, { operator: event.target.value as PriceOperator })}>
                      {priceOperators.map((operator) => (
                        <option key={operator} value={operator}>
                          {operatorWords[operator]}
                        </option>
                      ))}
                    </select>
                  </Field>
                  <Field label={`Amount${bounds}`} error={at('value')}>
                    <input inputMode="decimal" value={condition.value} onChange={(event) => set(condition.key, { value: event.target.value })} />
                  </Field>
                </>
              )}
              <Field label="Shipping price" error={at('shippingPrice')}>
                <input inputMode="decimal" value={condition.shippingPrice} onChange={(event) => set(condition.key, { shippingPrice: event.target.value })} />
              </Field>
              <Field label="Currency" error={at('currency')}>
                <input
                  value={condition.currency}
                  list="condition-currencies"
                  maxLength={3}
                  size={5}
                  autoCapitalize="characters"
                  onChange={(event) => set(condition.key, { currency: event.target.value.toUpperCase() })}
                />
              </Field>
              <button type="button" className="danger condition-remove" onClick={() => remove(condition.key)} aria-label={`Remove condition ${index + 1}`}>
                Remove
              </button>
            </div>
            {errors[`conditions.${index}`] && <small className="field-error">{errors[`conditions.${index}`]}</small>}
          </fieldset>
        );
      })}
      {errorUnder(errors, 'conditions') && conditions.length === 0 && <small className="field-error">{errorUnder(errors, 'conditions')}</small>}
      <button type="button" ref={addButton} onClick={add}>
        Add condition
      </button>
    </fieldset>
  );
}
