import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { Shipment } from '../../../../src-shared/schemas/shipment';
import { useSession } from '../../lib/session';
import { canSendNow, readPrintState, runScan, sendAndPrint, summarize, type PackLink, type PackResult } from './packFlow';

/**
 * The pack screen's state, kept while the app is open so a packer who looks at an order and comes
 * back finds the last result and the session's scans (the scans also after a reload). Scans are handled one after the other, in the
 * order they were read: a second scan read while the first is still being sent waits its turn.
 */

const SEND_ON_SCAN_KEY = 'shipdesk.pack.sendOnScan';
const LOG_KEY = 'shipdesk.pack.log';
const LOG_LENGTH = 50;

export interface ScanLogEntry {
  id: number;
  orgId: string;
  at: Date;
  code: string;
  /** What came of it; "Working…" until it is handled. */
  text: string;
  tone: 'ok' | 'bad' | 'info' | 'working';
  link?: PackLink;
  /** How many times the same scan came again within the repeat window and was ignored. */
  repeats: number;
}

interface PackState {
  /** Station setting (this computer): a scanned order's new shipment is sent and printed at once. */
  sendOnScan: boolean;
  /** The result on screen, with the log entry it belongs to. */
  current: { orgId: string; entryId: number; result: PackResult } | null;
  /** Scans and confirmations waiting or being handled. */
  pending: number;
  /** Whether the shown shipment is being sent by its confirmation. */
  sending: boolean;
  /** Newest first. */
  log: ScanLogEntry[];
  setSendOnScan(on: boolean): void;
  scan(orgId: string, code: string): void;
  /** The same code again within the repeat window: noted on its log line, nothing done. */
  repeat(orgId: string, code: string): void;
  /** Send and print the shown shipment (its button, or Enter in the empty scan box); false when there is none to send. */
  confirmSend(orgId: string, options?: { confirmRebook?: boolean }): boolean;
  /** Reads the shown shipment's print jobs again (after a reprint). */
  refreshPrint(orgId: string): void;
  /** The shown shipment as changed on screen (a service point chosen), so a send books what is shown. */
  replaceShipment(orgId: string, shipment: Shipment): void;
}

function readSendOnScan(): boolean {
  try {
    return localStorage.getItem(SEND_ON_SCAN_KEY) === 'true';
  } catch {
    return false;
  }
}

let nextId = 1;
// One scan at a time, in the order read; a failure of one never stops the next.
let queue: Promise<void> = Promise.resolve();
function enqueue(task: () => Promise<void>): void {
  queue = queue.then(task).catch((error: unknown) => console.error('Pack: a scan could not be handled', error));
}

/** The scan list as kept in sessionStorage, with whose session it is. */
export interface KeptLog {
  userId: string | null;
  log: (Omit<ScanLogEntry, 'at'> & { at: string })[];
}

const signedInUser = () => useSession.getState().login?.user.id ?? null;

/**
 * The scans come back after a reload (F5 keeps the packer signed in, lib/session.ts), in the window's
 * sessionStorage like the login; only for the user whose they are, since a login that expired
 * meanwhile leaves the list behind for whoever signs in next. A scan still being handled at the
 * reload was cut off there, and says so.
 */
export function restoreLog(kept: KeptLog): ScanLogEntry[] {
  const log = kept.log.map((entry): ScanLogEntry => ({
    ...entry,
    at: new Date(entry.at),
    ...(entry.tone === 'working' ? { text: 'The page was reloaded before this was done: scan it again to see where it stands', tone: 'bad' } : {}),
  }));
  nextId = Math.max(nextId, ...log.map((entry) => entry.id + 1));
  return log;
}

/**
 * The shipment a confirmation would send: only what is on screen, in this organization, sendable, and
 * only once nothing else is on its way: a confirmation typed right after a new scan must not send the
 * shipment shown before it.
 */
export function shownToSend(
  state: Pick<PackState, 'current' | 'sending' | 'pending'>,
  orgId: string,
): { entryId: number; result: Extract<PackResult, { kind: 'shipment' }> } | null {
  const { current, sending, pending } = state;
  if (sending || pending > 0 || !current || current.orgId !== orgId || current.result.kind !== 'shipment' || !canSendNow(current.result.shipment.status))
    return null;
  return { entryId: current.entryId, result: current.result };
}

export const usePack = create<PackState>()(
  persist(
    (set, get) => {
      const updateEntry = (id: number, patch: Partial<ScanLogEntry>) =>
        set((state) => ({ log: state.log.map((entry) => (entry.id === id ? { ...entry, ...patch } : entry)) }));
      const settle = (orgId: string, entryId: number, result: PackResult) => {
        const { text, tone, link } = summarize(result);
        updateEntry(entryId, { text, tone, ...(link ? { link } : {}) });
        set({ current: { orgId, entryId, result } });
      };
      return {
        sendOnScan: readSendOnScan(),
        current: null,
        pending: 0,
        sending: false,
        log: [],
        setSendOnScan: (on) => {
          try {
            localStorage.setItem(SEND_ON_SCAN_KEY, String(on));
          } catch {
            // Not kept for the next start; it still applies now.
          }
          set({ sendOnScan: on });
        },
        scan: (orgId, code) => {
          const id = nextId++;
          const entry: ScanLogEntry = { id, orgId, at: new Date(), code, text: 'Working…', tone: 'working', repeats: 0 };
          set((state) => ({ log: [entry, ...state.log].slice(0, LOG_LENGTH), pending: state.pending + 1 }));
          enqueue(async () => {
            try {
              settle(orgId, id, await runScan(orgId, code, get().sendOnScan));
            } finally {
              set((state) => ({ pending: state.pending - 1 }));
            }
          });
        },
        repeat: (orgId, code) => {
          const newest = get().log.find((entry) => entry.orgId === orgId);
          if (newest?.code === code) updateEntry(newest.id, { repeats: newest.repeats + 1 });
        },
        confirmSend: (orgId, options = {}) => {
          const shown = shownToSend(get(), orgId);
          if (!shown) return false;
          const { entryId, result } = shown;
          set((state) => ({ sending: true, pending: state.pending + 1 }));
          updateEntry(entryId, { text: `Sending ${result.shipment.reference}…`, tone: 'working' });
          enqueue(async () => {
            try {
              settle(orgId, entryId, await sendAndPrint(orgId, result, options.confirmRebook === true));
            } finally {
              set((state) => ({ sending: false, pending: state.pending - 1 }));
            }
          });
          return true;
        },
        refreshPrint: (orgId) => {
          const current = get().current;
          if (!current || current.orgId !== orgId || current.result.kind !== 'shipment') return;
          const { entryId, result } = current;
          enqueue(async () => {
            const print = await readPrintState(orgId, result.shipment);
            if (get().current?.entryId === entryId) set({ current: { orgId, entryId, result: { ...result, print } } });
          });
        },
        replaceShipment: (orgId, shipment) => {
          const current = get().current;
          if (!current || current.orgId !== orgId || current.result.kind !== 'shipment' || current.result.shipment.id !== shipment.id) return;
          set({ current: { ...current, result: { ...current.result, shipment } } });
        },
      };
    },
    {
      name: LOG_KEY,
      storage: createJSONStorage(() => sessionStorage),
      partialize: (state): KeptLog => ({ userId: signedInUser(), log: state.log.map((entry) => ({ ...entry, at: entry.at.toISOString() })) }),
      merge: (persisted, current) => {
        const kept = persisted as Partial<KeptLog> | undefined;
        return kept?.log && kept.userId !== null && kept.userId === signedInUser() ? { ...current, log: restoreLog(kept as KeptLog) } : current;
      },
    },
  ),
);

// The scans of a session are its own: signing out forgets them (the station setting stays).
useSession.subscribe((state, previous) => {
  if (previous.login && !state.login) usePack.setState({ current: null, log: [] });
});
