import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';

export interface ColumnSnapshot {
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

export interface SchemaSnapshot {
  /** sha256 of each committed migration file: committed migrations never change. */
  migrations: Record<string, string>;
  /** table → column → definition, as SQLite reports it after all migrations. */
  tables: Record<string, Record<string, ColumnSnapshot>>;
}

export const snapshotFile = new URL('./schema-snapshot.json', import.meta.url);

export function migrationHashes(migrationsFolder: string): Record<string, string> {
  const files = readdirSync(migrationsFolder)
    .filter((name) => name.endsWith('.sql'))
    .sort();
  return Object.fromEntries(
    files.map((name) => [
      name,
      createHash('sha256')
        .update(readFileSync(join(migrationsFolder, name)))
        .digest('hex'),
    ]),
  );
}

/**
 * The data tables' columns. Full-text indexes (virtual tables and their shadow tables) are left out:
 * they hold no data of their own (external content) and may be rebuilt or replaced like any index.
 */
export function readColumns(client: Database.Database): SchemaSnapshot['tables'] {
  const tables = client
    .prepare(
      "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' ORDER BY name",
    )
    .all() as { name: string }[];
  return Object.fromEntries(
    tables.map(({ name }) => {
      const columns = client.prepare(`PRAGMA table_info("${name}")`).all() as (ColumnSnapshot & { name: string })[];
      return [name, Object.fromEntries(columns.map(({ name: column, type, notnull, dflt_value, pk }) => [column, { type, notnull, dflt_value, pk }]))];
    }),
  );
}
