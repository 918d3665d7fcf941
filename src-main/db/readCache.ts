import type Database from 'better-sqlite3';

/**
 * A cache of committed reads that can never serve a stale answer. Entries are dropped by the
 * database itself: TEMP triggers (this connection only, nothing in the schema or the migrations)
 * call back into the cache for every row written to a watched table, even by a cascade or a raw
 * statement. A commit by any other connection (the CLI, another process) changes
 * `PRAGMA data_version`, and then everything is dropped (see ForeignCommits). While this connection has a transaction
 * open (a group commit waiting for its turn) nothing is kept, so the cache only ever holds committed
 * data; it still answers then: an entry still there is a row nobody has written since it was kept,
 * not even uncommitted, so it is what a read in the transaction would give (under a create load a
 * transaction is open most of the time, and every request's token would be read again). Create it
 * when the connection opens, outside any transaction: a trigger created inside one would vanish
 * with a rollback.
 */
export interface WatchedTable {
  table: string;
  /**
   * SQL giving the cache key of a written row, over `ROW.` (replaced by NEW. and OLD.); null drops
   * every entry (a change that shows in many reads, such as a renamed shipping rule).
   */
  key: string | null;
  /** For updates: only these columns matter (an update of others keeps the entries). */
  columns?: string[];
}

/**
 * Notices commits by other connections, for all the caches of one connection. Reading
 * `PRAGMA data_version` costs about as much as a cache hit saves (the largest part of a cached
 * GET), so the dispatcher looks before anything else (`look`), at most once per turn of the event
 * loop: the requests that arrive together share one look, and the caches trust it until the next.
 * A request sees other processes' commits as of the start of its turn, as if it had arrived a
 * moment earlier.
 */
export class ForeignCommits {
  private readonly dataVersion: Database.Statement;
  private version: unknown;
  private lookedThisTurn = false;
  private readonly nextTurn = () => {
    this.lookedThisTurn = false;
  };
  /** Moves on when a look finds another connection's commit; the caches then drop everything. */
  epoch = 0;

  constructor(client: Database.Database) {
    this.dataVersion = client.prepare('PRAGMA data_version').pluck();
    this.version = this.dataVersion.get();
  }

  look(): void {
    if (this.lookedThisTurn) return;
    this.lookedThisTurn = true;
    setImmediate(this.nextTurn).unref();
    const version = this.dataVersion.get();
    if (version === this.version) return;
    this.version = version;
    this.epoch++;
  }
}

interface Entry<V> {
  scope: string;
  value: V;
  size: number;
}

export class CommittedReadCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private bytes = 0; // the sum of the entries' sizes
  private epoch: number;

  /**
   * @param name  unique per connection: names the callback function and the triggers.
   * @param maxSize  the oldest entries go first past this total size (as given to `set`).
   */
  constructor(
    private readonly client: Database.Database,
    name: string,
    watched: readonly WatchedTable[],
    private readonly maxSize: number,
    private readonly foreign: ForeignCommits,
  ) {
    this.epoch = foreign.epoch;
    const callback = `${name}_changed`;
    client.function(callback, { varargs: true, deterministic: false }, (...keys: unknown[]) => {
      for (const key of keys) this.drop(String(key));
      return null;
    });
    client.function(`${name}_clear`, { deterministic: false }, () => {
      this.clear();
      return null;
    });
    for (const watch of watched) {
      const call = (...rows: ('NEW' | 'OLD')[]) =>
        watch.key === null ? `SELECT ${name}_clear();` : `SELECT ${callback}(${rows.map((row) => watch.key?.replaceAll('ROW.', `${row}.`)).join(', ')});`;
      const events: [string, string][] = [
        ['insert', `INSERT`],
        ['update', `UPDATE${watch.columns ? ` OF ${watch.columns.map((column) => `"${column}"`).join(', ')}` : ''}`],
        ['delete', `DELETE`],
      ];
      for (const [event, clause] of events) {
        const body = event === 'insert' ? call('NEW') : event === 'delete' ? call('OLD') : call('OLD', 'NEW');
        client.exec(`CREATE TEMP TRIGGER IF NOT EXISTS ${name}_${watch.table}_${event} AFTER ${clause} ON main."${watch.table}" BEGIN ${body} END`);
      }
    }
  }

  /** The kept value for `key` if it was read in the same `scope` (e.g. the organization). */
  get(key: string, scope: string): V | undefined {
    this.seeForeignCommits();
    const entry = this.entries.get(key);
    if (!entry || entry.scope !== scope) return undefined;
    // Map order is the eviction order: a hit moves to the back.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, scope: string, value: V, size = 1): void {
    // An open transaction (a group commit waiting for its turn) may show writes that never land.
    if (this.client.inTransaction || size > this.maxSize / 4) return;
    this.seeForeignCommits();
    if (this.entries.has(key)) this.drop(key);
    this.entries.set(key, { scope, value, size });
    this.bytes += size;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxSize) break;
      this.drop(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.size;
  }

  /** Drops everything once other connections' commits were seen. */
  private seeForeignCommits(): void {
    if (this.epoch !== this.foreign.epoch) {
      this.epoch = this.foreign.epoch;
      this.clear();
    }
  }
}
