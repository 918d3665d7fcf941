import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createAppContext, type AppContext } from './context';
import { runStartupChores } from './startup';
import { pruneDeliveredEvents, pruneOldDeliveries } from '../domain/outboxRetention';
import { createOrgWithOwner } from '../domain/orgs';

/**
 * The chores that look across every organization — start-up recovery, the daily clean-up of the
 * outbox and of webhook deliveries — must find their rows through indexes: the tables they look in
 * grow with every shipment (230 ms for recovery on a million shipments, 370 ms for the outbox
 * clean-up on 20 days of events, seconds from a cold disk). The plans are SQLite's own, for the
 * statements the chores really ran.
 */
let dir: string;
let app: AppContext;
let statements: string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shipdesk-chores-'));
  statements = [];
  // A threshold below zero reports every statement run, with its SQL.
  app = createAppContext({ dataDir: dir, slowQueryMs: -1, onSlowQuery: ({ sql }) => statements.push(sql) });
});
afterEach(() => {
  app.close();
  rmSync(dir, { recursive: true, force: true });
});

const GROWING = ['shipments', 'print_jobs', 'outbox_events', 'webhook_deliveries'];

/** The steps of SQLite's plan for `sql` that read a growing table whole ("SCAN t" with no index). */
function fullScans(sql: string): string[] {
  const explain = app.db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const plan = explain.all(...Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => null)) as { detail: string }[];
  // "SCAN print_jobs USING INDEX print_jobs_unfinished" walks a partial index of a few rows.
  return plan.map((step) => step.detail).filter((detail) => GROWING.some((table) => detail === `SCAN ${table}`));
}

/** The statements run since the last call that read or change rows (not BEGIN, SAVEPOINT, PRAGMA). */
function lookupsRun(): string[] {
  const run = statements.filter((sql) => /^\s*(select|update|delete)\b/i.test(sql));
  statements = [];
  return run;
}

it('start-up recovery finds interrupted bookings and print jobs without reading those tables whole', () => {
  statements = []; // opening and migrating are not under test
  runStartupChores(app);
  const lookups = lookupsRun();
  expect(lookups.length).toBeGreaterThanOrEqual(2);
  for (const sql of lookups) expect(fullScans(sql), sql).toEqual([]);
});

it('the daily clean-up finds expired events and deliveries without reading those tables whole', async () => {
  const { orgId } = await createOrgWithOwner(app, { orgName: 'Chores', email: 'chores@example.com', password: 'long enough password' });
  // pruneOldDeliveries works webhook by webhook: one has to exist for its statement to run.
  const at = new Date().toISOString();
  app.db.$client
    .prepare("INSERT INTO webhooks (id, org_id, name, url, events, secret_sealed, is_active, created_at, updated_at) VALUES ('whk_a', ?, 'ERP', 'https://erp.example', '[]', 'x', 1, ?, ?)")
    .run(orgId, at, at);
  lookupsRun();
  await pruneDeliveredEvents(app);
  await pruneOldDeliveries(app);
  const lookups = lookupsRun();
  expect(lookups.some((sql) => sql.includes('outbox_events'))).toBe(true);
  expect(lookups.some((sql) => sql.includes('webhook_deliveries'))).toBe(true);
  for (const sql of lookups) expect(fullScans(sql), sql).toEqual([]);
});
