import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { ChangeOwnPasswordDialog } from '../features/auth/PasswordDialogs';
import { signOut, transportName } from '../lib/api';
import { useSession } from '../lib/session';
import { useCanWrite } from '../lib/permissions';
import { useOperation } from '../lib/useOperation';
import { DemoBanner } from '../features/onboarding/DemoModeButton';
import { ChecklistStrip } from '../features/onboarding/ChecklistStrip';
import { Link, matchPath, navigate, pathWithin, useRoutePath } from './router';
import { screens } from './routes';

const navScreens = screens.filter((screen) => screen.nav);

/** The nav entry for `path`: its own screen, or the one it lies below (`/shipments/shp_1` → Shipments); the deepest wins. */
function currentNavPath(path: string): string | null {
  let best: { path: string; depth: number } | null = null;
  for (const screen of navScreens) {
    const depth = pathWithin(screen.path, path);
    if (depth !== null && (!best || depth > best.depth)) best = { path: screen.path, depth };
  }
  return best?.path ?? null;
}

/** The signed-in app: navigation, the current screen, the organization and the user. */
export function Shell() {
  const login = useSession((state) => state.login);
  const orgId = useSession((state) => state.orgId);
  const chooseOrg = useSession((state) => state.chooseOrg);
  const path = useRoutePath();
  const currentNav = currentNavPath(path);
  const [changingPassword, setChangingPassword] = useState(false);
  const [passwordChanged, setPasswordChanged] = useState(false);

  // Alt+<key> jumps to a screen, so the whole app can be driven from the keyboard.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!event.altKey || event.ctrlKey || event.metaKey) return;
      const target = navScreens.find((screen) => screen.nav?.key === event.key.toLowerCase());
      if (target) {
        event.preventDefault();
        navigate(target.path);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // The start screen: the one meant for this role (a packer's is Pack), else the first of the rest.
  const role = login?.orgs.find((org) => org.id === orgId)?.role;
  useEffect(() => {
    if (path !== '/') return;
    const start = navScreens.find((screen) => role && screen.startFor?.includes(role)) ?? navScreens.find((screen) => !screen.startFor);
    if (start) navigate(start.path);
  }, [path, role]);

  // The first-day checklist has its own entry while it is open; what is done changes on other screens, so it is read again on each.
  const canSetUp = useCanWrite('orgs');
  const onboarding = useOperation('onboarding.get', canSetUp && orgId ? { params: { orgId } } : null);
  useEffect(() => onboarding.reload(), [path]);
  const checklist = onboarding.data && !onboarding.data.complete && !onboarding.data.closed ? onboarding.data : null;

  let current: { render: () => ReactNode; title: string } | null = null;
  for (const screen of screens) {
    const params = matchPath(screen.path, path);
    if (params) {
      current = { render: () => screen.render(params), title: screen.title };
      break;
    }
  }
  useEffect(() => {
    document.title = current ? `${current.title} · Shipdesk` : 'Shipdesk';
  }, [current?.title]);

  if (!login || !orgId) return null;
  const sections = ['Work', 'Settings'] as const;
  return (
    <>
      <DemoBanner orgId={orgId} canSwitch={canSetUp} />
      <div className="shell">
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <nav className="sidebar" aria-label="Main">
          <p className="brand">Shipdesk</p>
          {login.orgs.length > 1 && (
            <label className="org-switch">
              Organization
              <select value={orgId} onChange={(event) => chooseOrg(event.target.value)}>
                {login.orgs.map((org) => (
                  <option key={org.id} value={org.id}>
                    {org.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          {checklist && (
            <ul className="nav-checklist">
              <li>
                <Link to="/getting-started" aria-current={path.startsWith('/getting-started') ? 'page' : undefined}>
                  Getting started{' '}
                  <small>
                    {checklist.steps.filter((step) => step.done || step.skipped).length} of {checklist.steps.length}
                  </small>
                </Link>
              </li>
            </ul>
          )}
          {sections.map((section) => (
            <div key={section}>
              <h2 className="nav-section">{section}</h2>
              <ul>
                {navScreens
                  .filter((screen) => screen.nav?.section === section)
                  .map((screen) => (
                    <li key={screen.path}>
                      <Link
                        to={screen.path}
                        aria-current={screen.path === currentNav ? 'page' : undefined}
                        aria-keyshortcuts={screen.nav?.key ? `Alt+${screen.nav.key.toUpperCase()}` : undefined}
                      >
                        {screen.nav?.label}
                      </Link>
                    </li>
                  ))}
              </ul>
            </div>
          ))}
          <div className="whoami">
            <p>
              {login.user.name}
              <br />
              <small>
                {login.orgs.find((org) => org.id === orgId)?.name} · {login.orgs.find((org) => org.id === orgId)?.role} · {transportName}
              </small>
            </p>
            <div className="whoami-actions">
              <button type="button" onClick={() => setChangingPassword(true)}>
                Password…
              </button>
              <button type="button" onClick={() => void signOut()}>
                Sign out
              </button>
            </div>
            {passwordChanged && (
              <p role="status" className="call-result ok">
                Password changed.
              </p>
            )}
            <ChangeOwnPasswordDialog open={changingPassword} onClose={() => setChangingPassword(false)} onChanged={() => setPasswordChanged(true)} />
          </div>
        </nav>
        <div className="content-column">
          {/* Above the screen, not over it: Pack's scan box and every form keep their place and focus. */}
          {checklist && !path.startsWith('/getting-started') && !path.startsWith('/pack') && <ChecklistStrip checklist={checklist} />}
          <main id="main" className="content" tabIndex={-1}>
            {/* Screens other than the shipments list are chunks of their own, loaded when first shown (app/lazyScreen.ts). */}
            <Suspense fallback={null}>{current ? current.render() : <p>Nothing here. Choose a screen on the left.</p>}</Suspense>
          </main>
        </div>
      </div>
    </>
  );
}
