import type Database from 'better-sqlite3';
import type { Db } from './open';
import type { ReadDb } from './tx';

/**
 * Hot reads are built and prepared once per connection and re-run with new parameters: building a
 * drizzle query and preparing its SQL costs far more than running it. A prepared query built on the
 * database also runs inside that connection's transactions.
 */
const roots = new WeakMap<Database.Database, Db>();
const cache = new WeakMap<Database.Database, Map<string, unknown>>();

export function registerConnection(db: Db): void {
  roots.set(db.$client, db);
}

/** The better-sqlite3 connection behind a database or a transaction handle. */
function clientOf(db: ReadDb): Database.Database {
  if ('$client' in db && db.$client) return db.$client as Database.Database;
  return (db as unknown as { session: { client: Database.Database } }).session.client;
}

export function prepared<T>(db: ReadDb, key: string, build: (root: Db) => T): T {
  const client = clientOf(db);
  let queries = cache.get(client);
  if (!queries) cache.set(client, (queries = new Map()));
  let query = queries.get(key) as T | undefined;
  if (query === undefined) {
    const root = roots.get(client);
    if (!root) throw new Error('Connection was not opened with openDatabase()');
    query = build(root);
    queries.set(key, query);
  }
  return query;
}
