import type Database from 'better-sqlite3';
import { watchCommits } from './groupCommit';

/**
 * The status changes this connection committed: shipments (created, a new status, or a new tracking status) and print jobs
 * (created, or a new status). The database notes them itself, so no write path can forget to, and
 * only what was committed comes out:
 *  - TEMP triggers (this connection only; nothing in the schema or the migrations) add a row to a
 *    TEMP table for each change, in the writer's own transaction. A savepoint that rolls back takes
 *    its rows with it, so a change that was undone is never reported.
 *  - Just before the group commit (groupCommit.ts) the rows are taken out, inside the transaction;
 *    once COMMIT succeeded they are handed on. A failed commit hands on nothing.
 * Writes outside a group (an autocommit statement at start-up, a transaction a script opened) are
 * handed on with the next group commit. Commits of other processes (the CLI) are not seen.
 */
export type CommittedChange =
  | { kind: 'shipment'; orgId: string; shipmentId: string; status: string; previousStatus: string | null }
  | { kind: 'printJob'; orgId: string; printJobId: string; status: string; error: string | null };

/** More changes than this in one group commit are not listed one by one (see `truncated`). */
const MAX_CHANGES_PER_COMMIT = 10_000;

interface ChangeRow {
  kind: 'shipment' | 'printJob';
  org_id: string;
  subject_id: string;
  status: string;
  previous_status: string | null;
  error: string | null;
}

/**
 * Starts noting changes on `client` and calls `onCommitted` with each group's changes, in the order
 * they were written. Call once, when the connection opens and no transaction is open (a trigger
 * created inside one would vanish with a rollback). `onCommitted` runs right after COMMIT, on the
 * committing turn: it must only queue work, never do it.
 */
export function noteCommittedChanges(client: Database.Database, onCommitted: (changes: CommittedChange[], truncated: boolean) => void): void {
  // Saves the DELETE on commits that changed no status (most of them): set by the triggers, cleared on take.
  let noted = false;
  client.function('shipdesk_change_noted', { deterministic: false }, () => {
    noted = true;
    return null;
  });
  client.exec(`
    CREATE TEMP TABLE IF NOT EXISTS committed_changes (
      seq INTEGER PRIMARY KEY,
      kind TEXT NOT NULL,
      org_id TEXT NOT NULL,
      subject_id TEXT NOT NULL,
      status TEXT NOT NULL,
      previous_status TEXT,
      error TEXT
    );
    CREATE TEMP TRIGGER IF NOT EXISTS committed_changes_shipment_insert AFTER INSERT ON main.shipments BEGIN
      INSERT INTO committed_changes (kind, org_id, subject_id, status, previous_status) VALUES ('shipment', NEW.org_id, NEW.id, NEW.status, NULL);
      SELECT shipdesk_change_noted();
    END;
    CREATE TEMP TRIGGER IF NOT EXISTS committed_changes_shipment_status AFTER UPDATE OF status ON main.shipments
    WHEN OLD.status IS NOT NEW.status BEGIN
      INSERT INTO committed_changes (kind, org_id, subject_id, status, previous_status) VALUES ('shipment', NEW.org_id, NEW.id, NEW.status, OLD.status);
      SELECT shipdesk_change_noted();
    END;
    -- A new tracking status (the poller, a refresh) refreshes the screens too; its status stays as it was.
    CREATE TEMP TRIGGER IF NOT EXISTS committed_changes_shipment_tracking AFTER UPDATE OF tracking_status ON main.shipments
    WHEN OLD.tracking_status IS NOT NEW.tracking_status AND OLD.status IS NEW.status BEGIN
      INSERT INTO committed_changes (kind, org_id, subject_id, status, previous_status) VALUES ('shipment', NEW.org_id, NEW.id, NEW.status, OLD.status);
      SELECT shipdesk_change_noted();
    END;
    CREATE TEMP TRIGGER IF NOT EXISTS committed_changes_print_job_insert AFTER INSERT ON main.print_jobs BEGIN
      INSERT INTO committed_changes (kind, org_id, subject_id, status, error) VALUES ('printJob', NEW.org_id, NEW.id, NEW.status, NEW.error);
      SELECT shipdesk_change_noted();
    END;
    CREATE TEMP TRIGGER IF NOT EXISTS committed_changes_print_job_status AFTER UPDATE OF status ON main.print_jobs
    WHEN OLD.status IS NOT NEW.status BEGIN
      INSERT INTO committed_changes (kind, org_id, subject_id, status, error) VALUES ('printJob', NEW.org_id, NEW.id, NEW.status, NEW.error);
      SELECT shipdesk_change_noted();
    END;
  `);
  const read = client.prepare<[number]>('SELECT kind, org_id, subject_id, status, previous_status, error FROM committed_changes ORDER BY seq LIMIT ?');
  const clear = client.prepare('DELETE FROM committed_changes');

  watchCommits<{ rows: ChangeRow[]; truncated: boolean } | null>(client, {
    collect: () => {
      if (!noted) return null;
      noted = false;
      try {
        const rows = read.all(MAX_CHANGES_PER_COMMIT + 1) as ChangeRow[];
        clear.run();
        // A bulk write (an import of history) is not worth a push per row: the listeners are told to read again.
        const truncated = rows.length > MAX_CHANGES_PER_COMMIT;
        return { rows: truncated ? [] : rows, truncated };
      } catch (error) {
        // Noting is a courtesy to the screens; it must never cost the write.
        console.error('Reading the committed status changes failed:', error);
        return null;
      }
    },
    committed: (collected) => {
      if (!collected) return;
      onCommitted(collected.rows.map(toChange), collected.truncated);
    },
  });
}

function toChange(row: ChangeRow): CommittedChange {
  return row.kind === 'shipment'
    ? { kind: 'shipment', orgId: row.org_id, shipmentId: row.subject_id, status: row.status, previousStatus: row.previous_status }
    : { kind: 'printJob', orgId: row.org_id, printJobId: row.subject_id, status: row.status, error: row.error };
}
