/**
 * decisions §12: the app keeps 7 daily backups. Once a (UTC) day — checked when the app starts and
 * every hour while it runs — an online SQLite backup of the profile's database is written to
 * `<data folder>/backups/<database name>-YYYY-MM-DD.sqlite`. It is written under a temporary name
 * and renamed when complete, so a file with a backup's name is always a whole backup; the oldest
 * beyond seven are then deleted, except the last one that holds an organization when none of the
 * seven does. Other files in the folder (another profile's backups, a copy the user put there) are
 * never touched.
 */
import Database from 'better-sqlite3';
import { chmodSync, existsSync, readdirSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { ApiError } from '../../../src-shared/errors';
import type { AppContext } from '../kernel/context';
import { durable } from '../../db/tx';
import { repeatInBackground, type BackgroundTask } from '../kernel/backgroundTask';
import { ensurePrivateFolder } from '../../platform/privateFolder';
import { pruneDeliveredEvents, pruneOldDeliveries } from '../../domain/outboxRetention';

export const DAILY_BACKUPS_KEPT = 7;
const HOUR_MS = 60 * 60 * 1000;

export function backupsFolder(dataDir: string): string {
  return join(dataDir, 'backups');
}

/** `shipdesk.sqlite` → `shipdesk-`; a backup of that database is `shipdesk-2026-11-22.sqlite`. */
function backupPrefix(databaseFile: string): string {
  return `${basename(databaseFile, extname(databaseFile))}-`;
}

/** This database's daily backups in the folder, newest first. */
export function dailyBackups(dataDir: string, databaseFile: string): string[] {
  const folder = backupsFolder(dataDir);
  if (!existsSync(folder)) return [];
  const prefix = backupPrefix(databaseFile);
  const pattern = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\d{4}-\\d{2}-\\d{2}\\.sqlite$`);
  return readdirSync(folder)
    .filter((name) => pattern.test(name))
    .sort()
    .reverse()
    .map((name) => join(folder, name));
}

/**
 * Whether a backup holds at least one organization, i.e. the warehouse's data rather than a
 * database nobody has set up. Opened read-write on purpose: a read-only connection leaves its
 * `-wal` and `-shm` beside the backup, while the last read-write one removes them when it closes.
 * A file that cannot be read holds nothing to restore.
 */
export function holdsOrganization(backup: string): boolean {
  let db: Database.Database | null = null;
  try {
    db = new Database(backup, { fileMustExist: true, timeout: 0 });
    db.pragma('query_only = ON');
    return db.prepare('SELECT 1 FROM orgs LIMIT 1').get() !== undefined;
  } catch {
    return false;
  } finally {
    db?.close();
  }
}

/** The daily backup to offer for a restore, and whether it holds an organization; null when there is none. */
export interface BackupToRestore {
  file: string;
  holdsOrganization: boolean;
  /** Newer daily backups exist that hold no organization (the app ran on an empty database). */
  newerWithoutOrganization: boolean;
}

/** The newest daily backup that holds an organization, else the newest one; null when there is none. */
export function backupToRestore(dataDir: string, databaseFile: string): BackupToRestore | null {
  const backups = dailyBackups(dataDir, databaseFile);
  const newest = backups[0];
  if (!newest) return null;
  const index = backups.findIndex(holdsOrganization);
  if (index < 0) return { file: newest, holdsOrganization: false, newerWithoutOrganization: false };
  return { file: backups[index] as string, holdsOrganization: true, newerWithoutOrganization: index > 0 };
}

/**
 * The backups a rotation deletes: those beyond the newest seven, except the newest of them that
 * holds an organization when none of the seven does. A week of backups of an empty database (an
 * installation left at its setup screen, a database emptied by hand) must not push out the last
 * copy of the warehouse's data. The newest backup normally holds one, so this reads one file a day.
 */
function rotatedOut(backups: readonly string[]): string[] {
  const beyond = backups.slice(DAILY_BACKUPS_KEPT);
  if (beyond.length === 0 || backups.slice(0, DAILY_BACKUPS_KEPT).some(holdsOrganization)) return beyond;
  const lastWithOrganization = beyond.find(holdsOrganization);
  return beyond.filter((file) => file !== lastWithOrganization);
}

/**
 * An online backup of the database into `file`, written whole under a temporary name and renamed:
 * a file with the backup's name is never half a backup, and a failed backup (a full disk) leaves an
 * earlier file of that name as it was. What waits for its group commit goes in too.
 */
export async function backupTo(app: AppContext, file: string): Promise<void> {
  refuseDatabaseOwnFile(app.db.$client.name, file);
  await durable(app.db);
  const partial = `${file}.partial`;
  try {
    await app.db.$client.backup(partial);
    // The copy holds what the data folder keeps private (0700): password and token hashes, sealed
    // secrets, customers' addresses. A backup written onto a shared disk is its owner's alone.
    chmodSync(partial, 0o600);
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
}

/** The files SQLite and the instance lock keep beside a database, the database first. */
const DATABASE_FILE_SUFFIXES = ['', '-wal', '-shm', '-journal', '.lock', '.lock-journal'] as const;

/** A path with its folder's symbolic links resolved, so two spellings of one file compare equal. */
function canonicalPath(file: string): string {
  const absolute = resolve(file);
  try {
    return join(realpathSync(dirname(absolute)), basename(absolute));
  } catch {
    return absolute; // no such folder: the backup itself will say so
  }
}

/**
 * `shipdesk backup ~/.config/Shipdesk/shipdesk.sqlite` would rename the backup over the live
 * database while the app holds the old one open: the app's later writes and checkpoints go to the
 * unlinked file and the stale `-wal` is replayed onto the new one, which damages it. The database
 * and the files beside it are refused, however the path is spelled.
 */
function refuseDatabaseOwnFile(databaseFile: string, target: string): void {
  const targetPath = canonicalPath(target);
  for (const suffix of DATABASE_FILE_SUFFIXES) {
    if (canonicalPath(`${databaseFile}${suffix}`) !== targetPath) continue;
    const what = suffix ? `a file Shipdesk keeps beside its database ${databaseFile}` : 'the database itself';
    throw new ApiError('BAD_REQUEST', `${target} is ${what}; name another file for the backup, preferably on another disk`);
  }
}

/**
 * Takes today's backup unless it exists, then keeps the newest seven (and the last one holding an
 * organization, `rotatedOut`). Returns the file written, or null when today's was already there.
 */
export async function takeDailyBackup(app: AppContext): Promise<string | null> {
  const databaseFile = app.db.$client.name;
  const folder = backupsFolder(app.dataDir);
  const day = app.now().toISOString().slice(0, 10);
  const file = join(folder, `${backupPrefix(databaseFile)}${day}.sqlite`);
  if (existsSync(file)) return null;
  ensurePrivateFolder(folder);
  await backupTo(app, file);
  for (const old of rotatedOut(dailyBackups(app.dataDir, databaseFile))) {
    // With the -wal and -shm that a reader of the backup (a restore's check) may have left.
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${old}${suffix}`, { force: true });
  }
  return file;
}

/**
 * Now and every hour: outbox events and webhook delivery records past their retention go
 * (outboxRetention.ts), then the day's backup is taken unless it exists — so backups carry no
 * expired payloads. The timer keeps no process alive.
 */
export function startDailyBackups(app: AppContext, intervalMs = HOUR_MS): BackgroundTask {
  // A failed run (a full disk, say) must not stop the app; the next hour tries again.
  return repeatInBackground('Daily upkeep', intervalMs, async () => {
    await pruneDeliveredEvents(app);
    await pruneOldDeliveries(app);
    return takeDailyBackup(app);
  });
}
