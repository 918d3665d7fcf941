import { EventStreamParser } from '../../../src-shared/eventStream';
import { shipdeskEventNames, type ShipdeskEventName, type ShipdeskEvents } from '../../../src-shared/ipc';
import { useSession } from './session';

/**
 * Pushes from main, one way in for the screens whichever door carries them: the preload's
 * `on(event, cb)` in the desktop app (IPC), or the server-sent event stream `GET /orgs/{orgId}/events`
 * in a browser. The stream is read with fetch (EventSource cannot send the Authorization header, and
 * the token never goes in a URL or a cookie), reconnects with a growing pause, and resumes with
 * Last-Event-ID (main answers `resync` when it cannot). Only events of the organization on screen
 * reach listeners; `resync` always does.
 */
type Listener<E extends ShipdeskEventName> = (payload: ShipdeskEvents[E]) => void;

const listeners = new Map<ShipdeskEventName, Set<Listener<never>>>();

function dispatch<E extends ShipdeskEventName>(event: E, payload: ShipdeskEvents[E]): void {
  if (event !== 'resync' && (payload as { orgId?: string }).orgId !== useSession.getState().orgId) return;
  for (const listener of [...(listeners.get(event) ?? [])]) {
    try {
      (listener as Listener<E>)(payload);
    } catch (error) {
      console.error(`A listener of ${event} failed:`, error);
    }
  }
}

/** Listens to one push; returns the function that stops listening. */
export function onPush<E extends ShipdeskEventName>(event: E, listener: Listener<E>): () => void {
  const set = listeners.get(event) ?? new Set();
  set.add(listener as Listener<never>);
  listeners.set(event, set);
  return () => {
    set.delete(listener as Listener<never>);
  };
}

const bridge = window.shipdesk;
if (bridge) {
  for (const event of shipdeskEventNames) bridge.on(event, (payload) => dispatch(event, payload));
} else {
  // One stream for the signed-in session and the organization on screen; a new one when they change.
  let stop: (() => void) | null = null;
  const follow = (state: ReturnType<typeof useSession.getState>) => {
    stop?.();
    stop = null;
    const token = state.login?.accessToken;
    if (token && state.orgId) stop = readEventStream(`/orgs/${encodeURIComponent(state.orgId)}/events`, token);
  };
  useSession.subscribe((state, previous) => {
    if (state.login?.accessToken !== previous.login?.accessToken || state.orgId !== previous.orgId) follow(state);
  });
  follow(useSession.getState());
}

/** Pauses before reconnecting: 1 s, doubling to 30 s, with some jitter so stations do not come back in step. */
export function reconnectDelay(failures: number, random = Math.random): number {
  const base = Math.min(30_000, 1000 * 2 ** Math.max(0, failures - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** Heartbeats come every 15 s; a stream silent for this long is taken as dead and opened again. */
const SILENCE_MS = 45_000;

function readEventStream(url: string, token: string): () => void {
  let stopped = false;
  let failures = 0;
  let lastEventId: string | undefined;
  let controller: AbortController | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const connect = async () => {
    controller = new AbortController();
    const current = controller;
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const feedWatchdog = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => current.abort(), SILENCE_MS);
    };
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream', authorization: `Bearer ${token}` };
      if (lastEventId) headers['last-event-id'] = lastEventId;
      feedWatchdog();
      const response = await fetch(url, { headers, signal: current.signal, cache: 'no-store' });
      // A refused credential will not get better by asking again; the next call's 401 signs out.
      if (response.status === 401 || response.status === 403) {
        stopped = true;
        return;
      }
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      failures = 0;
      const parser = new EventStreamParser();
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        feedWatchdog();
        for (const event of parser.push(value)) {
          if (event.id !== undefined) lastEventId = event.id;
          if (!(shipdeskEventNames as readonly string[]).includes(event.event)) continue;
          try {
            dispatch(event.event as ShipdeskEventName, JSON.parse(event.data) as never);
          } catch {
            // A malformed event is skipped, not the stream.
          }
        }
      }
    } catch {
      // Aborted (stop, watchdog) or the connection broke: reconnect below unless stopped.
    } finally {
      clearTimeout(watchdog);
    }
    if (stopped) return;
    failures += 1;
    retryTimer = setTimeout(() => void connect(), reconnectDelay(failures));
  };
  void connect();
  return () => {
    stopped = true;
    clearTimeout(retryTimer);
    controller?.abort();
  };
}
