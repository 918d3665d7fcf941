import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupLocalCarrier, shipmentBody, startTestServer, type TestServer } from '../../testing/harness';

let t: TestServer;
let carrierId: string;
const start = Date.parse('2026-11-22T10:00:00.000Z');
let clock = start;
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

    // The same body written out anew, fields in another order and with other spacing, is the same body.
    const body = shipmentBody(carrierId, { reference: 'IDEM-1' }) as Record<string, unknown>;
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(body).reverse()), null, 2);
    const rewritten = await t.request('POST', base(), { rawBody: reordered, headers: { 'idempotency-key': 'retry-1' } });
    expect([rewritten.status, rewritten.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(rewritten.body).toEqual(first.body);
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

  it('answers a body nested too deeply to fingerprint with 400, not 500', async () => {
    clock = start;
    const deep = `{"a":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    const res = await t.request('POST', `/orgs/${t.org.orgId}/printers`, { rawBody: deep, headers: { 'idempotency-key': 'deep' } });
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('rejects an empty or overlong key and ignores the header on reads', async () => {
    expect((await post('x'.repeat(256), shipmentBody(carrierId))).status).toBe(400);
    const read = await t.request('GET', base(), { headers: { 'idempotency-key': 'read' } });
    expect(read.status).toBe(200);
  });

  it('never answers a revoked credential from the kept answers (401, not the replay)', async () => {
    clock = start;
    const token = await t.tokenWithScopes(t.org, ['write:all']);
    const first = await post('before-revoke', shipmentBody(carrierId), token);
    expect(first.status).toBe(201);
    const tokenId = (await t.request('GET', `/orgs/${t.org.orgId}/api-tokens?limit=100`)).body.data.find((item: { tokenPrefix: string }) =>
      token.startsWith(item.tokenPrefix),
    ).id;
    expect((await t.request('DELETE', `/orgs/${t.org.orgId}/api-tokens/${tokenId}`)).status).toBe(200);
    const again = await post('before-revoke', shipmentBody(carrierId), token);
    expect(again.status).toBe(401);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keeps no readable secret: a token created under a key is not in the database files, yet is replayed', async () => {
    const create = () =>
      t.request('POST', `/orgs/${t.org.orgId}/api-tokens`, {
        body: { name: 'under a key', scopes: ['read:shipments'] },
        headers: { 'idempotency-key': 'token-once' },
      });
    const first = await create();
    expect(first.status).toBe(201);
    const secret = first.body.token as string;
    expect(secret).toMatch(/^shpd_/);
    const files = readdirSync(t.dir).filter((name) => name.includes('.sqlite'));
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) expect(readFileSync(join(t.dir, name)).includes(secret)).toBe(false);
    const again = await create();
    expect([again.status, again.headers.get('idempotent-replayed'), again.body.token]).toEqual([201, 'true', secret]);
  });
});
