import { useEffect, useId, useState, type FormEvent } from 'react';
import { ApiError } from '../../src-shared/errors';
import type { ResponseOf } from '../../src-shared/operation';
import type { OperationById } from '../../src-shared/operations';
import { client, signOut, transportName } from './api';
import { useSession } from './session';

/** A placeholder shell: health, sign-in and the user's organizations. Real screens come later. */
export function App() {
  const login = useSession((state) => state.login);
  return (
    <div className="app">
      <header className="app-header">
        <h1>Shipdesk</h1>
        <Health />
      </header>
      <main>{login ? <Organizations /> : <LoginForm />}</main>
    </div>
  );
}

type HealthAnswer = ResponseOf<OperationById<'system.health'>>;

function Health() {
  const [health, setHealth] = useState<HealthAnswer | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    client.call('system.health').then(
      (answer) => current && setHealth(answer),
      (error: unknown) => current && setProblem(messageOf(error)),
    );
    return () => {
      current = false;
    };
  }, []);
  return (
    <p role="status" className="health">
      {problem ? `API unavailable: ${problem}` : health ? `API ${health.status} · v${health.version} · ${transportName}` : 'Checking the API…'}
    </p>
  );
}

function LoginForm() {
  const signedIn = useSession((state) => state.signedIn);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const emailId = useId();
  const passwordId = useId();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      signedIn(await client.call('auth.login', { body: { email, password } }));
    } catch (error) {
      setProblem(messageOf(error));
      setBusy(false);
    }
  };

  return (
    <form className="login" aria-labelledby={`${emailId}-title`} onSubmit={(event) => void submit(event)}>
      <h2 id={`${emailId}-title`}>Sign in</h2>
      <label htmlFor={emailId}>Email</label>
      <input id={emailId} type="email" autoComplete="username" required autoFocus value={email} onChange={(event) => setEmail(event.target.value)} />
      <label htmlFor={passwordId}>Password</label>
      <input
        id={passwordId}
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      {problem && (
        <p role="alert" className="problem">
          {problem}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}

function Organizations() {
  const login = useSession((state) => state.login);
  if (!login) return null;
  return (
    <section aria-labelledby="orgs-title">
      <p>
        Signed in as {login.user.name} ({login.user.email})
      </p>
      <h2 id="orgs-title">Organizations</h2>
      {login.orgs.length === 0 ? (
        <p>This user belongs to no organization yet.</p>
      ) : (
        <ul aria-labelledby="orgs-title">
          {login.orgs.map((org) => (
            <li key={org.id}>
              {org.name} <span className="role">{org.role}</span>
            </li>
          ))}
        </ul>
      )}
      <button type="button" onClick={() => void signOut()}>
        Sign out
      </button>
    </section>
  );
}

function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}
