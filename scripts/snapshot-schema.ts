/**
 * `npm run db:snapshot` — records the columns after all migrations in src-main/db/schema-snapshot.json.
 * Append-only: it refuses to drop or change a column that an earlier snapshot recorded.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { openDatabase, defaultMigrationsFolder } from '../src-main/db/open';
import { migrationHashes, readColumns, snapshotFile, type SchemaSnapshot } from '../src-main/db/schemaSnapshot';

const db = openDatabase(':memory:');
const next: SchemaSnapshot = { migrations: migrationHashes(defaultMigrationsFolder), tables: readColumns(db.$client) };
db.$client.close();

if (existsSync(snapshotFile)) {
  const previous = JSON.parse(readFileSync(snapshotFile, 'utf8')) as SchemaSnapshot;
  for (const [file, hash] of Object.entries(previous.migrations)) {
    if (next.migrations[file] !== hash) throw new Error(`Committed migration ${file} was changed or removed; add a new migration instead`);
  }
  for (const [table, columns] of Object.entries(previous.tables)) {
    for (const [column, definition] of Object.entries(columns)) {
      if (JSON.stringify(next.tables[table]?.[column]) !== JSON.stringify(definition)) {
        throw new Error(`Column ${table}.${column} was dropped or changed; migrations are append-only`);
      }
    }
  }
}
writeFileSync(snapshotFile, JSON.stringify(next, null, 2) + '\n');
console.log(`Schema snapshot written: ${Object.keys(next.tables).length} tables, ${Object.keys(next.migrations).length} migrations`);
