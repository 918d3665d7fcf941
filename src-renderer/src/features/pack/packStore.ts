import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { Shipment } from '../../../../src-shared/schemas/shipment';
import { useSession } from '../../lib/session';
import { canSendNow, readPrintState, runScan, sendAndPrint, summarize, type PackLink, type PackResult } from './packFlow';
import { finishVerified, weighShown } from './packVerify';
import { classifyScan, parseWeight } from './scanKind';
import {
  nextBox,
  openBox,
  progress,
  startVerification,
  stillFits,
  tick,
  ticked,
  unweighedBoxes,
  undo,
  verifyCodesOf,
  weighOpenBox,
  weightText,
  type Verification,
} from './verification';

/**
 * The pack screen's state, kept while the app is open so a packer who looks at an order and comes
 * back finds the last result and the session's scans (the scans also after a reload). Scans are handled one after the other, in the
 * order they were read: a second scan read while the first is still being sent waits its turn, and an
 * item read right after its order is checked against that order's items (scan-to-verify).
 */

const SEND_ON_SCAN_KEY = 'shipdesk.pack.sendOnScan';
const VERIFY_KEY = 'shipdesk.pack.verify';
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

/**
 * What the last item scan, weight or key on a checked shipment came to, for the sound, the colour and
 * the screen reader (`seq` tells two alike apart).
 */
export interface PackCue {
  seq: number;
  tone: 'right' | 'wrong' | 'too-many' | 'info';
  text: string;
}

interface PackState {
  /** Station setting (this computer): a scanned order's new shipment is sent and printed at once. */
  sendOnScan: boolean;
  /** Station setting: the items of a shipment that carry codes are scanned into their boxes before it is sent (default on). */
  verify: boolean;
  /** The items being checked for the shipment on screen (scan-to-verify), null when it is not checked. */
  verification: Verification | null;
  cue: PackCue | null;
  /** The result on screen, with the log entry it belongs to. */
  current: { orgId: string; entryId: number; result: PackResult } | null;
  /** Scans and confirmations waiting or being handled. */
  pending: number;
  /** Whether the shown shipment is being sent by its confirmation. */
  sending: boolean;
  /** Newest first. */
  log: ScanLogEntry[];
  setSendOnScan(on: boolean): void;
  setVerify(on: boolean): void;
  /** Takes back the newest tick (or box start) of the shipment being checked. */
  undoTick(orgId: string): void;
  /** Closes the open box: the next items go into a parcel of their own. */
  startNextBox(orgId: string): void;
  scan(orgId: string, code: string): void;
  /** The same code again within the repeat window: noted on its log line, nothing done. */
  repeat(orgId: string, code: string): void;
  /**
   * Send and print the shown shipment (its button, or Enter in the empty scan box); false when there is
   * none to send. A checked shipment goes when every unit is ticked and every box has a weight; with
   * units left it answers 'short' unless `short` confirms that the rest goes into a new shipment.
   */
  confirmSend(orgId: string, options?: { confirmRebook?: boolean; short?: boolean }): boolean | 'short';
  /** Reads the shown shipment's print jobs again (after a reprint). */
  refreshPrint(orgId: string): void;
  /** The shown shipment as changed on screen (a service point chosen), so a send books what is shown. */
  replaceShipment(orgId: string, shipment: Shipment): void;
}

function readSetting(key: string, fallback: boolean): boolean {
  try {
    const kept = localStorage.getItem(key);
    return kept === null ? fallback : kept === 'true';
  } catch {
    return fallback;
  }
}

function keepSetting(key: string, on: boolean): void {
  try {
    localStorage.setItem(key, String(on));
  } catch {
    // Not kept for the next start; it still applies now.
  }
}

/**
 * Checks left unfinished when another order was scanned, by shipment, so scanning that order again
 * goes on where the packer stopped (if nobody changed its lines meanwhile). Forgotten at sign-out.
 */
const keptChecks = new Map<string, Verification>();

/** The verification of the shipment shown and sendable, or null. */
export function activeVerification(state: Pick<PackState, 'current' | 'verification'>, orgId: string): Verification | null {
  const { current, verification } = state;
  if (!verification || !current || current.orgId !== orgId || current.result.kind !== 'shipment') return null;
  const { shipment } = current.result;
  return shipment.id === verification.shipmentId && canSendNow(shipment.status) ? verification : null;
}

/** The verification a newly shown result starts with: the one kept for its shipment if it still fits, else a new one. */
export function verificationFor(result: PackResult, verify: boolean): Verification | null {
  if (!verify || result.kind !== 'shipment' || !canSendNow(result.shipment.status) || result.orderLines === undefined) return null;
  const fresh = startVerification(result.shipment, result.orderLines);
  if (!fresh) return null;
  const kept = keptChecks.get(fresh.shipmentId);
  return kept && stillFits(kept, fresh) ? kept : fresh;
}

const unitWord = (count: number) => (count === 1 ? 'unit' : 'units');

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
      let cueSeq = 0;
      const cue = (tone: PackCue['tone'], text: string) => set({ cue: { seq: ++cueSeq, tone, text } });
      /** The verification as it now is: kept for the shipment, and on screen. */
      const keep = (verification: Verification) => {
        keptChecks.set(verification.shipmentId, verification);
        set({ verification });
      };
      const checkedText = (verification: Verification) => {
        const { ticked, total } = progress(verification);
        return `Checking items: ${ticked} of ${total} ${unitWord(total)} packed`;
      };
      const settle = (orgId: string, entryId: number, result: PackResult) => {
        const { text, tone, link } = summarize(result);
        const verification = verificationFor(result, get().verify);
        const checking = verification && result.kind === 'shipment' && !result.sent && !result.problem;
        updateEntry(entryId, { text: checking ? `${text} · ${checkedText(verification)}` : text, tone, ...(link ? { link } : {}) });
        set({ current: { orgId, entryId, result }, verification });
        if (result.kind === 'shipment' && result.sent) keptChecks.delete(result.shipment.id);
      };
      const newEntry = (orgId: string, code: string, at = new Date()): number => {
        const id = nextId++;
        const entry: ScanLogEntry = { id, orgId, at, code, text: 'Working…', tone: 'working', repeats: 0 };
        set((state) => ({ log: [entry, ...state.log].slice(0, LOG_LENGTH) }));
        return id;
      };
      /** Sends the checked shipment on screen: the rest split off when `short`, the boxes written, then send and print. */
      const finish = async (orgId: string, confirmRebook = false) => {
        const current = get().current;
        const verification = activeVerification(get(), orgId);
        if (!current || !verification || current.result.kind !== 'shipment') return;
        const { entryId } = current;
        set({ sending: true });
        updateEntry(entryId, { text: `Sending ${current.result.shipment.reference}…`, tone: 'working' });
        try {
          const done = await finishVerified(orgId, current.result, verification, confirmRebook);
          keep(done.verification);
          settle(orgId, entryId, done.result);
          // Not sent (a refusal, a carrier failure): the ticks stay as they are, even where the boxes were
          // already written as parcels with new line ids, so Enter goes on from the step that failed.
          if (done.result.kind === 'shipment' && !done.result.sent) set({ verification: done.verification });
          if (done.restShipments.length) {
            const rest = `The rest waits in ${done.restShipments.join(', ')}`;
            updateEntry(entryId, { text: `${summarize(done.result).text} · ${rest}` });
            cue('info', `${rest}.`);
          }
        } finally {
          set({ sending: false });
        }
      };
      /** When the last unit is ticked and every box has a weight, the shipment goes at once. */
      const finishIfDone = async (orgId: string, verification: Verification) => {
        if (!progress(verification).complete) return;
        const unweighed = unweighedBoxes(verification);
        if (unweighed.length) {
          cue('info', `Every item is packed. Weigh box ${unweighed.join(', ')}: put it on the scale or type its weight, e.g. 1.25 kg.`);
          return;
        }
        await finish(orgId);
      };
      /** An item scan or a weight for the shipment being checked; false when the code is neither and is looked up. */
      const checkScan = async (orgId: string, code: string): Promise<boolean> => {
        const verification = activeVerification(get(), orgId);
        if (!verification) return false;
        const kind = classifyScan(code, verification.lines, verifyCodesOf);
        if (kind.kind === 'item') {
          const counted = tick(verification, kind.lines);
          if (!counted) return false;
          const { outcome } = counted;
          const name = `${outcome.line.sku}${outcome.line.description ? ` ${outcome.line.description}` : ''}`;
          if (outcome.kind === 'too-many') {
            cue('too-many', `Too many: ${name} is packed already (${outcome.line.quantity} of ${outcome.line.quantity}). Take it out; it was not counted.`);
            return true;
          }
          keep(counted.verification);
          const { ticked: done, total } = progress(counted.verification);
          cue(
            'right',
            `${name}: ${outcome.count} of ${outcome.line.quantity}, box ${openBox(counted.verification) + 1}. ${done} of ${total} ${unitWord(total)} packed.`,
          );
          updateEntry(get().current?.entryId ?? -1, {
            text: `${summarize(get().current?.result ?? { kind: 'nothing', code }).text} · ${checkedText(counted.verification)}`,
          });
          await finishIfDone(orgId, counted.verification);
          return true;
        }
        if (kind.kind === 'weight') {
          if (kind.weight <= 0) {
            cue('wrong', 'The scale reads nothing: put the box on it and read it again.');
            return true;
          }
          const weight = { weight: kind.weight, weightUnit: kind.weightUnit };
          const weighed = weighOpenBox(verification, weight);
          keep(weighed);
          cue('info', `Box ${openBox(weighed) + 1} weighs ${weightText(weight)}.`);
          await finishIfDone(orgId, weighed);
          return true;
        }
        return false;
      };
      return {
        sendOnScan: readSetting(SEND_ON_SCAN_KEY, false),
        verify: readSetting(VERIFY_KEY, true),
        verification: null,
        cue: null,
        current: null,
        pending: 0,
        sending: false,
        log: [],
        setSendOnScan: (on) => {
          keepSetting(SEND_ON_SCAN_KEY, on);
          set({ sendOnScan: on });
        },
        setVerify: (on) => {
          keepSetting(VERIFY_KEY, on);
          const current = get().current;
          set({ verify: on, verification: on && current ? verificationFor(current.result, true) : null });
        },
        scan: (orgId, code) => {
          const at = new Date();
          set((state) => ({ pending: state.pending + 1 }));
          enqueue(async () => {
            try {
              // Handled in turn, so an item read right after its order's scan is checked against that order.
              if (await checkScan(orgId, code)) return;
              const checking = activeVerification(get(), orgId);
              const weight = parseWeight(code);
              if (!checking && weight) {
                const id = newEntry(orgId, code, at);
                const shown = get().current;
                const answer = await weighShown(orgId, shown?.orgId === orgId ? shown.result : null, weight);
                updateEntry(id, { text: answer.text, tone: answer.ok ? 'ok' : 'bad' });
                cue(answer.ok ? 'info' : 'wrong', answer.text);
                if (answer.result && shown) set({ current: { ...shown, result: answer.result } });
                return;
              }
              const id = newEntry(orgId, code, at);
              const result = await runScan(orgId, code, { sendOnScan: get().sendOnScan, verify: get().verify });
              if (checking && result.kind === 'nothing') {
                // Not an item of this shipment, and nothing else has this code: the wrong item.
                const shown = get().current?.result;
                const text = `“${code}” is not in ${shown?.kind === 'shipment' ? shown.shipment.reference : 'this shipment'}: put it back. Nothing was counted.`;
                updateEntry(id, { text, tone: 'bad' });
                cue('wrong', text);
                return;
              }
              settle(orgId, id, result);
            } finally {
              set((state) => ({ pending: state.pending - 1 }));
            }
          });
        },
        undoTick: (orgId) => {
          enqueue(async () => {
            const verification = activeVerification(get(), orgId);
            const undone = verification && undo(verification);
            if (!verification || get().sending) return;
            if (!undone) {
              cue('info', 'Nothing to undo.');
              return;
            }
            keep(undone.verification);
            if (undone.undone.kind === 'box')
              cue('info', `Box ${openBox(verification) + 1} removed: items go into box ${openBox(undone.verification) + 1} again.`);
            else {
              const { line } = undone.undone;
              const { ticked: done, total } = progress(undone.verification);
              cue(
                'info',
                `Taken back: one ${line.sku}, ${ticked(undone.verification, line.id)} of ${line.quantity} now. ${done} of ${total} ${unitWord(total)} packed.`,
              );
            }
            const current = get().current;
            if (current) updateEntry(current.entryId, { text: `${summarize(current.result).text} · ${checkedText(undone.verification)}` });
          });
        },
        startNextBox: (orgId) => {
          enqueue(async () => {
            const verification = activeVerification(get(), orgId);
            if (!verification || get().sending) return;
            const next = nextBox(verification);
            if (!next) {
              cue('wrong', `Box ${openBox(verification) + 1} is still empty: scan an item into it first.`);
              return;
            }
            keep(next);
            cue('info', `Box ${openBox(next) + 1} started: the next items go into it.`);
          });
        },
        repeat: (orgId, code) => {
          const newest = get().log.find((entry) => entry.orgId === orgId);
          if (newest?.code === code) updateEntry(newest.id, { repeats: newest.repeats + 1 });
        },
        confirmSend: (orgId, options = {}) => {
          const shown = shownToSend(get(), orgId);
          if (!shown) return false;
          const verification = activeVerification(get(), orgId);
          if (verification) {
            const { ticked: done, complete } = progress(verification);
            if (done === 0) {
              cue('wrong', `Nothing is packed yet: scan the items of ${shown.result.shipment.reference} first.`);
              return false;
            }
            if (!complete && !options.short) return 'short';
            const unweighed = unweighedBoxes(verification);
            if (unweighed.length) {
              cue('wrong', `Weigh box ${unweighed.join(', ')} first: put it on the scale or type its weight, e.g. 1.25 kg.`);
              return false;
            }
            set((state) => ({ pending: state.pending + 1 }));
            enqueue(async () => {
              try {
                await finish(orgId, options.confirmRebook === true);
              } finally {
                set((state) => ({ pending: state.pending - 1 }));
              }
            });
            return true;
          }
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
  if (previous.login && !state.login) {
    keptChecks.clear();
    usePack.setState({ current: null, log: [], verification: null, cue: null });
  }
});
