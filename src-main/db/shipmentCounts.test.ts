import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from './open';
import type { Db } from './types';

let dir: string;
let db: Db;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'shipdesk-counts-'));
  db = openDatabase(join(dir, 'counts.sqlite'));
  const c = db.$client;
  const at = '2026-01-01T00:00:00.000Z';
  c.prepare("INSERT INTO orgs (id, name, slug, created_at, updated_at) VALUES ('org_a', 'A', 'a', ?, ?), ('org_b', 'B', 'b', ?, ?)").run(at, at, at, at);
  c.prepare(
    "INSERT INTO sender_addresses (id, org_id, name, address1, zipcode, city, country_code, created_at, updated_at) VALUES ('adr_a', 'org_a', 'A', 'x', '1', 'c', 'DK', ?, ?)",
  ).run(at, at);
  c.prepare(
    "INSERT INTO carriers (id, org_id, name, carrier_slug, config, sender_address_id, created_at, updated_at) VALUES ('car_a', 'org_a', 'A', 'local', '{}', 'adr_a', ?, ?)",
  ).run(at, at);
});
afterAll(() => {
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

function insert(id: string, org: string, status: string) {
  db.$client
    .prepare(
      "INSERT INTO shipments (id, org_id, reference, sender_address_id, type, carrier_id, product_id, services, additional_parameters, status, created_at, updated_at) VALUES (?, ?, 'R', 'adr_a', 'outbound', 'car_a', 'p', '[]', '{}', ?, 'x', 'x')",
    )
    .run(id, org, status);
}

function counts() {
  return db.$client.prepare('SELECT org_id, status, n FROM shipment_counts WHERE n <> 0 ORDER BY 1, 2').all();
}
function truth() {
  return db.$client.prepare('SELECT org_id, status, count(*) AS n FROM shipments GROUP BY 1, 2 ORDER BY 1, 2').all();
}

it('keeps shipment_counts equal to the real counts through inserts, status changes, moves and deletes', () => {
  insert('s1', 'org_a', 'pending');
  insert('s2', 'org_a', 'pending');
  insert('s3', 'org_a', 'draft');
  insert('s4', 'org_b', 'pending');
  expect(counts()).toEqual(truth());
  db.$client.prepare("UPDATE shipments SET status = 'dispatched' WHERE id = 's1'").run();
  db.$client.prepare("UPDATE shipments SET reference = 'other' WHERE id = 's2'").run();
  db.$client.prepare("UPDATE shipments SET org_id = 'org_b' WHERE id = 's3'").run();
  expect(counts()).toEqual(truth());
  db.$client.prepare("DELETE FROM shipments WHERE id IN ('s2', 's4')").run();
  expect(counts()).toEqual(truth());
});
