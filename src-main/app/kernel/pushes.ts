import { randomBytes } from 'node:crypto';
import type { ChangeEventName, ShipdeskEvents } from '../../../src-shared/ipc';
import { grants, type Scope } from '../../../src-shared/scopes';
import type { CommittedChange } from '../../db/committedChanges';

/**
 * The one in-process bus for pushes (decisions §10 covers webhooks; these are for the app's own
 * screens): what main committed, told to whoever watches an organization — each desktop window over
 * IPC, each browser over the event stream (`GET /orgs/{orgId}/events`). Events come only from
 * committed writes (db/committedChanges.ts), so nothing about a rolled-back write ever goes out.
 *
 * Bounded, so a slow or stuck listener never holds up a request nor grows memory:
 *  - publishing only queues; each listener is called later, on its own turn (setImmediate);
 *  - a listener's queue keeps the newest event per shipment or print job (coalesced: the screens
 *    read the thing again anyway, and the latest status is what they show);
 *  - past MAX_PENDING subjects the queue is dropped and the listener is told it `missed` events, so
 *    it reloads everything instead (the event stream says `resync`).
 */
export type Push = {
  [E in ChangeEventName]: { id: number; event: E; payload: ShipdeskEvents[E] };
}[ChangeEventName];

export interface PushBatch {
  pushes: Push[];
  /** Events were dropped for this listener (its queue overflowed, or a bulk write): read everything again. */
  missed: boolean;
}

/** The scope a credential needs to receive each event (docs/decisions.md "Events"). */
export const pushScopes: Record<ChangeEventName, Scope> = {
  'shipment.statusChanged': 'read:shipments',
  'print.progress': 'read:printers',
};

export function mayReceive(heldScopes: readonly string[], event: ChangeEventName): boolean {
  return grants(heldScopes, pushScopes[event]);
}

/** Queue length per listener, counted in distinct shipments and print jobs. */
export const MAX_PENDING = 1000;
/** Events kept for a reconnecting client's `Last-Event-ID`. */
export const RECENT_LIMIT = 1000;

interface Listener {
  /** Null: every organization (the window filters per credential, see ipc/windowPushes.ts). */
  orgId: string | null;
  pending: Map<string, Push>;
  missed: boolean;
  scheduled: boolean;
  deliver: (batch: PushBatch) => void;
}

type Unstamped = Push extends infer P ? (P extends Push ? Omit<P, 'id'> : never) : never;

export class PushBus {
  /** Names this process's run: an event id of an earlier run cannot be resumed from. */
  readonly runId = randomBytes(4).toString('hex');
  private seq = 0;
  private readonly recent: Push[] = [];
  private readonly listeners = new Set<Listener>();

  /** Called by the group commit (via db/committedChanges.ts) with what it committed. */
  publishChanges(changes: readonly CommittedChange[], truncated: boolean): void {
    this.publish(changes.map(pushOf), truncated);
  }

  publish(events: readonly Unstamped[], missedSome = false): void {
    const stamped = events.map((event) => ({ ...event, id: ++this.seq }) as Push);
    for (const push of stamped) this.recent.push(push);
    if (this.recent.length > RECENT_LIMIT) this.recent.splice(0, this.recent.length - RECENT_LIMIT);
    if (missedSome) this.recent.length = 0; // what was dropped cannot be replayed either
    for (const listener of this.listeners) {
      let queued = false;
      for (const push of stamped) queued = enqueue(listener, push) || queued;
      if (missedSome) {
        listener.missed = true;
        queued = true;
      }
      if (queued) this.schedule(listener);
    }
  }

  /** Listens to one organization's events (or every organization's, `null`); returns the function that stops. */
  subscribe(orgId: string | null, deliver: (batch: PushBatch) => void): () => void {
    const listener: Listener = { orgId, pending: new Map(), missed: false, scheduled: false, deliver };
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
      listener.pending.clear();
    };
  }

  /**
   * The events after `lastId` for a reconnecting client, or null when they are no longer all kept
   * (or the id is of another run): then it must read everything again.
   */
  since(runId: string, lastId: number, orgId: string): Push[] | null {
    if (runId !== this.runId || !Number.isSafeInteger(lastId) || lastId < 0 || lastId > this.seq) return null;
    if (lastId === this.seq) return [];
    const first = this.recent[0];
    if (!first || first.id > lastId + 1) return null;
    return this.recent.filter((push) => push.id > lastId && push.payload.orgId === orgId);
  }

  /** How many listeners there are (tests, and a shutdown that checks it closed every stream). */
  get listenerCount(): number {
    return this.listeners.size;
  }

  private schedule(listener: Listener): void {
    if (listener.scheduled) return;
    listener.scheduled = true;
    setImmediate(() => {
      listener.scheduled = false;
      if (!this.listeners.has(listener)) return;
      const batch: PushBatch = { pushes: [...listener.pending.values()], missed: listener.missed };
      listener.pending.clear();
      listener.missed = false;
      try {
        listener.deliver(batch);
      } catch (error) {
        // One listener's fault (a window that just closed) never stops the others.
        console.error('A push listener failed:', error);
      }
    });
  }
}

function enqueue(listener: Listener, push: Push): boolean {
  if (listener.orgId !== null && listener.orgId !== push.payload.orgId) return false;
  const key = push.event === 'shipment.statusChanged' ? `shipment:${push.payload.shipmentId}` : `printJob:${push.payload.printJobId}`;
  const earlier = listener.pending.get(key);
  if (!earlier && listener.pending.size >= MAX_PENDING) {
    listener.pending.clear();
    listener.missed = true;
  }
  listener.pending.delete(key); // a coalesced event moves to its newest place in the order
  if (earlier?.event === 'shipment.statusChanged' && push.event === 'shipment.statusChanged') {
    // Coalesced: where it came from before the first of the changes, where it is now.
    listener.pending.set(key, { ...push, payload: { ...push.payload, previousStatus: earlier.payload.previousStatus } });
  } else {
    listener.pending.set(key, push);
  }
  return true;
}

function pushOf(change: CommittedChange): Unstamped {
  if (change.kind === 'shipment') {
    const { orgId, shipmentId, status, previousStatus } = change;
    return { event: 'shipment.statusChanged', payload: { orgId, shipmentId, status, previousStatus } };
  }
  const { orgId, printJobId, status, error } = change;
  return {
    event: 'print.progress',
    payload: { orgId, printJobId, state: status as ShipdeskEvents['print.progress']['state'], ...(error !== null ? { message: error } : {}) },
  };
}
