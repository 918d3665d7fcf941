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
