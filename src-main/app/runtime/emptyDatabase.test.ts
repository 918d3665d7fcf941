import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseFile } from './config';
import { openDatabase } from '../../db/open';
import { spawnServe } from '../../testing/serveProcess';
import { cliErrorBody, runCliProcess } from '../../testing/cliProcess';

/**
 * An empty (0-byte) database file is a lost database, not a new installation: the serve process and
 * every command that opens the database refuse it, naming the file and the backup to restore, and
 * `restore` puts the backup in its place. Real data folders, the real CLI and serve processes.
 */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shipdesk-empty-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) => runCliProcess(dir, args);
const backupsDir = () => join(dir, 'backups');

/** A data folder whose database holds an organization, with a backup of it in `file`. */
async function initWithBackup(file: string): Promise<string> {
  const init = await cli('init', '--org', 'Empty Hall', '--email', 'empty@example.com', '--password', 'a long password');
  expect(init.code, init.stderr).toBe(0);
  expect((await cli('backup', file)).code).toBe(0);
  return (JSON.parse(init.stdout) as { orgId: string }).orgId;
}

function readPlan(file: string, orgId: string): unknown {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT plan FROM orgs WHERE id = ?').pluck().get(orgId);
  } finally {
    db.close();
  }
}

/** What the commands that open the database answer; each must refuse and leave the file as it is. */
const commandsThatOpenTheDatabase = (orgId: string) => [
  ['init', '--org', 'New Hall', '--email', 'new@example.com', '--password', 'a long password'],
  ['org', 'set-plan', orgId, 'pro'],
  ['backup', join(dir, 'nightly.sqlite')],
];

describe('an empty database file', () => {
  it('is refused by every command, naming the file and the newest backup with an organization, which restore puts back', async () => {
    const good = join(dir, 'good.sqlite');
    const orgId = await initWithBackup(good);
    mkdirSync(backupsDir());
    copyFileSync(good, join(backupsDir(), 'shipdesk-2026-11-20.sqlite'));
    // A newer daily backup of a database nobody set up (the app ran on an empty file before this fix).
    const unset = join(backupsDir(), 'shipdesk-2026-11-22.sqlite');
    openDatabase(unset).$client.close();
    const database = databaseFile(dir);
    truncateSync(database, 0);

    for (const args of commandsThatOpenTheDatabase(orgId)) {
      const refused = await cli(...args);
      expect([refused.code, refused.stdout], args.join(' ')).toEqual([1, '']);
      const { message } = cliErrorBody(refused);
      expect(message, args.join(' ')).toContain(`The database ${database} is empty (0 bytes). This is not a new installation`);
      expect(message).toContain('shipdesk restore <backup file>');
      expect(message).toContain(
        `The newest daily backup with an organization in it is ${join(backupsDir(), 'shipdesk-2026-11-20.sqlite')} (the newer ones hold none).`,
      );
      expect(statSync(database).size, args.join(' ')).toBe(0);
    }
    // The nightly copy on another disk was not replaced by a copy of an empty database.
    expect(existsSync(join(dir, 'nightly.sqlite'))).toBe(false);
    // Reading the backups to choose one left nothing beside them.
    expect(readdirSync(backupsDir()).sort()).toEqual(['shipdesk-2026-11-20.sqlite', 'shipdesk-2026-11-22.sqlite']);

    const restored = await cli('restore', join(backupsDir(), 'shipdesk-2026-11-20.sqlite'));
    expect(restored.code, restored.stderr).toBe(0);
    const { previous } = JSON.parse(restored.stdout) as { previous: string };
    expect(statSync(previous).size).toBe(0);
    expect((await cli('org', 'set-plan', orgId, 'pro')).code).toBe(0);
    expect(readPlan(database, orgId)).toBe('pro');
  }, 60_000);

  it('with no backup at all, says so and how to start anew; moved aside, a new installation starts', async () => {
    const database = databaseFile(dir);
    writeFileSync(database, '');
    const refused = await cli('init', '--org', 'New Hall', '--email', 'new@example.com', '--password', 'a long password');
    expect([refused.code, refused.stdout]).toEqual([1, '']);
    const { message } = cliErrorBody(refused);
    expect(message).toContain(`The database ${database} is empty (0 bytes)`);
    expect(message).toContain('No daily backup of it was found in the data folder.');
    expect(message).toContain(`To start with a new, empty database instead, move ${database} out of the data folder and start Shipdesk again.`);
    expect(statSync(database).size).toBe(0);

    renameSync(database, join(dir, 'empty-shipdesk.sqlite'));
    const init = await cli('init', '--org', 'New Hall', '--email', 'new@example.com', '--password', 'a long password');
    expect(init.code, init.stderr).toBe(0);
  }, 60_000);

  it('keeps the write-ahead log beside it, which SQLite would delete, and restore moves both aside', async () => {
    const good = join(dir, 'good.sqlite');
    const orgId = await initWithBackup(good);
    const database = databaseFile(dir);
    // A process that wrote and died without checkpointing leaves its last commit only in the -wal.
    const script = `const D=require(${JSON.stringify(require.resolve('better-sqlite3'))});const d=new D(${JSON.stringify(database)});d.pragma('wal_autocheckpoint=0');d.prepare("UPDATE orgs SET plan='pro'").run();process.exit(0);`;
    execFileSync(process.execPath, ['-e', script]);
    truncateSync(database, 0);
    const walSize = statSync(`${database}-wal`).size;
    expect(walSize).toBeGreaterThan(0);

    const refused = await cli('org', 'set-plan', orgId, 'unlimited');
    expect(refused.code).toBe(1);
    const { message } = cliErrorBody(refused);
    expect(message).toContain(`The database ${database} is empty (0 bytes), with its write-ahead log ${database}-wal (${walSize} bytes) beside it.`);
    expect(message).toContain(`move ${database} and ${database}-wal out of the data folder`);
    expect(statSync(`${database}-wal`).size).toBe(walSize);

    // Missing altogether, with its -wal left: refused too, rather than started anew over the log.
    rmSync(database);
    const missing = await cli('org', 'set-plan', orgId, 'unlimited');
    expect(missing.code).toBe(1);
    expect(cliErrorBody(missing).message).toContain(
      `The database ${database} is missing, but its write-ahead log ${database}-wal (${walSize} bytes) is still there.`,
    );
    expect(existsSync(database)).toBe(false);
    expect(statSync(`${database}-wal`).size).toBe(walSize);

    writeFileSync(database, '');
    const restored = await cli('restore', good);
    expect(restored.code, restored.stderr).toBe(0);
    const { previous } = JSON.parse(restored.stdout) as { previous: string };
    expect(statSync(`${previous}-wal`).size).toBe(walSize);
    expect(existsSync(`${database}-wal`) && statSync(`${database}-wal`).size > 0).toBe(false);
    expect(readPlan(database, orgId)).toBe('starter');
  }, 60_000);

  it('a missing file is still a new installation', async () => {
    const init = await cli('init', '--org', 'New Hall', '--email', 'new@example.com', '--password', 'a long password');
    expect(init.code, init.stderr).toBe(0);
  }, 60_000);

  it('stops the headless server before it opens anything, naming the file', async () => {
    const database = databaseFile(dir);
    writeFileSync(database, '');
    const start = spawnServe(['--port', '0'], { ...process.env, SHIPDESK_DATA_DIR: dir });
    await expect(start).rejects.toThrow(
      /exited with 1:\nShipdesk could not start: The database .* is empty \(0 bytes\)\. This is not a new installation.*No daily backup of it was found/s,
    );
    expect(statSync(database).size).toBe(0);
  }, 60_000);
});
