import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('organization returnInstructions', () => {
  it('is set by PUT, read back, cleared with null, and bounded at 2000 characters', async () => {
    const path = `/orgs/${t.org.orgId}`;
    const text = 'Send it back within 30 days to Lagervej 4, 8000 Aarhus C.\nPut this slip in the box.';
    const set = await t.request('PUT', path, { body: { returnInstructions: text } });
    expect(set.status).toBe(200);
    expect(set.body.returnInstructions).toBe(text);
    expect((await t.request('GET', path)).body.returnInstructions).toBe(text);

    const tooLong = await t.request('PUT', path, { body: { returnInstructions: 'x'.repeat(2001) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.details.map((detail: { path: string }) => detail.path)).toEqual(['body.returnInstructions']);
    expect((await t.request('GET', path)).body.returnInstructions).toBe(text);

    const cleared = await t.request('PUT', path, { body: { returnInstructions: null } });
    expect(cleared.body.returnInstructions).toBeNull();
  });

  it('needs write:orgs: a packer cannot change it', async () => {
    const packer = await t.tokenWithScopes(t.org, ['read:all', 'write:orders', 'write:shipments', 'write:printers']);
    const res = await t.request('PUT', `/orgs/${t.org.orgId}`, { token: packer, body: { returnInstructions: 'No returns' } });
    expect(res.status).toBe(403);
  });
});
