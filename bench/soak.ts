/**
 * Soak: does the headless Shipdesk server stay flat over a working day — memory, latency, database
 * size? The server is the built headless server (`out/main/serve.js`, what `npm run serve` runs,
 * with the same Node options) in a process of its own, with everything it starts in use: webhook
 * delivery, backups, the tracking poller, pickups, shop sync, customer e-mails. This process is the
 * load: a packing station's mix at a steady paced rate, and a local webhook receiver that answers
 * 200 (the integration subscribed to every event, so the outbox and delivery tables grow as in use).
 * Of the paced actions, about 30 % create a shipment, 30 % get one just created, 15 % list page 1,
 * 10 % send one (a PDF label with the `local` carrier) and fetch its label, 10 % create an order
 * and a shipment from it; `rate` counts every request. Billing usage is polled every 5 s.
 * The organization (plan `unlimited`, an API token, a sender address, a `local` carrier) is made
 * through the domain functions in this process before the server opens the file.
 *
 * Every `every` seconds one line: requests and p50/p99 latency per kind in that interval, the
 * server's RSS (from /proc) and V8 heap (bench/lib/soakProbe.mjs, over the IPC channel), the SQLite
 * file + WAL size, the server's event-loop delay p99. At the end: the RSS samples minute by minute,
 * the slope of RSS over the last 10 minutes (or the last half of a shorter run) and whether it is
 * flat, the RSS against the 200 MB target beside two floors measured in the same run (the server's
 * own RSS when it started listening, and a bare Fastify + better-sqlite3 process on the same file,
 * bench/lib/startupFloor.mjs), and the database bytes per shipment.
 *
 * Run: npx tsx bench/soak.ts [minutes=3] [every=15] [rate=100] [loops=4] [build=1] [gc=0]
 *      npm run bench -- only=soak minutes=15     (bench/run.ts gives it the time it needs)
 *      gc=1 runs the server with --expose-gc and collects before each heap reading, to tell garbage
 *      from growth; the RSS figures of the target are from runs without it.
 * Prints figures, asserts nothing; exits non-zero if it crashes or more than 1 % of requests fail.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { eventTypes } from '../src-shared/schemas/webhook';
import { shipmentBody } from '../src-main/testing/harness';
import { machineLine, numberArg, percentile } from './lib/stats';
import { openBenchWarehouse } from './lib/warehouse';
import { serveNodeOptions } from './lib/serveOptions';

const minutes = numberArg('minutes', 3);
const everySeconds = numberArg('every', 15);
const rate = numberArg('rate', 100);
const loops = Math.max(1, Math.round(numberArg('loops', 4)));
const USAGE_EVERY_MS = 5000;
const build = numberArg('build', 1) !== 0;
const collect = numberArg('gc', 0) !== 0;
const TARGET_RSS_MB = 200;
/** The window whose RSS must be flat: the last 10 minutes of a run of 15 or more, else the last half (or more) of it. */
const FLAT_WINDOW_SECONDS = Math.min(600, Math.max((minutes * 60) / 2, minutes * 60 - 300));
const root = fileURLToPath(new URL('..', import.meta.url));
const serveJs = join(root, 'out', 'main', 'serve.js');
/** Ids the load keeps to pick from: enough to spread the gets, bounded so the bench itself never grows. */
const KEEP_IDS = 500;

const kinds = ['create', 'get', 'list', 'send', 'label', 'order', 'fromOrder', 'usage'] as const;
type Kind = (typeof kinds)[number];
type Action = 'create' | 'get' | 'list' | 'send' | 'order';
/**
 * One round of a loop: of 19 actions 6 creates, 6 gets, 3 lists, 2 sends (+ label) and 2 orders
 * (+ shipment from it), interleaved so a loop never runs a burst of one kind. Each loop starts at
 * another place in the round.
 */
const round: Action[] = [
  'create',
  'get',
  'list',
  'create',
  'get',
  'send',
  'create',
  'get',
  'order',
  'list',
  'create',
  'get',
  'send',
  'create',
  'get',
  'order',
  'list',
  'create',
  'get',
];

interface Interval {
  latencies: Record<Kind, number[]>;
  failed: number;
}
const newInterval = (): Interval => ({ latencies: Object.fromEntries(kinds.map((kind) => [kind, []])) as unknown as Record<Kind, number[]>, failed: 0 });

console.log(`bench/soak: ${machineLine()}`);
console.log(
  `${minutes} min at ${rate} req/s over ${loops} paced loops, a line every ${everySeconds} s (the first interval is the warm-up); ` +
    `the server in its own process (${serveJs}${serveNodeOptions.length ? ` with ${serveNodeOptions.join(' ')}` : ''})` +
    (collect ? ', a full GC before each heap reading (gc=1)' : ', memory read as it is, no forced GC'),
);
if (build) {
  const built = spawnSync('npm', ['run', 'build', '--', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('npm run build failed');
}

const mb = (bytes: number) => bytes / 1024 / 1024;
/** Resident memory of a process, from /proc (Linux), in bytes. */
function rssOf(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN);
  return kb * 1024;
}

/** Starts `args` with this Node, resolves with the URL from its "listening on" line. */
async function startProcess(args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1] as string);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      onData(chunk);
      // The server's own warnings (a slow statement, a failed delivery) belong in the soak's output.
      process.stderr.write(`server: ${chunk.toString()}`);
    });
    void exited.then((code) => reject(new Error(`${args.join(' ')} exited (${code}) before listening:\n${output}`)));
  });
  return { child, url, exited };
}

interface ServerMemory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  loopDelayP99: number;
}
/** The server's memory: RSS from /proc, the rest from the probe over IPC. */
function serverMemory(child: ChildProcess): Promise<ServerMemory> {
  return new Promise((resolve) => {
    const onMessage = (message: { type?: string } & Omit<ServerMemory, 'rss'>) => {
      if (message?.type !== 'memory') return;
      child.off('message', onMessage);
      resolve({ ...message, rss: rssOf(child.pid as number) });
    };
    child.on('message', onMessage);
    child.send({ type: 'memory', gc: collect });
  });
}

const warehouse = openBenchWarehouse();
let server: { child: ChildProcess; exited: Promise<number | null> } | undefined;
// Stopped with Ctrl-C or by bench/run.ts's limit: the server goes too (its probe also stops it when this process is gone).
process.on('exit', () => server?.child.kill('SIGTERM'));
try {
  const org = await warehouse.addOrg('Soak Warehouse');
  const dbFile = warehouse.app.db.$client.name;
  warehouse.closeDatabase();

  // The floor, in the same run: a bare Fastify + better-sqlite3 process on the same file, idle.
  const floor = await startProcess([join(root, 'bench', 'lib', 'startupFloor.mjs'), dbFile], {});
  await sleep(500);
  const floorRss = rssOf(floor.child.pid as number);
  floor.child.kill('SIGTERM');
  await floor.exited;

  const probe = join(root, 'bench', 'lib', 'soakProbe.mjs');
  const started = await startProcess([...serveNodeOptions, ...(collect ? ['--expose-gc'] : []), '--import', probe, serveJs], {
    SHIPDESK_DATA_DIR: warehouse.dataDir,
    SHIPDESK_PORT: '0',
    SHIPDESK_HOST: '127.0.0.1',
  });
  server = started;
  const rssAtListening = rssOf(started.child.pid as number);
  console.log(
    `server listening: RSS ${mb(rssAtListening).toFixed(1)} MB; the bare Fastify + better-sqlite3 floor on the same file: RSS ${mb(floorRss).toFixed(1)} MB`,
  );
  const baseUrl = `${started.url}/orgs/${org.orgId}`;
  const auth = { authorization: `Bearer ${org.token}` };
  const jsonAuth = { ...auth, 'content-type': 'application/json' };

  // The integration's end of the webhooks: answers 200 to everything, counts what arrives.
  let webhooksReceived = 0;
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      webhooksReceived++;
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/shipdesk`;

  const post = async (path: string, body: unknown) => {
    const response = await fetch(baseUrl + path, { method: 'POST', headers: jsonAuth, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as { id: string };
  };
  // An integration listening to every event: the most the outbox and deliveries carry in real use.
  await post('/webhooks', { name: 'Soak receiver', url: receiverUrl, events: [...eventTypes] });
  const channel = await post('/order-channels', { name: 'Manual', type: 'manual' });

  let interval = newInterval();
  const failures = new Map<string, number>();
  const countFailure = (what: string) => {
    interval.failed++;
    failures.set(what, (failures.get(what) ?? 0) + 1);
  };
  let requestsDone = 0;

  /** One request; its latency goes to `kind`. Answers the JSON body (or true for binary) on 2xx, else undefined and counts the failure. */
  async function call(kind: Kind, method: 'GET' | 'POST', path: string, body?: unknown): Promise<any> {
    const started = performance.now();
    try {
      const response = await fetch(baseUrl + path, {
        method,
        headers: body === undefined ? auth : jsonAuth,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      // The label is a PDF; everything else answers JSON.
      const answer = kind === 'label' && response.ok ? await response.arrayBuffer() : await response.text();
      requestsDone++;
      if (response.ok) {
        interval.latencies[kind].push(performance.now() - started);
        return typeof answer === 'string' ? JSON.parse(answer) : true;
      }
      let code = '?';
      try {
        code = (JSON.parse(answer as string) as { code?: string }).code ?? '?';
      } catch {
        // not JSON: the status says enough
      }
      countFailure(`${kind} ${response.status} ${code}`);
    } catch (error) {
      requestsDone++;
      countFailure(`${kind} no answer: ${error instanceof Error ? error.message : String(error)}`);
    }
    return undefined;
  }

  const createBody = shipmentBody(org.carrierId);
  const fromOrderBody = { carrierId: org.carrierId, productId: 'local_parcel' };
  let orderCounter = 0;
  const orderBody = () => ({
    orderNumber: `SOAK-${++orderCounter}`,
    orderChannelId: channel.id,
    customerEmail: 'kim@example.dk',
    shippingAddress: { name: 'Kim Larsen', address1: 'Vestergade 3', city: 'Odense', postalCode: '5000', countryCode: 'DK' },
    orderLines: [
      { name: 'Mug', sku: 'MUG-01', quantity: 2, weight: 400, weightUnit: 'g', unitPrice: 50 },
      { name: 'Tea', sku: 'TEA-02', quantity: 3, weight: 0.2, weightUnit: 'kg', unitPrice: 30 },
    ],
  });

  const recent: string[] = []; // shipments created lately, for gets
  const unsent: string[] = []; // shipments not sent yet, oldest first, for sends
  const keep = (id: string) => {
    recent.push(id);
    unsent.push(id);
    if (recent.length > KEEP_IDS) recent.shift();
    if (unsent.length > KEEP_IDS) unsent.shift(); // stays pending, as an unpacked order would
  };

  /** Runs one action; answers how many requests it made (the pacing is per request). */
  async function act(action: Action): Promise<number> {
    if (action === 'get' && recent.length) {
      await call('get', 'GET', `/shipments/${recent[Math.floor(Math.random() * recent.length)]}`);
      return 1;
    }
    if (action === 'list') {
      await call('list', 'GET', '/shipments?page=1&limit=20');
      return 1;
    }
    if (action === 'send' && unsent.length) {
      const sent = await call('send', 'POST', `/shipments/${unsent.shift()}/send`, {});
      if (!sent) return 1;
      const label = sent.documents?.[0];
      if (!label) {
        countFailure('send answered without a document');
        return 1;
      }
      await call('label', 'GET', `/shipments/${sent.id}/documents/${label.id}/content`);
      return 2;
    }
    if (action === 'order') {
      const order = await call('order', 'POST', '/orders', orderBody());
      if (!order) return 1;
      const shipment = await call('fromOrder', 'POST', `/orders/${order.id}/shipments`, fromOrderBody);
      if (shipment) keep(shipment.id);
      return 2;
    }
    // A create, also for a get or send with nothing to work on yet (the first moments).
    const created = await call('create', 'POST', '/shipments', createBody);
    if (created) keep(created.id);
    return 1;
  }

  // Each loop makes rate/loops requests a second; one that falls behind carries on without a burst to catch up.
  const periodMs = (loops * 1000) / rate;
  const paceLoops = Array.from({ length: loops }, (_, loop) => ({ step: Math.floor((loop * round.length) / loops) }));
  async function paceLoop(loop: { step: number }, until: number): Promise<void> {
    let next = performance.now();
    while (performance.now() < until) {
      const requests = await act(round[loop.step++ % round.length] as Action);
      next += requests * periodMs;
      const wait = next - performance.now();
      if (wait > 0) await sleep(wait);
      else next = performance.now();
    }
  }
  // Usage is polled on a clock, as a dashboard left open does, outside the paced share.
  let nextUsageAt = performance.now();
  async function pollUsage(until: number): Promise<void> {
    for (;;) {
      const wait = nextUsageAt - performance.now();
      if (nextUsageAt >= until) return;
      if (wait > 0) await sleep(wait);
      await call('usage', 'GET', '/billing/usage');
      nextUsageAt += USAGE_EVERY_MS;
    }
  }

  const sizeOf = (file: string) => {
    try {
      return statSync(file).size;
    } catch {
      return 0; // no WAL (yet, or after a truncating checkpoint)
    }
  };
  // Read by this process on the server's file (WAL: readers never block the server's writes).
  const reader = new Database(dbFile, { readonly: true });
  const shipmentCount = () => reader.prepare('SELECT COUNT(*) FROM shipments WHERE org_id = ?').pluck().get(org.orgId) as number;
  const dbBytesAtStart = sizeOf(dbFile) + sizeOf(`${dbFile}-wal`);
  const shipmentsAtStart = shipmentCount();

  const pad = (value: string, width: number) => value.padStart(width);
  console.log('per kind: requests in the interval and p50/p99 latency in ms; then the server process: RSS, V8 heap used, event-loop delay p99');

  interface Reading {
    elapsedSeconds: number;
    rss: number;
    heapUsed: number;
    p99: Record<Kind, number>;
  }
  const readings: Reading[] = [];
  const startedAt = performance.now();
  const intervalCount = Math.max(1, Math.round((minutes * 60) / everySeconds));
  for (let n = 1; n <= intervalCount; n++) {
    const until = startedAt + n * everySeconds * 1000;
    await Promise.all([...paceLoops.map((loop) => paceLoop(loop, until)), pollUsage(until)]);
    const elapsedSeconds = (performance.now() - startedAt) / 1000;
    const memory = await serverMemory(started.child);
    const done = interval;
    interval = newInterval();
    const p99 = Object.fromEntries(kinds.map((kind) => [kind, percentile(done.latencies[kind], 99)])) as Record<Kind, number>;
    readings.push({ elapsedSeconds, rss: memory.rss, heapUsed: memory.heapUsed, p99 });
    const perKind = kinds
      .map((kind) => {
        const samples = done.latencies[kind];
        return samples.length ? `${kind} ${samples.length} ${percentile(samples, 50).toFixed(1)}/${p99[kind].toFixed(1)}` : `${kind} 0`;
      })
      .join('  ');
    console.log(
      `${pad(elapsedSeconds.toFixed(0), 5)} s  ${perKind}${done.failed ? `  FAILED ${done.failed}` : ''}  | rss ${mb(memory.rss).toFixed(1)} MB  heap ${mb(memory.heapUsed).toFixed(1)} MB` +
        ` (total ${mb(memory.heapTotal).toFixed(0)}, external ${mb(memory.external).toFixed(0)}, buffers ${mb(memory.arrayBuffers).toFixed(0)})` +
        `  | db ${mb(sizeOf(dbFile)).toFixed(1)} MB + wal ${mb(sizeOf(`${dbFile}-wal`)).toFixed(1)} MB  | loop delay p99 ${memory.loopDelayP99.toFixed(1)} ms  | webhooks received ${webhooksReceived}`,
    );
  }
  const rssAtEnd = rssOf(started.child.pid as number);

  // The server stops as on Ctrl-C: requests finish, background work stops, the database is closed.
  started.child.kill('SIGTERM');
  const exitCode = await started.exited;
  server = undefined;
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));

  console.log('summary:');
  // The first reading of each minute, and the last.
  const minuteOf = (reading: Reading) => Math.floor((reading.elapsedSeconds + 1) / 60);
  const byMinute = readings.filter(
    (reading, index) => index === readings.length - 1 || minuteOf(reading) !== minuteOf(readings[index - 1] ?? { ...reading, elapsedSeconds: -60 }),
  );
  console.log(
    `  server RSS over time (MB): ${byMinute.map((reading) => `${(reading.elapsedSeconds / 60).toFixed(1)} min ${mb(reading.rss).toFixed(0)}`).join(', ')}`,
  );
  const last = readings[readings.length - 1] as Reading;
  const window = readings.filter((reading) => reading.elapsedSeconds >= last.elapsedSeconds - FLAT_WINDOW_SECONDS - 1);
  if (window.length >= 3) {
    // Least-squares slope of RSS over the window, in MB per minute.
    const xs = window.map((reading) => reading.elapsedSeconds / 60);
    const ys = window.map((reading) => mb(reading.rss));
    const meanX = xs.reduce((sum, x) => sum + x, 0) / xs.length;
    const meanY = ys.reduce((sum, y) => sum + y, 0) / ys.length;
    const slope = xs.reduce((sum, x, i) => sum + (x - meanX) * ((ys[i] as number) - meanY), 0) / xs.reduce((sum, x) => sum + (x - meanX) ** 2, 0);
    const windowMinutes = (FLAT_WINDOW_SECONDS / 60).toFixed(FLAT_WINDOW_SECONDS % 60 ? 1 : 0);
    // Flat: the fitted line grows at most 0.5 MB a minute, 5 MB over 10 minutes (a falling one is not growth).
    const flat = slope <= 0.5;
    console.log(
      `  the last ${windowMinutes} min: RSS ${Math.min(...ys).toFixed(1)}–${Math.max(...ys).toFixed(1)} MB, slope ${slope >= 0 ? '+' : ''}${slope.toFixed(2)} MB/min ` +
        `(${(slope * 60).toFixed(0)} MB/hour): ${flat ? 'flat' : 'NOT flat'} (flat: slope ≤ +0.5 MB/min)` +
        (FLAT_WINDOW_SECONDS < 600 ? '; the target asks for the last 10 min of a 15-min soak: run minutes=15' : ''),
    );
    const heaps = window.map((reading) => mb(reading.heapUsed));
    console.log(`  heap used over the same window: ${Math.min(...heaps).toFixed(1)}–${Math.max(...heaps).toFixed(1)} MB`);
  } else {
    console.log(`  only ${readings.length} reading(s): the flatness needs at least three in the window; run longer or with a smaller every=`);
  }
  console.log(
    `  server RSS at the end ${mb(rssAtEnd).toFixed(1)} MB (target < ${TARGET_RSS_MB} MB: ${mb(rssAtEnd) < TARGET_RSS_MB ? 'met' : 'MISSED'}); ` +
      `floors in this run: the server when it started listening ${mb(rssAtListening).toFixed(1)} MB, a bare Fastify + better-sqlite3 process on the same file ${mb(floorRss).toFixed(1)} MB`,
  );
  const first = readings[1];
  if (first && first !== last) {
    console.log(
      `  p99 latency, interval 2 → last: ${kinds.map((kind) => `${kind} ${first.p99[kind].toFixed(1)} → ${last.p99[kind].toFixed(1)} ms`).join(', ')}`,
    );
  }
  const shipmentsCreated = shipmentCount() - shipmentsAtStart;
  reader.close();
  // The server's close checkpointed the WAL into the file.
  const dbGrowth = sizeOf(dbFile) + sizeOf(`${dbFile}-wal`) - dbBytesAtStart;
  console.log(
    `  database ${mb(dbBytesAtStart).toFixed(1)} → ${mb(sizeOf(dbFile) + sizeOf(`${dbFile}-wal`)).toFixed(1)} MB: ${shipmentsCreated} shipments created, ` +
      `${Math.round(dbGrowth / Math.max(1, shipmentsCreated))} bytes per shipment (with its orders, events, deliveries and the labels of those sent)`,
  );
  const counts = new Database(dbFile, { readonly: true });
  const rows = (sql: string) => counts.prepare(sql).pluck().get() as number;
  console.log(
    `  outbox events ${rows('SELECT COUNT(*) FROM outbox_events')} (${rows('SELECT COUNT(*) FROM outbox_events WHERE dispatched_at IS NULL')} not dispatched), ` +
      `webhook deliveries ${rows('SELECT COUNT(*) FROM webhook_deliveries')} (${rows('SELECT COUNT(*) FROM webhook_deliveries WHERE next_attempt_at IS NOT NULL')} still due), received ${webhooksReceived}; ` +
      `the server exited with ${exitCode}`,
  );
  counts.close();
  const failedTotal = [...failures.values()].reduce((sum, count) => sum + count, 0);
  console.log(
    `  requests ${requestsDone}, failed ${failedTotal}${failedTotal ? `: ${[...failures].map(([what, count]) => `${what} ×${count}`).join(', ')}` : ''}`,
  );
  if (failedTotal > requestsDone / 100) {
    console.log(`more than 1 % of the requests failed (${failedTotal} of ${requestsDone}): the figures above do not describe a working server`);
    process.exitCode = 1;
  }
} finally {
  if (server) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  warehouse.dispose();
}
