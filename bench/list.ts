/**
 * Shipment list latency through HTTP (first page, limit 20, newest first) for an organization with
 * 1 000 shipments and one with 1 000 000 in the same database, and the largest page number
 * (page=9007199254740991) on the big one. A second part times the list's pieces without HTTP (the
 * `total`, read from the trigger-kept shipment_counts table, against what a plain COUNT(*) would
 * cost, and the page query), so a slow list shows which piece costs.
 * Rows are seeded with raw better-sqlite3 inserts (shipment rows only: the list reads no parties
 * or parcels); the product's triggers still keep shipment_counts right.
 *
 * Run: npx tsx bench/list.ts [requests=200] [large=1000000] [small=1000]
 * Prints figures, asserts nothing.
 */
import { count, desc, eq } from 'drizzle-orm';
import { shipmentListQuery, shipmentStatuses } from '../src-shared/schemas/shipment';
import { shipments } from '../src-main/db/schema';
import { ulid } from '../src-main/db/ids';
import { countedShipments, deepPageIds, listShipments } from '../src-main/domain/shipments/list';
import { buildServer, listen } from '../src-main/http/server';
import { sequentialClient } from './lib/httpTimer';
import { machineLine, median, ms, numberArg, percentile } from './lib/stats';
import { openBenchWarehouse, slowQueries, type BenchOrg } from './lib/warehouse';
import { commitWriteGroup } from '../src-main/db/groupCommit';

const requests = numberArg('requests', 200);
const largeCount = numberArg('large', 1_000_000);
const smallCount = numberArg('small', 1_000);
const LAST_PAGE = Number.MAX_SAFE_INTEGER; // 9007199254740991, the largest page the API accepts
const CHUNK = 100_000;
const targets = { ratio: 2, lastPageMs: 5, deepPageMs: 20 };

console.log(`bench/list: ${machineLine()}`);

const warehouse = openBenchWarehouse();
const sqlite = warehouse.app.db.$client;

/** `rows` shipments for `org`, one every 30 s back from now, in transactions of CHUNK rows. */
function seed(org: BenchOrg, rows: number): number {
  const insert = sqlite.prepare(
    `INSERT INTO shipments (id, org_id, reference, sender_address_id, type, carrier_id, product_id, services,
       additional_parameters, term_of_trade, status, service_point_id, pickup_date, pickup_from, pickup_to,
       pickup_instruction, tracking_number, tracking_url, order_id, shipping_rule_id, return_for_shipment_id,
       created_at, updated_at)
     VALUES (?, ?, ?, ?, 'outbound', ?, 'local_parcel', '[]', '{}', 'DAP', ?, NULL, NULL, NULL, NULL, NULL, ?, NULL, NULL, NULL, NULL, ?, ?)`,
  );
  const oldest = Date.now() - rows * 30_000;
  const insertChunk = sqlite.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const at = new Date(oldest + i * 30_000).toISOString();
      // ulid() is monotonic, so ids rise with created_at as real ones do (the order's tie-breaker).
      insert.run(
        `shp_${ulid()}`,
        org.orgId,
        `SHP-${String(i + 1).padStart(7, '0')}`,
        org.senderAddressId,
        org.carrierId,
        shipmentStatuses[i % shipmentStatuses.length],
        i % 3 === 0 ? `LOC${String(i).padStart(9, '0')}` : null,
        at,
        at,
      );
    }
  });
  // Seeding only: no fsync per chunk, a page cache that holds the indexes being appended to, and
  // statement journals (opened for every insert because of the shipment_counts triggers) kept in
  // memory instead of temporary files, which alone halves the seeding time. The product's own
  // pragmas are back before anything is timed.
  // The set-up's writes wait in a group commit; the safety level cannot change inside a transaction.
  commitWriteGroup(sqlite);
  const synchronous = Number(sqlite.pragma('synchronous', { simple: true }));
  const cacheSize = Number(sqlite.pragma('cache_size', { simple: true }));
  const tempStore = Number(sqlite.pragma('temp_store', { simple: true }));
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('cache_size = -262144');
  sqlite.pragma('temp_store = MEMORY');
  const started = performance.now();
  try {
    for (let from = 0; from < rows; from += CHUNK) insertChunk(from, Math.min(rows, from + CHUNK));
    sqlite.prepare('UPDATE orgs SET shipment_seq = ? WHERE id = ?').run(rows, org.orgId);
  } finally {
    sqlite.pragma(`synchronous = ${synchronous}`);
    sqlite.pragma(`cache_size = ${cacheSize}`);
    sqlite.pragma(`temp_store = ${tempStore}`);
  }
  return performance.now() - started;
}

function describe(name: string, samples: number[]): { median: number; p95: number } {
  const figures = { median: median(samples), p95: percentile(samples, 95) };
  console.log(`  ${name.padEnd(46)} median ${ms(figures.median).padStart(9)}  p95 ${ms(figures.p95).padStart(9)}  (${samples.length} requests)`);
  return figures;
}

/** Median wall time of `run`, called `times` times. */
function timeRuns(run: () => unknown, times: number): number {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

try {
  const small = await warehouse.addOrg('Small Warehouse');
  const large = await warehouse.addOrg('Large Warehouse');
  const smallMs = seed(small, smallCount);
  const largeMs = seed(large, largeCount);
  const checkpointStarted = performance.now();
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  console.log(
    `seeded ${largeCount.toLocaleString('en')} shipments in ${(largeMs / 1000).toFixed(1)} s (${Math.round(largeCount / (largeMs / 1000)).toLocaleString('en')} rows/s), ` +
      `${smallCount.toLocaleString('en')} in ${ms(smallMs)}; WAL checkpoint ${ms(performance.now() - checkpointStarted)}`,
  );

  const server = buildServer(warehouse.app);
  const baseUrl = await listen(server, '127.0.0.1', 0);
  const listPath = (org: BenchOrg, query: string) => `/orgs/${org.orgId}/shipments?${query}`;
  const large1M = largeCount.toLocaleString('en');

  console.log(`HTTP, one request at a time over a keep-alive connection, ${requests} timed after 10 warm-up:`);
  const smallClient = sequentialClient(baseUrl, { authorization: `Bearer ${small.token}` });
  const largeClient = sequentialClient(baseUrl, { authorization: `Bearer ${large.token}` });
  const firstSmall = await smallClient.sample(listPath(small, 'page=1&limit=20'), requests);
  const firstLarge = await largeClient.sample(listPath(large, 'page=1&limit=20'), requests);
  const lastLarge = await largeClient.sample(listPath(large, `page=${LAST_PAGE}&limit=20`), requests);
  const statusLarge = await largeClient.sample(listPath(large, 'page=1&limit=20&status=pending'), requests);
  // The last page that has rows: OFFSET walks past every row before it (informative, few requests).
  const lastRealPage = Math.ceil(largeCount / 20);
  const deepLarge = await largeClient.sample(listPath(large, `page=${lastRealPage}&limit=20`), Math.min(requests, 20), 2);
  // Issue 23: page 25 000 (the middle of a million), which seeks through the hour counts
  // (migration 0015), and the same page oldest first.
  const middlePage = Math.max(1, Math.floor(lastRealPage / 2));
  const middleLarge = await largeClient.sample(listPath(large, `page=${middlePage}&limit=20`), Math.min(requests, 50), 3);
  const middleOldest = await largeClient.sample(listPath(large, `page=${middlePage}&limit=20&sort=createdAt`), Math.min(requests, 50), 3);
  // What the pack screen sends for a scanned label: the exact reference; a search (part of the
  // reference, any case) only when nothing is exactly the code. Informative, the search with few requests.
  const scanned = `SHP-${String(Math.floor(largeCount / 2)).padStart(7, '0')}`;
  const exactLarge = await largeClient.sample(listPath(large, `reference=${scanned}`), requests);
  const searchLarge = await largeClient.sample(listPath(large, `search=${scanned}`), Math.min(requests, 10), 2);
  smallClient.close();
  largeClient.close();
  await server.close();

  for (const [name, answer, expected] of [
    ['1k first page', firstSmall.last, smallCount],
    ['1M first page', firstLarge.last, largeCount],
  ] as const) {
    const page = JSON.parse(answer.body) as { total: number; data: unknown[] };
    if (page.total !== expected || page.data.length !== 20) throw new Error(`${name}: total ${page.total}, ${page.data.length} rows`);
  }
  for (const [name, answer] of [
    ['reference=', exactLarge.last],
    ['search=', searchLarge.last],
  ] as const) {
    const found = JSON.parse(answer.body) as { total: number };
    if (found.total !== 1) throw new Error(`${name}${scanned}: total ${found.total}`);
  }
  const lastPage = JSON.parse(lastLarge.last.body) as { data: unknown[] };
  if (lastPage.data.length !== 0) throw new Error(`page ${LAST_PAGE} has ${lastPage.data.length} rows`);

  const smallFigures = describe(`${smallCount.toLocaleString('en')} shipments, page 1`, firstSmall.samples);
  const largeFigures = describe(`${large1M} shipments, page 1`, firstLarge.samples);
  const lastFigures = describe(`${large1M} shipments, page ${LAST_PAGE}`, lastLarge.samples);
  describe(`${large1M} shipments, status=pending, page 1`, statusLarge.samples);
  const deepFigures = describe(`${large1M} shipments, last page with rows (${lastRealPage})`, deepLarge.samples);
  const middleFigures = describe(`${large1M} shipments, page ${middlePage}`, middleLarge.samples);
  describe(`${large1M} shipments, page ${middlePage}, oldest first`, middleOldest.samples);
  describe(`${large1M} shipments, reference=${scanned} (a scanned label)`, exactLarge.samples);
  describe(`${large1M} shipments, search=${scanned}`, searchLarge.samples);

  // Where a list's time goes, without HTTP: the whole domain call, the `total` as the product reads
  // it now, what a plain COUNT(*) over the org's rows would cost, and the page query alone.
  const db = warehouse.app.db;
  const plainCount = (orgId: string) => db.select({ n: count() }).from(shipments).where(eq(shipments.orgId, orgId)).toSQL();
  // The list's first statement: the page's ids, found by walking an index (listShipments then
  // reads those rows with their sender addresses by primary key).
  const pageIdsSql = (orgId: string, offset: number) =>
    db
      .select({ id: shipments.id })
      .from(shipments)
      .where(eq(shipments.orgId, orgId))
      .orderBy(desc(shipments.createdAt), desc(shipments.id))
      .limit(20)
      .offset(offset)
      .toSQL();
  const statement = (query: { sql: string; params: unknown[] }) => {
    const prepared = sqlite.prepare(query.sql);
    return () => prepared.all(...query.params);
  };
  // Parsed by the operation's own schema, so defaults the HTTP door would add are there too.
  const firstPageQuery = shipmentListQuery.parse({ page: '1', limit: '20' });
  const lastPageQuery = shipmentListQuery.parse({ page: String(LAST_PAGE), limit: '20' });
  console.log('Without HTTP (median of 50 runs):');
  const parts: [string, () => unknown][] = [
    [`listShipments() page 1, ${large1M} org`, () => listShipments(warehouse.app, large.orgId, firstPageQuery)],
    [`listShipments() page ${LAST_PAGE}`, () => listShipments(warehouse.app, large.orgId, lastPageQuery)],
    [`total from shipment_counts, ${large1M} org`, () => countedShipments(db, large.orgId)],
    [`plain COUNT(*) over shipments, ${large1M} org`, statement(plainCount(large.orgId))],
    [`plain COUNT(*) over shipments, ${smallCount.toLocaleString('en')} org`, statement(plainCount(small.orgId))],
    [`page 1 ids (LIMIT 20 OFFSET 0), ${large1M} org`, statement(pageIdsSql(large.orgId, 0))],
    [`page 50000 ids (OFFSET 999980), ${large1M} org`, statement(pageIdsSql(large.orgId, 999_980))],
    [`page ${middlePage} ids (plain OFFSET ${(middlePage - 1) * 20})`, statement(pageIdsSql(large.orgId, (middlePage - 1) * 20))],
    [`page ${middlePage} ids (hour counts, deepPageIds)`, () => deepPageIds(db, large.orgId, true, largeCount, (middlePage - 1) * 20, 20)],
  ];
  for (const [name, run] of parts) console.log(`  ${name.padEnd(46)} ${ms(timeRuns(run, 50)).padStart(9)}`);
  const plan = (query: { sql: string; params: unknown[] }) =>
    (sqlite.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.params) as { detail: string }[]).map((row) => row.detail).join('; ');
  console.log(`  plan of the page ids query: ${plan(pageIdsSql(large.orgId, 0))}`);
  console.log(`  statements past the 40 ms slow-query line during the run: ${slowQueries.count} (the deep pages and the searches; the product logs each one)`);

  const ratio = largeFigures.median / smallFigures.median;
  console.log(
    `list first page: ${ms(largeFigures.median)} on 1M vs ${ms(smallFigures.median)} on 1k = ${ratio.toFixed(2)}× (target ≤ ${targets.ratio}×, ${ratio <= targets.ratio ? 'met' : 'MISSED'})`,
  );
  console.log(
    `list page ${middlePage} on 1M (newest first): median ${ms(middleFigures.median)}, p95 ${ms(middleFigures.p95)}; the last page with rows ${ms(deepFigures.median)} ` +
      `(target < ${targets.deepPageMs} ms, ${middleFigures.median < targets.deepPageMs ? 'met' : 'MISSED'}); ` +
      `the page's ids by plain OFFSET (as before migration 0015) ${ms(timeRuns(statement(pageIdsSql(large.orgId, (middlePage - 1) * 20)), 10))}`,
  );
  console.log(
    `list page ${LAST_PAGE} on 1M: median ${ms(lastFigures.median)}, p95 ${ms(lastFigures.p95)} (target < ${targets.lastPageMs} ms, ${lastFigures.median < targets.lastPageMs ? 'met' : 'MISSED'})`,
  );
} finally {
  warehouse.dispose();
}
