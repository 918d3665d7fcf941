/**
 * What the tracking poller (decisions §13, issue 19 point 9) costs with 50 000 shipments in transit:
 *  1. CPU per cycle (process.cpuUsage) in the steady state: the shipments' next checks spread over
 *     the 30-minute interval, a cycle a minute takes what came due (about 1/30 of them); and one
 *     backlog cycle (everything due at once, after a long pause: the cycle's cap).
 *  2. The get-shipment rate (HTTP, keep-alive connections from a child process, 1 000 of the org's
 *     shipments in turn) idle, and with one poller cycle (a minute's due shipments) inside the
 *     measured window, and the ratio; for information also with cycles back to back (far past the
 *     real pace: a cycle a minute).
 * The carrier is a fake in this process answering at once from memory (no HTTP), so the figures are
 * the poller's own work: due query, booked-shipment reads, event inserts, status and due writes,
 * tracking.updated for the few that changed. 2 % of the answers carry a new event.
 * Rows are seeded by copying one real booked shipment with SQL; the product's triggers still run.
 *
 * Run: npx tsx bench/tracking-poller.ts [shipments=50000] [cycles=10] [connections=10] [duration=10] [warmup=2]
 * Prints figures, asserts nothing.
 */
import type { CarrierAdapter, TrackingResult } from '../src-main/carriers/adapter';
import { carrierAdapters } from '../src-main/carriers/registry';

// The fake carrier joins the registry before the catalogue reads it (the imports below are dynamic for that).
let cycleNumber = 0;
const benchTracker: CarrierAdapter = {
  ...(carrierAdapters[0] as CarrierAdapter),
  slug: 'bench-tracker',
  checkConfig: undefined,
  describe: { ...(carrierAdapters[0] as CarrierAdapter).describe, name: 'Bench tracker', fields: [] },
  track: async (_context, booked) => {
    const answers = new Map<string, TrackingResult>();
    for (const [index, shipment] of booked.entries()) {
      const events: TrackingResult['events'] = [
        { at: '2026-11-27T08:00:00.000Z', code: 'PICKED_UP', description: 'Picked up', location: 'Aarhus' },
        { at: '2026-11-27T10:30:00.000Z', code: 'HUB', description: 'Sorted at the hub', location: 'Vejle' },
      ];
      if ((index + cycleNumber) % 50 === 0) {
        events.push({ at: new Date(Date.UTC(2026, 10, 28, 0, cycleNumber)).toISOString(), code: 'MOVED', description: 'On its way', location: null });
      }
      answers.set(shipment.shipmentId, { status: 'in_transit', events });
    }
    return answers;
  },
};
(carrierAdapters as CarrierAdapter[]).push(benchTracker);

const { carrierCreateBody } = await import('../src-shared/schemas/carrier');
const { createCarrier } = await import('../src-main/domain/carriers/carriers');
const { buildServer, listen } = await import('../src-main/http/server');
const { shipmentBody } = await import('../src-main/testing/harness');
const { runTrackingCycle } = await import('../src-main/domain/tracking/poller');
const { TRACKING_INTERVAL_MS } = await import('../src-main/domain/tracking/schedule');
const { durable } = await import('../src-main/db/tx');
const { runLoad } = await import('./lib/load');
const { machineLine, median, numberArg } = await import('./lib/stats');
const { openBenchWarehouse } = await import('./lib/warehouse');

const shipmentCount = numberArg('shipments', 50_000);
const cycles = numberArg('cycles', 10);
const connections = numberArg('connections', 10);
const durationSeconds = numberArg('duration', 10);
const warmUpSeconds = numberArg('warmup', 2);
const CYCLE_EVERY_MS = 60_000;

console.log(`bench/tracking-poller: ${machineLine()}`);

const warehouse = openBenchWarehouse();
const sqlite = warehouse.app.db.$client;
// The poller's clock moves a minute per cycle; requests and writes read the same clock.
let offsetMs = 0;
warehouse.app.now = () => new Date(Date.now() + offsetMs);
try {
  const org = await warehouse.addOrg('Bench Warehouse');
  const carrier = await createCarrier(
    warehouse.app,
    org.orgId,
    carrierCreateBody.parse({ name: 'Bench tracker', carrierSlug: 'bench-tracker', config: {}, senderAddressId: org.senderAddressId }),
  );
  const server = buildServer(warehouse.app);
  const url = await listen(server, '127.0.0.1', 0);
  const auth = { authorization: `Bearer ${org.token}`, 'content-type': 'application/json' };
  const shipmentsUrl = `${url}/orgs/${org.orgId}/shipments`;

  // One real booked shipment, copied.
  const created = await fetch(shipmentsUrl, { method: 'POST', headers: auth, body: JSON.stringify(shipmentBody(carrier.id)) });
  const template = (await created.json()) as { id: string };
  const sent = await fetch(`${shipmentsUrl}/${template.id}/send`, { method: 'POST', headers: auth, body: '{}' });
  if (sent.status !== 200) throw new Error(`send answered ${sent.status}: ${await sent.text()}`);

  const seedStarted = performance.now();
  seed(template.id, shipmentCount);
  await durable(warehouse.app.db);
  console.log(`seeded ${shipmentCount} shipments in transit (1 parcel, 2 events each) in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

  // 1. Steady-state cycles.
  const perCycle: { cpuMs: number; wallMs: number; asked: number; changed: number }[] = [];
  for (let i = 0; i < cycles; i++) perCycle.push(await measuredCycle());
  const cpu = perCycle.map((cycle) => cycle.cpuMs);
  const asked = median(perCycle.map((cycle) => cycle.asked));
  console.log(
    `steady state, a cycle a minute (${cycles} cycles): median ${asked} shipments asked per cycle, ${median(perCycle.map((cycle) => cycle.changed))} changed; ` +
      `CPU per cycle median ${median(cpu).toFixed(1)} ms (min ${Math.min(...cpu).toFixed(1)}, max ${Math.max(...cpu).toFixed(1)}), ` +
      `wall median ${median(perCycle.map((cycle) => cycle.wallMs)).toFixed(1)} ms; ${((median(cpu) * 1000) / Math.max(1, asked)).toFixed(0)} µs CPU per shipment; ` +
      `${((median(cpu) / CYCLE_EVERY_MS) * 100).toFixed(2)} % of one core`,
  );

  // 2. get-shipment, idle and with the poller running back to back.
  const ids = (sqlite.prepare('SELECT id FROM shipments WHERE org_id = ? ORDER BY random() LIMIT 1000').all(org.orgId) as { id: string }[]).map(
    (row) => row.id,
  );
  const load = () =>
    runLoad({
      baseUrl: url,
      method: 'GET',
      paths: ids.map((id) => `/orgs/${org.orgId}/shipments/${id}`),
      headers: { authorization: auth.authorization },
      connections,
      warmUpSeconds,
      durationSeconds,
    });
  const idle = await load();

  // At its pace: one cycle (a minute's due shipments) inside the measured window, 6 times the real pace for a 10 s window.
  let pacedCycle: Awaited<ReturnType<typeof measuredCycle>> | null = null;
  const pacedTimer = setTimeout(() => void measuredCycle().then((cycle) => (pacedCycle = cycle)), (warmUpSeconds + Math.min(1, durationSeconds / 4)) * 1000);
  const paced = await load();
  clearTimeout(pacedTimer);
  while (!pacedCycle) await new Promise((resolve) => setTimeout(resolve, 50));

  // Worst case, for information: cycles back to back, each with a minute's due shipments.
  let polling = true;
  let busyCycles = 0;
  let busyAsked = 0;
  const pollerLoop = (async () => {
    while (polling) {
      offsetMs += CYCLE_EVERY_MS;
      cycleNumber++;
      busyAsked += (await runTrackingCycle(warehouse.app)).asked;
      busyCycles++;
    }
  })();
  const loadStarted = performance.now();
  const busy = await load();
  const busySeconds = (performance.now() - loadStarted) / 1000;
  polling = false;
  await pollerLoop;
  const line = (name: string, result: typeof idle) =>
    `${name}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.latencyMs.p50.toFixed(1)} ms, p99 ${result.latencyMs.p99.toFixed(1)} ms, ${result.failed} failed`;
  const cycleDone = pacedCycle as Awaited<ReturnType<typeof measuredCycle>>;
  console.log(`get-shipment, ${connections} connections, ${durationSeconds} s measured`);
  console.log(`  ${line('idle', idle)}`);
  console.log(`  ${line('one poller cycle in the window', paced)} (cycle: ${cycleDone.asked} asked in ${cycleDone.wallMs.toFixed(0)} ms wall)`);
  console.log(`  ratio with the poller / idle: ${(paced.requestsPerSecond / idle.requestsPerSecond).toFixed(3)} (target: ≥ 0.90)`);
  console.log(
    `  ${line('poller back to back (worst case)', busy)} (${busyCycles} cycles, ${(busyAsked / busySeconds).toFixed(0)} shipments asked per second, vs ${(shipmentCount / (TRACKING_INTERVAL_MS / 1000)).toFixed(0)}/s needed); ratio ${(busy.requestsPerSecond / idle.requestsPerSecond).toFixed(3)}`,
  );

  // 3. A backlog: everything due at once (the app was closed for longer than the interval).
  offsetMs += TRACKING_INTERVAL_MS;
  const backlog = await measuredCycle();
  console.log(
    `backlog cycle (all ${shipmentCount} due): ${backlog.asked} asked (the cycle's cap), CPU ${backlog.cpuMs.toFixed(0)} ms, wall ${backlog.wallMs.toFixed(0)} ms`,
  );
  await server.close();
} finally {
  warehouse.dispose();
}

async function measuredCycle() {
  offsetMs += CYCLE_EVERY_MS;
  cycleNumber++;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const summary = await runTrackingCycle(warehouse.app);
  await durable(warehouse.app.db);
  const used = process.cpuUsage(cpuBefore);
  return { cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - started, asked: summary.asked, changed: summary.changed };
}

/** `count` copies of the booked shipment, each with its parcel and two events, next checks spread over the interval. */
function seed(templateId: string, count: number): void {
  const columns = (table: string) => (sqlite.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map((row) => row.name);
  const copy = (table: string, replaced: Record<string, string>) => {
    const names = columns(table);
    const values = names.map((name) => replaced[name] ?? `t.${name}`);
    return `INSERT INTO ${table} (${names.join(', ')}) SELECT ${values.join(', ')} FROM ${table} t, seq`;
  };
  const now = Date.now();
  sqlite.function('bench_due', (n: number) => new Date(now + 1000 + Math.floor((n / count) * TRACKING_INTERVAL_MS)).toISOString());
  const withSeq = `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${count}) `;
  sqlite.exec('BEGIN');
  sqlite.exec(
    withSeq +
      copy('shipments', {
        id: `'shp_bench_' || n`,
        reference: `'BENCH-' || n`,
        tracking_number: `'BT' || printf('%09d', n)`,
        tracking_status: `'in_transit'`,
        tracking_due_at: 'bench_due(n)',
      }) +
      ` WHERE t.id = '${templateId}'`,
  );
  sqlite.exec(
    withSeq +
      copy('parcels', { id: `'prc_bench_' || n`, shipment_id: `'shp_bench_' || n`, tracking_number: `'BT' || printf('%09d', n)` }) +
      ` WHERE t.shipment_id = '${templateId}'`,
  );
  sqlite.exec(`${withSeq}
    INSERT INTO tracking_events (shipment_id, at, code, description, location)
    SELECT 'shp_bench_' || n, '2026-11-27T08:00:00.000Z', 'PICKED_UP', 'Picked up', 'Aarhus' FROM seq
    UNION ALL
    SELECT 'shp_bench_' || n, '2026-11-27T10:30:00.000Z', 'HUB', 'Sorted at the hub', 'Vejle' FROM seq`);
  sqlite.exec('COMMIT');
}
