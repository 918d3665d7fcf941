import { ipcEventChannelOf, type ShipdeskEventName, type ShipdeskEvents } from '../../src-shared/ipc';

/** Anything with `send` (a webContents); structural so domain code and tests need no Electron. */
export interface WindowLike {
  send(channel: string, payload: unknown): void;
}

/** Pushes one typed event to a window; the preload's `on(event, cb)` receives it. */
export function pushEvent<E extends ShipdeskEventName>(target: WindowLike, event: E, payload: ShipdeskEvents[E]): void {
  target.send(ipcEventChannelOf(event), payload);
}
