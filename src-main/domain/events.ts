import type { EventType } from '../../src-shared/schemas/webhook';
import { outboxEvents } from '../db/schema';
import { newId } from '../db/ids';
import type { WriteTx } from '../db/tx';
import { insertRows, RawJson } from '../db/prepared';
import { JsonText } from '../app/kernel/jsonText';

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
    // Data that is already JSON text (a shipment's full read) is written into the payload as it
    // is: the same text as JSON.stringify of its parse, without the parse and the stringify.
    const payload =
      data instanceof JsonText
        ? new RawJson(
            `{"id":${JSON.stringify(id)},"type":${JSON.stringify(type)},"createdAt":${JSON.stringify(createdAt)},"orgId":${JSON.stringify(orgId)},"data":${data.text}}`,
          )
        : { id, type, createdAt, orgId, data };
    return { id, orgId, type, payload, createdAt, dispatchedAt: null };
  });
  insertRows(tx, outboxEvents, rows);
  return rows.map((row) => row.id);
}
