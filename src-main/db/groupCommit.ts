import type Database from 'better-sqlite3';

/**
 * Group commit. decisions §1 asks for `synchronous = FULL`: a 2xx write is on disk before it is
 * answered. One fsync per request caps a packing station's API at a few hundred writes a second,
 * so writes that arrive together share one: the first write opens a transaction, every write of
 * the same turn of the event loop runs in its own savepoint inside it (a failure undoes only its
 * own), and the transaction commits on the next `setImmediate` — after Node has handled every
 * request that was waiting. Doors answer only after `whenDurable()` resolves, so no caller ever
 * sees a 2xx, or data, that a crash could still take back.
 */
interface Group {
  durable: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

const openGroups = new WeakMap<Database.Database, Group>();

/**
 * What a connection wants to know of its own commits (db/committedChanges.ts): `collect` runs inside
 * the group's transaction just before COMMIT, so it sees exactly the writes that survived their
 * savepoints; `committed` runs with what it collected once COMMIT succeeded, never after a rollback.
 */
export interface CommitWatcher<T = unknown> {
  collect(): T;
  committed(collected: T): void;
}

const commitWatchers = new WeakMap<Database.Database, CommitWatcher>();

export function watchCommits<T>(client: Database.Database, watcher: CommitWatcher<T>): void {
  commitWatchers.set(client, watcher as CommitWatcher);
}

/**
 * Makes sure the connection's shared write transaction is open; callers then run their work in a
 * savepoint (better-sqlite3 nests `transaction()` as one while a transaction is open).
 */
export function joinWriteGroup(client: Database.Database): void {
  if (openGroups.has(client)) return;
  // A transaction the caller opened itself (a raw script, a test) is left alone: it commits as it chooses.
  if (client.inTransaction) return;
  client.exec('BEGIN IMMEDIATE');
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const durable = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  // A group nobody waits for (a write outside any door) must not crash the process if it fails.
  durable.catch(() => undefined);
  openGroups.set(client, { durable, resolve, reject });
  setImmediate(() => commitWriteGroup(client));
}

/**
 * Commits the open group now, if there is one. Runs by itself on the next `setImmediate`; call it
 * directly before closing the connection or copying the file.
 */
export function commitWriteGroup(client: Database.Database): void {
  const group = openGroups.get(client);
  if (!group) return;
  openGroups.delete(client);
  try {
    // SQLite rolls a transaction back by itself on some failures (disk full, I/O error): then
    // nothing of the group is on disk, and every request in it must hear so.
    if (!client.open || !client.inTransaction) throw new Error('The write transaction was rolled back before it could be committed');
    const watcher = commitWatchers.get(client);
    const collected = watcher?.collect();
    client.exec('COMMIT');
    group.resolve();
    if (watcher) notifyCommitted(watcher, collected);
  } catch (error) {
    try {
      if (client.open && client.inTransaction) client.exec('ROLLBACK');
    } catch {
      // The commit's own error is the one to report; a failed rollback leaves SQLite to recover.
    }
    group.reject(error);
  }
}

/** A watcher's fault is logged, never turned into a failed commit: the data is on disk. */
function notifyCommitted(watcher: CommitWatcher, collected: unknown): void {
  try {
    watcher.committed(collected);
  } catch (error) {
    console.error('A commit watcher failed:', error);
  }
}

/**
 * Resolves once everything written or read on this connection so far is committed; undefined when
 * nothing is pending, so reads outside a group answer without waiting a tick.
 */
export function whenDurable(client: Database.Database): Promise<void> | undefined {
  return openGroups.get(client)?.durable;
}
