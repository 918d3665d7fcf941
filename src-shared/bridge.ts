import type { IpcCallInput, IpcEnvelope, ShipdeskEventName, ShipdeskEvents } from './ipc';
import type { OperationId } from './operations';

// Apart from ipc.ts, which operation.ts re-exports from: the bridge names the operation table's
// ids, and the table must not depend on itself through the channel names.
/** What the preload exposes as `window.shipdesk`. */
export interface ShipdeskBridge {
  /** Runs one operation of the table; resolves with an envelope, never rejects for API errors. */
  invoke(operationId: OperationId, input: IpcCallInput | undefined): Promise<IpcEnvelope>;
  /** Listens to one push; returns the function that stops listening. */
  on<E extends ShipdeskEventName>(event: E, listener: (payload: ShipdeskEvents[E]) => void): () => void;
  /** Forgets the credential main keeps for this window. */
  logout(): Promise<void>;
}
