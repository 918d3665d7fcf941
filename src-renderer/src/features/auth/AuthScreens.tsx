import { useEffect, useRef, useState, type FormEvent } from 'react';
import { client } from '../../lib/api';
import { useSession } from '../../lib/session';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Field, FormActions, fieldErrors } from '../../components/forms';
import { DemoBanner } from '../onboarding/DemoModeButton';

/** First start: the organization and its owner, as `shipdesk init` does from the command line. */
export function SetupScreen({ onDone }: { onDone: () => void }) {
  const signedIn = useSession((state) => state.signedIn);
  const [form, setForm] = useState({ orgName: '', name: '', email: '', password: '' });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const errors = fieldErrors(error);
  const formRef = useRef<HTMLFormElement>(null);
  // The button is disabled while working, which drops focus to the page: a refusal puts it on the
  // first field it marks (else on its message), as the settings forms do.
  useEffect(() => {
    if (error) focusFirstProblem(formRef.current);
  }, [error]);
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      signedIn(await client.call('setup.create', { body: form }));
      onDone();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="auth-screen">
      <form ref={formRef} onSubmit={(event) => void submit(event)} aria-labelledby="setup-title" noValidate>
        <h1 id="setup-title">Set up Shipdesk</h1>
        <p>Create your organization and the owner account. You can add carriers and addresses next.</p>
        <Field label="Organization name" error={errors.orgName}>
          <input value={form.orgName} onChange={set('orgName')} required autoFocus autoComplete="organization" />
        </Field>
        <Field label="Your name" error={errors.name}>
          <input value={form.name} onChange={set('name')} required autoComplete="name" />
        </Field>
        <Field label="Email" error={errors.email}>
          <input type="email" value={form.email} onChange={set('email')} required autoComplete="username" />
        </Field>
        <Field label="Password" error={errors.password} hint="At least 8 characters">
          <input type="password" value={form.password} onChange={set('password')} required autoComplete="new-password" />
        </Field>
        <ErrorNotice error={error} />
        <FormActions>
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Setting up…' : 'Create organization'}
          </button>
        </FormActions>
      </form>
    </main>
  );
}

export function LoginScreen() {
  return (
    <>
      <DemoBanner orgId={null} canSwitch={false} />
      <LoginForm />
    </>
  );
}

function LoginForm() {
  const signedIn = useSession((state) => state.signedIn);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const errors = fieldErrors(error);
  const formRef = useRef<HTMLFormElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  // A wrong password is typed again: focus goes back to it (the button, disabled meanwhile, lost it).
  useEffect(() => {
    if (!error) return;
    if (formRef.current?.querySelector('[aria-invalid="true"]')) focusFirstProblem(formRef.current);
    else {
      passwordRef.current?.focus();
      passwordRef.current?.select();
    }
  }, [error]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      signedIn(await client.call('auth.login', { body: { email, password } }));
    } catch (caught) {
      // What was typed stays in the form; only the password field is left for a retry.
      setError(caught);
      setBusy(false);
    }
  };

  return (
    <main className="auth-screen">
      <form ref={formRef} onSubmit={(event) => void submit(event)} aria-labelledby="login-title" noValidate>
        <h1 id="login-title">Sign in to Shipdesk</h1>
        <Field label="Email" error={errors.email}>
          <input type="email" value={email} onChange={(event) => setEmail(event.target.value)} required autoFocus autoComplete="username" />
        </Field>
        <Field label="Password" error={errors.password}>
          <input
            ref={passwordRef}
            type="password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            required
            autoComplete="current-password"
          />
        </Field>
        <ErrorNotice error={error} />
        <FormActions>
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </FormActions>
      </form>
    </main>
  );
}

/** The first field marked invalid, else the form's error message (made focusable for it). */
function focusFirstProblem(form: HTMLFormElement | null): void {
  const target = form?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? form?.querySelector<HTMLElement>('[role="alert"]');
  if (target && !target.matches('input, select, textarea, button') && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target?.focus();
}
