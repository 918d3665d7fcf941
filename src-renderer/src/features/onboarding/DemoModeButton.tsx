import { useState } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';
import { switchProfile } from '../../lib/demoMode';
import { useCanWrite } from '../../lib/permissions';
import { useOrgId } from '../../lib/session';
import { useOperation } from '../../lib/useOperation';

/** Opens demo mode: a sample warehouse in its own database file (owners and admins; it switches the installation). */
export function DemoModeButton() {
  const orgId = useOrgId();
  const canWrite = useCanWrite('orgs');
  const profile = useOperation('profile.get', {});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  if (!canWrite || profile.data?.demo !== false) return null;
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      await switchProfile(true, orgId);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };
  return (
    <div>
      <button type="button" disabled={busy} onClick={() => void start()}>
        {busy ? 'Making the demo warehouse…' : 'Try the demo warehouse'}
      </button>
      <ErrorNotice error={error} title="Demo mode could not be opened" />
    </div>
  );
}

/**
 * On every screen while the demo profile is open, the sign-in screen included: says so, and goes
 * back to the real profile in one click (for whoever may switch; others are told who can).
 */
export function DemoBanner({ orgId, canSwitch }: { orgId: string | null; canSwitch: boolean }) {
  const profile = useOperation('profile.get', {});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  if (!profile.data?.demo) return null;
  const leave = async () => {
    if (!orgId) return;
    setBusy(true);
    setError(null);
    try {
      await switchProfile(false, orgId);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };
  return (
    <section className="demo-banner" aria-label="Demo mode">
      <p>
        <strong>Demo mode.</strong> This is a sample warehouse in a separate profile; your real data is untouched.
      </p>
      {canSwitch && orgId ? (
        <button type="button" disabled={busy} onClick={() => void leave()}>
          {busy ? 'Going back…' : 'Back to my real data'}
        </button>
      ) : (
        <p>Sign in as an owner or admin to go back to the real data.</p>
      )}
      <ErrorNotice error={error} title="The real profile could not be opened" />
    </section>
  );
}
