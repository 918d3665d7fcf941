import { readFileSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { ensurePrivateFolder } from '../../platform/privateFolder';

/**
 * One serving process per database file. A second server (or the desktop app next to the headless
 * server) would run start-up recovery against the first one's sends in flight and move them to
 * error, and both would deliver the same webhooks. The CLI does not take the lock: a backup or a
 * plan change while the app runs is fine (SQLite's own locking covers it).
 *
 * The lock is held by the operating system, not inferred from a process id: `<database>.lock` is a
 * tiny SQLite file whose write lock the owner keeps for as long as it runs. The OS drops that lock
 * when the process ends in any way — a clean exit, a crash, a power cut — so a lock is never left
 * behind, and a process id that another program has after a reboot means nothing. The file also
 * holds the owner's process id, which only names it in the message a second start gets. The file
 * itself stays: removing it while another process opens it would let two processes lock two files.
 */
export interface InstanceLock {
  release(): void;
}

export class InstanceLockedError extends Error {}

export function acquireInstanceLock(databaseFile: string, pid = process.pid): InstanceLock {
  const file = `${databaseFile}.lock`;
  // A first start: the data folder is made here, before openDatabase would.
  ensurePrivateFolder(dirname(databaseFile));
  replaceOldLockFile(file, databaseFile);
  // No busy wait: a held lock is an answer, not something to wait for.
  const lock = new Database(file, { timeout: 0 });
  try {
    lock.exec('CREATE TABLE IF NOT EXISTS owner (pid INTEGER NOT NULL)');
    // The id is committed first, so that a second start can read it while the lock is held...
    const recordOwner = lock.transaction(() => {
      lock.exec('DELETE FROM owner');
      lock.prepare('INSERT INTO owner (pid) VALUES (?)').run(pid);
    });
    recordOwner.immediate();
    // ...then the write lock is taken and kept until release or the end of the process. Another
    // start may win between the two steps; it then holds the lock and this one is refused.
    lock.exec('BEGIN IMMEDIATE');
  } catch (error) {
    const owner = ownerOf(lock);
    lock.close();
    if (isBusy(error)) {
      throw new InstanceLockedError(
        owner !== null && owner !== pid ? servedBy(owner, databaseFile) : `could not take the lock ${file}; another Shipdesk is starting at the same moment`,
      );
    }
    throw error;
  }
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      // Closing the connection lets go of the OS lock; the file stays for the next start.
      lock.close();
    },
  };
}

function servedBy(owner: number, databaseFile: string): string {
  return `another Shipdesk (process ${owner}) is already serving ${databaseFile}; stop it first, or use another SHIPDESK_PROFILE or SHIPDESK_DATA_DIR`;
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

function ownerOf(lock: Database.Database): number | null {
  try {
    const pid = lock.prepare('SELECT pid FROM owner').pluck().get();
    return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Earlier builds wrote the lock as a text file holding the owner's process id. Such a file is
 * replaced, unless that process still runs: then it is taken to be an earlier Shipdesk serving
 * this database, and refused as it would have been.
 */
function replaceOldLockFile(file: string, databaseFile: string): void {
  let text: string;
  try {
    text = readFileSync(file, 'latin1');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (text.startsWith('SQLite format 3\0') || text.length === 0) return;
  const pid = Number(text.trim());
  if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isRunning(pid)) {
    throw new InstanceLockedError(servedBy(pid, databaseFile));
  }
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
