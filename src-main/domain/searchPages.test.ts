import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ulid } from '../db/ids';
import { FEW_MATCHES, textMatches } from '../db/search';
import { orderListQuery } from '../../src-shared/schemas/order';
import { shipmentListQuery } from '../../src-shared/schemas/shipment';
import { setupLocalCarrier, startTestServer, type TestOrg, type TestServer } from '../testing/harness';
import { listOrders } from './orders/orders';
import { listShipments } from './shipments/list';

/**
 * Issue 23: a search with more than FEW_MATCHES matches is counted and paged by the trigram index
 * over one document per shipment (order), whose ids rise in the list's creation order (migration
 * 0016). Every page must hold the rows the plain query answers: with shipments written out of
 * creation order, deleted, moved, beside another organization's, and when the documents could not
 * be kept in order.
 */
let t: TestServer;
let other: TestOrg;
const ROWS = 6500;

beforeAll(async () => {
  t = await startTestServer();
  other = await t.createOrg('Other Warehouse');
  const mine = await setupLocalCarrier(t);
  const theirs = await setupLocalCarrier(t, other);
  const sqlite = t.app.db.$client;
  const shipment = sqlite.prepare(
    `INSERT INTO shipments (id, org_id, reference, sender_address_id, type, carrier_id, product_id, services, additional_parameters, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'outbound', ?, 'local_parcel', '[]', '{}', 'pending', ?, ?)`,
  );
  const receiver = sqlite.prepare(
    `INSERT INTO shipment_parties (shipment_id, position, type, name, address1, postal_code, city, country_code, email, attributes)
     VALUES (?, 1, 'receiver', ?, 'Vej 1', '8000', 'Aarhus', 'DK', ?, '[]')`,
  );
  const channel = (org: TestOrg, id: string) =>
    sqlite
      .prepare("INSERT INTO order_channels (id, org_id, name, type, config, created_at, updated_at) VALUES (?, ?, 'Web', 'manual', '{}', ?, ?)")
      .run(id, org.orgId, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
  channel(t.org, 'chn_mine');
  channel(other, 'chn_theirs');
  const order = sqlite.prepare(
    `INSERT INTO orders (id, org_id, order_channel_id, order_number, customer_name, customer_email, external_data, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, '{}', ?, ?)`,
  );
  const line = sqlite.prepare(`INSERT INTO order_lines (id, order_id, position, name, quantity, sku) VALUES (?, ?, 0, 'Mug', 1, ?)`);
  const start = Date.parse('2026-03-01T00:00:00.000Z');
  sqlite.transaction(() => {
    // The other organization's documents come first, in the worst order: each one before the last,
    // at the same time, until no room is left between them.
    for (let i = 0; i < 40; i++) {
      const at = new Date(start).toISOString();
      const id = `shp_zz${String(99 - i).padStart(2, '0')}`;
      shipment.run(id, other.orgId, `SRCH-THEIRS-${i}`, theirs.senderAddressId, theirs.carrierId, at, at);
      receiver.run(id, 'Theirs Srchsen', null);
    }
    for (let i = 0; i < ROWS; i++) {
      // Mostly rising, every tenth a few hours back (written between older ones), some at equal times.
      const minutes = i * 2 - (i % 10 === 0 ? 300 + (i % 7) * 60 : 0) - (i % 13 === 0 ? 1 : 0);
      const at = new Date(start + minutes * 60_000).toISOString();
      const [org, ids] = i % 11 === 0 ? [other, theirs] : [t.org, mine];
      const id = `shp_${ulid()}`;
      const matching = i % 6 !== 0;
      shipment.run(id, org.orgId, matching ? `SRCH-${i}` : `PLAIN-${i}`, ids.senderAddressId, ids.carrierId, at, at);
      receiver.run(id, i % 4 === 0 ? 'Åse Srchsen' : 'Ole Hansen', i % 5 === 0 ? `srch${i}@shop.example` : null);
      const orderId = `ord_${ulid()}`;
      order.run(orderId, org.orgId, org === t.org ? 'chn_mine' : 'chn_theirs', `WEB-${i}`, matching ? 'Kunde Srchsen' : 'Kunde', null, at, at);
      line.run(`oln_${ulid()}`, orderId, i % 3 === 0 ? `SRCH-SKU-${i}` : `SKU-${i}`);
    }
  })();
  // Written after: deletes, a moved creation time, a receiver renamed into and out of the search.
  const some = sqlite.prepare('SELECT id FROM shipments WHERE org_id = ? ORDER BY id LIMIT 60').all(t.org.orgId) as { id: string }[];
  for (const { id } of some.slice(0, 20)) sqlite.prepare('DELETE FROM shipments WHERE id = ?').run(id);
  for (const { id } of some.slice(20, 40)) sqlite.prepare("UPDATE shipments SET created_at = '2026-03-02T10:00:00.000Z' WHERE id = ?").run(id);
  for (const { id } of some.slice(40)) sqlite.prepare("UPDATE shipment_parties SET name = 'Renamed Srch' WHERE shipment_id = ?").run(id);
  sqlite.prepare("UPDATE shipment_parties SET name = 'Nobody' WHERE shipment_id IN (SELECT id FROM shipments WHERE reference LIKE 'PLAIN-1%')").run();
  // 26 000 rows through every trigger: a few seconds on an idle machine.
}, 120_000);
afterAll(async () => t.close());

/** The 0011 rule, read the plain way: a shipment matches when any of its rows' text contains the term. */
function plainShipments(orgId: string, term: string, newestFirst: boolean, limit: number, offset: number) {
  const direction = newestFirst ? 'DESC' : 'ASC';
  const where = `org_id = ? AND id IN (SELECT shipment_id FROM shipment_search WHERE body LIKE '%' || ? || '%')`;
  const sqlite = t.app.db.$client;
  const ids = sqlite
    .prepare(`SELECT id FROM shipments WHERE ${where} ORDER BY created_at ${direction}, id ${direction} LIMIT ? OFFSET ?`)
    .all(orgId, term, limit, offset);
  const total = (sqlite.prepare(`SELECT count(*) AS n FROM shipments WHERE ${where}`).get(orgId, term) as { n: number }).n;
  return { ids: (ids as { id: string }[]).map((row) => row.id), total };
}

function plainOrders(orgId: string, term: string, limit: number, offset: number) {
  const where = `org_id = ? AND id IN (SELECT order_id FROM order_search WHERE body LIKE '%' || ? || '%')`;
  const sqlite = t.app.db.$client;
  const ids = sqlite.prepare(`SELECT id FROM orders WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`).all(orgId, term, limit, offset);
  const total = (sqlite.prepare(`SELECT count(*) AS n FROM orders WHERE ${where}`).get(orgId, term) as { n: number }).n;
  return { ids: (ids as { id: string }[]).map((row) => row.id), total };
}

describe('broad searches, counted and paged by the trigram index', () => {
  it('keeps each organization’s documents in the list’s creation order, or says it could not', () => {
    const sqlite = t.app.db.$client;
    const keys = sqlite.prepare('SELECT org_id, shipments_unordered, orders_unordered FROM search_org_keys').all() as {
      org_id: string;
      shipments_unordered: number;
      orders_unordered: number;
    }[];
    expect(keys.find((key) => key.org_id === t.org.orgId)).toMatchObject({ shipments_unordered: 0, orders_unordered: 0 });
    // Forty documents each written before the last at the same time: no room left after sixteen.
    expect(keys.find((key) => key.org_id === other.orgId)).toMatchObject({ shipments_unordered: 1, orders_unordered: 0 });
    for (const [docs, table, key] of [
      ['shipment_search_docs', 'shipments', 'shipment_id'],
      ['order_search_docs', 'orders', 'order_id'],
    ]) {
      const byDocument = sqlite
        .prepare(`SELECT d.${key} AS id FROM ${docs} d JOIN ${table} o ON o.id = d.${key} WHERE o.org_id = ? ORDER BY d.id`)
        .all(t.org.orgId);
      const byCreation = sqlite.prepare(`SELECT id FROM ${table} WHERE org_id = ? ORDER BY created_at, id`).all(t.org.orgId);
      expect(byDocument).toEqual(byCreation);
    }
  });

  it('answers the total and every page of the shipments list as the plain query does', () => {
    for (const org of [t.org, other]) {
      for (const term of ['srch', 'rc']) {
        const matches = textMatches(t.app.db, 'shipment', org.orgId, term);
        if (org === t.org) {
          expect(matches.few(), term).toBeUndefined();
          expect(matches.page, 'read from the index').toBeTruthy();
        }
        for (const sort of ['-createdAt', 'createdAt'] as const) {
          const limit = 100;
          const plain = plainShipments(org.orgId, term, sort === '-createdAt', limit, 0);
          for (let page = 1; (page - 1) * limit <= plain.total; page++) {
            const answer = listShipments(t.app, org.orgId, shipmentListQuery.parse({ search: term, sort, page: String(page), limit: String(limit) }));
            const expected = plainShipments(org.orgId, term, sort === '-createdAt', limit, (page - 1) * limit);
            expect(answer.total, `${term} ${sort}`).toBe(expected.total);
            expect(
              answer.data.map((item) => item.id),
              `${term} ${sort} page ${page}`,
            ).toEqual(expected.ids);
          }
        }
      }
    }
    expect(plainShipments(t.org.orgId, 'srch', true, 1, 0).total).toBeGreaterThan(FEW_MATCHES);
  });

  it('answers the total and every page of the orders list as the plain query does', () => {
    for (const term of ['srch', 'rc']) {
      const limit = 100;
      const first = plainOrders(t.org.orgId, term, limit, 0);
      expect(first.total).toBeGreaterThan(FEW_MATCHES);
      for (let page = 1; (page - 1) * limit <= first.total; page++) {
        const answer = listOrders(t.app, t.org.orgId, orderListQuery.parse({ search: term, page: String(page), limit: String(limit) }));
        const expected = plainOrders(t.org.orgId, term, limit, (page - 1) * limit);
        expect(answer.total).toBe(expected.total);
        expect(
          answer.data.map((item) => item.id),
          `${term} page ${page}`,
        ).toEqual(expected.ids);
      }
    }
  });

  it('combines a broad search with another filter the plain way', () => {
    const answer = listShipments(t.app, t.org.orgId, shipmentListQuery.parse({ search: 'srch', status: 'pending', limit: '50' }));
    const expected = plainShipments(t.org.orgId, 'srch', true, 50, 0);
    expect(answer.total).toBe(expected.total);
    expect(answer.data.map((item) => item.id)).toEqual(expected.ids);
  });

  it('finds a few matches whose document ids are past what a JS number holds exactly', async () => {
    const sqlite = t.app.db.$client;
    const late = await t.createOrg('Late Warehouse');
    const carrier = await setupLocalCarrier(t, late);
    // A key as an organization gets after thousands of others: its ids start at 2^62.
    sqlite.prepare('INSERT INTO search_org_keys (key, org_id) VALUES (?, ?)').run(2 ** 14, late.orgId);
    const at = '2026-03-05T00:00:00.000Z';
    const written: string[] = [];
    sqlite.transaction(() => {
      // Each before the last at the same time: the ids halve their gaps down to odd numbers.
      for (let i = 0; i < 12; i++) {
        const id = `shp_yy${String(99 - i).padStart(2, '0')}`;
        sqlite
          .prepare(
            `INSERT INTO shipments (id, org_id, reference, sender_address_id, type, carrier_id, product_id, services, additional_parameters, status, created_at, updated_at)
             VALUES (?, ?, ?, ?, 'outbound', ?, 'local_parcel', '[]', '{}', 'pending', ?, ?)`,
          )
          .run(id, late.orgId, `LATE-${i}`, carrier.senderAddressId, carrier.carrierId, at, at);
        written.push(id);
      }
    })();
    const inexact = sqlite
      .prepare(
        'SELECT count(*) FROM shipment_search_docs WHERE shipment_id IN (SELECT id FROM shipments WHERE org_id = ?) AND CAST(CAST(id AS REAL) AS INTEGER) != id',
      )
      .pluck()
      .get(late.orgId) as number;
    expect(inexact, 'ids a double cannot hold').toBeGreaterThan(0);
    const found = textMatches(t.app.db, 'shipment', late.orgId, 'late-').few();
    expect([...(found ?? [])].sort()).toEqual([...written].sort());
    const answer = listShipments(t.app, late.orgId, shipmentListQuery.parse({ search: 'late-', limit: '50' }));
    expect(answer.total).toBe(12);
    expect(answer.data.map((item) => item.id).sort()).toEqual([...written].sort());
  });
});
