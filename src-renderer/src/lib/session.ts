import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { ResponseOf } from '../../../src-shared/operation';
import type { OperationById } from '../../../src-shared/operations';

export type LoginResult = ResponseOf<OperationById<'auth.login'>>;

interface SessionState {
  /**
   * The login answer, JWT included. Kept in the window's sessionStorage: a reload (F5 at a packing
   * station, a renderer restart) keeps the packer signed in, while closing the window or tab signs
   * out, and other windows never see it. The token itself ends after 12 hours.
   */
  login: LoginResult | null;
  /** The organization the screens work in. */
  orgId: string | null;
  signedIn(login: LoginResult): void;
  /** A new login of the same user (after changing their password): the organization chosen stays. */
  renewed(login: LoginResult): void;
  signedOut(): void;
  chooseOrg(orgId: string): void;
}

export const useSession = create<SessionState>()(
  persist(
    (set) => ({
      login: null,
      orgId: null,
      signedIn: (login) => set({ login, orgId: login.orgs[0]?.id ?? null }),
      renewed: (login) => set((state) => ({ login, orgId: login.orgs.some((org) => org.id === state.orgId) ? state.orgId : (login.orgs[0]?.id ?? null) })),
      signedOut: () => set({ login: null, orgId: null }),
      chooseOrg: (orgId) => set({ orgId }),
    }),
    {
      name: 'shipdesk.session',
      storage: createJSONStorage(() => sessionStorage),
      partialize: (state) => ({ login: state.login, orgId: state.orgId }),
      // A login kept past its token's end would show screens that can only fail: sign in again instead.
      merge: (persisted, current) => {
        const kept = persisted as Partial<SessionState> | undefined;
        return kept?.login && !tokenExpired(kept.login.accessToken) ? { ...current, login: kept.login, orgId: kept.orgId ?? null } : current;
      },
    },
  ),
);

/** The current organization id; screens only render inside a signed-in shell, so it is set. */
export function useOrgId(): string {
  const orgId = useSession((state) => state.orgId);
  if (!orgId) throw new Error('No organization chosen');
  return orgId;
}

/** Whether a JWT's `exp` has passed (an API token or an unreadable one counts as not expired). */
function tokenExpired(token: string): boolean {
  try {
    const payload = JSON.parse(atob((token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof payload.exp === 'number' && payload.exp * 1000 <= Date.now();
  } catch {
    return false;
  }
}
