/**
 * Storefront sync (decisions §5a): reads the shop's orders from the channel's cursor
 * (`sync_cursor`: the first run, what waits to be shipped; later runs, what the shop changed since),
 * imports the ones this channel has not seen and brings the shop's changes to the ones it has
 * (shopChanges.ts). An order is known by the platform's id (`externalId`) within its channel, so a
 * sync run twice imports nothing twice; a bad order is reported in `errors` and the others still
 * import. The new cursor is stored in the transaction that writes the orders, so a failed run
 * keeps the old one and the next run reads the same changes again.
 */
import { and, eq, isNotNull } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { OrderChannelSyncResult, OrderChannelType } from '../../../src-shared/schemas/orderChannel';
import { orderChannels, orders } from '../../db/schema';
import { inSavepoint, inWriteTransaction, type ReadDb } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { isStorefront, storefrontReader, type ShopOrder } from '../../storefronts';
import { findOrderChannelRow, nextSyncAfter, orderChannelCredentials } from '../orderChannels/orderChannels';
import { insertOrder } from './orders';
import { parseShopOrder, rememberShopOrder, syncKnownOrder } from './shopChanges';

/** The platform ids this channel already has, with their orders, read once: a lookup per order would scan the channel's orders each time. */
function importedExternalIds(db: ReadDb, channelId: string): Map<string, string> {
  const rows = db
    .select({ id: orders.id, externalId: orders.externalId })
    .from(orders)
    .where(and(eq(orders.orderChannelId, channelId), isNotNull(orders.externalId)))
    .all();
  return new Map(rows.map((row) => [row.externalId as string, row.id]));
}

/** A run holding a channel longer than this is taken to have died (a crash, a killed process): another may take over. */
export const SYNC_LEASE_STALE_MS = 10 * 60_000;

/**
 * Takes the channel's lease (`sync_started_at`) in a write transaction, so one run at a time per
 * channel across requests, the scheduler and processes. Answers the lease's value (the caller's
 * proof of holding it), or null when another run holds it.
 */
export function takeSyncLease(app: AppContext, orgId: string, channelId: string): string | null {
  return inWriteTransaction(app.db, (tx) => {
    const channel = findOrderChannelRow(tx, orgId, channelId);
    const now = app.now();
    if (channel.syncStartedAt && new Date(channel.syncStartedAt).getTime() > now.getTime() - SYNC_LEASE_STALE_MS) return null;
    // A lease is unique to its holder even when the clock does not move (tests, two takers in one millisecond).
    let lease = now.toISOString();
    if (lease === channel.syncStartedAt) lease = new Date(now.getTime() + 1).toISOString();
    tx.update(orderChannels).set({ syncStartedAt: lease }).where(eq(orderChannels.id, channelId)).run();
    return lease;
  });
}

/**
 * Ends a run: records how it went and when the next is due (one interval from now), and frees the
 * lease. A run whose lease was taken over as stale writes nothing: the run holding it now does.
 */
function finishSync(app: AppContext, channelId: string, lease: string, error: string | null): void {
  inWriteTransaction(app.db, (tx) => {
    const channel = tx.select().from(orderChannels).where(eq(orderChannels.id, channelId)).get();
    if (!channel || channel.syncStartedAt !== lease) return;
    const now = app.now();
    tx.update(orderChannels)
      .set({
        syncStartedAt: null,
        ...(error === null ? { lastSyncedAt: now.toISOString() } : {}),
        lastSyncError: error,
        nextSyncAt: channel.deletedAt ? null : nextSyncAfter(channel, now),
      })
      .where(eq(orderChannels.id, channelId))
      .run();
  });
}

/** What a run records as its error: the shop's own message for a storefront failure, a plain one otherwise. */
function syncErrorText(error: unknown): string {
  if (error instanceof ApiError && error.status < 500) return error.message;
  return 'The sync failed unexpectedly; it is tried again at the next interval';
}

/**
 * The "Sync" button and the scheduler alike: one run under the channel's lease. A run already
 * going answers 409 CONFLICT; the outcome (time or error) is recorded on the channel either way.
 */
export async function syncOrderChannel(app: AppContext, orgId: string, channelId: string): Promise<OrderChannelSyncResult> {
  const channel = findOrderChannelRow(app.db, orgId, channelId);
  const type = channel.type as OrderChannelType;
  if (!isStorefront(type)) {
    throw new ApiError('CONFLICT', `Order channel ${channelId} is a ${type} channel: there is nothing to sync`);
  }
  const lease = takeSyncLease(app, orgId, channelId);
  if (!lease) {
    throw new ApiError('CONFLICT', `Order channel ${channelId} is being synced right now; try again when that sync has finished`);
  }
  try {
    const result = await runSync(app, orgId, channelId, type);
    finishSync(app, channelId, lease, null);
    return result;
  } catch (error) {
    finishSync(app, channelId, lease, syncErrorText(error));
    throw error;
  }
}

async function runSync(app: AppContext, orgId: string, channelId: string, type: 'shopify' | 'woocommerce'): Promise<OrderChannelSyncResult> {
  const channel = findOrderChannelRow(app.db, orgId, channelId);
  // Every page is read before anything is written, so a storefront failure changes no orders.
  const read = await storefrontReader(type, app.storefront).fetchOrders(orderChannelCredentials(app, channel), channel.syncCursor ?? null);

  // An order the shop listed twice (a page boundary moving under a change) counts once, as last listed.
  const shopOrders = new Map<string, ShopOrder>();
  for (const shopOrder of read.orders) {
    shopOrders.delete(shopOrder.externalId);
    shopOrders.set(shopOrder.externalId, shopOrder);
  }

  const result: OrderChannelSyncResult = { created: 0, updated: 0, held: 0, skipped: 0, errors: [] };
  // One transaction from the read of the known ids to the cursor: a second sync of the channel
  // running at the same time waits for it and then sees every order this one wrote.
  inWriteTransaction(app.db, (tx) => {
    findOrderChannelRow(tx, orgId, channelId); // deleted while the shop was being read
    const known = importedExternalIds(tx, channelId);
    const now = app.now();
    for (const [externalId, shopOrder] of shopOrders) {
      const orderId = known.get(externalId);
      if (orderId) {
        // A savepoint per order: one whose change cannot be applied leaves the others in.
        try {
          const synced = inSavepoint(tx, (sp) => {
            const outcome = syncKnownOrder(sp, now, orgId, orderId, shopOrder);
            if ('error' in outcome) throw new ApiError('VALIDATION_FAILED', outcome.error);
            return outcome.outcome;
          });
          if (synced === 'updated') result.updated++;
          else if (synced === 'held') result.held++;
          else result.skipped++;
        } catch (error) {
          if (!(error instanceof ApiError) || error.status >= 500) throw error;
          result.errors.push({ externalId, message: error.message });
        }
        continue;
      }
      // A later run also lists orders cancelled or closed before this channel ever saw them.
      if (shopOrder.shopState !== 'open') continue;
      const parsed = parseShopOrder(shopOrder, channelId);
      if ('error' in parsed) {
        result.errors.push({ externalId, message: parsed.error });
        continue;
      }
      try {
        inSavepoint(tx, (sp) => {
          const order = insertOrder(sp, now, orgId, parsed.input);
          rememberShopOrder(sp, order.id, shopOrder, parsed.input);
          known.set(externalId, order.id);
        });
        result.created++;
      } catch (error) {
        // A clash with an order number typed in by hand, say.
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        result.errors.push({ externalId, message: error.message });
      }
    }
    tx.update(orderChannels).set({ syncCursor: read.cursor }).where(eq(orderChannels.id, channelId)).run();
  });
  return result;
}
