import { create } from 'zustand';
import { useSession } from '../../../lib/session';
import type { ShipmentForm } from './model';

/**
 * Unsaved shipment forms, by screen (`new`, or `edit:<shipmentId>`), kept while the app is open: a
 * failed save, a jump to another screen or a closed dialog never throws away what was typed.
 * Cleared when the save succeeds or the user discards the changes.
 */
interface DraftState {
  drafts: Record<string, ShipmentForm>;
  keep(key: string, form: ShipmentForm): void;
  drop(key: string): void;
}

export const useShipmentDrafts = create<DraftState>()((set) => ({
  drafts: {},
  keep: (key, form) => set((state) => ({ drafts: { ...state.drafts, [key]: form } })),
  drop: (key) =>
    set((state) => {
      const drafts = { ...state.drafts };
      delete drafts[key];
      return { drafts };
    }),
}));

// A draft is its typist's: signing out (at a shared packing station) forgets it, as the Pack screen
// forgets its scans, so the next person to sign in is not offered someone else's unsaved changes.
useSession.subscribe((state, previous) => {
  if (previous.login && state.login?.user.id !== previous.login.user.id) useShipmentDrafts.setState({ drafts: {} });
});
