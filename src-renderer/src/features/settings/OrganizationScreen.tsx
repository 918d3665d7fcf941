import { useRef, useState, type FormEvent } from 'react';
import { MAX_RETURN_INSTRUCTIONS, orgCurrencies, type Organization } from '../../../../src-shared/schemas/org';
import { Field, FormActions } from '../../components/forms';
import { CountryPicker, holdsUnchosenCountry } from '../../components/CountryPicker';
import { client } from '../../lib/api';
import { useOperation } from '../../lib/useOperation';
import { formatDateTime, humanize } from '../../lib/format';
import { useOrgId, useSession } from '../../lib/session';
import { navigate } from '../../app/router';
import { DemoModeButton } from '../onboarding/DemoModeButton';
import { EmailSettingsSection } from './EmailSettingsSection';
import { FormError, CheckboxField, ListError, PageHeader, ReadOnlyNote, emptyToNull, plainFieldErrors, useCanWrite } from './shared';

type OrgDraft = {
  [
    K in
      | 'name'
      | 'slug'
      | 'description'
      | 'vatNumber'
      | 'eoriNumber'
      | 'billingEmail'
      | 'companyName'
      | 'addressLine1'
      | 'addressLine2'
      | 'city'
      | 'postalCode'
      | 'country'
      | 'returnInstructions'
  ]: string;
} & { currency: Organization['currency']; overageEnabled: boolean };

function draftOf(org: Organization): OrgDraft {
  return {
    name: org.name,
    slug: org.slug,
    description: org.description ?? '',
    currency: org.currency,
    vatNumber: org.vatNumber ?? '',
    eoriNumber: org.eoriNumber ?? '',
    billingEmail: org.billingEmail ?? '',
    companyName: org.companyName ?? '',
    addressLine1: org.addressLine1 ?? '',
    addressLine2: org.addressLine2 ?? '',
    city: org.city ?? '',
    postalCode: org.postalCode ?? '',
    country: org.country ?? '',
    overageEnabled: org.overageEnabled,
    returnInstructions: org.returnInstructions ?? '',
  };
}

export function OrganizationScreen() {
  const orgId = useOrgId();
  const org = useOperation('orgs.get', { params: { id: orgId } });
  return (
    <div className="settings-screen">
      <PageHeader title="Organization" />
      <ListError error={org.error} onRetry={org.reload} />
      {org.data ? <OrganizationForm key={org.data.id} org={org.data} /> : !org.error && <p className="loading">Loading…</p>}
      <EmailSettingsSection />
      <FirstDaySection />
    </div>
  );
}

/** The first-day checklist, reopened after it was closed or finished, and the demo warehouse. */
function FirstDaySection() {
  const orgId = useOrgId();
  const canWrite = useCanWrite('orgs');
  const [error, setError] = useState<unknown>(null);
  if (!canWrite) return null;
  const reopen = async () => {
    setError(null);
    try {
      await client.call('onboarding.update', { params: { orgId }, body: { closed: false } });
      navigate('/getting-started');
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <section className="first-day" aria-labelledby="first-day-title">
      <h2 id="first-day-title">Getting started</h2>
      <p>The first-day checklist: sender address, carrier, order channel, shipping rule, printer and a first shipment.</p>
      <button type="button" onClick={() => void reopen()}>
        Show the first-day checklist
      </button>
      <FormError error={error} />
      <DemoModeButton />
    </section>
  );
}

/** The draft is made once from the first read: a later reload does not overwrite what is being typed. */
function OrganizationForm({ org }: { org: Organization }) {
  const canWrite = useCanWrite('orgs');
  const [saved, setSaved] = useState<Organization>(org);
  const [draft, setDraft] = useState<OrgDraft>(() => draftOf(org));
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const errors = plainFieldErrors(error);
  const dirty = JSON.stringify(draft) !== JSON.stringify(draftOf(saved));

  const text = (key: Exclude<keyof OrgDraft, 'currency' | 'overageEnabled'>) => ({
    value: draft[key],
    readOnly: !canWrite,
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      setDraft((current) => ({ ...current, [key]: value }));
      setSavedAt(null);
    },
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (holdsUnchosenCountry(form.current)) return;
    setBusy(true);
    setError(null);
    try {
      const next = await client.call('orgs.update', {
        params: { id: org.id },
        body: {
          name: draft.name.trim(),
          slug: draft.slug.trim(),
          description: draft.description.trim(),
          currency: draft.currency,
          vatNumber: emptyToNull(draft.vatNumber),
          // Customs systems take it upper case without spaces: typed "dk 1234 5678" is meant as DK12345678.
          eoriNumber: emptyToNull(draft.eoriNumber.replace(/\s/g, '').toUpperCase()),
          billingEmail: emptyToNull(draft.billingEmail),
          companyName: emptyToNull(draft.companyName),
          addressLine1: emptyToNull(draft.addressLine1),
          addressLine2: emptyToNull(draft.addressLine2),
          city: emptyToNull(draft.city),
          postalCode: emptyToNull(draft.postalCode),
          country: emptyToNull(draft.country),
          overageEnabled: draft.overageEnabled,
          returnInstructions: emptyToNull(draft.returnInstructions),
        },
      });
      setSaved(next);
      // The sidebar shows the organization's name from the sign-in answer; keep it in step.
      useSession.setState((state) =>
        state.login ? { login: { ...state.login, orgs: state.login.orgs.map((item) => (item.id === next.id ? { ...item, name: next.name } : item)) } } : {},
      );
      setDraft(draftOf(next));
      setSavedAt(next.updatedAt);
    } catch (caught) {
      setError(caught);
      requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
    } finally {
      setBusy(false);
    }
  };

  return (
    <form ref={form} onSubmit={(event) => void submit(event)} noValidate className="card">
      {!canWrite && <ReadOnlyNote what="the organization’s details" />}
      <p className="hint">
        Plan: <strong>{humanize(saved.plan)}</strong> · created {formatDateTime(saved.createdAt)}
      </p>
      <fieldset>
        <legend>Organization</legend>
        <div className="form-grid">
          <Field label="Name (required)" error={errors.name}>
            <input {...text('name')} />
          </Field>
          <Field label="Short name (slug)" error={errors.slug} hint="Lower-case letters, digits and hyphens">
            <input {...text('slug')} spellCheck={false} />
          </Field>
          <Field label="Currency" error={errors.currency} hint="For billing and as the default for shipping prices">
            <select
              value={draft.currency}
              disabled={!canWrite}
              onChange={(event) => setDraft((current) => ({ ...current, currency: event.target.value as OrgDraft['currency'] }))}
            >
              {orgCurrencies.map((currency) => (
                <option key={currency} value={currency}>
                  {currency}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <Field label="Description" error={errors.description}>
          <textarea {...text('description')} rows={2} />
        </Field>
      </fieldset>
      <fieldset>
        <legend>Company and billing</legend>
        <div className="form-grid">
          <Field label="Company name" error={errors.companyName} hint="Printed as the sender on labels">
            <input {...text('companyName')} autoComplete="organization" />
          </Field>
          <Field label="VAT number" error={errors.vatNumber}>
            <input {...text('vatNumber')} />
          </Field>
          <Field label="EORI number" error={errors.eoriNumber} hint="Your export identifier, printed on customs papers and sent with exports">
            <input {...text('eoriNumber')} />
          </Field>
          <Field label="Billing email" error={errors.billingEmail}>
            <input type="email" {...text('billingEmail')} autoComplete="email" />
          </Field>
          <Field label="Address line 1" error={errors.addressLine1}>
            <input {...text('addressLine1')} autoComplete="address-line1" />
          </Field>
          <Field label="Address line 2" error={errors.addressLine2}>
            <input {...text('addressLine2')} autoComplete="address-line2" />
          </Field>
          <Field label="Postal code" error={errors.postalCode}>
            <input {...text('postalCode')} autoComplete="postal-code" />
          </Field>
          <Field label="City" error={errors.city}>
            <input {...text('city')} autoComplete="address-level2" />
          </Field>
          <Field label="Country" error={errors.country}>
            <CountryPicker
              value={draft.country}
              placeholder="Not given"
              disabled={!canWrite}
              onChange={(country) => setDraft((current) => ({ ...current, country }))}
            />
          </Field>
        </div>
      </fieldset>
      <fieldset>
        <legend>Packing slips</legend>
        <Field
          label="Return instructions"
          error={errors.returnInstructions}
          hint="Printed at the foot of every packing slip: how a customer sends something back (address, time limit, what to put in the box)."
        >
          <textarea {...text('returnInstructions')} rows={4} maxLength={MAX_RETURN_INSTRUCTIONS} />
        </Field>
      </fieldset>
      <CheckboxField
        label="Allow shipments beyond the plan’s monthly number"
        checked={draft.overageEnabled}
        disabled={!canWrite}
        onChange={(overageEnabled) => setDraft((current) => ({ ...current, overageEnabled }))}
        hint="Each extra shipment is charged. When off, new shipments are refused once this month’s are used up."
      />
      <FormError error={error} />
      <p role="status" className="saved-status">
        {savedAt && !dirty ? `Saved ${formatDateTime(savedAt)}.` : ''}
      </p>
      {canWrite && (
        <FormActions>
          <button type="button" onClick={() => setDraft(draftOf(saved))} disabled={!dirty || busy}>
            Undo changes
          </button>
          <button type="submit" className="primary" disabled={busy || !dirty}>
            {busy ? 'Saving…' : 'Save organization'}
          </button>
        </FormActions>
      )}
    </form>
  );
}
