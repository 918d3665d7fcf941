/**
 * HTTP throughput of create-shipment and get-shipment on the real server (operation table →
 * dispatcher → auth → zod → handler → drizzle/SQLite), each against a bare Fastify route on the
 * same paths that answers with a stored JSON of the same size. The ratio is what the Shipdesk
 * layers cost on top of Fastify and Node's HTTP.
 * Load comes from a separate process (autocannon, keep-alive connections), loopback only.
 *
 * Also the time to answer the worst bodies of issue 17 (decisions §1 "Bounded work").
 *
 * Run: npx tsx bench/http.ts [connections=10] [duration=10] [warmup=2] [only=create|get|worst]
 * Prints figures, asserts nothing.
 */
import Fastify from 'fastify';
import { buildServer, listen } from '../src-main/http/server';
import { shipmentBody } from '../src-main/testing/harness';
import { runLoad, type LoadResult, type LoadSpec } from './lib/load';
import { machineLine, numberArg, stringArg } from './lib/stats';
import { openBenchWarehouse } from './lib/warehouse';
import { rawCreate, rawDocumentCreate } from './lib/rawCreate';
import { commitWriteGroup } from '../src-main/db/groupCommit';
import { execute } from '../src-main/app/dispatcher/execute';
import { createShipment } from '../src-main/domain/shipments/create';
import { shipmentCreateBody } from '../src-shared/schemas/shipment';
import { cpuPerCreate, type LayerTiming } from './lib/createLayers';

const connections = numberArg('connections', 10);
const durationSeconds = numberArg('duration', 10);
const warmUpSeconds = numberArg('warmup', 2);
const only = stringArg('only');
const targets = { create: 30, get: 50, createOfFloor: 75 };

console.log(`bench/http: ${machineLine()}`);
console.log(`${connections} keep-alive connections, ${warmUpSeconds} s warm-up + ${durationSeconds} s measured per run, load from a child process`);

const warehouse = openBenchWarehouse();
// A second database, for a sizing run that does not wait for the disk (see below).
const unsynced = openBenchWarehouse();
try {
  const org = await warehouse.addOrg('Bench Warehouse');
  const shipdesk = buildServer(warehouse.app);
  const shipdeskUrl = await listen(shipdesk, '127.0.0.1', 0);
  const auth = { authorization: `Bearer ${org.token}` };
  const createBody = JSON.stringify(shipmentBody(org.carrierId));
  const shipmentsPath = `/orgs/${org.orgId}/shipments`;

  // One real create and get give the answers the bare server repeats, so both move the same bytes.
  const created = await fetch(shipdeskUrl + shipmentsPath, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: createBody });
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
  const createdShipment = (await created.json()) as { id: string };
  const fetched = await fetch(`${shipdeskUrl}${shipmentsPath}/${createdShipment.id}`, { headers: auth });
  if (fetched.status !== 200) throw new Error(`get answered ${fetched.status}: ${await fetched.text()}`);
  const fetchedShipment: unknown = await fetched.json();
  console.log(
    `request body ${Buffer.byteLength(createBody)} bytes; create answer ${JSON.stringify(createdShipment).length} bytes; get answer ${JSON.stringify(fetchedShipment).length} bytes`,
  );

  // The bare server: default Fastify, same route shapes, the body parsed, a stored object serialised.
  const bare = Fastify({ logger: false });
  bare.post('/orgs/:orgId/shipments', async (_request, reply) => reply.code(201).send(createdShipment));
  bare.get('/orgs/:orgId/shipments/:shipmentId', async () => fetchedShipment);
  const bareUrl = await listen(bare, '127.0.0.1', 0);

  // The same route answering after `write` (raw statements, no Shipdesk layers).
  const rawRoute = async (write: () => Promise<void>) => {
    const server = Fastify({ logger: false });
    server.post('/orgs/:orgId/shipments', async (_request, reply) => {
      await write();
      return reply.code(201).send(createdShipment);
    });
    return { server, url: await listen(server, '127.0.0.1', 0) };
  };
  // For information: only a create's rows, written with raw statements (the floor).
  const floor = await rawRoute(rawCreate(warehouse.app.db.$client, org, createdShipment));
  // For information, sizing what the target would take: (1) the same rows on a second database that
  // does not wait for the disk (synchronous = OFF, which decisions §1 rules out); (2) a create
  // stored as one row of JSON with one index, synced as the product is.
  const unsyncedOrg = await unsynced.addOrg('Bench Warehouse without sync');
  commitWriteGroup(unsynced.app.db.$client);
  unsynced.app.db.$client.pragma('synchronous = OFF');
  const noSync = await rawRoute(rawCreate(unsynced.app.db.$client, unsyncedOrg, createdShipment));
  const oneRow = await rawRoute(rawDocumentCreate(warehouse.app.db.$client, org, createdShipment));

  const load = (baseUrl: string, spec: Omit<LoadSpec, 'baseUrl' | 'connections' | 'warmUpSeconds' | 'durationSeconds'>) =>
    runLoad({ baseUrl, connections, warmUpSeconds, durationSeconds, ...spec });
  const describe = (name: string, run: LoadResult) => {
    const failures = run.failed ? `, ${run.failed} FAILED (${JSON.stringify(run.statusCounts)})` : '';
    console.log(
      `  ${name.padEnd(18)} ${Math.round(run.requestsPerSecond).toString().padStart(6)} req/s  p50 ${run.latencyMs.p50} ms  p99 ${run.latencyMs.p99} ms  ` +
        `server CPU ${Math.round(run.serverCpuShare * 100)} % of a core = ${cpuPerRequestMs(run).toFixed(3)} ms/request  (${run.ok} ok in ${run.seconds.toFixed(1)} s${failures})`,
    );
  };
  // Server CPU per answered request: steadier than req/s when other work shares the machine.
  const cpuPerRequestMs = (run: LoadResult) => (run.serverCpuShare * run.seconds * 1000) / Math.max(1, run.ok);
  const summary: string[] = [];
  const percentOfEcho = (run: LoadResult, echo: LoadResult) => (100 * run.requestsPerSecond) / echo.requestsPerSecond;
  const shareOfEcho = (run: LoadResult, echo: LoadResult) => percentOfEcho(run, echo).toFixed(1);
  const compare = (name: string, target: number, real: LoadResult, echo: LoadResult) => {
    const share = percentOfEcho(real, echo);
    const verdict = share >= target ? 'met' : 'MISSED';
    summary.push(
      `${name}: ${Math.round(real.requestsPerSecond)} req/s (bare echo ${Math.round(echo.requestsPerSecond)} req/s) = ${share.toFixed(1)} % (target ≥ ${target} %, ${verdict}); ` +
        `server CPU ${cpuPerRequestMs(real).toFixed(2)} ms vs ${cpuPerRequestMs(echo).toFixed(2)} ms per request`,
    );
  };

  if (only === undefined || only === 'create') {
    const post = { method: 'POST' as const, paths: [shipmentsPath], headers: { ...auth, 'content-type': 'application/json' }, body: createBody };
    const real = await load(shipdeskUrl, post);
    describe('create shipdesk', real);
    const echo = await load(bareUrl, post);
    describe('create bare echo', echo);
    compare('create-shipment', targets.create, real, echo);
    const rowsOnly = await load(floor.url, post);
    describe('create rows only', rowsOnly);
    summary.push(
      `  for information: raw inserts of a create's rows alone, group-committed, behind the same route: ${Math.round(rowsOnly.requestsPerSecond)} req/s = ` +
        `${shareOfEcho(rowsOnly, echo)} % of the bare echo; Shipdesk's create is ${((100 * real.requestsPerSecond) / rowsOnly.requestsPerSecond).toFixed(0)} % of that`,
    );
    // Issue 23: create against the floor measured in the same run.
    const ofFloor = (100 * real.requestsPerSecond) / rowsOnly.requestsPerSecond;
    summary.push(
      `create-shipment ÷ create rows only (the floor, same run): ${Math.round(real.requestsPerSecond)} ÷ ${Math.round(rowsOnly.requestsPerSecond)} req/s = ${ofFloor.toFixed(0)} % ` +
        `(target ≥ ${targets.createOfFloor} %, ${ofFloor >= targets.createOfFloor ? 'met' : 'MISSED'}); server CPU ${cpuPerRequestMs(real).toFixed(2)} vs ${cpuPerRequestMs(rowsOnly).toFixed(2)} ms per request`,
    );
    // Issue 23: what each layer costs, measured in this process (bench/lib/createLayers.ts).
    const sqlite = warehouse.app.db.$client;
    const input = shipmentCreateBody.parse(JSON.parse(createBody));
    const rawBody: unknown = JSON.parse(createBody);
    const door = { authorization: auth.authorization, client: '127.0.0.1' };
    const layers = {
      floor: await cpuPerCreate(sqlite, rawCreate(sqlite, org, createdShipment)),
      domain: await cpuPerCreate(sqlite, () => createShipment(warehouse.app, org.orgId, input)),
      dispatcher: await cpuPerCreate(sqlite, async () => {
        const result = await execute(warehouse.app, 'shipments.create', { params: { orgId: org.orgId }, body: rawBody }, door);
        if (result.status !== 201) throw new Error(`the dispatcher's create answered ${result.status}`);
      }),
    };
    const layer = (name: string, timing: LayerTiming, added: string) =>
      `  ${name.padEnd(44)} ${timing.cpuMs.toFixed(3)} ms (${timing.rangeMs.map((ms) => ms.toFixed(3)).join('–')})${added}`;
    const plus = (ms: number, what: string) => `: +${ms.toFixed(3)} ms ${what}`;
    summary.push(
      'create, layer by layer (this process, no HTTP; CPU per create, median of 5 runs of 2 000, group-committed 5 at a time):',
      layer("rows only (the floor's statements)", layers.floor, ''),
      layer(
        "the domain's create (input already valid)",
        layers.domain,
        plus(layers.domain.cpuMs - layers.floor.cpuMs, "for its reads, the app's writers, usage, the answer and the event"),
      ),
      layer("the dispatcher's call", layers.dispatcher, plus(layers.dispatcher.cpuMs - layers.domain.cpuMs, 'for authentication, access, scope and zod')),
      `  ${'over HTTP (the run above)'.padEnd(44)} ${cpuPerRequestMs(real).toFixed(3)} ms` +
        plus(
          cpuPerRequestMs(real) - layers.dispatcher.cpuMs,
          `for Fastify, the body's parse and the answer (the bare echo's whole request: ${cpuPerRequestMs(echo).toFixed(3)} ms)`,
        ),
    );
    const rowsNoSync = await load(noSync.url, post);
    describe('rows, no disk sync', rowsNoSync);
    const document = await load(oneRow.url, post);
    describe('one-row document', document);
    summary.push(
      `  for sizing: the same rows without waiting for the disk (synchronous = OFF, ruled out by decisions §1): ${shareOfEcho(rowsNoSync, echo)} % of the bare echo; ` +
        `a create stored as one synced row of JSON with one index: ${shareOfEcho(document, echo)} %`,
    );
  }

  if (only === undefined || only === 'get') {
    // Reads cycle over up to 1000 of the org's shipments (those the create run made, if it ran).
    const ids = (warehouse.app.db.$client.prepare('SELECT id FROM shipments WHERE org_id = ? LIMIT 1000').all(org.orgId) as { id: string }[]).map(
      (row) => row.id,
    );
    if (ids.length < 1000) {
      // Without the create run there is one shipment; make a few hundred more through the API.
      for (let i = 0; i < 300; i++) {
        const response = await fetch(shipdeskUrl + shipmentsPath, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: createBody,
        });
        ids.push(((await response.json()) as { id: string }).id);
      }
    }
    const get = { method: 'GET' as const, paths: ids.map((id) => `${shipmentsPath}/${id}`), headers: auth };
    const real = await load(shipdeskUrl, get);
    describe('get shipdesk', real);
    const echo = await load(bareUrl, get);
    describe('get bare echo', echo);
    compare('get-shipment', targets.get, real, echo);
  }

  if (only === undefined || only === 'worst') {
    // Bodies full of problems (issue 17): before the bound, the login took ≈ 26 s here and answered 4.7 MB.
    const manyKeys: Record<string, string> = {};
    for (let index = 0; index < 80_000; index++) manyKeys[`k${index}`] = 'x';
    const emptyLines = shipmentBody(org.carrierId, {
      parcels: Array.from({ length: 30 }, () => ({
        weight: 1,
        weightUnit: 'kg',
        dimensions: { length: 1, width: 1, height: 1 },
        orderLines: Array.from({ length: 1000 }, () => ({})),
      })),
    });
    const worst = [
      { name: 'login, 80 000 unknown keys', path: '/auth/login', headers: {}, body: JSON.stringify(manyKeys) },
      { name: 'shipment, 30 × 1 000 empty lines', path: shipmentsPath, headers: auth, body: JSON.stringify(emptyLines) },
    ];
    for (const { name, path, headers, body } of worst) {
      const times: number[] = [];
      let answerBytes = 0;
      for (let round = 0; round < 6; round++) {
        const started = performance.now();
        const response = await fetch(shipdeskUrl + path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
        answerBytes = (await response.arrayBuffer()).byteLength;
        if (round > 0) times.push(performance.now() - started); // the first compiles the schema
      }
      times.sort((a, b) => a - b);
      summary.push(
        `worst body, ${name} (${(Buffer.byteLength(body) / 1024).toFixed(0)} KB): answered in ${times[Math.floor(times.length / 2)]?.toFixed(0)} ms median, ` +
          `${times.at(-1)?.toFixed(0)} ms slowest of ${times.length}; answer ${answerBytes} bytes`,
      );
    }
  }

  for (const line of summary) console.log(line);
  await shipdesk.close();
  await bare.close();
  await floor.server.close();
  await noSync.server.close();
  await oneRow.server.close();
} finally {
  warehouse.dispose();
  unsynced.dispose();
}
