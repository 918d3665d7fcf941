/**
 * Headless mode: the same API and services as the desktop app, plus the built renderer, in a plain
 * Node process. `npm run serve`.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createAppContext } from './app/context';
import { defaultDataDir, portFromEnv } from './app/config';
import { buildServer, listen } from './http/server';
import { runStartupChores } from './app/startup';
import { start as startWebhookDelivery } from './domain/webhookDelivery';
import { startDailyBackups } from './app/dailyBackups';

const { values } = parseArgs({
  options: { port: { type: 'string' }, host: { type: 'string' } },
  strict: true,
});

const port = portFromEnv(values.port !== undefined ? { SHIPDESK_PORT: values.port } : process.env);
const host = values.host ?? process.env.SHIPDESK_HOST ?? '127.0.0.1';
const rendererDir = fileURLToPath(new URL('../out/renderer', import.meta.url));

const app = createAppContext({ dataDir: defaultDataDir() });
runStartupChores(app);
const server = buildServer(app, { host, rendererDir, logger: process.env.SHIPDESK_LOG === '1' });
const url = await listen(server, host, port);
console.log(`Shipdesk listening on ${url}`);
// Sends committed outbox events to webhooks; the schedule is in the database, so a restart resumes it.
const webhookDelivery = startWebhookDelivery(app);
// decisions §12: a backup a day, the newest seven kept, in the data folder's backups/.
const dailyBackups = startDailyBackups(app);

let closing = false;
async function shutdown(): Promise<void> {
  if (closing) return;
  closing = true;
  await server.close();
  await webhookDelivery.stop();
  await dailyBackups.stop();
  app.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
