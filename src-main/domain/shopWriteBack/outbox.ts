/**
 * The write-back (issue 22): when a shipment of a storefront order is dispatched, the shop is told —
 * carrier, tracking number and link, the shipped lines — through the `shop_fulfillments` outbox.
 * A row is queued in the dispatch's own transaction (one per shipment: the unique index), written
 * after commit by a background task on the webhook retry schedule (decisions §10), and survives
 * restarts. Never twice: after any attempt that failed or was cut short (a timeout, a crash while
 * `sending`), the shop's fulfilments are read back first and the write is made only when the shop
 * has none for this shipment. A later tracking number queues the row again: the shop's fulfilment is
 * updated, never a second one made.
 */
import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { ShopFulfillmentRead, ShopFulfillmentStatus } from '../../../src-shared/schemas/shopFulfillment';
import { carriers, emailMessages, orderChannels, orderLines, orders, parcelOrderLines, parcels, shipments, shopFulfillments } from '../../db/schema';
import { newId } from '../../db/ids';
import { inWriteTransaction, type ReadDb, type WriteTx } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { repeatInBackground, type BackgroundTask } from '../../app/kernel/backgroundTask';
import { recordError } from '../shipments/repository';
import { RETRY_DELAYS_MS } from '../webhooks/delivery';
import { orderChannelCredentials } from '../orderChannels/orderChannels';
import { storefrontWriter, type ShopPlatform } from '../../storefronts/writers';
import type { ShopFulfillment, StorefrontWriter, WrittenFulfillment } from '../../storefronts/types';
import { ShopWriteError } from '../../storefronts/writeHttp';

export const SHOP_WRITE_MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const ROWS_PER_RUN = 10;

type Row = typeof shopFulfillments.$inferSelect;

function storefrontOf(type: string): ShopPlatform | null {
  return type === 'shopify' || type === 'woocommerce' ? type : null;
}

/**
 * In the transaction that dispatches a shipment or changes its tracking number: queues the shop's
 * write-back when the shipment is an outbound one of an order that came from a shop. A first call
 * adds the row; a later one with another tracking number queues the same row again (the shop's
 * fulfilment is updated); the same number again changes nothing.
 */
export function queueShopWriteBack(tx: WriteTx, now: Date, shipmentId: string): void {
  const shipment = tx
    .select({
      orgId: shipments.orgId,
      orderId: shipments.orderId,
      type: shipments.type,
      returnFor: shipments.returnForShipmentId,
      trackingNumber: shipments.trackingNumber,
    })
    .from(shipments)
    .where(eq(shipments.id, shipmentId))
    .get();
  if (!shipment?.orderId || shipment.type !== 'outbound' || shipment.returnFor || !shipment.trackingNumber) return;
  const order = tx
    .select({ channelId: orders.orderChannelId, externalId: orders.externalId, type: orderChannels.type })
    .from(orders)
    .innerJoin(orderChannels, eq(orderChannels.id, orders.orderChannelId))
    .where(eq(orders.id, shipment.orderId))
    .get();
  if (!order?.channelId || !order.externalId || !storefrontOf(order.type)) return;
  const at = now.toISOString();
  const existing = tx.select().from(shopFulfillments).where(eq(shopFulfillments.shipmentId, shipmentId)).get();
  if (!existing) {
    tx.insert(shopFulfillments)
      .values({
        id: newId('shopFulfillment'),
        orgId: shipment.orgId,
        orderId: shipment.orderId,
        shipmentId,
        orderChannelId: order.channelId,
        trackingNumber: shipment.trackingNumber,
        status: 'queued',
        attempts: 0,
        nextAttemptAt: at,
        createdAt: at,
        updatedAt: at,
      })
      .onConflictDoNothing()
      .run();
    return;
  }
  if (existing.trackingNumber === shipment.trackingNumber) return;
  if (existing.status === 'sending') {
    // The attempt under way writes the old number; it sees the change when it finishes and queues the row again.
    tx.update(shopFulfillments).set({ trackingNumber: shipment.trackingNumber, updatedAt: at }).where(eq(shopFulfillments.id, existing.id)).run();
    return;
  }
  tx.update(shopFulfillments)
    .set({ trackingNumber: shipment.trackingNumber, status: 'queued', attempts: 0, nextAttemptAt: at, lastError: null, updatedAt: at })
    .where(eq(shopFulfillments.id, existing.id))
    .run();
}

/** The shipment's lines as the shop knows them: each order line it carries with the units it carries. */
function shippedLines(db: ReadDb, orderId: string, shipmentId: string): ShopFulfillment['lines'] {
  const lines = db
    .select({ id: orderLines.id, sku: orderLines.sku, externalLineId: orderLines.externalLineId })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.position))
    .all();
  const carried = db
    .select({ orderLineId: parcelOrderLines.orderLineId, sku: parcelOrderLines.sku, quantity: parcelOrderLines.quantity })
    .from(parcelOrderLines)
    .innerJoin(parcels, eq(parcels.id, parcelOrderLines.parcelId))
    .where(eq(parcels.shipmentId, shipmentId))
    .orderBy(asc(parcels.id), asc(parcelOrderLines.position))
    .all();
  const byKey = new Map<string, { externalLineId: string | null; sku: string | null; quantity: number }>();
  for (const item of carried) {
    // A parcel line typed in by hand names no order line: the order's line with its SKU is the one shipped.
    const line = lines.find((candidate) => candidate.id === item.orderLineId) ?? lines.find((candidate) => candidate.sku === item.sku);
    const key = line?.id ?? `sku:${item.sku}`;
    const entry = byKey.get(key) ?? { externalLineId: line?.externalLineId ?? null, sku: line?.sku ?? item.sku, quantity: 0 };
    entry.quantity += item.quantity;
    byKey.set(key, entry);
  }
  return [...byKey.values()].filter((line) => line.quantity > 0);
}

/** Everything the shop is told, read when the attempt is made (not when queued), so it is current. */
function compose(app: AppContext, row: Row): { type: ShopPlatform; config: Record<string, unknown>; fulfillment: ShopFulfillment } | { problem: string } {
  const db = app.db;
  const shipment = db.select().from(shipments).where(eq(shipments.id, row.shipmentId)).get();
  if (!shipment || shipment.status === 'cancelled') return { problem: 'The shipment was cancelled or removed, so the shop was not told.' };
  const order = db.select().from(orders).where(eq(orders.id, row.orderId)).get();
  const channel = db.select().from(orderChannels).where(eq(orderChannels.id, row.orderChannelId)).get();
  const type = channel ? storefrontOf(channel.type) : null;
  if (!order?.externalId || !channel || channel.deletedAt || !type) return { problem: "The order's shop channel was removed, so the shop was not told." };
  const carrierName = db.select({ name: carriers.name }).from(carriers).where(eq(carriers.id, shipment.carrierId)).get()?.name ?? '';
  // The customer hears once: the shop notifies only when Shipdesk sends no dispatch e-mail of its own.
  const shipdeskEmails = db
    .select({ id: emailMessages.id })
    .from(emailMessages)
    .where(and(eq(emailMessages.shipmentId, shipment.id), eq(emailMessages.kind, 'dispatched')))
    .get();
  return {
    type,
    config: orderChannelCredentials(app, channel),
    fulfillment: {
      shipmentId: shipment.id,
      orderExternalId: order.externalId,
      carrierName,
      trackingNumber: row.trackingNumber ?? shipment.trackingNumber ?? '',
      trackingUrl: shipment.trackingUrl,
      lines: shippedLines(db, order.id, shipment.id),
      notifyCustomer: !shipdeskEmails,
      remoteId: row.remoteId,
      orderFullyShipped: order.status === 'fulfilled',
    },
  };
}

function plainError(error: unknown): string {
  if (error instanceof ShopWriteError || error instanceof ApiError) return error.message;
  return 'The shop could not be told because of an unexpected problem.';
}

/** Ends an attempt, unless a newer tracking number arrived meanwhile: then the row is queued again at once. */
function finish(app: AppContext, row: Row, sentNumber: string, outcome: { written: WrittenFulfillment } | { error: string; final: boolean }): void {
  const now = app.now();
  const at = now.toISOString();
  inWriteTransaction(app.db, (tx) => {
    const current = tx.select().from(shopFulfillments).where(eq(shopFulfillments.id, row.id)).get();
    if (!current || current.status !== 'sending') return;
    const changedMeanwhile = current.trackingNumber !== sentNumber;
    if ('written' in outcome) {
      tx.update(shopFulfillments)
        .set({
          remoteId: outcome.written.remoteId,
          sentTrackingNumber: sentNumber,
          sentAt: at,
          lastError: null,
          ...(changedMeanwhile ? { status: 'queued', attempts: 0, nextAttemptAt: at } : { status: 'sent', nextAttemptAt: null }),
          updatedAt: at,
        })
        .where(eq(shopFulfillments.id, row.id))
        .run();
      return;
    }
    if (changedMeanwhile) {
      // The failed number is moot; the new one gets a full round of attempts (read back first: lastError is kept).
      tx.update(shopFulfillments)
        .set({ status: 'queued', attempts: 0, nextAttemptAt: at, lastError: outcome.error, updatedAt: at })
        .where(eq(shopFulfillments.id, row.id))
        .run();
      return;
    }
    if (outcome.final) {
      tx.update(shopFulfillments)
        .set({ status: 'failed', nextAttemptAt: null, lastError: outcome.error, updatedAt: at })
        .where(eq(shopFulfillments.id, row.id))
        .run();
      recordError(
        tx,
        now,
        row.shipmentId,
        'SHOP_WRITE_BACK_FAILED',
        `The shop was not told about this shipment after ${row.attempts} attempt${row.attempts === 1 ? '' : 's'}: ${outcome.error}`,
      );
      return;
    }
    const next = new Date(now.getTime() + RETRY_DELAYS_MS[row.attempts - 1]!).toISOString();
    tx.update(shopFulfillments)
      .set({ status: 'queued', nextAttemptAt: next, lastError: outcome.error, updatedAt: at })
      .where(eq(shopFulfillments.id, row.id))
      .run();
  });
}

export type WriterFor = (type: ShopPlatform) => StorefrontWriter;

/** One attempt of one claimed row. */
async function attempt(app: AppContext, row: Row, writerFor: WriterFor): Promise<void> {
  const composed = compose(app, row);
  const sentNumber = row.trackingNumber ?? '';
  if ('problem' in composed) {
    finish(app, row, sentNumber, { error: composed.problem, final: true });
    return;
  }
  const writer = writerFor(composed.type);
  try {
    // An earlier attempt failed or was cut short: it may have reached the shop. Ask before writing.
    let written = row.lastError !== null ? await writer.findFulfillment(composed.config, composed.fulfillment) : null;
    written ??= await writer.writeFulfillment(composed.config, composed.fulfillment);
    finish(app, row, sentNumber, { written });
  } catch (error) {
    finish(app, row, sentNumber, { error: plainError(error), final: row.attempts >= SHOP_WRITE_MAX_ATTEMPTS });
  }
}

/**
 * The task's wake: claims the due rows (status `sending`, attempt counted) in one short transaction,
 * then writes them one by one. Bounded per wake; answers how many it claimed.
 */
export async function writeDueFulfillments(app: AppContext, writerFor: WriterFor = (type) => storefrontWriter(type, app.storefront)): Promise<number> {
  const now = app.now().toISOString();
  const claimed = inWriteTransaction(app.db, (tx) => {
    const due = tx
      .select()
      .from(shopFulfillments)
      .where(and(eq(shopFulfillments.status, 'queued'), lte(shopFulfillments.nextAttemptAt, now)))
      .orderBy(asc(shopFulfillments.nextAttemptAt), asc(shopFulfillments.id))
      .limit(ROWS_PER_RUN)
      .all();
    const rows = due.map((row) => ({ ...row, status: 'sending', attempts: row.attempts + 1, updatedAt: now }));
    for (const row of rows) {
      tx.update(shopFulfillments).set({ status: 'sending', attempts: row.attempts, updatedAt: now }).where(eq(shopFulfillments.id, row.id)).run();
    }
    return rows;
  });
  for (const row of claimed) await attempt(app, row, writerFor);
  return claimed.length;
}

/**
 * At start: a row left `sending` by a crash may or may not have reached the shop. It is queued again
 * with a note, so its next attempt reads the shop back first and writes only when the shop has nothing.
 */
export function resumeInterruptedWriteBacks(app: AppContext): number {
  const at = app.now().toISOString();
  return inWriteTransaction(app.db, (tx) => {
    const stuck = tx.select({ id: shopFulfillments.id }).from(shopFulfillments).where(eq(shopFulfillments.status, 'sending')).all();
    if (!stuck.length) return 0;
    tx.update(shopFulfillments)
      .set({
        status: 'queued',
        nextAttemptAt: at,
        lastError: 'Shipdesk stopped while telling the shop; the shop is asked what it has before trying again.',
        updatedAt: at,
      })
      .where(
        inArray(
          shopFulfillments.id,
          stuck.map((row) => row.id),
        ),
      )
      .run();
    return stuck.length;
  });
}

// ---- Reads and the retry button ----

function toRead(row: Row, reference: string, platform: ShopPlatform): ShopFulfillmentRead {
  return {
    id: row.id,
    orderId: row.orderId,
    shipmentId: row.shipmentId,
    shipmentReference: reference,
    platform,
    status: row.status as ShopFulfillmentStatus,
    trackingNumber: row.trackingNumber,
    sentTrackingNumber: row.sentTrackingNumber,
    sentAt: row.sentAt,
    attempts: row.attempts,
    maxAttempts: SHOP_WRITE_MAX_ATTEMPTS,
    nextAttemptAt: row.nextAttemptAt,
    lastError: row.lastError,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function assertOrder(db: ReadDb, orgId: string, orderId: string): void {
  const order = db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.orgId, orgId)))
    .get();
  if (!order) throw new ApiError('ORDER_NOT_FOUND', `Order ${orderId} does not exist in this organization`);
}

function readRows(db: ReadDb, orgId: string, orderId: string, id?: string): ShopFulfillmentRead[] {
  return db
    .select({ row: shopFulfillments, reference: shipments.reference, type: orderChannels.type })
    .from(shopFulfillments)
    .innerJoin(shipments, eq(shipments.id, shopFulfillments.shipmentId))
    .innerJoin(orderChannels, eq(orderChannels.id, shopFulfillments.orderChannelId))
    .where(and(eq(shopFulfillments.orgId, orgId), eq(shopFulfillments.orderId, orderId), id ? eq(shopFulfillments.id, id) : undefined))
    .orderBy(asc(shopFulfillments.createdAt), asc(shopFulfillments.id))
    .all()
    .map(({ row, reference, type }) => toRead(row, reference, storefrontOf(type) ?? 'shopify'));
}

export function listShopFulfillments(app: AppContext, orgId: string, orderId: string): { items: ShopFulfillmentRead[] } {
  assertOrder(app.db, orgId, orderId);
  return { items: readRows(app.db, orgId, orderId) };
}

/** The retry button: a write-back that failed after its last attempt gets a new round (read back first). */
export function retryShopFulfillment(app: AppContext, orgId: string, orderId: string, id: string): ShopFulfillmentRead {
  return inWriteTransaction(app.db, (tx) => {
    assertOrder(tx, orgId, orderId);
    const [found] = readRows(tx, orgId, orderId, id);
    if (!found) throw new ApiError('NOT_FOUND', `Order ${orderId} has no shop write-back ${id}`);
    if (found.status !== 'failed') {
      throw new ApiError('CONFLICT', `The shop write-back for shipment ${found.shipmentReference} is ${found.status}; only a failed one can be tried again`);
    }
    const at = app.now().toISOString();
    tx.update(shopFulfillments).set({ status: 'queued', attempts: 0, nextAttemptAt: at, updatedAt: at }).where(eq(shopFulfillments.id, id)).run();
    return readRows(tx, orgId, orderId, id)[0]!;
  });
}

/** The background writer, started with the server (serve.ts, electron/main.ts). */
export function start(app: AppContext, intervalMs = 5000): BackgroundTask {
  resumeInterruptedWriteBacks(app);
  return repeatInBackground('Shop write-back run', intervalMs, () => writeDueFulfillments(app));
}
