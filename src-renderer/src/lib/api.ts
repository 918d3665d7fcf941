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

/** A read as a screen shows it (useOperation's answer is one). */
export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}
