import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppContext, type AppContext } from '../app/context';
import { execute } from '../app/execute';
import { login } from '../domain/auth/login';
import { createOrgWithOwner } from '../domain/orgs';
import type { SlowQuery } from './slowQueries';
import { senderAddressBody } from '../testing/harness';

let dir: string;
let app: AppContext;
let reports: SlowQuery[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shipdesk-slow-'));
  reports = [];
  app = createAppContext({ dataDir: dir, slowQueryMs: 5, onSlowQuery: (slow) => reports.push(slow) });
});
afterEach(() => {
  app.close();
  rmSync(dir, { recursive: true, force: true });
});

/** About 200 000 rows produced and counted: slow enough to pass 5 ms on any machine. */
const SLOW_SQL = 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) SELECT count(*) FROM n WHERE i > ?';

describe('slow query log', () => {
  it('reports a statement past the threshold with its SQL and no parameters, outside any call as background work', () => {
    expect(app.db.$client.prepare(SLOW_SQL).pluck().get(123456)).toBe(76544);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ operationId: null, sql: SLOW_SQL });
    expect(reports[0]?.ms).toBeGreaterThan(5);
    expect(JSON.stringify(reports)).not.toContain('123456');
  });

  it('names the operation whose call ran it, and stays quiet for fast statements', async () => {
    const { orgId } = await createOrgWithOwner(app, { orgName: 'Slow Org', email: 'slow@example.com', password: 'long enough password' });
    const jwt = (await login(app, 'test', 'slow@example.com', 'long enough password')).accessToken;
    // Nothing an ordinary read does comes near the threshold.
    await execute(app, 'shipments.list', { params: { orgId }, query: {} }, { authorization: `Bearer ${jwt}`, client: 'test' });
    expect(reports).toEqual([]);

    // A slow statement inside a handler (slipped in through the clock the create reads).
    const slowNow = () => {
      app.db.$client.prepare(SLOW_SQL).pluck().get(1);
      return new Date();
    };
    const slowApp = { ...app, now: slowNow };
    const created = await execute(slowApp, 'senderAddresses.create', { params: { orgId }, body: senderAddressBody() }, { authorization: `Bearer ${jwt}`, client: 'test' });
    expect(created.status).toBe(201);
    expect(reports.map((report) => report.operationId)).toContain('senderAddresses.create');
  });
});
