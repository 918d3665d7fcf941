import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base } from '@playwright/test';
import { spawnServe } from '../src-main/testing/serveProcess';

export interface ShipdeskServer {
  url: string;
  dataDir: string;
}

/** Starts `src-main/serve.ts` (the built renderer plus the API) on a free port and a fresh data folder. */
export async function startServer(): Promise<ShipdeskServer & { stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'shipdesk-e2e-'));
  const { url, child } = await spawnServe([], { ...process.env, SHIPDESK_PORT: '0', SHIPDESK_DATA_DIR: dataDir });
  return {
    url,
    dataDir,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One server per test file, shared by its tests in order. A worker runs several files one after the
 * other (workers: 1), so a worker-scoped server alone would carry one file's data into the next: the
 * worker keeps the current file's server and replaces it when a test of another file starts.
 */
interface ServerPerFile {
  /** The test file (and `--repeat-each` round) the server belongs to. */
  file: string | null;
  server: Awaited<ReturnType<typeof startServer>> | null;
}

export const test = base.extend<{ server: ShipdeskServer; baseURL: string }, { serverPerFile: ServerPerFile }>({
  serverPerFile: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as the first argument
    async ({}, use) => {
      const holder: ServerPerFile = { file: null, server: null };
      await use(holder);
      await holder.server?.stop();
    },
    { scope: 'worker' },
  ],
  server: async ({ serverPerFile }, use, testInfo) => {
    // `--repeat-each` runs the file's tests again in the same worker: each round gets its own server too.
    const key = `${testInfo.file}#${testInfo.repeatEachIndex}`;
    if (!serverPerFile.server || serverPerFile.file !== key) {
      await serverPerFile.server?.stop();
      serverPerFile.server = null;
      serverPerFile.server = await startServer();
      serverPerFile.file = key;
    }
    await use(serverPerFile.server);
  },
  baseURL: async ({ server }, use) => use(server.url),
});

export { expect } from '@playwright/test';
