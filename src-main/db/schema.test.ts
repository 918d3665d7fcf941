import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { is } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { afterEach, describe, expect, it } from 'vitest';
import * as schema from './schema';
import { defaultMigrationsFolder, NewerDatabaseError, openDatabase, readJournal } from './open';
import { migrationHashes, readColumns, snapshotFile, type SchemaSnapshot } from './schemaSnapshot';

const dirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shipdesk-db-'));
  dirs.push(dir);
  return join(dir, 'test.sqlite');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const committed = JSON.parse(readFileSync(snapshotFile, 'utf8')) as SchemaSnapshot;

describe('schema and migrations', () => {
  it('never changes a committed migration file', () => {
    const now = migrationHashes(defaultMigrationsFolder);
    for (const [file, hash] of Object.entries(committed.migrations)) expect(now[file], file).toBe(hash);
  });

  it('keeps every committed column with the same definition (append-only)', () => {
    const db = openDatabase(tempFile());
    const tables = readColumns(db.$client);
    db.$client.close();
    for (const [table, columns] of Object.entries(committed.tables)) {
      for (const [column, definition] of Object.entries(columns)) {
        expect(tables[table]?.[column], `${table}.${column}`).toEqual(definition);
      }
    }
    // New columns must be recorded too, so the next change is checked against them.
    const recorded = Object.entries(tables).flatMap(([table, columns]) => Object.keys(columns).map((c) => `${table}.${c}`));
    const known = new Set(Object.entries(committed.tables).flatMap(([table, columns]) => Object.keys(columns).map((c) => `${table}.${c}`)));
    expect(
      recorded.filter((c) => !known.has(c)),
      'run npm run db:snapshot',
    ).toEqual([]);
  });

  it('has migrations matching schema.ts (no column missing from the generated SQL)', () => {
    const db = openDatabase(tempFile());
    const tables = readColumns(db.$client);
    db.$client.close();
    const drizzleTables = Object.values(schema).filter((value) => is(value, SQLiteTable)) as SQLiteTable[];
    expect(drizzleTables.length).toBeGreaterThan(20);
    for (const table of drizzleTables) {
      const config = getTableConfig(table);
      for (const column of config.columns) {
        const actual = tables[config.name]?.[column.name];
        expect(actual, `${config.name}.${column.name} (run npm run db:generate)`).toBeDefined();
        expect(actual?.notnull === 1 || actual?.pk === 1, `${config.name}.${column.name} not null`).toBe(column.notNull || column.primary);
      }
      expect(Object.keys(tables[config.name] ?? {}).length, config.name).toBe(config.columns.length);
    }
  });

  it('sets WAL, foreign keys and full synchronous writes', () => {
    const db = openDatabase(tempFile());
    expect(db.$client.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.$client.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.$client.pragma('synchronous', { simple: true })).toBe(2);
    db.$client.close();
  });

  it('is idempotent: reopening applies nothing twice', () => {
    const file = tempFile();
    openDatabase(file).$client.close();
    const db = openDatabase(file);
    const applied = db.$client.prepare('SELECT COUNT(*) AS n FROM __drizzle_migrations').get() as { n: number };
    expect(applied.n).toBe(readJournal(defaultMigrationsFolder).entries.length);
    db.$client.close();
  });

  it('makes a missing data folder readable by this user only (it holds password and token hashes)', () => {
    const file = join(tempFile(), '..', 'new-data-folder', 'shipdesk.sqlite');
    openDatabase(file).$client.close();
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
  });

  it('refuses a database written by a newer Shipdesk and leaves it untouched', () => {
    const file = tempFile();
    const db = openDatabase(file);
    const newest = Math.max(...readJournal(defaultMigrationsFolder).entries.map((e) => e.when));
    db.$client.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)').run('from-the-future', newest + 1000);
    // Not in WAL mode, as a copy from elsewhere may be: even switching it to WAL would rewrite the file.
    db.$client.pragma('journal_mode = DELETE');
    db.$client.close();
    const before = readFileSync(file);
    expect(() => openDatabase(file)).toThrow(NewerDatabaseError);
    expect(() => openDatabase(file)).toThrow(/newer version of Shipdesk/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });
});
