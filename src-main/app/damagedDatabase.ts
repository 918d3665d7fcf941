/**
 * What to say when the database file cannot be read at all (a disk fault, a file copied while it
 * was written, another program's file put in its place). SQLite's own words ("file is not a
 * database") tell a warehouse neither which file nor what to do; this names both, and the backup
 * to restore, since the daily backups are the way back (decisions §12).
 */
import { dailyBackups } from './dailyBackups';

export class DamagedDatabaseError extends Error {}

/** SQLite's codes for a file that is not a readable database (SQLITE_CORRUPT has extended forms). */
function isDamage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'));
}

/** The error to report for a failed open: a DamagedDatabaseError for damage, else the error itself. */
export function explainOpenFailure(error: unknown, file: string, dataDir: string): unknown {
  if (!isDamage(error)) return error;
  const newest = dailyBackups(dataDir, file)[0];
  const backup = newest ? `The newest daily backup is ${newest}.` : 'No daily backup of it was found in the data folder.';
  return new DamagedDatabaseError(
    `The database ${file} cannot be read: it is damaged or is not a Shipdesk database (${(error as Error).message}). Nothing was changed. ` +
      `With Shipdesk closed, put a backup in its place with \`shipdesk restore <backup file>\`. ${backup}`,
    { cause: error },
  );
}
