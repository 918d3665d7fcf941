import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { ReadDb } from './tx';

/**
 * "Contains" for list searches, ignoring case. SQLite's LIKE folds ASCII letters only, which is
 * right for codes, references and e-mail addresses and keeps a scan cheap; names of people and
 * places need every letter folded ("århus" finds "Århus", "ærø" finds "ÆRØ"), which `casefold`
 * (registered in open.ts) does in JS for each row it looks at — so only for the columns that need it.
 */

/** Escapes LIKE wildcards so a search for "50%" finds that text; used with `ESCAPE '\'`. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Codes, references, e-mail addresses: ASCII case folded by SQLite. */
export function containsCode(column: SQLWrapper, search: string): SQL {
  return sql`${column} LIKE ${likePattern(search)} ESCAPE '\\'`;
}

/**
 * Names: every letter's case folded. A search of ASCII letters only is SQLite's own LIKE, with no
 * call into JS for each row (three times faster over 300 000 orders): the names it could tell apart
 * differently are those with a letter outside ASCII whose lower case is an ASCII one (the Kelvin
 * sign "K"), which no customer name has.
 */
export function containsName(column: SQLWrapper, search: string): SQL {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(search)) return containsCode(column, search);
  return sql`instr(casefold(${column}), ${casefold(search)}) > 0`;
}

/**
 * The folding both sides of `containsName` use: lower case, then composed (NFC), so "Å" typed as A
 * plus a combining ring (as some shops and macOS file names send it) is found by "å" and the other way round.
 */
export function casefold(value: string): string {
  return value.toLowerCase().normalize('NFC');
}

/**
 * The trigger-kept search tables of migration 0011: a row of text per source (a shipment, its
 * receiver, a numbered parcel; an order, a line), and a trigram FTS5 index over it (external
 * content, rowid = the search row's id).
 */
const searchTables = {
  shipment: { table: sql.identifier('shipment_search'), index: sql.identifier('shipment_search_fts'), key: sql.identifier('shipment_id') },
  order: { table: sql.identifier('order_search'), index: sql.identifier('order_search_fts'), key: sql.identifier('order_id') },
};

/** Up to this many matches are handed to the list as ids, so it reads and sorts just them. */
export const FEW_MATCHES = 5000;

export type TextMatches = { few: true; ids: string[] } | { few: false; subquery: SQL };

/**
 * The shipments or orders whose searchable text contains `search`, ignoring case. Three characters
 * or more are looked up in the trigram index (a phrase there is a substring); shorter ones, which
 * have no trigram, are a scan of the search table's text, found in the list's order all the same.
 * Few matches come back as their ids; many as a subquery for the list to walk its index against.
 */
export function textMatches(db: ReadDb, kind: keyof typeof searchTables, search: string): TextMatches {
  const { table, index, key } = searchTables[kind];
  const text = search.normalize('NFC');
  // The text is indexed as it was written: "å" typed as one letter or as "a" and a combining ring
  // (as some shops send it) are different trigrams, so both spellings are looked for.
  const phrase = (form: string) => `"${form.replace(/"/g, '""')}"`;
  const spellings = [...new Set([text, text.normalize('NFD')])].map(phrase).join(' OR ');
  const subquery =
    [...text].length >= 3
      ? sql`SELECT DISTINCT ${key} FROM ${table} WHERE id IN (SELECT rowid FROM ${index} WHERE ${index} MATCH ${spellings})`
      : sql`SELECT DISTINCT ${key} FROM ${table} WHERE ${containsName(sql.identifier('body'), text)}`;
  const ids = db.all<{ id: string }>(sql`SELECT ${key} AS id FROM (${subquery}) LIMIT ${FEW_MATCHES + 1}`).map((row) => row.id);
  return ids.length <= FEW_MATCHES ? { few: true, ids } : { few: false, subquery };
}

/**
 * `column IN (ids)` with the ids as one JSON parameter: a search's few thousand matches bind once,
 * and the statement is the same one whatever their number (`inArray` binds each and compiles anew).
 */
export function inIds(column: SQLWrapper, ids: readonly string[]): SQL {
  return sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;
}
