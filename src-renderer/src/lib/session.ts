import { create } from 'zustand';
import type { ResponseOf } from '../../../src-shared/operation';
import type { OperationById } from '../../../src-shared/operations';

export type LoginResult = ResponseOf<OperationById<'auth.login'>>;

interface SessionState {
  /** The login answer, JWT included; kept in memory only, so closing the window signs out. */
  login: LoginResult | null;
  /** The organization the screens work in. */
  orgId: string | null;
  signedIn(login: LoginResult): void;
  signedOut(): void;
  chooseOrg(orgId: string): void;
}

export const useSession = create<SessionState>()((set) => ({
  login: null,
  orgId: null,
  signedIn: (login) => set({ login, orgId: login.orgs[0]?.id ?? null }),
  signedOut: () => set({ login: null, orgId: null }),
  chooseOrg: (orgId) => set({ orgId }),
}));

/** The current organization id; screens only render inside a signed-in shell, so it is set. */
export function useOrgId(): string {
  const orgId = useSession((state) => state.orgId);
  if (!orgId) throw new Error('No organization chosen');
  return orgId;
}
