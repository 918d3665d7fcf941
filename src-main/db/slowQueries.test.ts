import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AppContext } from '../app/kernel/context';
import { createAppContext } from '../app/runtime/createApp';
import { execute } from '../app/dispatcher/execute';
import { login } from '../domain/auth/login';
import { createOrgWithOwner } from '../domain/orgs/orgs';
import type { SlowQuery } from './slowQueries';
import { senderAddressBody } from '../testing/harness';

let dir: string;
let app: AppContext;
let reports: SlowQuery[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shipdesk-slow-'));
  // The production threshold: a busy machine (CI, other tests) can take 5 ms over a plain statement.
  app = createAppContext({ dataDir: dir, slowQueryMs: 40, onSlowQuery: (slow) => reports.push(slow) });
  // Only what the test itself runs: opening and migrating a fresh file is not under test.
  reports = [];
});
afterEach(() => {
  app.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A million rows produced and counted: well past 40 ms on any machine (about 200 ms on this one). */
const SLOW_SQL = 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000) SELECT count(*) FROM n WHERE i > ?';

describe('slow query log', () => {
  it('reports a statement past the threshold with its SQL and no parameters, outside any call as background work', () => {
    expect(app.db.$client.prepare(SLOW_SQL).pluck().get(123456)).toBe(876544);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ operationId: null, sql: SLOW_SQL });
    expect(reports[0]?.ms).toBeGreaterThan(40);
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
    const created = await execute(
      slowApp,
      'senderAddresses.create',
      { params: { orgId }, body: senderAddressBody() },
      { authorization: `Bearer ${jwt}`, client: 'test' },
    );
    expect(created.status).toBe(201);
    expect(reports.map((report) => report.operationId)).toContain('senderAddresses.create');
  });
});
