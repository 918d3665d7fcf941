import { ApiError } from '../../src-shared/errors';

/**
 * What a failure of SQLite itself means to the person at the packing station. Without this, a full
 * disk, a database held by another program or a failing disk all read "Something went wrong"; the
 * request's writes are rolled back in every case, so each message says nothing was saved.
 */
const failures: [prefix: string, make: () => ApiError][] = [
  ['SQLITE_FULL', () => new ApiError('INTERNAL_ERROR', "The disk that holds Shipdesk's data is full, so nothing was saved; free some space and try again")],
  [
    'SQLITE_BUSY',
    () =>
      new ApiError(
        'SERVICE_UNAVAILABLE',
        'The database is busy with another program (a backup or an import from the command line), so nothing was saved; try again in a moment',
      ),
  ],
  [
    'SQLITE_LOCKED',
    () =>
      new ApiError(
        'SERVICE_UNAVAILABLE',
        'The database is busy with another program (a backup or an import from the command line), so nothing was saved; try again in a moment',
      ),
  ],
  ['SQLITE_READONLY', () => new ApiError('INTERNAL_ERROR', 'Shipdesk cannot write to its data folder (it is read-only now), so nothing was saved')],
  [
    'SQLITE_IOERR',
    () => new ApiError('INTERNAL_ERROR', "The disk could not read or write Shipdesk's database, so nothing was saved; check the disk, then try again"),
  ],
  ['SQLITE_CORRUPT', () => new ApiError('INTERNAL_ERROR', 'The database file is damaged; stop Shipdesk and restore the newest backup (see the README)')],
];

/** The error for a failure of SQLite itself (better-sqlite3's SqliteError codes), or null for anything else. */
export function databaseFailure(error: unknown): ApiError | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return null;
  return failures.find(([prefix]) => code === prefix || code.startsWith(`${prefix}_`))?.[1]() ?? null;
}
