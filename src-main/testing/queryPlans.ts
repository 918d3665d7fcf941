import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppContext } from '../app/kernel/context';
import { createAppContext } from '../app/runtime/createApp';

/** An app on a fresh data folder that records the SQL of every statement it runs. */
export interface RecordingApp {
  app: AppContext;
  /** The statements run since the last call that read or change rows (not BEGIN, SAVEPOINT, PRAGMA); starts a new record. */
  takeLookups(): string[];
  close(): void;
}

export function recordingApp(): RecordingApp {
  const dir = mkdtempSync(join(tmpdir(), 'shipdesk-plans-'));
  let statements: string[] = [];
  // A threshold below zero reports every statement run, with its SQL (never its parameters).
  const app = createAppContext({ dataDir: dir, slowQueryMs: -1, onSlowQuery: ({ sql }) => statements.push(sql) });
  statements = []; // opening and migrating are not under test
  return {
    app,
    takeLookups() {
      const run = statements.filter((sql) => /^\s*(select|update|delete)\b/i.test(sql));
      statements = [];
      return run;
    },
    close() {
      app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The steps of SQLite's own plan for `sql` that read a table whole: a bare "SCAN t". "SCAN t USING
 * INDEX i" (a partial index of a few rows) and "SEARCH" do not count; `tables` narrows it to some.
 */
export function fullScans(app: AppContext, sql: string, tables?: readonly string[]): string[] {
  return queryPlan(app, sql)
    .map((detail) => /^SCAN (\w+)$/.exec(detail)?.[1])
    .filter((table): table is string => table !== undefined && (!tables || tables.includes(table)))
    .map((table) => `SCAN ${table}`);
}

/** SQLite's plan for `sql`, a line per step; its parameters are bound to null (plans do not depend on them). */
export function queryPlan(app: AppContext, sql: string): string[] {
  const explain = app.db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const plan = explain.all(...Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => null)) as { detail: string }[];
  return plan.map((step) => step.detail);
}
