import { useOperation } from '../lib/useOperation';
import { useSession } from '../lib/session';
import { ErrorNotice } from '../components/ErrorNotice';
import { LoginScreen, SetupScreen } from '../features/auth/AuthScreens';
import { Shell } from './Shell';

/** First run → setup; no session → sign in; else the app. */
export function App() {
  const login = useSession((state) => state.login);
  const setup = useOperation('setup.status', {});
  if (login) return <Shell />;
  if (setup.error) return <ErrorNotice error={setup.error} title="Shipdesk cannot be reached" />;
  if (!setup.data) return <p className="loading">Starting Shipdesk…</p>;
  return setup.data.needsSetup ? <SetupScreen onDone={setup.reload} /> : <LoginScreen />;
}
