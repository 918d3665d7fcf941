/**
 * decisions §12: the app keeps 7 daily backups. Once a (UTC) day — checked when the app starts and
 * every hour while it runs — an online SQLite backup of the profile's database is written to
 * `<data folder>/backups/<database name>-YYYY-MM-DD.sqlite`. It is written under a temporary name
 * and renamed when complete, so a file with a backup's name is always a whole backup; the oldest
 * beyond seven are then deleted. Other files in the folder (another profile's backups, a copy the
 * user put there) are never touched.
 */
import { chmodSync, existsSync, readdirSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { ApiError } from '../../src-shared/errors';
import type { AppContext } from './context';
import { durable } from '../db/tx';
import { repeatInBackground, type BackgroundTask } from './backgroundTask';
import { ensurePrivateFolder } from './privateFolder';
import { pruneDeliveredEvents, pruneOldDeliveries } from '../domain/outboxRetention';

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
 * Takes today's backup unless it exists, then keeps the newest seven. Returns the file written, or
 * null when today's was already there.
 */
export async function takeDailyBackup(app: AppContext): Promise<string | null> {
  const databaseFile = app.db.$client.name;
  const folder = backupsFolder(app.dataDir);
  const day = app.now().toISOString().slice(0, 10);
  const file = join(folder, `${backupPrefix(databaseFile)}${day}.sqlite`);
  if (existsSync(file)) return null;
  ensurePrivateFolder(folder);
  await backupTo(app, file);
  for (const old of dailyBackups(app.dataDir, databaseFile).slice(DAILY_BACKUPS_KEPT)) rmSync(old, { force: true });
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
