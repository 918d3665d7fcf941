import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defaultMigrationsFolder, openDatabase, readJournal } from './open';

// Migration 0005 rebuilds org_members to add updated_at; members made before it must survive it.
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'shipdesk-members-migration-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The migrations folder as it was before `tag`. */
function migrationsBefore(tag: string): string {
  const folder = join(dir, 'migrations');
  mkdirSync(join(folder, 'meta'), { recursive: true });
  const journal = readJournal(defaultMigrationsFolder);
  const entries = journal.entries.slice(0, journal.entries.findIndex((entry) => entry.tag === tag));
  for (const entry of entries) copyFileSync(join(defaultMigrationsFolder, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  return folder;
}

it('0005 keeps every member and starts updated_at at created_at', () => {
  const file = join(dir, 'old.sqlite');
  const old = openDatabase(file, { migrationsFolder: migrationsBefore('0005_org_member_updated_at') });
  const at = '2026-01-02T03:04:05.000Z';
  old.$client.prepare("INSERT INTO orgs (id, name, slug, created_at, updated_at) VALUES ('org_a', 'A', 'a', ?, ?)").run(at, at);
  old.$client
    .prepare("INSERT INTO users (id, name, email, password_hash, created_at, updated_at) VALUES ('usr_a', 'Ann', 'ann@a.example', 'x', ?, ?), ('usr_b', 'Bo', 'bo@a.example', 'x', ?, ?)")
    .run(at, at, at, at);
  old.$client
    .prepare("INSERT INTO org_members (org_id, user_id, role, created_at) VALUES ('org_a', 'usr_a', 'owner', ?), ('org_a', 'usr_b', 'packer', '2026-02-01T00:00:00.000Z')")
    .run(at);
  old.$client.close();

  const db = openDatabase(file);
  expect(db.$client.prepare('SELECT org_id, user_id, role, created_at, updated_at FROM org_members ORDER BY user_id').all()).toEqual([
    { org_id: 'org_a', user_id: 'usr_a', role: 'owner', created_at: at, updated_at: at },
    { org_id: 'org_a', user_id: 'usr_b', role: 'packer', created_at: '2026-02-01T00:00:00.000Z', updated_at: '2026-02-01T00:00:00.000Z' },
  ]);
  const indexes = db.$client.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'org_members' AND sql IS NOT NULL ORDER BY name").all();
  expect(indexes).toEqual([{ name: 'org_members_org_created' }, { name: 'org_members_user' }]);
  expect(db.$client.pragma('foreign_key_check')).toEqual([]);
  db.$client.close();
});
