import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { prepared } from './prepared';
import type { ReadDb, WriteTx } from './tx';

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
 * The trigger-kept search documents of migration 0016: one per shipment (order) with the text of all
 * its sources, in a trigram FTS5 index (external content, rowid = the document's id). An
 * organization's documents are the id range of its key in `search_org_keys`, numbered in the list's
 * creation order, so the index alone counts a term's matches and hands out a page newest first.
 */
const searchDocs = {
  shipment: {
    writeDoc: 'INSERT INTO shipment_search_doc_writes (shipment_id) VALUES (?)',
    docs: sql.identifier('shipment_search_docs'),
    index: sql.identifier('shipment_search_docs_fts'),
    key: sql.identifier('shipment_id'),
    unordered: sql.identifier('shipments_unordered'),
  },
  order: {
    writeDoc: 'INSERT INTO order_search_doc_writes (order_id) VALUES (?)',
    docs: sql.identifier('order_search_docs'),
    index: sql.identifier('order_search_docs_fts'),
    key: sql.identifier('order_id'),
    unordered: sql.identifier('orders_unordered'),
  },
};

/** Up to this many matches are handed to the list as ids, so it reads and sorts just them. */
export const FEW_MATCHES = 5000;

/**
 * A search alone with up to this many matches reads them all (oldest first, in the list's order);
 * with more, it counts them in the index and reads one page. Each match read costs a document read,
 * a count costs none: past a few hundred, counting is cheaper.
 */
export const FEW_TO_READ = 500;

export interface TextMatches {
  /** Their ids when there are at most `most` (FEW_MATCHES), else undefined; oldest first when `page` is there. */
  few(most?: number): string[] | undefined;
  /** Their ids as a subquery, for a list that filters on more than the search. */
  subquery: SQL;
  /** How many of the organization's shipments (orders) match. */
  total(): number;
  /** A page of them in creation order, newest or oldest first, from the index alone; absent when the documents are not in that order. */
  page?: (limit: number, offset: number, newestFirst: boolean) => string[];
}

/**
 * The organization's shipments or orders whose searchable text contains `search`, ignoring case.
 * Three characters or more are looked up in the trigram index (a phrase there is a substring);
 * shorter ones, which have no trigram, are a scan of the organization's documents, in their order
 * all the same. Nothing is read until the list asks: a search alone is counted and paged in the
 * index; combined with other filters, its few ids or its subquery join them.
 */
export function textMatches(db: ReadDb, kind: keyof typeof searchDocs, orgId: string, search: string): TextMatches {
  const { docs, index, key, unordered } = searchDocs[kind];
  const org = db.get<{ key: number; unordered: number } | undefined>(sql`SELECT key, ${unordered} AS unordered FROM search_org_keys WHERE org_id = ${orgId}`);
  // An organization that never had a shipment (order) has no key: nothing matches.
  const text = search.normalize('NFC');
  // The organization's documents: the id range of its key (2^48 ids each).
  const range = (column: SQL) => (org ? sql`${column} BETWEEN ${org.key} << 48 AND ((${org.key} + 1) << 48) - 1` : sql`0`);
  let from: SQL;
  let counted: SQL;
  let rowid: SQL;
  const indexed = [...text].length >= 3;
  if (indexed) {
    // The text is indexed as it was written: "å" typed as one letter or as "a" and a combining ring
    // (as some shops send it) are different trigrams, so both spellings are looked for.
    const phrase = (form: string) => `"${form.replace(/"/g, '""')}"`;
    const spellings = [...new Set([text, text.normalize('NFD')])].map(phrase).join(' OR ');
    const matching = sql`${index} MATCH ${spellings} AND ${range(sql`${index}.rowid`)}`;
    // CROSS JOIN: the index drives, in its rowid order, and each match reads its document by id.
    from = sql`${index} CROSS JOIN ${docs} d ON d.id = ${index}.rowid WHERE ${matching}`;
    // Counted in the index alone: the documents are not read.
    counted = sql`${index} WHERE ${matching}`;
    rowid = sql`${index}.rowid`;
  } else {
    from = sql`${docs} d WHERE ${range(sql`d.id`)} AND ${containsName(sql`d.body`, text)}`;
    counted = from;
    rowid = sql`d.id`;
  }
  return {
    few: (most = FEW_MATCHES) => {
      if (!indexed) {
        const ids = db.all<{ id: string }>(sql`SELECT d.${key} AS id FROM ${from} ORDER BY ${rowid} LIMIT ${most + 1}`).map((row) => row.id);
        return ids.length <= most ? ids : undefined;
      }
      // Whether there are few is asked of the index alone: a broad term then reads no document (it
      // read its first `most` documents for nothing).
      // As text: ids pass 2^53 (the organization's key << 48), past what a JS number holds exactly.
      const rowids = db.all<{ id: string }>(sql`SELECT CAST(rowid AS TEXT) AS id FROM ${counted} ORDER BY rowid LIMIT ${most + 1}`).map((row) => row.id);
      if (rowids.length > most) return undefined;
      if (!rowids.length) return [];
      return db
        .all<{ id: string }>(
          sql`SELECT d.${key} AS id FROM ${docs} d WHERE d.id IN (SELECT CAST(value AS INTEGER) FROM json_each(${JSON.stringify(rowids)})) ORDER BY d.id`,
        )
        .map((row) => row.id);
    },
    subquery: sql`SELECT d.${key} FROM ${from}`,
    total: () => db.get<{ n: number }>(sql`SELECT count(*) AS n FROM ${counted}`)?.n ?? 0,
    ...(org?.unordered
      ? {}
      : {
          page: (limit: number, offset: number, newestFirst: boolean) =>
            db
              .all<{ id: string }>(
                sql`SELECT d.${key} AS id FROM ${from} ORDER BY ${rowid} ${newestFirst ? sql`DESC` : sql`ASC`} LIMIT ${limit} OFFSET ${offset}`,
              )
              .map((row) => row.id),
        }),
  };
}

/**
 * Runs `write`, which writes the rows of new shipments (orders) `ids`, with the search documents
 * left alone, then writes each one's document once (migration 0016's rule, through its view). Left
 * to the triggers, a create writes the document with the shipment's row and rewrites it with its
 * receiver's, and FTS5 flushes its pending index data in the middle of the transaction to do so.
 * In the caller's transaction; only the new rows' own triggers may run inside `write`.
 */
export function withSearchDocsDeferred<T>(tx: WriteTx, kind: keyof typeof searchDocs, ids: readonly string[], write: () => T): T {
  // Prepared once per connection: built by drizzle at every create, these three cost twice their run.
  const statements = prepared(tx, `searchDocs.deferred.${kind}`, (root) => ({
    defer: root.$client.prepare('INSERT OR IGNORE INTO search_doc_deferrals (id) VALUES (1)'),
    undefer: root.$client.prepare('DELETE FROM search_doc_deferrals'),
    writeDoc: root.$client.prepare(searchDocs[kind].writeDoc),
  }));
  statements.defer.run();
  let written: T;
  try {
    written = write();
  } finally {
    statements.undefer.run();
  }
  for (const id of ids) statements.writeDoc.run(id);
  return written;
}
