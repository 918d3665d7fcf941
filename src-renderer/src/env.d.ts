import type { ShipdeskBridge } from '../../src-shared/bridge';

declare global {
  interface Window {
    /** Set by the Electron preload; absent when the renderer runs in a plain browser (headless mode). */
    shipdesk?: ShipdeskBridge;
  }
}

export {};
