/**
 * Headless mode: the same API and services as the desktop app, plus the built renderer, in a plain
 * Node process. `npm run serve` runs the bundle the build makes of it (out/main/serve.js, sharing
 * its chunks with the desktop app's main process); tsx can still run this file from source.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { appRoot } from './platform/appRoot';
import { type AppContext } from './app/kernel/context';
import { createAppContext } from './app/runtime/createApp';
import { databaseFile, defaultDataDir, parsePort, portFromEnv } from './app/runtime/config';
import { acquireInstanceLock } from './app/runtime/instanceLock';
import { buildServer, listen } from './http/server';
import { rendererIndex } from './http/renderer';
import { stationUrls } from './http/hosts';
import { runStartupChores } from './app/runtime/startup';
import { start as startWebhookDelivery } from './domain/webhooks/delivery';
import { startDailyBackups } from './app/runtime/dailyBackups';
import { startTrackingPoller } from './domain/tracking/poller';

/** How long a shutdown waits for requests still arriving (a client that sent half a request). */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: 'string' }, host: { type: 'string' } },
    strict: true,
  });
  const port = values.port !== undefined ? parsePort(values.port, '--port') : portFromEnv();
  const host = values.host ?? process.env.SHIPDESK_HOST ?? '127.0.0.1';
  const root = appRoot();
  const rendererDir = join(root, 'out', 'renderer');

  const dataDir = defaultDataDir();
  // Before the database is opened: start-up recovery must not touch another server's sends.
  const lock = acquireInstanceLock(databaseFile(dataDir));
  let app: AppContext | null = null;
  try {
    app = createAppContext({ dataDir });
    runStartupChores(app);
    const server = buildServer(app, { host, rendererDir, logger: process.env.SHIPDESK_LOG === '1' });
    const url = await listen(server, host, port);
    console.log(`Shipdesk listening on ${url}`);
    const stations = stationUrls(host, Number(new URL(url).port));
    if (stations.length) console.log(`Stations reach it at ${stations.join(', ')}`);
    // Without a build the API still works, but / would answer a bare JSON 404: say why.
    if (!rendererIndex(rendererDir)) console.warn(`Shipdesk: no built app in ${rendererDir}; run \`npm run build\` to serve it at ${url}/`);
    // Sends committed outbox events to webhooks; the schedule is in the database, so a restart resumes it.
    const webhookDelivery = startWebhookDelivery(app);
    // decisions §12: a backup a day, the newest seven kept, in the data folder's backups/.
    const dailyBackups = startDailyBackups(app);
    // decisions §13: asks the carriers about shipments in transit; the queue is the due column, so a restart resumes it.
    const trackingPoller = startTrackingPoller(app);

    const running = app;
    let closing = false;
    const shutdown = async () => {
      if (closing) return;
      closing = true;
      // Requests in flight finish; a client that never finishes its request is cut off after the grace.
      const cutOff = setTimeout(() => server.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      cutOff.unref();
      await server.close();
      await webhookDelivery.stop();
      await dailyBackups.stop();
      await trackingPoller.stop();
      running.close();
      lock.release();
      process.exit(0);
    };
    process.on('SIGINT', () => void shutdown());
    process.on('SIGTERM', () => void shutdown());
  } catch (error) {
    app?.close();
    lock.release();
    throw error;
  }
}

try {
  await main();
} catch (error) {
  // One line a person can act on (a taken port, a bad option, a database from a newer Shipdesk), not a stack.
  const code = (error as { code?: string }).code;
  const message =
    code === 'EADDRINUSE'
      ? `the port is already in use (${(error as Error).message}); stop the other Shipdesk or choose another port with --port`
      : error instanceof Error
        ? error.message
        : String(error);
  console.error(`Shipdesk could not start: ${message}`);
  process.exit(1);
}
