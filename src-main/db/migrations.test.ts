import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from './open';
import { migrationsBefore as migrationsBeforeIn } from '../testing/migrationsBefore';

// Migrations that change rows already there: what a database made before them holds after them.
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'shipdesk-migrations-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const migrationsBefore = (tag: string) => migrationsBeforeIn(dir, tag);

it('0005 keeps every member and starts updated_at at created_at', () => {
  const file = join(dir, 'before-0005.sqlite');
  const old = openDatabase(file, { migrationsFolder: migrationsBefore('0005_org_member_updated_at') });
  const at = '2026-01-02T03:04:05.000Z';
  old.$client.prepare("INSERT INTO orgs (id, name, slug, created_at, updated_at) VALUES ('org_a', 'A', 'a', ?, ?)").run(at, at);
  old.$client
    .prepare(
      "INSERT INTO users (id, name, email, password_hash, created_at, updated_at) VALUES ('usr_a', 'Ann', 'ann@a.example', 'x', ?, ?), ('usr_b', 'Bo', 'bo@a.example', 'x', ?, ?)",
    )
    .run(at, at, at, at);
  old.$client
    .prepare(
      "INSERT INTO org_members (org_id, user_id, role, created_at) VALUES ('org_a', 'usr_a', 'owner', ?), ('org_a', 'usr_b', 'packer', '2026-02-01T00:00:00.000Z')",
    )
    .run(at);
  old.$client.close();

  const db = openDatabase(file);
  expect(db.$client.prepare('SELECT org_id, user_id, role, created_at, updated_at FROM org_members ORDER BY user_id').all()).toEqual([
    { org_id: 'org_a', user_id: 'usr_a', role: 'owner', created_at: at, updated_at: at },
    { org_id: 'org_a', user_id: 'usr_b', role: 'packer', created_at: '2026-02-01T00:00:00.000Z', updated_at: '2026-02-01T00:00:00.000Z' },
  ]);
  const indexes = db.$client
    .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'org_members' AND sql IS NOT NULL ORDER BY name")
    .all();
  expect(indexes).toEqual([{ name: 'org_members_org_created' }, { name: 'org_members_user' }]);
  expect(db.$client.pragma('foreign_key_check')).toEqual([]);
  db.$client.close();
});

it('0006 marks shipments already in processing as bookings in flight, and no others', () => {
  const file = join(dir, 'before-0006.sqlite');
  const old = openDatabase(file, { migrationsFolder: migrationsBefore('0006_shipment_booking_marker') });
  const at = '2026-01-02T03:04:05.000Z';
  const later = '2026-01-02T03:04:06.000Z';
  old.$client.exec(`
    INSERT INTO orgs (id, name, slug, created_at, updated_at) VALUES ('org_a', 'A', 'a', '${at}', '${at}');
    INSERT INTO sender_addresses (id, org_id, name, address1, zipcode, city, country_code, created_at, updated_at)
      VALUES ('adr_a', 'org_a', 'Main', 'Vej 1', '8000', 'Aarhus', 'DK', '${at}', '${at}');
    INSERT INTO carriers (id, org_id, name, carrier_slug, config, sender_address_id, created_at, updated_at)
      VALUES ('car_a', 'org_a', 'Own', 'local', '{}', 'adr_a', '${at}', '${at}');
    INSERT INTO shipments (id, org_id, reference, sender_address_id, type, carrier_id, product_id, services, additional_parameters, status, created_at, updated_at)
      VALUES ('shp_p', 'org_a', 'P', 'adr_a', 'outbound', 'car_a', 'local_parcel', '[]', '{}', 'processing', '${at}', '${later}'),
             ('shp_d', 'org_a', 'D', 'adr_a', 'outbound', 'car_a', 'local_parcel', '[]', '{}', 'dispatched', '${at}', '${later}');
  `);
  old.$client.close();

  const db = openDatabase(file);
  expect(db.$client.prepare('SELECT id, status, booking_started_at FROM shipments ORDER BY id').all()).toEqual([
    { id: 'shp_d', status: 'dispatched', booking_started_at: null },
    { id: 'shp_p', status: 'processing', booking_started_at: later },
  ]);
  db.$client.close();
});

it('0011 fills the search tables from the rows already there, and the triggers keep them after', () => {
  const file = join(dir, 'before-0011.sqlite');
  const old = openDatabase(file, { migrationsFolder: migrationsBefore('0011_search') });
  const at = '2026-01-02T03:04:05.000Z';
  old.$client.exec(`
    INSERT INTO orgs (id, name, slug, created_at, updated_at) VALUES ('org_a', 'A', 'a', '${at}', '${at}');
    INSERT INTO sender_addresses (id, org_id, name, address1, zipcode, city, country_code, created_at, updated_at)
      VALUES ('adr_a', 'org_a', 'Main', 'Vej 1', '8000', 'Aarhus', 'DK', '${at}', '${at}');
    INSERT INTO carriers (id, org_id, name, carrier_slug, config, sender_address_id, created_at, updated_at)
      VALUES ('car_a', 'org_a', 'Own', 'local', '{}', 'adr_a', '${at}', '${at}');
    INSERT INTO order_channels (id, org_id, name, type, config, created_at, updated_at) VALUES ('och_a', 'org_a', 'Web', 'manual', '{}', '${at}', '${at}');
    INSERT INTO orders (id, org_id, order_channel_id, order_number, customer_name, customer_email, external_data, created_at, updated_at)
      VALUES ('ord_a', 'org_a', 'och_a', 'WEB-4711', 'Åse Ødegård', 'ase@shop.example', '{}', '${at}', '${at}');
    INSERT INTO order_lines (id, order_id, position, name, quantity, sku) VALUES ('oln_a', 'ord_a', 0, 'Mug', 1, 'MUG-RED-01');
    INSERT INTO shipments (id, org_id, reference, sender_address_id, type, carrier_id, product_id, services, additional_parameters, status, tracking_number, order_id, created_at, updated_at)
      VALUES ('shp_a', 'org_a', 'SHP-1', 'adr_a', 'outbound', 'car_a', 'local_parcel', '[]', '{}', 'dispatched', 'TRK123456789', 'ord_a', '${at}', '${at}'),
             ('shp_b', 'org_a', 'SHP-2', 'adr_a', 'outbound', 'car_a', 'local_parcel', '[]', '{}', 'pending', NULL, NULL, '${at}', '${at}');
    INSERT INTO shipment_parties (shipment_id, position, type, name, address1, postal_code, city, country_code, email, attributes)
      VALUES ('shp_a', 0, 'receiver', 'Åse Ødegård', 'Gade 1', '5000', 'Odense', 'DK', 'ase@shop.example', '[]'),
             ('shp_b', 0, 'sender', 'Main', 'Vej 1', '8000', 'Aarhus', 'DK', NULL, '[]');
    INSERT INTO parcels (id, shipment_id, position, weight, tracking_number, parcel_number) VALUES ('pcl_a', 'shp_a', 0, 1, 'PTRK-1', 'PNO-77');
  `);
  old.$client.close();

  // 0016 replaced these indexes by one document per shipment and order (its own test below).
  const db = openDatabase(file, { migrationsFolder: migrationsBefore('0016_search_docs') });
  const shipmentsMatching = (phrase: string) =>
    db.$client
      .prepare(
        'SELECT DISTINCT s.shipment_id AS id FROM shipment_search s WHERE s.id IN (SELECT rowid FROM shipment_search_fts WHERE shipment_search_fts MATCH ?) ORDER BY 1',
      )
      .all(`"${phrase}"`)
      .map((row) => (row as { id: string }).id);
  for (const phrase of ['shp-', 'web-47', 'ØDEGÅ', 'ase@shop', '5000', 'trk1234', 'ptrk', 'pno-77']) {
    expect(shipmentsMatching(phrase), phrase).toEqual(phrase === 'shp-' ? ['shp_a', 'shp_b'] : ['shp_a']);
  }
  const ordersMatching = (phrase: string) =>
    db.$client
      .prepare('SELECT DISTINCT o.order_id AS id FROM order_search o WHERE o.id IN (SELECT rowid FROM order_search_fts WHERE order_search_fts MATCH ?)')
      .all(`"${phrase}"`);
  for (const phrase of ['web-4711', 'åse', 'SHOP.EX', 'mug-red']) expect(ordersMatching(phrase), phrase).toEqual([{ id: 'ord_a' }]);

  // Written after the migration, by any path: the triggers keep the text.
  db.$client.exec("UPDATE orders SET order_number = 'WEB-9000' WHERE id = 'ord_a'");
  expect(shipmentsMatching('web-9000')).toEqual(['shp_a']);
  expect(shipmentsMatching('web-4711')).toEqual([]);
  db.$client.exec("DELETE FROM parcels WHERE id = 'pcl_a'");
  expect(shipmentsMatching('pno-77')).toEqual([]);
  db.$client.exec("DELETE FROM shipments WHERE id = 'shp_a'");
  expect(shipmentsMatching('trk1234')).toEqual([]);
  expect(db.$client.prepare('SELECT shipment_id FROM shipment_search').all()).toEqual([{ shipment_id: 'shp_b' }]);
  expect(db.$client.prepare("INSERT INTO shipment_search_fts (shipment_search_fts) VALUES ('integrity-check')").run()).toBeTruthy();
  db.$client.close();
});

it('0016 gathers each shipment’s and order’s search text into one document, numbered in creation order, and the triggers keep them after', () => {
  const file = join(dir, 'before-0016.sqlite');
  const old = openDatabase(file, { migrationsFolder: migrationsBefore('0016_search_docs') });
  const at = (minute: number) => `2026-01-02T03:${String(minute).padStart(2, '0')}:00.000Z`;
  old.$client.exec(`
    INSERT INTO orgs (id, name, slug, created_at, updated_at) VALUES ('org_a', 'A', 'a', '${at(0)}', '${at(0)}'), ('org_b', 'B', 'b', '${at(0)}', '${at(0)}');
    INSERT INTO sender_addresses (id, org_id, name, address1, zipcode, city, country_code, created_at, updated_at)
      VALUES ('adr_a', 'org_a', 'Main', 'Vej 1', '8000', 'Aarhus', 'DK', '${at(0)}', '${at(0)}'), ('adr_b', 'org_b', 'Main', 'Vej 1', '8000', 'Aarhus', 'DK', '${at(0)}', '${at(0)}');
    INSERT INTO carriers (id, org_id, name, carrier_slug, config, sender_address_id, created_at, updated_at)
      VALUES ('car_a', 'org_a', 'Own', 'local', '{}', 'adr_a', '${at(0)}', '${at(0)}'), ('car_b', 'org_b', 'Own', 'local', '{}', 'adr_b', '${at(0)}', '${at(0)}');
    INSERT INTO order_channels (id, org_id, name, type, config, created_at, updated_at) VALUES ('och_a', 'org_a', 'Web', 'manual', '{}', '${at(0)}', '${at(0)}');
    INSERT INTO orders (id, org_id, order_channel_id, order_number, customer_name, customer_email, external_data, created_at, updated_at)
      VALUES ('ord_a', 'org_a', 'och_a', 'WEB-4711', 'Åse Ødegård', 'ase@shop.example', '{}', '${at(5)}', '${at(5)}');
    INSERT INTO order_lines (id, order_id, position, name, quantity, sku) VALUES ('oln_a', 'ord_a', 0, 'Mug', 1, 'MUG-RED-01'), ('oln_b', 'ord_a', 1, 'Cup', 1, 'CUP-9');
    INSERT INTO shipments (id, org_id, reference, sender_address_id, type, carrier_id, product_id, services, additional_parameters, status, tracking_number, order_id, created_at, updated_at)
      VALUES ('shp_c', 'org_a', 'SHP-3', 'adr_a', 'outbound', 'car_a', 'local_parcel', '[]', '{}', 'pending', NULL, NULL, '${at(3)}', '${at(3)}'),
             ('shp_a', 'org_a', 'SHP-1', 'adr_a', 'outbound', 'car_a', 'local_parcel', '[]', '{}', 'dispatched', 'TRK123456789', 'ord_a', '${at(1)}', '${at(1)}'),
             ('shp_b', 'org_b', 'SHP-2', 'adr_b', 'outbound', 'car_b', 'local_parcel', '[]', '{}', 'pending', NULL, NULL, '${at(2)}', '${at(2)}');
    INSERT INTO shipment_parties (shipment_id, position, type, name, address1, postal_code, city, country_code, email, attributes)
      VALUES ('shp_a', 0, 'receiver', 'Åse Ødegård', 'Gade 1', '5000', 'Odense', 'DK', 'ase@shop.example', '[]');
    INSERT INTO parcels (id, shipment_id, position, weight, tracking_number, parcel_number) VALUES ('pcl_a', 'shp_a', 0, 1, 'PTRK-1', 'PNO-77');
  `);
  old.$client.close();

  const db = openDatabase(file);
  const sqlite = db.$client;
  const documents = () =>
    sqlite
      .prepare('SELECT d.shipment_id AS id, s.org_id AS org, d.body FROM shipment_search_docs d JOIN shipments s ON s.id = d.shipment_id ORDER BY d.id')
      .all() as { id: string; org: string; body: string }[];
  // One document a shipment, an organization's together and in creation order (shp_a before shp_c).
  expect(documents().map((doc) => [doc.org, doc.id])).toEqual([
    ['org_a', 'shp_a'],
    ['org_a', 'shp_c'],
    ['org_b', 'shp_b'],
  ]);
  expect(documents()[0]!.body.split('\n')).toEqual(expect.arrayContaining(['SHP-1', 'WEB-4711', 'TRK123456789', 'Åse Ødegård', 'PTRK-1', 'PNO-77']));
  const matching = (phrase: string) =>
    sqlite
      .prepare(
        'SELECT d.shipment_id AS id FROM shipment_search_docs_fts f JOIN shipment_search_docs d ON d.id = f.rowid WHERE shipment_search_docs_fts MATCH ? ORDER BY 1',
      )
      .all(`"${phrase}"`)
      .map((row) => (row as { id: string }).id);
  for (const phrase of ['web-47', 'ØDEGÅ', 'ase@shop', '5000', 'trk1234', 'ptrk', 'pno-77']) expect(matching(phrase), phrase).toEqual(['shp_a']);
  expect(matching('shp-')).toEqual(['shp_a', 'shp_b', 'shp_c']);
  const orderMatching = (phrase: string) =>
    sqlite
      .prepare('SELECT d.order_id AS id FROM order_search_docs_fts f JOIN order_search_docs d ON d.id = f.rowid WHERE order_search_docs_fts MATCH ?')
      .all(`"${phrase}"`);
  for (const phrase of ['web-4711', 'åse', 'SHOP.EX', 'mug-red', 'cup-9']) expect(orderMatching(phrase), phrase).toEqual([{ id: 'ord_a' }]);

  // Written after the migration, by any path: the document follows.
  sqlite.exec("UPDATE orders SET order_number = 'WEB-9000' WHERE id = 'ord_a'");
  expect(matching('web-9000')).toEqual(['shp_a']);
  expect(matching('web-4711')).toEqual([]);
  sqlite.exec("DELETE FROM order_lines WHERE id = 'oln_b'");
  expect(orderMatching('cup-9')).toEqual([]);
  sqlite.exec("DELETE FROM parcels WHERE id = 'pcl_a'");
  expect(matching('pno-77')).toEqual([]);
  // A shipment written later but created between two others goes between their documents.
  sqlite.exec(`INSERT INTO shipments (id, org_id, reference, sender_address_id, type, carrier_id, product_id, services, additional_parameters, status, created_at, updated_at)
    VALUES ('shp_d', 'org_a', 'SHP-4', 'adr_a', 'outbound', 'car_a', 'local_parcel', '[]', '{}', 'pending', '${at(2)}', '${at(2)}')`);
  expect(documents().map((doc) => doc.id)).toEqual(['shp_a', 'shp_d', 'shp_c', 'shp_b']);
  // Moved in time: placed anew.
  sqlite.exec(`UPDATE shipments SET created_at = '${at(9)}' WHERE id = 'shp_a'`);
  expect(documents().map((doc) => doc.id)).toEqual(['shp_d', 'shp_c', 'shp_a', 'shp_b']);
  sqlite.exec("DELETE FROM shipments WHERE id = 'shp_a'");
  expect(matching('trk1234')).toEqual([]);
  expect(documents().map((doc) => doc.id)).toEqual(['shp_d', 'shp_c', 'shp_b']);
  expect(sqlite.prepare('SELECT org_id, shipments_unordered, orders_unordered FROM search_org_keys ORDER BY org_id').all()).toEqual([
    { org_id: 'org_a', shipments_unordered: 0, orders_unordered: 0 },
    { org_id: 'org_b', shipments_unordered: 0, orders_unordered: 0 },
  ]);
  for (const index of ['shipment_search_docs_fts', 'order_search_docs_fts']) {
    expect(sqlite.prepare(`INSERT INTO ${index} (${index}) VALUES ('integrity-check')`).run()).toBeTruthy();
  }
  db.$client.close();
});
