import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { ipcChannelOf, ipcEventChannelOf, ipcLogoutChannel } from '../../src-shared/ipc';
import type { ShipdeskBridge } from '../../src-shared/bridge';

/**
 * The renderer's only way into main: one object, `window.shipdesk`. It relays calls and pushes and
 * decides nothing; main checks the sender and parses every input with the operation's schemas.
 */
const bridge = {
  invoke: (operationId, input) => ipcRenderer.invoke(ipcChannelOf(operationId), input),
  on: (event, listener) => {
    const channel = ipcEventChannelOf(event);
    // The IPC event object (with `sender`) never reaches the page, only the payload.
    const relay = (_event: IpcRendererEvent, payload: unknown) => listener(payload as never);
    ipcRenderer.on(channel, relay);
    return () => {
      ipcRenderer.removeListener(channel, relay);
    };
  },
  logout: async () => {
    await ipcRenderer.invoke(ipcLogoutChannel);
  },
} satisfies ShipdeskBridge;

contextBridge.exposeInMainWorld('shipdesk', bridge);
