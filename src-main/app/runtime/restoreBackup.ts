/**
 * `shipdesk restore <file>`: puts a backup (a daily one from `backups/`, or one `shipdesk backup`
 * wrote) in place of the profile's database. By hand this is easy to get wrong: a `-wal` file left
 * beside the new database belongs to the old one, and SQLite would replay it onto the backup. Here
 * nothing is deleted: the database being replaced is moved aside with its `-wal`, as a pair that
 * still opens, and the backup is checked before anything is moved.
 */
import { existsSync, renameSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import { ApiError } from '../../../src-shared/errors';
import { databaseFile } from './config';
import { acquireInstanceLock, InstanceLockedError } from './instanceLock';
import { defaultMigrationsFolder, openDatabase, refuseNewerDatabase } from '../../db/open';

export interface RestoreResult {
  /** The backup that is now the database. */
  restored: string;
  database: string;
  /** Where the database it replaced was moved (its `-wal` beside it), or null when there was none. */
  previous: string | null;
}

/** Tables every Shipdesk database has had since its first migration. */
const SHIPDESK_TABLES = ['__drizzle_migrations', 'orgs', 'shipments'];

export async function restoreBackup(dataDir: string, backupFile: string, now = new Date()): Promise<RestoreResult> {
  const database = resolve(databaseFile(dataDir));
  const backup = resolve(backupFile);
  if (backup === database) throw new ApiError('BAD_REQUEST', `${backup} is the database itself; name a backup of it`);
  // The app or the headless server must not have the file open while it is replaced under them.
  const lock = takeLock(database);
  try {
    const staging = `${database}.restoring`;
    const removeStaging = () => [staging, `${staging}-wal`, `${staging}-shm`].forEach((file) => rmSync(file, { force: true }));
    removeStaging();
    try {
      await copyCheckedBackup(backup, staging);
      // A `-wal` without its database (a crash while copying files by hand) would be replayed onto
      // the backup too: it is moved aside as well.
      const previous = existsSync(database) || existsSync(`${database}-wal`) ? moveAside(database, now) : null;
      try {
        renameSync(staging, database);
      } catch (error) {
        if (previous) moveBack(previous, database);
        throw error;
      }
      // An older backup is brought up to this app's migrations now, so the app's next start is plain.
      openDatabase(database).$client.close();
      return { restored: backup, database, previous };
    } finally {
      removeStaging();
    }
  } finally {
    lock.release();
  }
}

function takeLock(database: string) {
  try {
    return acquireInstanceLock(database);
  } catch (error) {
    if (error instanceof InstanceLockedError) throw new ApiError('CONFLICT', `Close Shipdesk before restoring: ${error.message}`);
    throw error;
  }
}

/**
 * Copies the backup to `target` through SQLite (which also reads a `-wal` the backup may have) once
 * it is known to be a whole Shipdesk database this app can open; the backup itself is only read.
 */
async function copyCheckedBackup(backup: string, target: string): Promise<void> {
  if (!existsSync(backup)) throw unusable(backup, 'Not found');
  let source: Database.Database;
  try {
    source = new Database(backup, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw unusable(backup, `Cannot be opened: ${(error as Error).message}`);
  }
  try {
    let check: unknown;
    try {
      check = source.pragma('quick_check', { simple: true });
    } catch (error) {
      throw unusable(backup, `Not a SQLite database: ${(error as Error).message}`);
    }
    if (check !== 'ok') throw unusable(backup, `Damaged: ${String(check)}`);
    const present = new Set(source.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
    if (!SHIPDESK_TABLES.every((table) => present.has(table))) throw unusable(backup, 'Not a Shipdesk database');
    refuseNewerDatabase(source, defaultMigrationsFolder);
    await source.backup(target);
  } finally {
    source.close();
  }
}

function unusable(backup: string, message: string): ApiError {
  return new ApiError('VALIDATION_FAILED', `${backup} cannot be restored: ${message}; the database was not changed`, {
    details: [{ path: '<file>', message }],
  });
}

/** `shipdesk.sqlite` → `shipdesk.sqlite.before-restore-2026-11-23T08-15-00Z`, with its `-wal`. */
function moveAside(database: string, now: Date): string {
  const previous = `${database}.before-restore-${now.toISOString().slice(0, 19).replaceAll(':', '-')}Z`;
  if (existsSync(database)) renameSync(database, previous);
  if (existsSync(`${database}-wal`)) renameSync(`${database}-wal`, `${previous}-wal`);
  // The shared-memory index is rebuilt from the WAL by whoever opens the file next.
  rmSync(`${database}-shm`, { force: true });
  return previous;
}

function moveBack(previous: string, database: string): void {
  if (existsSync(previous)) renameSync(previous, database);
  if (existsSync(`${previous}-wal`)) renameSync(`${previous}-wal`, `${database}-wal`);
}
