import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireInstanceLock } from '../app/runtime/instanceLock';
import { databaseFile } from '../app/runtime/config';
import { cliErrorBody, runCliProcess } from '../testing/cliProcess';
import { migrationsBefore } from '../testing/migrationsBefore';
import { openDatabase, readJournal, defaultMigrationsFolder } from '../db/open';

/** `shipdesk restore <file>` on real data folders, through the CLI process; and what a damaged database tells a command. */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shipdesk-restore-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) => runCliProcess(dir, args);

async function initWithBackup(): Promise<{ orgId: string; backup: string }> {
  const init = await cli('init', '--org', 'Restore Hall', '--email', 'restore@example.com', '--password', 'a long password');
  expect(init.code, init.stderr).toBe(0);
  const { orgId } = JSON.parse(init.stdout) as { orgId: string };
  const backup = join(dir, 'monday.sqlite');
  expect((await cli('backup', backup)).code).toBe(0);
  return { orgId, backup };
}

/** Reads one value from a database file as any SQLite client would, and closes it. */
function readPlan(file: string, orgId: string): unknown {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT plan FROM orgs WHERE id = ?').pluck().get(orgId);
  } finally {
    db.close();
  }
}

describe('shipdesk restore', () => {
  it('puts the backup in place and keeps the database it replaced, which still opens', async () => {
    const { orgId, backup } = await initWithBackup();
    expect((await cli('org', 'set-plan', orgId, 'pro')).code).toBe(0);

    const run = await cli('restore', backup);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { restored: string; database: string; previous: string };
    expect(result).toEqual({
      restored: backup,
      database: databaseFile(dir),
      previous: expect.stringMatching(/shipdesk\.sqlite\.before-restore-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z$/),
    });

    expect(readPlan(databaseFile(dir), orgId)).toBe('starter');
    expect(readPlan(result.previous, orgId)).toBe('pro');
    // The backup is only read; the CLI works on the restored database at once.
    expect(readPlan(backup, orgId)).toBe('starter');
    expect((await cli('org', 'set-plan', orgId, 'unlimited')).code).toBe(0);
    expect(readPlan(databaseFile(dir), orgId)).toBe('unlimited');
    expect(readdirSync(dir).filter((name) => name.includes('.restoring'))).toEqual([]);
  }, 60_000);

  it('restores onto a new machine: an empty data folder gets the backup, with nothing set aside', async () => {
    const { orgId, backup } = await initWithBackup();
    const fresh = mkdtempSync(join(tmpdir(), 'shipdesk-restore-new-'));
    try {
      const run = await runCliProcess(fresh, ['restore', backup]);
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({ restored: backup, database: databaseFile(fresh), previous: null });
      expect(readPlan(databaseFile(fresh), orgId)).toBe('starter');
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  }, 60_000);

  it('brings a backup made by an older Shipdesk up to this version', async () => {
    const old = join(dir, 'older.sqlite');
    const newest = readJournal(defaultMigrationsFolder).entries.at(-1)?.tag ?? '';
    const db = openDatabase(old, { migrationsFolder: migrationsBefore(dir, newest) });
    db.$client
      .prepare("INSERT INTO orgs (id, name, slug, created_at, updated_at) VALUES ('org_old', 'Old Hall', 'old-hall', ?, ?)")
      .run('2026-01-02T03:04:05.000Z', '2026-01-02T03:04:05.000Z');
    db.$client.close();

    const run = await cli('restore', old);
    expect(run.code, run.stderr).toBe(0);
    const restored = new Database(databaseFile(dir), { readonly: true });
    try {
      expect(restored.prepare('SELECT count(*) FROM __drizzle_migrations').pluck().get()).toBe(readJournal(defaultMigrationsFolder).entries.length);
      expect(restored.prepare("SELECT name FROM orgs WHERE id = 'org_old'").pluck().get()).toBe('Old Hall');
    } finally {
      restored.close();
    }
  }, 60_000);

  it('moves the old write-ahead log aside with its database instead of replaying it onto the backup', async () => {
    const { orgId, backup } = await initWithBackup();
    // A process that wrote and died without checkpointing leaves its last commit only in the -wal.
    const database = databaseFile(dir);
    const script = `const D=require(${JSON.stringify(require.resolve('better-sqlite3'))});const d=new D(${JSON.stringify(database)});d.pragma('wal_autocheckpoint=0');d.prepare("UPDATE orgs SET plan='pro'").run();process.exit(0);`;
    execFileSync(process.execPath, ['-e', script]);
    expect(existsSync(`${database}-wal`)).toBe(true);

    const run = await cli('restore', backup);
    expect(run.code, run.stderr).toBe(0);
    const { previous } = JSON.parse(run.stdout) as { previous: string };
    expect(readPlan(database, orgId)).toBe('starter');
    expect(existsSync(`${previous}-wal`)).toBe(true);
    expect(readPlan(previous, orgId)).toBe('pro');
    const restored = new Database(database, { readonly: true });
    try {
      expect(restored.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      restored.close();
    }
  }, 60_000);

  it('refuses what cannot be restored with the error body, leaving the database as it was', async () => {
    const { orgId } = await initWithBackup();
    const text = join(dir, 'notes.sqlite');
    writeFileSync(text, 'this is not a database, it is a shopping list with more than a hundred bytes in it '.repeat(3));
    const foreign = join(dir, 'other.sqlite');
    const other = new Database(foreign);
    other.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY)');
    other.close();

    const cases: [string[], string, RegExp][] = [
      [['restore', join(dir, 'nope.sqlite')], 'VALIDATION_FAILED', /Not found/],
      [['restore', text], 'VALIDATION_FAILED', /Not a SQLite database/],
      [['restore', foreign], 'VALIDATION_FAILED', /Not a Shipdesk database/],
      [['restore', databaseFile(dir)], 'BAD_REQUEST', /is the database itself/],
      [['restore'], 'VALIDATION_FAILED', /Missing <file>/],
    ];
    for (const [args, code, message] of cases) {
      const run = await cli(...args);
      expect([run.code, run.stdout], args.join(' ')).toEqual([1, '']);
      expect(cliErrorBody(run), args.join(' ')).toMatchObject({ code, message: expect.stringMatching(message) });
    }
    expect(readdirSync(dir).filter((name) => name.includes('before-restore') || name.includes('.restoring'))).toEqual([]);
    expect(readPlan(databaseFile(dir), orgId)).toBe('starter');
  }, 60_000);

  it('refuses a backup written by a newer Shipdesk, and refuses while Shipdesk runs on the database', async () => {
    const { backup } = await initWithBackup();
    const newer = join(dir, 'newer.sqlite');
    expect((await cli('backup', newer)).code).toBe(0);
    const db = new Database(newer);
    db.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)').run('future', 4_102_444_800_000);
    db.close();
    const refused = await cli('restore', newer);
    expect([refused.code, refused.stdout]).toEqual([1, '']);
    expect(cliErrorBody(refused).message).toMatch(/newer version of Shipdesk/);

    // This test's process stands in for a running app: it holds the database's lock.
    const lock = acquireInstanceLock(databaseFile(dir));
    try {
      const busy = await cli('restore', backup);
      expect([busy.code, busy.stdout]).toEqual([1, '']);
      expect(cliErrorBody(busy)).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/Close Shipdesk before restoring/) });
    } finally {
      lock.release();
    }
    expect(readdirSync(dir).filter((name) => name.includes('before-restore'))).toEqual([]);
  }, 60_000);

  it('a damaged database: a command names the file and the newest daily backup, which restore then puts back', async () => {
    const { orgId, backup } = await initWithBackup();
    const daily = join(dir, 'backups', 'shipdesk-2026-11-22.sqlite');
    mkdirSync(dirname(daily), { recursive: true });
    copyFileSync(backup, join(dir, 'backups', 'shipdesk-2026-11-21.sqlite'));
    copyFileSync(backup, daily);
    const database = databaseFile(dir);
    // A page of something else where the database was: SQLite's header, then noise.
    const damaged = Buffer.concat([Buffer.from('SQLite format 3\0'), randomBytes(8192)]);
    writeFileSync(database, damaged);

    const refused = await cli('org', 'set-plan', orgId, 'pro');
    expect(refused.code).toBe(1);
    const { message } = cliErrorBody(refused);
    expect(message).toContain(`The database ${database} cannot be read`);
    expect(message).toContain('shipdesk restore <backup file>');
    expect(message).toContain(`The newest daily backup is ${daily}.`);
    expect(readFileSync(database).equals(damaged)).toBe(true);

    const restored = await cli('restore', daily);
    expect(restored.code, restored.stderr).toBe(0);
    expect((await cli('org', 'set-plan', orgId, 'pro')).code).toBe(0);
    expect(readPlan(database, orgId)).toBe('pro');
  });

  it('a file that is no database at all, with no daily backup, says so', async () => {
    writeFileSync(databaseFile(dir), randomBytes(100_000));
    const refused = await cli('backup', join(dir, 'copy.sqlite'));
    expect(refused.code).toBe(1);
    expect(cliErrorBody(refused).message).toMatch(
      /cannot be read: it is damaged or is not a Shipdesk database \(file is not a database\).*No daily backup of it was found/,
    );
    expect(existsSync(join(dir, 'copy.sqlite'))).toBe(false);
  });
});
