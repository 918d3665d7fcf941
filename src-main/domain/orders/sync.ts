/**
 * Storefront sync (decisions §5a): pulls the shop's orders and imports the ones this channel has
 * not seen. An order is known by the platform's id (`externalId`) within its channel, so a sync run
 * twice imports nothing twice; a bad order is reported in `errors` and the others still import.
 */
import { and, eq, isNotNull } from 'drizzle-orm';
import { ApiError, validationError } from '../../../src-shared/errors';
import { orderCreateBody } from '../../../src-shared/schemas/order';
import type { OrderChannelSyncResult, OrderChannelType } from '../../../src-shared/schemas/orderChannel';
import { orderChannels, orders } from '../../db/schema';
import { inSavepoint, inWriteTransaction, type ReadDb } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { isStorefront, storefrontClient } from '../../storefronts';
import { findOrderChannelRow, nextSyncAfter, orderChannelCredentials } from '../orderChannels/orderChannels';
import { insertOrder } from './orders';

/** The platform ids this channel already has, read once: a lookup per order would scan the channel's orders each time. */
function importedExternalIds(db: ReadDb, channelId: string): Set<string> {
  const rows = db
    .select({ externalId: orders.externalId })
    .from(orders)
    .where(and(eq(orders.orderChannelId, channelId), isNotNull(orders.externalId)))
    .all();
  return new Set(rows.map((row) => row.externalId as string));
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
  // Every page is fetched before anything is written, so a storefront failure changes no orders.
  const storefrontOrders = await storefrontClient(type, app.storefront).fetchNewOrders(orderChannelCredentials(app, channel));

  const result: OrderChannelSyncResult = { created: 0, skipped: 0, errors: [] };
  // One transaction from the read of the known ids to the last insert: a second sync of the channel
  // running at the same time waits for it and then sees every order this one created.
  inWriteTransaction(app.db, (tx) => {
    findOrderChannelRow(tx, orgId, channelId); // deleted while the shop was being read
    const known = importedExternalIds(tx, channelId);
    const now = app.now();
    for (const { externalId, order } of storefrontOrders) {
      // Also an order the shop listed twice (a page boundary moving under new orders).
      if (known.has(externalId)) {
        result.skipped++;
        continue;
      }
      const parsed = orderCreateBody.safeParse({ ...order, orderChannelId: channelId });
      if (!parsed.success) {
        const details = validationError('', parsed.error.issues).details ?? [];
        result.errors.push({ externalId, message: details.map((detail) => `${detail.path}: ${detail.message}`).join('; ') });
        continue;
      }
      try {
        // A savepoint per order: one that cannot be saved leaves the others in.
        inSavepoint(tx, (sp) => insertOrder(sp, now, orgId, parsed.data));
        known.add(externalId);
        result.created++;
      } catch (error) {
        // A clash with an order number typed in by hand, say.
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        result.errors.push({ externalId, message: error.message });
      }
    }
  });
  return result;
}
