/**
 * Soak: does a Shipdesk server that runs all day stay flat — memory, latency, database size?
 * A packing station's mix at a steady paced rate against the real server, with webhook delivery
 * running to a local receiver that answers 200 (so the outbox and delivery tables grow as in use).
 * Of the paced actions, about 30 % create a shipment, 30 % get one just created, 15 % list page 1,
 * 10 % send one (a PDF label with the `local` carrier) and fetch its label, 10 % create an order
 * and a shipment from it; `rate` counts every request. Billing usage is polled every 5 s.
 * Every `every` seconds one line: requests and p50/p99 latency per kind in that interval, the
 * process's RSS and V8 heapUsed, the SQLite file + WAL size, and the event loop's delay p99.
 * At the end: growth from the first interval after warm-up (the first interval is the warm-up:
 * JIT, caches, SQLite's page cache) to the last, and the database bytes per shipment created.
 * Server, load and webhook receiver share this one process, so RSS and heap are the server's plus
 * a small load generator whose own state is bounded. The heap grows until the shipment read cache
 * (domain/shipments/readCache.ts) reaches its bound, about 14 minutes at the default rate on a
 * 2-core VM; a shorter run shows that filling, so the summary says how full it is.
 *
 * Run: npx tsx bench/soak.ts [minutes=3] [every=15] [rate=100] [loops=4]
 *      npx tsx --expose-gc bench/soak.ts …  gives steadier heap figures: a full GC before each
 *      reading, so garbage not yet collected does not pass for growth.
 * Prints figures, asserts nothing; exits non-zero if it crashes or more than 1 % of requests fail.
 */
import { statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventTypes } from '../src-shared/schemas/webhook';
import { whenDurable } from '../src-main/db/groupCommit';
import { start as startWebhookDelivery } from '../src-main/domain/webhooks/delivery';
import { buildServer, listen } from '../src-main/http/server';
import { shipmentBody } from '../src-main/testing/harness';
import { machineLine, numberArg, percentile } from './lib/stats';
import { openBenchWarehouse, slowQueries } from './lib/warehouse';

const minutes = numberArg('minutes', 3);
const everySeconds = numberArg('every', 15);
const rate = numberArg('rate', 100);
const loops = Math.max(1, Math.round(numberArg('loops', 4)));
const USAGE_EVERY_MS = 5000;
const LOOP_SAMPLE_MS = 10;
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

const gc = globalThis.gc;
console.log(`bench/soak: ${machineLine()}`);
console.log(
  `${minutes} min at ${rate} req/s over ${loops} paced loops, a line every ${everySeconds} s (the first interval is the warm-up); ` +
    (gc
      ? 'a full GC before each memory reading'
      : 'gc NOT exposed: heap figures include uncollected garbage (run with npx tsx --expose-gc bench/soak.ts for steadier ones)'),
);

const warehouse = openBenchWarehouse();
try {
  const org = await warehouse.addOrg('Soak Warehouse');
  const sqlite = warehouse.app.db.$client;
  const shipdesk = buildServer(warehouse.app);
  const baseUrl = `${await listen(shipdesk, '127.0.0.1', 0)}/orgs/${org.orgId}`;
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

  const dbFile = sqlite.name;
  const sizeOf = (file: string) => {
    try {
      return statSync(file).size;
    } catch {
      return 0; // no WAL (yet, or after a truncating checkpoint)
    }
  };
  const shipmentCount = () => sqlite.prepare('SELECT COUNT(*) FROM shipments WHERE org_id = ?').pluck().get(org.orgId) as number;
  // Baseline with the WAL folded in, so the growth per shipment is not the WAL's high-water mark.
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  const dbBytesAtStart = sizeOf(dbFile);
  const shipmentsAtStart = shipmentCount();

  const delivery = startWebhookDelivery(warehouse.app);
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_SAMPLE_MS });
  loopDelay.enable();
  const mb = (bytes: number) => bytes / 1024 / 1024;
  const pad = (value: string, width: number) => value.padStart(width);
  console.log('per kind: requests in the interval and p50/p99 latency in ms; memory after the interval, with the load stopped');

  interface Reading {
    elapsedSeconds: number;
    rss: number;
    heapUsed: number;
    p99: Record<Kind, number>;
  }
  const readings: Reading[] = [];
  const started = performance.now();
  const intervalCount = Math.max(1, Math.round((minutes * 60) / everySeconds));
  for (let n = 1; n <= intervalCount; n++) {
    // The loops stop at the interval's end (finishing what they have in flight), so the forced GC
    // below pauses nobody's request and each interval's latencies are its own.
    const until = started + n * everySeconds * 1000;
    await Promise.all([...paceLoops.map((loop) => paceLoop(loop, until)), pollUsage(until)]);
    const elapsedSeconds = (performance.now() - started) / 1000;
    // The histogram counts the sampling tick itself (an idle loop shows 10 ms): only what is past it is delay.
    const loopDelayP99 = Math.max(0, loopDelay.percentile(99) / 1e6 - LOOP_SAMPLE_MS);
    gc?.();
    const memory = process.memoryUsage();
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
        `  | db ${mb(sizeOf(dbFile)).toFixed(1)} MB + wal ${mb(sizeOf(`${dbFile}-wal`)).toFixed(1)} MB  | loop delay p99 ${loopDelayP99.toFixed(1)} ms  | webhooks received ${webhooksReceived}`,
    );
    // The sampler's tick that spanned the GC lands after a short wait, in this interval's reset.
    await sleep(50);
    loopDelay.reset();
  }
  loopDelay.disable();

  await delivery.stop();
  await shipdesk.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  // The last delivery's write group may still be open; a checkpoint inside it is refused.
  await whenDurable(sqlite);

  // Summary: growth from the first interval after the warm-up to the last.
  const first = readings[1];
  const last = readings[readings.length - 1] as Reading;
  console.log('summary:');
  if (first && first !== last) {
    const hours = (last.elapsedSeconds - first.elapsedSeconds) / 3600;
    const growth = (name: string, from: number, to: number) =>
      `  ${name} ${mb(from).toFixed(1)} → ${mb(to).toFixed(1)} MB: ${mb(to - from) >= 0 ? '+' : ''}${mb(to - from).toFixed(1)} MB, ${(mb(to - from) / hours).toFixed(0)} MB/hour extrapolated`;
    console.log(`  from ${first.elapsedSeconds.toFixed(0)} s (end of interval 2) to ${last.elapsedSeconds.toFixed(0)} s (end of interval ${readings.length}):`);
    console.log(growth('rss', first.rss, last.rss));
    console.log(`${growth('heapUsed', first.heapUsed, last.heapUsed)} (the shipment read cache holds ${warehouse.app.shipmentReads.size} shipments now)`);
    console.log(
      `  p99 latency, interval 2 → last: ${kinds.map((kind) => `${kind} ${first.p99[kind].toFixed(1)} → ${last.p99[kind].toFixed(1)} ms`).join(', ')}`,
    );
  } else {
    console.log(`  only ${readings.length} interval(s): growth needs at least three (the first is the warm-up); run longer or with a smaller every=`);
  }
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  const shipmentsCreated = shipmentCount() - shipmentsAtStart;
  const dbGrowth = sizeOf(dbFile) - dbBytesAtStart;
  console.log(
    `  database ${mb(dbBytesAtStart).toFixed(1)} → ${mb(sizeOf(dbFile)).toFixed(1)} MB after a checkpoint: ${shipmentsCreated} shipments created, ` +
      `${Math.round(dbGrowth / Math.max(1, shipmentsCreated))} bytes per shipment (with its orders, events, deliveries and the labels of those sent)`,
  );
  const rows = (sql: string) => sqlite.prepare(sql).pluck().get() as number;
  console.log(
    `  outbox events ${rows('SELECT COUNT(*) FROM outbox_events')} (${rows('SELECT COUNT(*) FROM outbox_events WHERE dispatched_at IS NULL')} not dispatched), ` +
      `webhook deliveries ${rows('SELECT COUNT(*) FROM webhook_deliveries')} (${rows('SELECT COUNT(*) FROM webhook_deliveries WHERE next_attempt_at IS NOT NULL')} still due), received ${webhooksReceived}` +
      `; statements past the slow-query line: ${slowQueries.count}`,
  );
  const failedTotal = [...failures.values()].reduce((sum, count) => sum + count, 0);
  console.log(
    `  requests ${requestsDone}, failed ${failedTotal}${failedTotal ? `: ${[...failures].map(([what, count]) => `${what} ×${count}`).join(', ')}` : ''}`,
  );
  if (failedTotal > requestsDone / 100) {
    console.log(`more than 1 % of the requests failed (${failedTotal} of ${requestsDone}): the figures above do not describe a working server`);
    process.exitCode = 1;
  }
} finally {
  warehouse.dispose();
}
