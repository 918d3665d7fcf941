import type Database from 'better-sqlite3';
import { getTableColumns, getTableName, is, SQL, sql, type Placeholder } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteInsertValue, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from './types';
import type { ReadDb, WriteTx } from './tx';

/**
 * Hot queries (reads, and the writes of a shipment create) are built and prepared once per
 * connection and re-run with new parameters: building a drizzle query and preparing its SQL costs
 * far more than running it. A prepared query built on the database also runs inside that
 * connection's transactions.
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

/** A single-row insert of one table, compiled once, and the column of each of its parameters. */
interface RowInsert {
  columns: [name: string, column: SQLiteColumn][];
  statement: Database.Statement;
}

function rowInsertOf(db: ReadDb, table: SQLiteTable): RowInsert {
  return prepared(db, `insertRows.${getTableName(table)}`, (root) => {
    const byName = getTableColumns(table) as Record<string, SQLiteColumn>;
    for (const [name, column] of Object.entries(byName)) {
      // A normal insert evaluates these per row; a statement built once could not.
      if (is(column.default, SQL) || column.defaultFn || column.onUpdateFn) {
        throw new Error(`insertRows cannot write ${getTableName(table)}.${name}: its default is computed per row`);
      }
    }
    // Wrapped in sql``, a placeholder stays a bare parameter: the values are encoded by insertRows.
    const values = Object.fromEntries(Object.keys(byName).map((name) => [name, sql`${sql.placeholder(name)}`]));
    const query = root
      .insert(table)
      .values(values as SQLiteInsertValue<SQLiteTable>)
      .toSQL();
    const columns = query.params.map((param): [string, SQLiteColumn] => {
      const { name } = param as Placeholder;
      return [name, byName[name] as SQLiteColumn];
    });
    return { columns, statement: root.$client.prepare(query.sql) };
  });
}

/**
 * Inserts `rows` in order, one run per row of a single-row insert compiled once per connection and
 * table: re-running it costs a few µs, building a multi-row insert with drizzle far more. Rows
 * written before a failing one are undone with the caller's transaction, as a multi-row statement's
 * would be.
 *
 * The values are encoded here exactly as drizzle's normal insert encodes them: absent → the column
 * default or NULL, null → NULL, anything else → the column's mapToDriverValue (JSON text for json
 * columns, 1/0 for booleans). Drizzle's prepared queries encode placeholder values differently: null
 * goes through the column too (a json column would store the text 'null', a boolean 0) and an absent
 * value never gets the column default. So the statement is run directly, with no drizzle in between.
 */
/**
 * A json column's value that is already JSON text: written as it is instead of through
 * `JSON.stringify` (an event whose data is a shipment's full read as SQLite built it).
 */
export class RawJson {
  constructor(readonly text: string) {}
}

export function insertRows<T extends SQLiteTable>(tx: WriteTx, table: T, rows: readonly T['$inferInsert'][]): void {
  if (!rows.length) return;
  const { columns, statement } = rowInsertOf(tx, table);
  const values: unknown[] = new Array(columns.length);
  for (const row of rows) {
    columns.forEach(([name, column], i) => {
      let value: unknown = (row as Record<string, unknown>)[name];
      if (value === undefined) value = column.default;
      values[i] = value === null || value === undefined ? null : value instanceof RawJson ? value.text : column.mapToDriverValue(value);
    });
    statement.run(values);
  }
}
