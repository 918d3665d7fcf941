import { useState, type FormEvent } from 'react';
import { emailKinds, emailLanguages, emailPlaceholders, type EmailKind, type EmailLanguage, type EmailTemplates } from '../../../../src-shared/emailTemplates';
import type { EmailSettings, EmailTestResult } from '../../../../src-shared/schemas/emailSettings';
import type { Organization } from '../../../../src-shared/schemas/org';
import { Field } from '../../components/forms';
import { client } from '../../lib/api';
import { useOperation } from '../../lib/useOperation';
import { useOrgId } from '../../lib/session';
import { CheckboxField, FormError, ListError, plainFieldErrors, useCanWrite } from './shared';

const kindNames: Record<EmailKind, string> = { dispatched: 'Shipment sent', return_label: 'Return label' };
const languageNames: Record<EmailLanguage, string> = { en: 'English', da: 'Danish' };

interface Draft {
  host: string;
  port: string;
  secure: boolean;
  username: string;
  /** Empty: keep the stored password. */
  password: string;
  fromAddress: string;
  language: EmailLanguage;
  templates: EmailTemplates;
}

function draftOf(settings: EmailSettings | null, language: EmailLanguage, defaults: EmailTemplates | null): Draft {
  return {
    host: settings?.host ?? '',
    port: String(settings?.port ?? 587),
    secure: settings?.secure ?? false,
    username: settings?.username ?? '',
    password: '',
    fromAddress: settings?.fromAddress ?? '',
    language,
    templates: structuredClone(settings?.templates ?? defaults ?? emptyTemplates()),
  };
}

function emptyTemplates(): EmailTemplates {
  const part = { subject: '', text: '' };
  return { dispatched: { en: { ...part }, da: { ...part } }, return_label: { en: { ...part }, da: { ...part } } };
}

/** Organization settings → E-mail: the SMTP server, the language and the two templates, with a test button. */
export function EmailSettingsSection() {
  const orgId = useOrgId();
  const settings = useOperation('emailSettings.get', { params: { orgId } });
  const org = useOperation('orgs.get', { params: { id: orgId } });
  // Kept here: a save reads the settings again, and the form starts afresh from what was saved.
  const [status, setStatus] = useState<string | null>(null);
  const saved = (message: string | null) => {
    setStatus(message);
    settings.reload();
    org.reload();
  };
  return (
    <section className="card email-settings" aria-labelledby="email-settings-title">
      <h2 id="email-settings-title">E-mail</h2>
      <p className="hint">
        Shipdesk e-mails your customers through your own mail server when a shipment is sent and when a return label is made, if the shipping rule has “E-mail
        notification” on. The carrier’s own e-mail notice is then not asked for.
      </p>
      <ListError error={settings.error ?? org.error} onRetry={settings.reload} />
      {settings.data !== undefined && org.data ? (
        <EmailForm
          key={`${settings.data?.updatedAt ?? 'none'} ${org.data.language}`}
          settings={settings.data}
          org={org.data}
          status={status}
          setStatus={setStatus}
          onSaved={saved}
        />
      ) : (
        !settings.error && <p className="loading">Loading…</p>
      )}
    </section>
  );
}

function EmailForm({
  settings,
  org,
  status,
  setStatus,
  onSaved,
}: {
  settings: EmailSettings | null;
  org: Organization;
  status: string | null;
  setStatus: (status: string | null) => void;
  onSaved: (status: string | null) => void;
}) {
  const orgId = org.id;
  const canWrite = useCanWrite('orgs');
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings, org.language, null));
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [testTo, setTestTo] = useState('');
  const [test, setTest] = useState<EmailTestResult | null>(null);
  const [testError, setTestError] = useState<unknown>(null);
  const errors = plainFieldErrors(error);

  const field = (key: 'host' | 'port' | 'username' | 'password' | 'fromAddress') => ({
    value: draft[key],
    readOnly: !canWrite,
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      setDraft((current) => ({ ...current, [key]: value }));
      setStatus(null);
    },
  });

  const setTemplate = (kind: EmailKind, language: EmailLanguage, part: 'subject' | 'text', value: string) => {
    setDraft((current) => {
      const templates = structuredClone(current.templates);
      templates[kind][language][part] = value;
      return { ...current, templates };
    });
    setStatus(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const changed: Partial<Record<EmailKind, Partial<Record<EmailLanguage, { subject: string; text: string }>>>> = {};
      for (const kind of emailKinds) {
        for (const language of emailLanguages) {
          const now = draft.templates[kind][language];
          const before = settings?.templates[kind][language];
          if (!before || now.subject !== before.subject || now.text !== before.text) changed[kind] = { ...changed[kind], [language]: now };
        }
      }
      await client.call('emailSettings.put', {
        params: { orgId },
        body: {
          host: draft.host.trim(),
          port: Number(draft.port),
          secure: draft.secure,
          username: draft.username.trim() || null,
          ...(draft.password ? { password: draft.password } : {}),
          fromAddress: draft.fromAddress.trim(),
          ...(settings ? { templates: changed } : {}),
        },
      });
      if (draft.language !== org.language) await client.call('orgs.update', { params: { id: orgId }, body: { language: draft.language } });
      onSaved('E-mail settings saved.');
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const sendTest = async () => {
    setTest(null);
    setTestError(null);
    try {
      setTest(await client.call('emailSettings.test', { params: { orgId }, body: { to: testTo.trim() } }));
    } catch (caught) {
      setTestError(caught);
    }
  };

  const remove = async () => {
    setError(null);
    try {
      await client.call('emailSettings.delete', { params: { orgId } });
      onSaved('E-mail settings removed: no more customer e-mails are sent.');
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <fieldset>
        <legend>Mail server (SMTP)</legend>
        <div className="form-grid">
          <Field label="Server name (required)" error={errors.host} hint="For example smtp.example.com">
            <input {...field('host')} spellCheck={false} />
          </Field>
          <Field label="Port (required)" error={errors.port} hint="587 or 25 with STARTTLS; 465 with TLS">
            <input {...field('port')} inputMode="numeric" />
          </Field>
          <Field label="User name" error={errors.username}>
            <input {...field('username')} autoComplete="off" />
          </Field>
          <Field
            label="Password"
            error={errors.password}
            hint={settings?.password ? `Stored (${settings.password}); leave empty to keep it` : 'Leave empty if the server needs none'}
          >
            <input {...field('password')} type="password" autoComplete="new-password" />
          </Field>
          <Field label="Sender address (required)" error={errors.fromAddress} hint="What customers see as the sender">
            <input {...field('fromAddress')} type="email" />
          </Field>
          <Field label="Language of customer e-mails" error={errors.language}>
            <select
              value={draft.language}
              disabled={!canWrite}
              onChange={(event) => {
                const language = event.target.value as EmailLanguage;
                setDraft((current) => ({ ...current, language }));
                setStatus(null);
              }}
            >
              {emailLanguages.map((language) => (
                <option key={language} value={language}>
                  {languageNames[language]}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <CheckboxField
          label="Secure (TLS from the start)"
          checked={draft.secure}
          disabled={!canWrite}
          hint="On for port 465; off for 587 and 25"
          onChange={(secure) => setDraft((current) => ({ ...current, secure }))}
        />
      </fieldset>
      {settings && (
        <fieldset>
          <legend>Templates</legend>
          <p className="hint" id="email-placeholders">
            Placeholders: {emailPlaceholders.map((name) => `{{${name}}}`).join(', ')}
          </p>
          {emailKinds.map((kind) =>
            emailLanguages.map((language) => (
              // A group per template, so "Subject" and "Text" are read out with the e-mail and language they belong to.
              <fieldset key={`${kind}-${language}`} className="email-template">
                <legend>
                  {kindNames[kind]} · {languageNames[language]}
                </legend>
                <Field label="Subject" error={errors[`templates.${kind}.${language}.subject`]}>
                  <input
                    value={draft.templates[kind][language].subject}
                    readOnly={!canWrite}
                    aria-describedby="email-placeholders"
                    onChange={(event) => setTemplate(kind, language, 'subject', event.target.value)}
                  />
                </Field>
                <Field label="Text" error={errors[`templates.${kind}.${language}.text`]}>
                  <textarea
                    value={draft.templates[kind][language].text}
                    readOnly={!canWrite}
                    rows={8}
                    aria-describedby="email-placeholders"
                    onChange={(event) => setTemplate(kind, language, 'text', event.target.value)}
                  />
                </Field>
              </fieldset>
            )),
          )}
        </fieldset>
      )}
      <FormError error={error} />
      {canWrite && (
        <div className="form-actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Saving…' : 'Save e-mail settings'}
          </button>
          {settings && (
            <button type="button" onClick={() => void remove()}>
              Remove e-mail settings
            </button>
          )}
          <p role="status">{status}</p>
        </div>
      )}
      {settings && canWrite && (
        <fieldset>
          <legend>Send a test e-mail</legend>
          <Field label="Send to" hint="Uses the saved settings">
            <input value={testTo} type="email" onChange={(event) => setTestTo(event.target.value)} />
          </Field>
          <button type="button" onClick={() => void sendTest()} disabled={!testTo.trim()}>
            Send test e-mail
          </button>
          <p role="status" className={test ? (test.ok ? 'ok' : 'error') : undefined}>
            {test ? `${test.ok ? 'Sent' : 'Not sent'}: ${test.message} (${test.durationMs} ms)` : null}
          </p>
          <FormError error={testError} />
        </fieldset>
      )}
    </form>
  );
}
