import { ApiError, MAX_DETAILS } from '../../src-shared/errors';
import { operations } from '../../src-shared/operations';
import { ipcChannelOf, type AnyOperation } from '../../src-shared/operation';
import { ipcLogoutChannel, type IpcEnvelope } from '../../src-shared/ipc';
import { loginResponse } from '../../src-shared/schemas/system';
import type { AppContext } from '../app/kernel/context';
import { execute, type RawInput } from '../app/dispatcher/execute';
import { JsonText } from '../app/kernel/jsonText';
import { toApiError } from '../app/dispatcher/errors';

/** The part of an `IpcMainInvokeEvent` the IPC door reads; Electron's event fits it. */
export interface IpcInvokeEventLike {
  /** The calling window; `mainFrame` is its top frame (Electron's WebContents has it). */
  sender: { id: number; mainFrame?: unknown };
  senderFrame: { url: string } | null;
}

/** The part of Electron's `ipcMain` the IPC door uses, so tests can pass a Map-backed fake. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown): void;
}

export interface IpcRegisterOptions {
  /** Main passes a check that the calling frame is our `app://` page (not an iframe or a stray page). */
  isTrustedSender(event: IpcInvokeEventLike): boolean;
  /** Where unexpected (500) failures are reported; the renderer only sees INTERNAL_ERROR. */
  logError?: (operationId: string, error: unknown) => void;
}

export interface IpcRegistration {
  /** Every channel handled, one per operation plus the logout channel. */
  channels: string[];
  /** Drops a window's session (main calls it when the window navigates or closes). */
  forget(senderId: number): void;
  /** The credential a window is signed in with (`Bearer …`), for its pushes (windowPushes.ts). */
  sessionOf(senderId: number): string | undefined;
}

/**
 * The IPC door: every operation of the table on `ipcMain.handle`, all through the one dispatcher.
 * The renderer never holds the key to another window's session: credentials are kept here per
 * webContents, set by a successful login over IPC (`auth.login`, or `setup.create` on first run).
 */
export function registerIpcHandlers(ipcMain: IpcMainLike, app: AppContext, options: IpcRegisterOptions): IpcRegistration {
  const sessions = new Map<number, string>();
  const channels: string[] = [];

  for (const op of operations as readonly AnyOperation[]) {
    const channel = ipcChannelOf(op.id);
    ipcMain.handle(channel, async (event, rawInput): Promise<IpcEnvelope> => {
      try {
        if (!options.isTrustedSender(event)) {
          throw new ApiError('FORBIDDEN', 'Calls are only accepted from the Shipdesk window');
        }
        const senderId = event.sender.id;
        const result = await execute(app, op.id, parseIpcInput(rawInput), {
          authorization: sessions.get(senderId),
          client: `ipc:${senderId}`,
        });
        // Every answer that is a login signs this window in: auth.login, and the first-run setup,
        // after which the renderer shows the signed-in shell at once.
        if (op.response === loginResponse) {
          sessions.set(senderId, `Bearer ${(result.body as { accessToken: string }).accessToken}`);
        }
        // The renderer gets values, not JSON text (structured clone).
        return { ok: true, data: result.body instanceof JsonText ? result.body.parse() : result.body };
      } catch (error) {
        const apiError = toApiError(error);
        if (apiError.status >= 500) options.logError?.(op.id, error);
        return { ok: false, error: apiError.toBody() };
      }
    });
    channels.push(channel);
  }

  ipcMain.handle(ipcLogoutChannel, (event) => {
    // Only the sender's own session can be dropped, so an untrusted frame gains nothing here.
    sessions.delete(event.sender.id);
  });
  channels.push(ipcLogoutChannel);

  return { channels, forget: (senderId) => sessions.delete(senderId), sessionOf: (senderId) => sessions.get(senderId) };
}

const inputParts = new Set(['params', 'query', 'body']);

/** Input crosses IPC as `{params?, query?, body?}`; anything else is refused, never dropped. */
export function parseIpcInput(raw: unknown): RawInput {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ApiError('VALIDATION_FAILED', 'IPC input must be an object {params, query, body}', {
      details: [{ path: '', message: 'Expected an object' }],
    });
  }
  const unknown = Object.keys(raw).filter((key) => !inputParts.has(key));
  if (unknown.length > 0) {
    // Bounded like every other 400 (decisions §1): the first MAX_DETAILS parts, not 80 000 of them.
    const listed = unknown.slice(0, MAX_DETAILS);
    throw new ApiError('VALIDATION_FAILED', `Unknown IPC input part ${listed.slice(0, 5).join(', ')}${unknown.length > 5 ? ', …' : ''}`, {
      details: listed.map((key) => ({ path: key, message: 'Unrecognized key; expected params, query or body' })),
    });
  }
  const input = raw as RawInput;
  return { params: input.params, query: input.query, body: input.body };
}
