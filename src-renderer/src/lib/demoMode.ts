import { client } from './api';
import { useSession, type LoginResult } from './session';

/**
 * Demo mode switches the whole installation to another database file (docs/decisions.md): the
 * server answers with a login there, then reopens its doors. The renderer waits until the other
 * profile answers, takes the new login and reloads, so no read, draft or cache of the other
 * profile survives.
 */
export async function switchProfile(demo: boolean, orgId: string): Promise<void> {
  const login: LoginResult = await client.call(demo ? 'profile.startDemo' : 'profile.leaveDemo', { params: { orgId } });
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await client.call('profile.get', {}).catch(() => null);
    if (answer?.demo === demo) break;
    if (Date.now() > deadline) throw new Error('Shipdesk did not come back after switching; reload the window.');
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  // Signing out first forgets this profile's drafts (the stores listen for it), then the new login.
  useSession.getState().signedOut();
  useSession.getState().signedIn(login);
  window.location.hash = '#/';
  window.location.reload();
}
