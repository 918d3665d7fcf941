/**
 * Batch split of one parcel of 100 lines into 100 new shipments (decisions §7), through the domain
 * function, against raw better-sqlite3 inserts of the same rows in one transaction.
 * Run: npx tsx bench/batchSplit.ts [runs]   (prints figures, asserts nothing)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { carrierCreateBody } from '../src-shared/schemas/carrier';
import { senderAddressCreateBody } from '../src-shared/schemas/senderAddress';
import { shipmentCreateBody, type BatchSplitInput } from '../src-shared/schemas/shipment';
import { createAppContext } from '../src-main/app/runtime/createApp';
import { newId } from '../src-main/db/ids';
import { createCarrier } from '../src-main/domain/carriers/carriers';
import { createOrgWithOwner, setPlan } from '../src-main/domain/orgs/orgs';
import { createSenderAddress } from '../src-main/domain/senderAddresses/senderAddresses';
import { createShipment } from '../src-main/domain/shipments/create';
import { readShipments } from '../src-main/domain/shipments/repository';
import { commitWriteGroup } from '../src-main/db/groupCommit';
import { batchSplitParcel } from '../src-main/domain/shipments/split';
import { billingPeriod } from '../src-main/domain/orgs/usage';

// Enough runs that a few slow ones (on this VM some take twice as long, on either side) do not move the median.
const runs = Number(process.argv[2] ?? 15);
const LINES = 100;

const dir = mkdtempSync(join(tmpdir(), 'shipdesk-bench-'));
const app = createAppContext({ dataDir: dir });
const sqlite = app.db.$client;

const { orgId } = await createOrgWithOwner(app, { orgName: 'Bench Warehouse', email: `bench-${Date.now()}@example.com`, password: 'bench bench bench' });
setPlan(app, orgId, 'unlimited');
const address = createSenderAddress(
  app,
  orgId,
  senderAddressCreateBody.parse({
    name: 'Main warehouse',
    attContact: 'Dispatch',
    address1: 'Industrivej 12',
    zipcode: '8000',
    city: 'Aarhus',
    phone: '+4512345678',
    countryCode: 'DK',
    email: 'dispatch@bench.example',
  }),
);
const carrier = await createCarrier(app, orgId, carrierCreateBody.parse({ name: 'Own trucks', carrierSlug: 'local', config: {}, senderAddressId: address.id }));

/** A pending shipment whose one parcel holds 100 lines of 2 units each. */
function sourceShipment() {
  return createShipment(
    app,
    orgId,
    shipmentCreateBody.parse({
      type: 'outbound',
      carrierSettings: { carrierId: carrier.id, productId: 'local_parcel' },
      parties: [{ type: 'receiver', name: 'Jens Hansen', address1: 'Nørregade 1', postalCode: '1165', city: 'København K', countryCode: 'DK' }],
      parcels: [
        {
          weight: 50,
          weightUnit: 'kg',
          dimensions: { length: 120, width: 80, height: 100 },
          orderLines: Array.from({ length: LINES }, (_, i) => ({ sku: `SKU-${i}`, quantity: 2, description: `Item ${i}`, unitPrice: 10, currency: 'DKK' })),
        },
      ],
    }),
  ).parse();
}

// Every statement run, whether prepared now or long ago, goes through one of these methods.
let statements = 0;
const statementProto = Object.getPrototypeOf(sqlite.prepare('SELECT 1')) as Record<'run' | 'get' | 'all', (...args: unknown[]) => unknown>;
for (const method of ['run', 'get', 'all'] as const) {
  const original = statementProto[method];
  statementProto[method] = function (this: unknown, ...args: unknown[]) {
    statements++;
    return original.apply(this, args);
  };
}

/**
 * Writes outside a request are held in an open group commit until the event loop turns, and this
 * loop never lets it turn: commit here, as a request's answer would wait for, so each timed run
 * starts with nothing pending and ends on disk.
 */
const commitNow = () => commitWriteGroup(sqlite);

/** One unit of each line into its own new shipment: 100 shipments, 100 parcels, 100 new lines. */
function domainRun(): { ms: number; statements: number; readMs: number } {
  const source = sourceShipment();
  const parcel = source.parcels[0];
  if (!parcel) throw new Error('no parcel');
  const input: BatchSplitInput = { shipments: parcel.orderLines.map((line) => ({ orderLines: [{ id: line.id, quantity: 1 }] })) };
  commitNow();
  const before = statements;
  const started = performance.now();
  const result = batchSplitParcel(app, orgId, source.id, parcel.id, input);
  commitNow();
  const ms = performance.now() - started;
  const issued = statements - before;
  if (result.newShipments.length !== LINES) throw new Error('unexpected result');
  // What the 101 full reads of the answer cost on their own (one statement, as the split reads them).
  const readStarted = performance.now();
  readShipments(
    app.db,
    orgId,
    [result.originalShipment, ...result.newShipments].map((shipment) => shipment.id),
  );
  return { ms, statements: issued, readMs: performance.now() - readStarted };
}

const insertShipment = sqlite.prepare(
  `INSERT INTO shipments (id, org_id, reference, sender_address_id, type, carrier_id, product_id, services, additional_parameters, term_of_trade, status, order_id, created_at, updated_at)
   VALUES (?, ?, ?, ?, 'outbound', ?, 'local_parcel', '[]', '{}', 'DAP', 'pending', NULL, ?, ?)`,
);
const insertParty = sqlite.prepare(
  `INSERT INTO shipment_parties (shipment_id, position, type, name, address1, postal_code, city, country_code, attributes) VALUES (?, ?, ?, ?, ?, ?, ?, 'DK', '[]')`,
);
const insertParcel = sqlite.prepare(
  `INSERT INTO parcels (id, shipment_id, position, weight, weight_unit, length, width, height) VALUES (?, ?, 0, 0.25, 'kg', 120, 80, 100)`,
);
const insertLine = sqlite.prepare(
  `INSERT INTO parcel_order_lines (id, parcel_id, position, sku, quantity, description, unit_price, currency) VALUES (?, ?, 0, ?, 1, ?, 10, 'DKK')`,
);
const reduceLine = sqlite.prepare('UPDATE parcel_order_lines SET quantity = quantity - 1 WHERE id = ?');
const insertActivity = sqlite.prepare('INSERT INTO shipment_activities (id, shipment_id, action, description, created_at) VALUES (?, ?, ?, ?, ?)');
const upsertUsage = sqlite.prepare(
  'INSERT INTO shipment_usage (org_id, period, created) VALUES (?, ?, ?) ON CONFLICT (org_id, period) DO UPDATE SET created = created + excluded.created',
);
const insertEvent = sqlite.prepare('INSERT INTO outbox_events (id, org_id, type, payload, created_at) VALUES (?, ?, ?, ?, ?)');

/**
 * The same rows by hand. `full` adds what the domain also writes: parties, the reduced source
 * lines, and the outbox events with their payloads.
 */
function rawRun(full: boolean): number {
  const source = sourceShipment();
  const parcel = source.parcels[0];
  if (!parcel) throw new Error('no parcel');
  commitNow();
  const started = performance.now();
  const at = new Date().toISOString();
  sqlite
    .transaction(() => {
      upsertUsage.run(orgId, billingPeriod(new Date()).key, LINES);
      for (const [index, line] of parcel.orderLines.entries()) {
        const shipmentId = newId('shipment');
        const parcelId = newId('parcel');
        insertShipment.run(shipmentId, orgId, `${source.reference}-${index + 2}`, address.id, carrier.id, at, at);
        insertParcel.run(parcelId, shipmentId);
        insertLine.run(newId('parcelOrderLine'), parcelId, line.sku, line.description);
        insertActivity.run(newId('activity'), shipmentId, 'created', 'Shipment created with status pending', at);
        insertActivity.run(newId('activity'), shipmentId, 'shipment_split', `Split from parcel ${parcel.id}`, at);
        if (full) {
          insertParty.run(shipmentId, 0, 'sender', 'Main warehouse', 'Industrivej 12', '8000', 'Aarhus');
          insertParty.run(shipmentId, 1, 'receiver', 'Jens Hansen', 'Nørregade 1', '1165', 'København K');
          reduceLine.run(line.id);
          const eventId = newId('event');
          // The payload is the new shipment: the source's fields with one parcel of one line.
          const data = { ...source, id: shipmentId, parcels: [{ ...parcel, id: parcelId, orderLines: [{ ...line, quantity: 1 }] }] };
          insertEvent.run(eventId, orgId, 'shipment.created', JSON.stringify({ id: eventId, type: 'shipment.created', createdAt: at, orgId, data }), at);
        }
      }
      insertActivity.run(newId('activity'), source.id, 'shipment_split', `Parcel ${parcel.id} split`, at);
    })
    .immediate();
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

// Warm-up: JIT, statement caches, page cache.
domainRun();
rawRun(false);
rawRun(true);

const domain: number[] = [];
const reads: number[] = [];
const raw: number[] = [];
const rawFull: number[] = [];
let domainStatements = 0;
for (let run = 0; run < runs; run++) {
  const result = domainRun();
  domain.push(result.ms);
  reads.push(result.readMs);
  domainStatements = result.statements;
  raw.push(rawRun(false));
  rawFull.push(rawRun(true));
}

const format = (values: number[]) => `median ${median(values).toFixed(1)} ms (runs: ${values.map((v) => v.toFixed(1)).join(', ')})`;
console.log(`node ${process.version}, batch split of ${LINES} lines into ${LINES} shipments, ${runs} runs after warm-up`);
console.log(`domain batchSplitParcel:                 ${format(domain)}, ${domainStatements} statements run`);
console.log(`  of which the 101 full reads answered:  ${format(reads)} (measured apart)`);
console.log(`raw inserts (shipments, parcels, lines, usage, activities): ${format(raw)}, ${5 * LINES + 2} statements run`);
console.log(`raw inserts + parties, line updates, outbox events:         ${format(rawFull)}, ${9 * LINES + 2} statements run`);
// The target compares like with like: raw inserts of every row the domain writes.
const ratio = median(domain) / median(rawFull);
console.log(`ratio domain / raw inserts of the same rows: ${ratio.toFixed(1)}× (target ≤ 3×, ${ratio <= 3 ? 'met' : 'MISSED'})`);
console.log(`ratio domain / raw inserts of the new shipments' own rows only: ${(median(domain) / median(raw)).toFixed(1)}× (for information)`);

app.close();
rmSync(dir, { recursive: true, force: true });
