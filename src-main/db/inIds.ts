import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * `column IN (ids)` with the ids as one JSON parameter: a search's few thousand matches or an outbox
 * batch bind once, and the statement is the same one whatever their number (`inArray` binds each and
 * compiles a statement per count, which the statement cache then keeps).
 */
export function inIds(column: SQLWrapper, ids: readonly string[]): SQL {
  return sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;
}
