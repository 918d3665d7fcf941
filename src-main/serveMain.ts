/**
 * Headless mode (entered through serve.ts): the same API and services as the desktop app, plus the built renderer, in a plain
 * Node process. `npm run serve` runs the bundle the build makes of it (out/main/serve.js, sharing
 * its chunks with the desktop app's main process); tsx can still run this file from source.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { appRoot } from './platform/appRoot';
import { type AppContext, type ProfileName } from './app/kernel/context';
import { createAppContext } from './app/runtime/createApp';
import { defaultDataDir, parsePort, portFromEnv } from './app/runtime/config';
import { profileFiles, profileSwitch } from './app/runtime/profiles';
import { acquireInstanceLock } from './app/runtime/instanceLock';
import { buildServer, listen } from './http/server';
import { rendererIndex } from './http/renderer';
import { stationUrls } from './http/hosts';
import { runStartupChores } from './app/runtime/startup';
import { start as startWebhookDelivery } from './domain/webhooks/delivery';
import { start as startCustomerEmails } from './domain/email/messages';
import { start as startShopWriteBack } from './domain/shopWriteBack/outbox';
import { startDailyBackups } from './app/runtime/dailyBackups';
import { startDailyPickups } from './domain/pickups/scheduler';
import { startScheduledSync } from './domain/orderChannels/scheduledSync';
import { startTrackingPoller } from './domain/tracking/poller';

/** How long a shutdown waits for requests still arriving (a client that sent half a request). */
const SHUTDOWN_GRACE_MS = 10_000;
/** A switch of profile waits less: the renderer reloads anyway, and an event stream ends at once. */
const SWITCH_GRACE_MS = 2_000;

/** One profile's database served: the context, the HTTP door and the background work over it. */
interface Serving {
  app: AppContext;
  server: ReturnType<typeof buildServer>;
  url: string;
  stop(graceMs: number): Promise<void>;
}

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
  const files = profileFiles(dataDir);

  /** Opens `profile`'s file and serves it on `listenPort`; demo mode reopens the other file on the same port. */
  const serve = async (profile: ProfileName, listenPort: number): Promise<Serving> => {
    // Before the database is opened: start-up recovery must not touch another server's sends.
    const lock = acquireInstanceLock(files[profile]);
    let app: AppContext | null = null;
    try {
      app = createAppContext({ dataDir, databaseFile: files[profile] });
      app.profiles = profileSwitch({ dataDir, files, current: profile, reopen: (target) => void switchTo(target) }, () => running.app);
      runStartupChores(app);
      const server = buildServer(app, { host, rendererDir, logger: process.env.SHIPDESK_LOG === '1' });
      const url = await listen(server, host, listenPort);
      // Sends committed outbox events to webhooks; the schedule is in the database, so a restart resumes it.
      const webhookDelivery = startWebhookDelivery(app);
      // decisions §12: a backup a day, the newest seven kept, in the data folder's backups/.
      const dailyBackups = startDailyBackups(app);
      // decisions §13: asks the carriers about shipments in transit; the queue is the due column, so a restart resumes it.
      const trackingPoller = startTrackingPoller(app);
      // Issue 21: books each daily pickup once per working day; the day's row is the claim, so a restart never books twice.
      const dailyPickups = startDailyPickups(app);
      // Issue 22: syncs storefront channels on their interval; the due time and lease are in the database, so a restart resumes it.
      const scheduledSync = startScheduledSync(app);
      // Issue 22: customer e-mails queued with their dispatch; the queue is in the database, so a restart resumes it.
      const customerEmails = startCustomerEmails(app);
      // Issue 22: tells the shops what was dispatched; the outbox is in the database, so a restart resumes it.
      const shopWriteBack = startShopWriteBack(app);
      const opened = app;
      return {
        app: opened,
        server,
        url,
        stop: async (graceMs) => {
          // Requests in flight finish; a client that never finishes its request is cut off after the grace.
          const cutOff = setTimeout(() => server.server.closeAllConnections(), graceMs);
          cutOff.unref();
          await server.close();
          clearTimeout(cutOff);
          await webhookDelivery.stop();
          await dailyBackups.stop();
          await trackingPoller.stop();
          await dailyPickups.stop();
          await scheduledSync.stop();
          await customerEmails.stop();
          await shopWriteBack.stop();
          opened.close();
          lock.release();
        },
      };
    } catch (error) {
      app?.close();
      lock.release();
      throw error;
    }
  };

  let running = await serve(files.startIn, port);
  const url = running.url;
  console.log(`Shipdesk listening on ${url}${files.startIn === 'demo' ? ' (demo profile)' : ''}`);
  const stations = stationUrls(host, Number(new URL(url).port));
  if (stations.length) console.log(`Stations reach it at ${stations.join(', ')}`);
  // Without a build the API still works, but / would answer a bare JSON 404: say why.
  if (!rendererIndex(rendererDir)) console.warn(`Shipdesk: no built app in ${rendererDir}; run \`npm run build\` to serve it at ${url}/`);

  // Demo mode: the doors close on one file and open on the other, on the same port (docs/decisions.md).
  let switching: Promise<void> = Promise.resolve();
  const switchTo = (target: ProfileName): Promise<void> =>
    (switching = switching.then(async () => {
      const previous = running.app.profiles?.current ?? files.startIn;
      await running.stop(SWITCH_GRACE_MS);
      try {
        running = await serve(target, Number(new URL(url).port));
        console.log(`Shipdesk switched to the ${target === 'demo' ? 'demo' : 'real'} profile`);
      } catch (error) {
        console.error(`Shipdesk could not open the ${target} profile, back to the ${previous} one:`, error);
        running = await serve(previous, Number(new URL(url).port));
      }
    }));

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await switching;
    await running.stop(SHUTDOWN_GRACE_MS);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
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
