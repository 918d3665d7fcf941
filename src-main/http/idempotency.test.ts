import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupLocalCarrier, shipmentBody, startTestServer, type TestServer } from '../testing/harness';

let t: TestServer;
let carrierId: string;
let clock = Date.parse('2026-11-22T10:00:00.000Z');
beforeAll(async () => {
  t = await startTestServer({ now: () => new Date(clock) });
  ({ carrierId } = await setupLocalCarrier(t));
});
afterAll(async () => t.close());

const base = () => `/orgs/${t.org.orgId}/shipments`;
const count = () => (t.app.db.$client.prepare('SELECT count(*) AS n FROM shipments').get() as { n: number }).n;
const post = (key: string, body: unknown, token?: string) =>
  t.request('POST', base(), { body, headers: { 'idempotency-key': key }, ...(token ? { token } : {}) });

describe('Idempotency-Key (decisions §12)', () => {
  it('answers a repeat with the first response, marked as replayed, without a second shipment', async () => {
    const before = count();
    const first = await post('retry-1', shipmentBody(carrierId, { reference: 'IDEM-1' }));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await post('retry-1', shipmentBody(carrierId, { reference: 'IDEM-1' }));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(count()).toBe(before + 1);
  });

  it('refuses the same key with another body (409 IDEMPOTENCY_CONFLICT)', async () => {
    await post('retry-2', shipmentBody(carrierId, { reference: 'IDEM-2' }));
    const other = await post('retry-2', shipmentBody(carrierId, { reference: 'IDEM-2b' }));
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('IDEMPOTENCY_CONFLICT');
  });

  it('keeps keys per credential, keeps error answers too, and forgets after 24 hours', async () => {
    const otherToken = await t.tokenWithScopes(t.org, ['write:shipments']);
    const mine = await post('shared-key', shipmentBody(carrierId));
    const theirs = await post('shared-key', shipmentBody(carrierId), otherToken);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);

    const invalid = await post('bad-once', { type: 'outbound' });
    expect(invalid.status).toBe(400);
    const replayed = await post('bad-once', { type: 'outbound' });
    expect([replayed.status, replayed.headers.get('idempotent-replayed')]).toEqual([400, 'true']);

    const before = count();
    clock += 24 * 60 * 60 * 1000 + 1000;
    const later = await post('retry-1', shipmentBody(carrierId, { reference: 'IDEM-1' }));
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(count()).toBe(before + 1);
  });

  it('rejects an empty or overlong key and ignores the header on reads', async () => {
    expect((await post('x'.repeat(256), shipmentBody(carrierId))).status).toBe(400);
    const read = await t.request('GET', base(), { headers: { 'idempotency-key': 'read' } });
    expect(read.status).toBe(200);
  });
});
