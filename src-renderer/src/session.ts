import { create } from 'zustand';
import type { ResponseOf } from '../../src-shared/operation';
import type { OperationById } from '../../src-shared/operations';

export type LoginResult = ResponseOf<OperationById<'auth.login'>>;

interface SessionState {
  /** The login answer, JWT included; kept in memory only, so closing the window signs out. */
  login: LoginResult | null;
  signedIn(login: LoginResult): void;
  signedOut(): void;
}

export const useSession = create<SessionState>()((set) => ({
  login: null,
  signedIn: (login) => set({ login }),
  signedOut: () => set({ login: null }),
}));
