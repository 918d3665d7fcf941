import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultMigrationsFolder, readJournal } from '../db/open';

/**
 * A migrations folder, under `dir`, as it was before the migration `tag`: what an older Shipdesk
 * shipped, for databases made by it.
 */
export function migrationsBefore(dir: string, tag: string): string {
  const folder = join(dir, `migrations-before-${tag}`);
  mkdirSync(join(folder, 'meta'), { recursive: true });
  const journal = readJournal(defaultMigrationsFolder);
  const index = journal.entries.findIndex((entry) => entry.tag === tag);
  if (index < 0) throw new Error(`No migration ${tag}`);
  const entries = journal.entries.slice(0, index);
  for (const entry of entries) copyFileSync(join(defaultMigrationsFolder, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  return folder;
}
