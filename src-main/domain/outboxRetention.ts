/**
 * How long the outbox keeps an event (decisions §10). Every change writes its event with the whole
 * resource in it — a shipment's five or so events weigh about 10 kB — so a warehouse's database and
 * each of its seven daily backups would grow by gigabytes a year for payloads nobody reads again.
 * An event goes once it is dispatched to the webhooks, older than the retention period and not
 * awaited by a delivery retry (the last one comes under eight hours after the first). The delivery
 * records, which name the event by id and type, stay as the history for DELIVERY_RETENTION_DAYS:
 * a webhook busy with every change otherwise grows the database by most of a gigabyte a year.
 */
import { sql } from 'drizzle-orm';
import type { AppContext } from '../app/kernel/context';
import { inWriteTransaction } from '../db/tx';

export const OUTBOX_RETENTION_DAYS = 30;
export const DELIVERY_RETENTION_DAYS = 90;
const BATCH = 500;

/**
 * Deletes expired events in batches, letting other work through between them; answers how many.
 * Both lookups go through their indexes (SQLite would rather read the tables whole, without
 * statistics): the outbox's columns sit behind the payload, so reading them from the table reads
 * every payload of the last 30 days, and the deliveries are 90 days of records.
 */
export async function pruneDeliveredEvents(app: AppContext): Promise<number> {
  const before = new Date(app.now().getTime() - OUTBOX_RETENTION_DAYS * 24 * 60 * 60 * 1000).toISOString();
  let total = 0;
  for (;;) {
    const deleted = inWriteTransaction(app.db, (tx) =>
      tx.run(sql`
        DELETE FROM outbox_events WHERE rowid IN (
          SELECT rowid FROM outbox_events INDEXED BY outbox_undispatched
          WHERE dispatched_at IS NOT NULL AND created_at < ${before}
            AND id NOT IN (SELECT event_id FROM webhook_deliveries INDEXED BY webhook_deliveries_due WHERE next_attempt_at IS NOT NULL)
          LIMIT ${BATCH})`),
    ).changes;
    total += deleted;
    if (deleted < BATCH) return total;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Deletes delivery records older than DELIVERY_RETENTION_DAYS that wait for no retry, webhook by
 * webhook along its (webhook_id, created_at) index, in batches; answers how many.
 */
export async function pruneOldDeliveries(app: AppContext): Promise<number> {
  const before = new Date(app.now().getTime() - DELIVERY_RETENTION_DAYS * 24 * 60 * 60 * 1000).toISOString();
  const webhookIds = app.db.all<{ id: string }>(sql`SELECT id FROM webhooks`).map((row) => row.id);
  let total = 0;
  for (const webhookId of webhookIds) {
    for (;;) {
      const deleted = inWriteTransaction(app.db, (tx) =>
        tx.run(sql`
          DELETE FROM webhook_deliveries WHERE rowid IN (
            SELECT rowid FROM webhook_deliveries
            WHERE webhook_id = ${webhookId} AND created_at < ${before} AND next_attempt_at IS NULL
            LIMIT ${BATCH})`),
      ).changes;
      total += deleted;
      if (deleted < BATCH) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return total;
}
