import type { ShipdeskEventName, ShipdeskEvents } from '../../../src-shared/ipc';

/**
 * The renderer's one cache of reads, keyed by operation id and input (useOperation.ts is its React
 * side). Screens ask for `(operationId, input)`; equal asks share one entry and one call in flight.
 * Pushes from main (lib/pushes.ts) say what changed, and the entries they touch are read again
 * (those on screen) or dropped (the rest), so no screen polls and none keeps its own loading code.
 * A screen that opens reads afresh (see `watch`); what is kept between serves `fetch`.
 * Pure: no React, no transport; the tests drive it with a fake call.
 */

/** JSON with object keys sorted and undefined left out, so `{a, b}` and `{b, a}` are one key. */
export function stableStringify(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : stableStringify(item))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableStringify(item)}`).join(',')}}`;
}

export function cacheKey(operationId: string, input: unknown): string {
  return `${operationId} ${stableStringify(input ?? {})}`;
}

/** A read as the cache knows it: which operation, with which input (`params.orgId`, …). */
export interface CachedRead {
  operationId: string;
  input: { params?: Record<string, string> | undefined; query?: unknown };
}

/**
 * The invalidation rules, in one place: which reads an event makes stale. Only reads of the event's
 * organization; `resync` (events were lost) makes every read stale.
 *  - a shipment's status: the shipment lists, that shipment's read, and orders (their status is
 *    derived from their shipments);
 *  - print progress: the print-job lists (a card, the Print jobs screen).
 */
export function isInvalidatedBy<E extends ShipdeskEventName>(event: E, payload: ShipdeskEvents[E], read: CachedRead): boolean {
  if (event === 'resync') return true;
  const { orgId } = payload as ShipdeskEvents['shipment.statusChanged' | 'print.progress'];
  if (read.input.params?.orgId !== orgId) return false;
  if (event === 'shipment.statusChanged') {
    const { shipmentId } = payload as ShipdeskEvents['shipment.statusChanged'];
    if (read.operationId === 'shipments.get') return read.input.params?.shipmentId === shipmentId;
    return read.operationId === 'shipments.list' || read.operationId === 'orders.get' || read.operationId === 'orders.list';
  }
  return read.operationId === 'printJobs.list';
}

export interface ReadState<T = unknown> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
}

interface Entry extends CachedRead {
  state: ReadState;
  inFlight: Promise<unknown> | null;
  /** Made stale while a call was in flight: its answer may predate the change, so read once more. */
  again: boolean;
  listeners: Set<() => void>;
}

/** The state of a read about to be read afresh; one object, so React sees no change between asks. */
const OPENING: ReadState = Object.freeze({ data: undefined, error: undefined, loading: true });

/** Entries nobody shows are kept (for `fetch`, and calls in flight) up to this many, the oldest dropped first. */
const MAX_IDLE_ENTRIES = 200;

export type CallOperation = (operationId: string, input: unknown) => Promise<unknown>;

export class OperationCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly call: CallOperation) {}

  /** What a screen shows for this read now; starts the read if nothing is known yet. */
  snapshot(operationId: string, input: CachedRead['input']): ReadState {
    return this.entry(operationId, input).state;
  }

  /**
   * What a screen shows for this read, also before it starts watching: a read nobody watches will be
   * read afresh when the screen's `watch` comes, so the data kept from before is not shown meanwhile
   * (a form would show it, then lose it to "Loading…").
   */
  screenSnapshot(operationId: string, input: CachedRead['input']): ReadState {
    const entry = this.entry(operationId, input);
    return entry.listeners.size === 0 && !entry.inFlight ? OPENING : entry.state;
  }

  /**
   * Calls `listener` whenever the read's state changes. A screen that opens reads afresh, as screens
   * always did: pushes tell only of status changes, and what a form changed while nobody watched is
   * not one, so data kept from before is not shown as current. Screens already watching share it.
   */
  watch(operationId: string, input: CachedRead['input'], listener: () => void): () => void {
    const key = cacheKey(operationId, input);
    const entry = this.entry(operationId, input);
    const firstWatcher = entry.listeners.size === 0;
    entry.listeners.add(listener);
    if (firstWatcher && !entry.inFlight) {
      entry.state = { data: undefined, error: undefined, loading: true };
      void this.load(key, true).catch(() => undefined);
    }
    return () => {
      entry.listeners.delete(listener);
      this.trimIdle();
    };
  }

  /** Reads again (a Refresh button, an action's follow-up); shares a call already in flight. */
  reload(operationId: string, input: CachedRead['input']): Promise<unknown> {
    const key = cacheKey(operationId, input);
    this.entry(operationId, input);
    return this.load(key, true);
  }

  /**
   * The read's data, from the cache when it has it, else by calling (shared with any call in flight):
   * for flows that are not screens (the Pack screen's send-and-print wants the printers' names).
   */
  async fetch(operationId: string, input: CachedRead['input']): Promise<unknown> {
    const key = cacheKey(operationId, input);
    const entry = this.entry(operationId, input);
    if (entry.state.data !== undefined && !entry.again) return entry.state.data;
    return this.load(key);
  }

  /** A push arrived: entries it touches are read again when shown, dropped when not. */
  applyPush<E extends ShipdeskEventName>(event: E, payload: ShipdeskEvents[E]): void {
    for (const [key, entry] of [...this.entries]) {
      if (!isInvalidatedBy(event, payload, entry)) continue;
      if (entry.listeners.size > 0) void this.load(key, true);
      else if (entry.inFlight) entry.again = true;
      else this.entries.delete(key);
    }
  }

  /** Forgets everything (sign-out: another user must not see this one's reads). */
  clear(): void {
    for (const [key, entry] of this.entries) if (entry.listeners.size === 0) this.entries.delete(key);
    for (const entry of this.entries.values()) entry.state = { data: undefined, error: undefined, loading: true };
    for (const [key] of this.entries) void this.load(key, true);
  }

  /** How many entries are kept (tests). */
  get size(): number {
    return this.entries.size;
  }

  private entry(operationId: string, input: CachedRead['input']): Entry {
    const key = cacheKey(operationId, input);
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { operationId, input, state: { data: undefined, error: undefined, loading: true }, inFlight: null, again: false, listeners: new Set() };
      this.entries.set(key, entry);
    } else {
      // Map order is the eviction order: a use moves it to the back.
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /**
   * One call per entry at a time. A reload asked while one is in flight does not start a second
   * call: it marks the entry, and one more call follows when the first answers (a burst of pushes,
   * a batch send of 100, costs at most two reads per list).
   */
  private load(key: string, fresh = false): Promise<unknown> {
    const entry = this.entries.get(key);
    if (!entry) return Promise.resolve(undefined);
    if (entry.inFlight) {
      if (fresh) entry.again = true;
      return entry.inFlight;
    }
    entry.again = false;
    this.set(entry, { ...entry.state, loading: true });
    const call = this.call(entry.operationId, entry.input).then(
      (data) => {
        entry.inFlight = null;
        this.set(entry, { data, error: undefined, loading: false });
        if (entry.again && this.entries.get(key) === entry) void this.load(key, true);
        return data;
      },
      (error: unknown) => {
        entry.inFlight = null;
        // The data shown stays (a failed refresh does not blank a table); the error says why it is old.
        this.set(entry, { data: entry.state.data, error, loading: false });
        if (entry.again && this.entries.get(key) === entry) void this.load(key, true);
        throw error;
      },
    );
    entry.inFlight = call;
    call.catch(() => undefined);
    return call;
  }

  private set(entry: Entry, state: ReadState): void {
    entry.state = state;
    for (const listener of [...entry.listeners]) listener();
  }

  private trimIdle(): void {
    let idle = [...this.entries].filter(([, entry]) => entry.listeners.size === 0 && !entry.inFlight);
    while (idle.length > MAX_IDLE_ENTRIES) {
      const [key] = idle[0] as [string, Entry];
      this.entries.delete(key);
      idle = idle.slice(1);
    }
  }
}
