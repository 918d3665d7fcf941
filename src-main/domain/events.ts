import type { EventType } from '../../src-shared/schemas/webhook';
import { outboxEvents } from '../db/schema';
import { newId } from '../db/ids';
import type { WriteTx } from '../db/tx';
import { insertRows } from '../db/prepared';

/**
 * Writes an event to the outbox in the caller's transaction (decisions §10): it exists exactly when
 * the change it describes was committed. Delivery to webhooks happens after commit, elsewhere.
 */
export function emitEvent(tx: WriteTx, now: Date, orgId: string, type: EventType, data: unknown): string {
  return emitEvents(tx, now, orgId, type, [data])[0] as string;
}

/** One event per item, in the order given. */
export function emitEvents(tx: WriteTx, now: Date, orgId: string, type: EventType, items: readonly unknown[]): string[] {
  if (!items.length) return [];
  const createdAt = now.toISOString();
  const rows = items.map((data) => {
    const id = newId('event');
    return { id, orgId, type, payload: { id, type, createdAt, orgId, data }, createdAt, dispatchedAt: null };
  });
  insertRows(tx, outboxEvents, rows);
  return rows.map((row) => row.id);
}
