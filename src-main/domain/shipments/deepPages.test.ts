import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shipmentListQuery } from '../../../src-shared/schemas/shipment';
import { ulid } from '../../db/ids';
import { setupLocalCarrier, startTestServer, type TestOrg, type TestServer } from '../../testing/harness';
import { DEEP_OFFSET, listShipments } from './list';

/**
 * Deep pages of the shipments list in creation order (issue 23) seek through the trigger-kept
 * hour counts (migration 0015) instead of skipping every newer shipment: every page must be the
 * same rows as the plain `ORDER BY created_at, id LIMIT … OFFSET …` on the same SQLite file.
 */
let t: TestServer;
let other: TestOrg;
const ROWS = 6000;

beforeAll(async () => {
  t = await startTestServer();
  other = await t.createOrg('Other Warehouse');
  const mine = await setupLocalCarrier(t);
  const theirs = await setupLocalCarrier(t, other);
  const sqlite = t.app.db.$client;
  const insert = sqlite.prepare(
    `INSERT INTO shipments (id, org_id, reference, sender_address_id, type, carrier_id, product_id, services, additional_parameters, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'outbound', ?, 'local_parcel', '[]', '{}', 'pending', ?, ?)`,
  );
  const start = Date.parse('2026-03-01T00:00:00.000Z');
  sqlite.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      // Uneven hours: bursts of one to a few hundred shipments an hour, empty hours between, a
      // thousand in one hour, and runs of equal timestamps (the id breaks the tie).
      const hour = i < 1000 ? 3 : Math.floor(i / 37) * 2 + (i % 5 === 0 ? 1 : 0);
      const at = new Date(start + hour * 3_600_000 + (i % 400) * 1000 - (i % 7 === 0 ? 0 : i % 3) * 1000).toISOString();
      const [org, ids] = i % 9 === 0 ? [other, theirs] : [t.org, mine];
      // Not in creation order: ids rise while created_at jumps back and forth.
      insert.run(`shp_${ulid()}`, org.orgId, `DEEP-${i}`, ids.senderAddressId, ids.carrierId, at, at);
    }
  })();
  // The counts follow deletes and a moved created_at too.
  const some = sqlite.prepare('SELECT id FROM shipments WHERE org_id = ? ORDER BY id LIMIT 40').all(t.org.orgId) as { id: string }[];
  for (const { id } of some.slice(0, 20)) sqlite.prepare('DELETE FROM shipments WHERE id = ?').run(id);
  for (const { id } of some.slice(20)) sqlite.prepare("UPDATE shipments SET created_at = '2026-02-27T10:00:00.000Z' WHERE id = ?").run(id);
});
afterAll(async () => t.close());

function plainPage(orgId: string, newestFirst: boolean, limit: number, offset: number): string[] {
  const direction = newestFirst ? 'DESC' : 'ASC';
  return (
    t.app.db.$client
      .prepare(`SELECT id FROM shipments WHERE org_id = ? ORDER BY created_at ${direction}, id ${direction} LIMIT ? OFFSET ?`)
      .all(orgId, limit, offset) as { id: string }[]
  ).map((row) => row.id);
}

describe('deep pages of the shipments list', () => {
  it('keeps shipment_hour_counts equal to the shipments per organization and hour', () => {
    const sqlite = t.app.db.$client;
    const kept = sqlite.prepare('SELECT org_id, bucket, n FROM shipment_hour_counts WHERE n > 0 ORDER BY 1, 2').all();
    const counted = sqlite.prepare('SELECT org_id, substr(created_at, 1, 13) AS bucket, count(*) AS n FROM shipments GROUP BY 1, 2 ORDER BY 1, 2').all();
    expect(kept).toEqual(counted);
  });

  for (const sort of ['-createdAt', 'createdAt'] as const) {
    it(`answers every page (sort ${sort}) with the same rows as the plain OFFSET query`, () => {
      for (const org of [t.org, other]) {
        for (const limit of [20, 13]) {
          const first = listShipments(t.app, org.orgId, shipmentListQuery.parse({ page: '1', limit: String(limit), sort }));
          expect(first.total).toBeGreaterThan(0);
          let deep = 0;
          for (let page = 1; page <= first.totalPages + 1; page++) {
            const answer = listShipments(t.app, org.orgId, shipmentListQuery.parse({ page: String(page), limit: String(limit), sort }));
            const offset = (page - 1) * limit;
            if (offset >= DEEP_OFFSET) deep++;
            expect(
              answer.data.map((item) => item.id),
              `page ${page}, limit ${limit}`,
            ).toEqual(plainPage(org.orgId, sort === '-createdAt', limit, offset));
          }
          if (org === t.org) expect(deep).toBeGreaterThan(10);
        }
      }
    });
  }

  it('answers a deep page over HTTP as the plain query does', async () => {
    const limit = 20;
    const page = Math.floor(4000 / limit);
    const answer = await t.client().call('shipments.list', { params: { orgId: t.org.orgId }, query: { page, limit } as never });
    expect(answer.data.map((item) => item.id)).toEqual(plainPage(t.org.orgId, true, limit, (page - 1) * limit));
  });
});
