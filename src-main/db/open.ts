import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema';
import type { Db } from './types';
import { registerConnection } from './prepared';
import { defaultSlowQueryReport, SLOW_QUERY_MS, timeStatement, type SlowQuery } from './slowQueries';
import { ensurePrivateFolder } from '../platform/privateFolder';
import { appRoot } from '../platform/appRoot';
import { casefold } from './search';

/** Found from the app's folder, so the bundles in out/main (serve, cli) find them as sources do. */
export const defaultMigrationsFolder = join(appRoot(), 'src-main', 'db', 'migrations');

export interface OpenOptions {
  migrationsFolder?: string;
  /** Statements slower than this many ms are reported (default 40). */
  slowQueryMs?: number;
  /** Where slow statements go (default: a warning on stderr). */
  onSlowQuery?: (slow: SlowQuery) => void;
}

/** Opens (creating if needed) one profile's database: pragmas of decisions §1, then migrations. */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  const migrationsFolder = options.migrationsFolder ?? defaultMigrationsFolder;
  if (file !== ':memory:') ensurePrivateFolder(dirname(file));
  const client = new Database(file);
  try {
    // First, before anything writes to the file: a newer database is refused untouched (even
    // switching it to WAL rewrites its header).
    refuseNewerDatabase(client, migrationsFolder);
    client.pragma('journal_mode = WAL');
    client.pragma('foreign_keys = ON');
    // A 2xx means the write is on disk, even after a power cut.
    client.pragma('synchronous = FULL');
    client.pragma('busy_timeout = 5000');
    // The shipment-count triggers open a statement journal per insert; keep it off the disk.
    client.pragma('temp_store = MEMORY');
    // An 8 MB page cache. better-sqlite3 builds SQLite with 16 MB, which a busy server fills within
    // minutes and keeps (issue 23: resident memory over a day); SQLite's own 2 MB made a broad search
    // read its index pages from the OS's file cache at every request, about twice as slow on 300 000
    // orders. The pages read again soon (the newest rows, the indexes' upper levels, a broad term's
    // doclists) fit in 8 MB; the rest comes from the file cache as it does past 16 MB.
    client.pragma('cache_size = -8000');
    // Shipment reads are built as JSON by SQLite (shipmentJson.ts); documents travel as base64.
    client.function('base64', { deterministic: true }, (value: unknown) => (Buffer.isBuffer(value) ? value.toString('base64') : value));
    // Searches on names fold every letter's case, not only ASCII's (search.ts).
    client.function('casefold', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? casefold(value) : value));
    cacheStatements(client, 1000, (statement) => timeStatement(statement, options.slowQueryMs ?? SLOW_QUERY_MS, options.onSlowQuery ?? defaultSlowQueryReport));
    const db = drizzle(client, { schema }) as Db;
    migrate(db, { migrationsFolder });
    registerConnection(db);
    return db;
  } catch (error) {
    client.close();
    throw error;
  }
}

interface Journal {
  entries: { idx: number; when: number; tag: string }[];
}

export function readJournal(migrationsFolder: string): Journal {
  return JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as Journal;
}

export class NewerDatabaseError extends Error {}

/**
 * Migrations are append-only: a database that has applied a migration this app does not know was
 * written by a newer Shipdesk, and opening it here could corrupt it.
 */
export function refuseNewerDatabase(client: Database.Database, migrationsFolder: string): void {
  const table = client.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  if (!table) return;
  const known = readJournal(migrationsFolder).entries;
  const newestKnown = Math.max(0, ...known.map((entry) => entry.when));
  const row = client.prepare('SELECT MAX(created_at) AS newest, COUNT(*) AS applied FROM __drizzle_migrations').get() as {
    newest: number | null;
    applied: number;
  };
  if ((row.newest ?? 0) > newestKnown || row.applied > known.length) {
    throw new NewerDatabaseError(
      `This database was written by a newer version of Shipdesk (${row.applied} migrations applied, this app knows ${known.length}). ` +
        'Update Shipdesk to open it; nothing was changed.',
    );
  }
}

export function databaseExists(file: string): boolean {
  return existsSync(file);
}

/**
 * Compiled statements are kept by SQL text. Drizzle prepares anew for every query it runs, and
 * compiling costs far more than running; the shapes repeat (a create, a read), so each compiles once.
 * Drizzle switches a statement to raw (array) rows before each read it maps itself and uses plain
 * rows otherwise, so a statement handed out again starts in plain mode.
 */
export function cacheStatements(client: Database.Database, capacity = 1000, onCompile?: (statement: Database.Statement) => void): void {
  const compile = client.prepare.bind(client);
  const cache = new Map<string, Database.Statement>();
  client.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (statement) {
      // Most recently used last, so the oldest is dropped first.
      cache.delete(source);
      if (statement.reader) statement.raw(false);
    } else {
      statement = compile(source);
      onCompile?.(statement);
      if (cache.size >= capacity) cache.delete(cache.keys().next().value as string);
    }
    cache.set(source, statement);
    return statement;
  }) as typeof client.prepare;
}
