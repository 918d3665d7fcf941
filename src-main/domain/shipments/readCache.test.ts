import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { databaseFile } from '../../app/runtime/config';
import { durable, inSavepoint, inWriteTransaction } from '../../db/tx';
import { readShipmentCached } from './readCache';
import { setupLocalCarrier, shipmentBody, shippingRuleBody, startTestServer, type TestServer } from '../../testing/harness';

let t: TestServer;
let carrierId: string;
let senderAddressId: string;
beforeAll(async () => {
  t = await startTestServer();
  ({ carrierId, senderAddressId } = await setupLocalCarrier(t));
});
afterAll(async () => t.close());

const base = () => `/orgs/${t.org.orgId}/shipments`;
const get = async (id: string) => (await t.request('GET', `${base()}/${id}`)).body;
const created = async () => (await t.request('POST', base(), { body: shipmentBody(carrierId) })).body.id as string;

describe('cached full reads of GET /shipments/{id}', () => {
  it('keeps a read, and drops it when the API changes anything it shows', async () => {
    const id = await created();
    await get(id);
    expect(t.app.shipmentReads.size).toBeGreaterThan(0);
    const patched = await t.request('PATCH', `${base()}/${id}`, { body: { termOfTrade: 'DDP' } });
    expect(patched.status).toBe(200);
    expect((await get(id)).termOfTrade).toBe('DDP');
  });

  it('drops a read when a row it shows is written by a raw statement on the same connection, child tables included', async () => {
    const id = await created();
    const first = await get(id);
    const db = t.app.db.$client;
    db.prepare('UPDATE parcel_order_lines SET quantity = 7 WHERE id = ?').run(first.parcels[0].orderLines[0].id);
    expect((await get(id)).parcels[0].orderLines[0].quantity).toBe(7);
    db.prepare(
      "INSERT INTO shipment_errors (id, shipment_id, code, message, created_at) VALUES ('err_x', ?, 'X', 'written by hand', '2026-01-01T00:00:00.000Z')",
    ).run(id);
    expect((await get(id)).errors).toEqual([{ id: 'err_x', code: 'X', message: 'written by hand', createdAt: '2026-01-01T00:00:00.000Z' }]);
    db.prepare('UPDATE shipment_parties SET city = ? WHERE shipment_id = ? AND type = ?').run('Odense', id, 'receiver');
    expect((await get(id)).parties[1].city).toBe('Odense');
    db.prepare('DELETE FROM parcels WHERE shipment_id = ?').run(id);
    expect((await get(id)).parcels).toEqual([]);
  });

  it('drops everything when another connection (the CLI, another process) commits', async () => {
    const id = await created();
    await get(id);
    const other = new Database(databaseFile(t.dir));
    try {
      other.prepare('UPDATE shipments SET reference = ? WHERE id = ?').run('FROM-ELSEWHERE', id);
    } finally {
      other.close();
    }
    expect((await get(id)).reference).toBe('FROM-ELSEWHERE');
  });

  it('shows a renamed shipping rule in every shipment that uses it', async () => {
    const rule = (await t.request('POST', `/orgs/${t.org.orgId}/shipping-rules`, { body: shippingRuleBody(carrierId, senderAddressId) })).body;
    const id = await created();
    await t.request('PATCH', `${base()}/${id}`, { body: { shippingRuleId: rule.id } });
    expect((await get(id)).shippingRule.name).toBe(rule.name);
    const renamed = await t.request('PATCH', `/orgs/${t.org.orgId}/shipping-rules/${rule.id}`, { body: { name: 'Renamed rule' } });
    expect(renamed.status).toBe(200);
    expect((await get(id)).shippingRule.name).toBe('Renamed rule');
  });

  it('answers while a write transaction is open, but not what it wrote, and keeps nothing read inside it', async () => {
    const id = await created();
    const { reference } = await get(id);
    const cache = t.app.shipmentReads;
    const kept = cache.get(id, t.org.orgId);
    expect(kept).toBeDefined();
    inWriteTransaction(t.app.db, (tx) => {
      expect(t.app.db.$client.inTransaction).toBe(true);
      expect(cache.get(id, t.org.orgId)).toBe(kept);
      expect(() =>
        inSavepoint(tx, (inner) => {
          inner.run(sql`UPDATE shipments SET reference = 'NEVER-COMMITTED' WHERE id = ${id}`);
          expect(cache.get(id, t.org.orgId)).toBeUndefined();
          expect(readShipmentCached(t.app.db, cache, t.org.orgId, id).parse().reference).toBe('NEVER-COMMITTED');
          throw new Error('undone');
        }),
      ).toThrow('undone');
      expect(readShipmentCached(t.app.db, cache, t.org.orgId, id).parse().reference).toBe(reference);
      expect(cache.get(id, t.org.orgId)).toBeUndefined();
    });
    await durable(t.app.db);
    expect((await get(id)).reference).toBe(reference);
    expect(cache.get(id, t.org.orgId)).toBe(kept);
  });

  it('never answers another organization from the cache', async () => {
    const id = await created();
    await get(id);
    const other = await t.createOrg();
    const res = await t.request('GET', `/orgs/${other.orgId}/shipments/${id}`, { token: other.token });
    expect(res.status).toBe(404);
  });
});
