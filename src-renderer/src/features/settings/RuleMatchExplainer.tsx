import { useEffect, useRef, useState, type FormEvent } from 'react';
import { weightUnits, type WeightUnit } from '../../../../src-shared/schemas/shipment';
import type { BodyOf, ResponseOf } from '../../../../src-shared/operation';
import type { OperationById } from '../../../../src-shared/operations';
import { Field } from '../../components/forms';
import { CountryPicker, holdsUnchosenCountry } from '../../components/CountryPicker';
import { client } from '../../lib/api';
import { useOrgId } from '../../lib/session';
import { describeTest } from './conditions';
import { FormError, countryName, formatMoney, invalid, numberOrUndefined, plainFieldErrors } from './shared';

type MatchAnswer = ResponseOf<OperationById<'shippingRules.match'>>;
type MatchBody = BodyOf<OperationById<'shippingRules.match'>>;

/**
 * "Why this rule?": the destination, weight and order total of an imagined shipment, and the rules
 * that would fit it, best first, each with the condition that made it fit.
 */
export function RuleMatchExplainer({
  defaultCurrency,
  rules,
}: {
  defaultCurrency: string;
  /** The rules as last read: a change asks again. */ rules: unknown;
}) {
  const orgId = useOrgId();
  const [form, setForm] = useState({ countryCode: '', weight: '', weightUnit: 'kg' as WeightUnit, orderTotal: '', currency: '' });
  const [answer, setAnswer] = useState<{ matches: MatchAnswer['matches']; asked: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const errors = plainFieldErrors(error);
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) => setForm((current) => ({ ...current, [key]: event.target.value }));
  const lastQuestion = useRef<{ body: MatchBody; asked: string } | null>(null);
  const shownRules = useRef(rules);

  // A rule added, edited or deleted under the answer would leave it telling of rules that are no
  // longer so: the same question is asked again.
  useEffect(() => {
    if (shownRules.current === rules) return;
    shownRules.current = rules;
    const question = lastQuestion.current;
    if (!question) return;
    client.call('shippingRules.match', { params: { orgId }, body: question.body }).then(
      (result) => lastQuestion.current === question && setAnswer({ matches: result.matches, asked: question.asked }),
      () => lastQuestion.current === question && setAnswer(null),
    );
  }, [rules, orgId]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (holdsUnchosenCountry(event.currentTarget as HTMLFormElement)) return;
    setBusy(true);
    setError(null);
    try {
      const weight = numberOrUndefined(form.weight);
      if (weight === undefined || !Number.isFinite(weight)) throw invalid('weight', 'Enter the parcel weight');
      const orderTotal = numberOrUndefined(form.orderTotal);
      if (orderTotal !== undefined && !Number.isFinite(orderTotal)) throw invalid('orderTotal', 'Enter a number, or leave it empty');
      const currency = orderTotal === undefined ? undefined : form.currency.trim().toUpperCase() || defaultCurrency;
      const body: MatchBody = {
        countryCode: form.countryCode,
        weight,
        weightUnit: form.weightUnit,
        ...(orderTotal === undefined ? {} : { orderTotal, currency }),
      };
      lastQuestion.current = null;
      const result = await client.call('shippingRules.match', { params: { orgId }, body });
      const total = orderTotal === undefined ? 'no order total' : `an order total of ${formatMoney(orderTotal, currency ?? defaultCurrency)}`;
      const asked = `${countryName(form.countryCode)}, ${weight} ${form.weightUnit}, ${total}`;
      lastQuestion.current = { body, asked };
      setAnswer({ matches: result.matches, asked });
    } catch (caught) {
      // An answer for other facts than those now in the form would mislead.
      lastQuestion.current = null;
      setAnswer(null);
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card explainer" aria-labelledby="explainer-title">
      <h2 id="explainer-title">Why this rule?</h2>
      <p className="hint">Try a destination, weight and order total to see which rules fit, in the order Shipdesk would pick them.</p>
      <form onSubmit={(event) => void submit(event)} noValidate className="explainer-form">
        <Field label="Country (required)" error={errors.countryCode}>
          <CountryPicker value={form.countryCode} onChange={(countryCode) => setForm((current) => ({ ...current, countryCode }))} />
        </Field>
        <Field label="Weight (required)" error={errors.weight}>
          <input inputMode="decimal" value={form.weight} onChange={set('weight')} />
        </Field>
        <Field label="Weight unit" error={errors.weightUnit}>
          <select value={form.weightUnit} onChange={set('weightUnit')}>
            {weightUnits.map((unit) => (
              <option key={unit} value={unit}>
                {unit}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Order total" error={errors.orderTotal} hint="Optional; price conditions need it">
          <input inputMode="decimal" value={form.orderTotal} onChange={set('orderTotal')} />
        </Field>
        <Field label="Currency" error={errors.currency} hint={`Default ${defaultCurrency}`}>
          <input value={form.currency} onChange={set('currency')} maxLength={3} size={5} placeholder={defaultCurrency} autoCapitalize="characters" />
        </Field>
        <div className="explainer-submit">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Checking…' : 'Find matching rules'}
          </button>
        </div>
      </form>
      <FormError error={error} />
      <div aria-live="polite" className="explainer-result">
        {answer &&
          (answer.matches.length === 0 ? (
            <p>
              <strong>No rule fits</strong> {answer.asked}. Shipments like this need a carrier and product chosen by hand.
            </p>
          ) : (
            <>
              <p>
                For {answer.asked}, {answer.matches.length === 1 ? 'one rule fits' : `${answer.matches.length} rules fit`}:
              </p>
              <ol className="match-list">
                {answer.matches.map((match, index) => (
                  <li key={match.shippingRuleId}>
                    <strong>{match.name}</strong> — {formatMoney(match.shippingPrice, match.currency)}
                    {index === 0 && <span className="status status-done">Chosen</span>}
                    <br />
                    <small>
                      {match.condition
                        ? `Because of the condition: ${describeTest(match.condition)}.`
                        : 'It has no conditions, so it fits every order to its countries.'}
                      {index > 0 && ' Not chosen: a rule above is cheaper or older.'}
                    </small>
                  </li>
                ))}
              </ol>
            </>
          ))}
      </div>
    </section>
  );
}
