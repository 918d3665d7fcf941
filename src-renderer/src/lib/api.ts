import { useCallback, useEffect, useRef, useState } from 'react';
import { createClient, httpTransport, ipcTransport } from '../../../src-shared/client';
import { useSession } from './session';

const bridge = window.shipdesk;

/** Inside Electron main keeps the session per window (IPC); in a browser every request carries the JWT. */
export const transportName = bridge ? 'IPC' : 'HTTP';

export const client = createClient(
  bridge
    ? ipcTransport((operationId, input) => bridge.invoke(operationId, input))
    : // Served by the headless server itself, so the API is on the same origin.
      httpTransport({ baseUrl: '', getToken: () => useSession.getState().login?.accessToken }),
);

/** Ends the session on both sides: main's copy (IPC) and the one in memory here. */
export async function signOut(): Promise<void> {
  await bridge?.logout();
  useSession.getState().signedOut();
}

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs `load` when `key` changes and on reload(); a slower earlier answer never overwrites a newer
 * one. The data shown stays until the next answer arrives, so tables do not flicker while paging.
 */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({ data: undefined, error: undefined, loading: true });
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    const ticket = ++latest.current;
    setState((previous) => ({ ...previous, loading: true }));
    loadRef.current().then(
      (data) => ticket === latest.current && setState({ data, error: undefined, loading: false }),
      (error: unknown) => ticket === latest.current && setState((previous) => ({ data: previous.data, error, loading: false })),
    );
  }, [key, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { ...state, reload };
}
