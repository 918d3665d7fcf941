import type Database from 'better-sqlite3';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type * as schema from './schema';

/** The database handle every layer above db/ is given (opened by open.ts). */
export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };
