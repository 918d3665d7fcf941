/**
 * The floor under create-shipment: the rows one create writes (the reference sequence, the month's
 * usage, the shipment, its two parties, a parcel with two lines, the `created` activity and the
 * outbox event carrying the shipment), written by raw prepared better-sqlite3 statements and
 * group-committed as the product is, with nothing else: no authentication, no validation, no reads,
 * no read-back. The shipment's search document is written once after its rows, as the product's
 * create writes it (the cheapest way the schema allows; migration 0016). Shipdesk's create cannot be
 * faster than this on the same schema and machine.
 */
import type Database from 'better-sqlite3';
import { newId } from '../../src-main/db/ids';
import { commitWriteGroup, joinWriteGroup, whenDurable } from '../../src-main/db/groupCommit';
import type { BenchOrg } from './warehouse';

/** Writes one create's rows and resolves once they are on disk. */
export function rawCreate(sqlite: Database.Database, org: BenchOrg, answer: unknown): () => Promise<void> {
  const statements = {
    nextSeq: sqlite.prepare('UPDATE orgs SET shipment_seq = shipment_seq + 1 WHERE id = ? RETURNING shipment_seq').pluck(),
    usage: sqlite.prepare(
      'INSERT INTO shipment_usage (org_id, period, created) VALUES (?, ?, 1) ON CONFLICT (org_id, period) DO UPDATE SET created = created + 1',
    ),
    shipment: sqlite.prepare(
      `INSERT INTO shipments (id, org_id, reference, sender_address_id, type, carrier_id, product_id, services, additional_parameters, term_of_trade, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'outbound', ?, 'local_parcel', '[]', '{}', 'DAP', 'pending', ?, ?)`,
    ),
    party: sqlite.prepare(
      `INSERT INTO shipment_parties (shipment_id, position, type, name, attention, address1, postal_code, city, country_code, phone, email, attributes)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'DK', ?, ?, '[]')`,
    ),
    parcel: sqlite.prepare(
      `INSERT INTO parcels (id, shipment_id, position, weight, weight_unit, length, width, height) VALUES (?, ?, 0, 2.5, 'kg', 30, 20, 10)`,
    ),
    line: sqlite.prepare(
      `INSERT INTO parcel_order_lines (id, parcel_id, position, sku, quantity, description, unit_price, currency, tarrif_number) VALUES (?, ?, ?, ?, ?, ?, ?, 'DKK', ?)`,
    ),
    activity: sqlite.prepare('INSERT INTO shipment_activities (id, shipment_id, action, description, created_at) VALUES (?, ?, ?, ?, ?)'),
    event: sqlite.prepare('INSERT INTO outbox_events (id, org_id, type, payload, created_at) VALUES (?, ?, ?, ?, ?)'),
    deferDocuments: sqlite.prepare('INSERT OR IGNORE INTO search_doc_deferrals (id) VALUES (1)'),
    writeDocuments: sqlite.prepare('DELETE FROM search_doc_deferrals'),
    document: sqlite.prepare('INSERT INTO shipment_search_doc_writes (shipment_id) VALUES (?)'),
  };
  const write = sqlite.transaction(() => {
    const at = new Date().toISOString();
    const shipmentId = newId('shipment');
    const parcelId = newId('parcel');
    const seq = statements.nextSeq.get(org.orgId) as number;
    statements.usage.run(org.orgId, at.slice(0, 7));
    statements.deferDocuments.run();
    statements.shipment.run(shipmentId, org.orgId, `SHP-${String(seq).padStart(6, '0')}`, org.senderAddressId, org.carrierId, at, at);
    statements.party.run(
      shipmentId,
      0,
      'sender',
      'Main warehouse',
      'Dispatch desk',
      'Industrivej 12',
      '8000',
      'Aarhus',
      '+4512345678',
      'dispatch@acme.example',
    );
    statements.party.run(shipmentId, 1, 'receiver', 'Jens Hansen', null, 'Nørregade 1', '1165', 'København K', '+4520202020', 'jens@example.dk');
    statements.parcel.run(parcelId, shipmentId);
    statements.line.run(newId('parcelOrderLine'), parcelId, 0, 'MUG-01', 2, 'Mug', 50, null);
    statements.line.run(newId('parcelOrderLine'), parcelId, 1, 'TEA-02', 3, 'Tea', 30, '0902');
    statements.writeDocuments.run();
    statements.document.run(shipmentId);
    statements.activity.run(newId('activity'), shipmentId, 'created', 'Shipment created with status pending', at);
    const eventId = newId('event');
    statements.event.run(
      eventId,
      org.orgId,
      'shipment.created',
      JSON.stringify({ id: eventId, type: 'shipment.created', createdAt: at, orgId: org.orgId, data: answer }),
      at,
    );
  });
  return groupCommitted(sqlite, write);
}

/** One request's write, in the connection's group commit as the product's are, resolved once on disk. */
function groupCommitted(sqlite: Database.Database, write: () => void): () => Promise<void> {
  return async () => {
    joinWriteGroup(sqlite);
    write();
    await whenDurable(sqlite);
  };
}

/**
 * For sizing only, not a design in use: a create stored as one row holding the shipment's JSON in a
 * table with one index, group-committed and synced as the product is. It shows what the number of
 * rows and indexes a create writes costs against the disk's sync.
 */
export function rawDocumentCreate(sqlite: Database.Database, org: BenchOrg, answer: unknown): () => Promise<void> {
  commitWriteGroup(sqlite);
  sqlite.exec(
    'CREATE TABLE IF NOT EXISTS bench_shipment_documents (id TEXT PRIMARY KEY NOT NULL, org_id TEXT NOT NULL, created_at TEXT NOT NULL, document TEXT NOT NULL)',
  );
  const insert = sqlite.prepare('INSERT INTO bench_shipment_documents (id, org_id, created_at, document) VALUES (?, ?, ?, ?)');
  const document = JSON.stringify(answer);
  return groupCommitted(sqlite, () => insert.run(newId('shipment'), org.orgId, new Date().toISOString(), document));
}
