import { mkdirSync } from 'node:fs';

/**
 * Makes a folder of the data folder (and its parents) when missing, readable by this user only:
 * the database holds password and token hashes, the keys file the installation's keys, the backups
 * both. An existing folder is left as it is.
 */
export function ensurePrivateFolder(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
}
