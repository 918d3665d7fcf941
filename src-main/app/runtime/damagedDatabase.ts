/**
 * What to say when the database file cannot be used: it cannot be read at all (a disk fault, a file
 * copied while it was written, another program's file put in its place), or it is empty. SQLite's
 * own words ("file is not a database") tell a warehouse neither which file nor what to do, and an
 * empty file it silently takes for a new one; this names the file and the backup to restore, since
 * the daily backups are the way back (decisions §12).
 */
import { statSync } from 'node:fs';
import { backupToRestore } from './dailyBackups';

export class DamagedDatabaseError extends Error {}

/** SQLite's codes for a file that is not a readable database (SQLITE_CORRUPT has extended forms). */
function isDamage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'));
}

/** The error to report for a failed open: a DamagedDatabaseError for damage, else the error itself. */
export function explainOpenFailure(error: unknown, file: string, dataDir: string): unknown {
  if (!isDamage(error)) return error;
  return new DamagedDatabaseError(
    `The database ${file} cannot be read: it is damaged or is not a Shipdesk database (${(error as Error).message}). Nothing was changed. ` +
      wayBack(file, dataDir),
    { cause: error },
  );
}

/** The file's size in bytes, or null when there is no such file. */
function sizeOf(file: string): number | null {
  try {
    return statSync(file).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Refuses, before SQLite opens it, a database file that is empty (0 bytes), or missing while its
 * `-wal` holds something. Shipdesk never leaves its database empty (the first open writes it at
 * once), so such a file was emptied or cut short: a full disk, a failed copy or sync. SQLite would
 * start it as a new installation, deleting the `-wal` beside it, and after a week its daily backups
 * would have replaced every good one. A missing file without a `-wal` is a new installation.
 */
export function refuseEmptyDatabase(file: string, dataDir: string): void {
  const size = sizeOf(file);
  const walSize = sizeOf(`${file}-wal`) ?? 0;
  if (size === null && walSize === 0) return;
  if (size !== null && size > 0) return;
  const what =
    size === null
      ? `The database ${file} is missing, but its write-ahead log ${file}-wal (${walSize} bytes) is still there. ` +
        'This is not a new installation: the database was deleted or moved without its log.'
      : `The database ${file} is empty (0 bytes)${walSize > 0 ? `, with its write-ahead log ${file}-wal (${walSize} bytes) beside it` : ''}. ` +
        'This is not a new installation: the database was emptied or cut short (a full disk, a failed copy or sync).';
  throw new DamagedDatabaseError(`${what} Nothing was changed. ${wayBack(file, dataDir)}`);
}

/**
 * The restore to run, naming the daily backup that holds the warehouse's data; or, when no backup
 * does, that there is none and how to start anew, which is left to the user to choose.
 */
function wayBack(file: string, dataDir: string): string {
  const restore = 'With Shipdesk closed, put a backup in its place with `shipdesk restore <backup file>`.';
  const backup = backupToRestore(dataDir, file);
  if (backup?.holdsOrganization) {
    const which = backup.newerWithoutOrganization
      ? `The newest daily backup with an organization in it is ${backup.file} (the newer ones hold none).`
      : `The newest daily backup is ${backup.file}.`;
    return `${restore} ${which}`;
  }
  const none = backup ? `The daily backups of it hold no organization (the newest is ${backup.file}).` : 'No daily backup of it was found in the data folder.';
  // The -wal goes too: left alone, the next start would refuse it as the log of a missing database.
  const leftovers = [file, `${file}-wal`].filter((each) => sizeOf(each) !== null);
  const startAnew = `To start with a new, empty database instead, move ${leftovers.join(' and ')} out of the data folder and start Shipdesk again.`;
  return `${restore} ${none} ${startAnew}`;
}
