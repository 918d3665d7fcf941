import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensurePrivateFolder } from './privateFolder';

/**
 * One serving process per database file. A second server (or the desktop app next to the headless
 * server) would run start-up recovery against the first one's sends in flight and move them to
 * error, and both would deliver the same webhooks. The CLI does not take the lock: a backup or a
 * plan change while the app runs is fine (SQLite's own locking covers it).
 *
 * The lock is a file beside the database holding the owner's process id; one whose process is gone
 * (a crash, a power cut) is taken over.
 */
export interface InstanceLock {
  release(): void;
}

export class InstanceLockedError extends Error {}

export function acquireInstanceLock(databaseFile: string, pid = process.pid): InstanceLock {
  const file = `${databaseFile}.lock`;
  // A first start: the data folder is made here, before openDatabase would.
  ensurePrivateFolder(dirname(databaseFile));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(pid), { flag: 'wx' });
      return {
        release: () => {
          // Only our own: a lock taken over after we were presumed dead is not ours to remove.
          if (ownerOf(file) === pid) removeIfPresent(file);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = ownerOf(file);
      if (owner !== null && owner !== pid && isRunning(owner)) {
        throw new InstanceLockedError(`another Shipdesk (process ${owner}) is already serving ${databaseFile}; stop it first, or use another SHIPDESK_PROFILE or SHIPDESK_DATA_DIR`);
      }
      // Left behind by a process that is gone (or unreadable): take it over.
      removeIfPresent(file);
    }
  }
  throw new InstanceLockedError(`could not take the lock ${file}; another Shipdesk is starting at the same moment`);
}

function removeIfPresent(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function ownerOf(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
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
