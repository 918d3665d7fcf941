import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createAppContext, type AppContext } from './context';
import { runStartupChores } from './startup';

let dir: string;
let app: AppContext;
let statements: string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shipdesk-startup-'));
  statements = [];
  // A threshold below zero reports every statement: the start-up's own are the ones under test.
  app = createAppContext({ dataDir: dir, slowQueryMs: -1, onSlowQuery: ({ sql }) => statements.push(sql) });
  statements = []; // opening and migrating are not under test
});
afterEach(() => {
  app.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Start-up looks across every organization for bookings and print jobs a crash interrupted. Years of
 * shipments must not be read for that (230 ms on a million rows, seconds from a cold disk): each of
 * its statements finds its rows through an index. The plans are SQLite's own, for the statements
 * the chores really ran.
 */
it('start-up recovery reads no table whole', () => {
  runStartupChores(app);
  const lookups = statements.filter((sql) => /^\s*(select|update)/i.test(sql));
  expect(lookups.length).toBeGreaterThanOrEqual(2);
  for (const sql of lookups) {
    const explain = app.db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`);
    const plan = explain.all(...Array.from({ length: countParameters(sql) }, () => null)) as { detail: string }[];
    const details = plan.map((step) => step.detail);
    // "SCAN print_jobs USING INDEX print_jobs_unfinished" walks a partial index of unfinished jobs
    // only; a bare "SCAN shipments" reads every row.
    expect(details.filter((detail) => /^SCAN (shipments|print_jobs)$/.test(detail)), sql).toEqual([]);
    expect(details.some((detail) => / USING (COVERING )?INDEX (shipments_processing|print_jobs_unfinished)\b/.test(detail)), `${sql}\n${details.join('\n')}`).toBe(true);
  }
});

function countParameters(sql: string): number {
  return (sql.match(/\?/g) ?? []).length;
}
