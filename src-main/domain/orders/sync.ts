/**
 * Storefront sync (decisions §5a): pulls the shop's orders and imports the ones this channel has
 * not seen. An order is known by the platform's id (`externalId`) within its channel, so a sync run
 * twice imports nothing twice; a bad order is reported in `errors` and the others still import.
 */
import { and, eq, isNotNull } from 'drizzle-orm';
import { ApiError, validationError } from '../../../src-shared/errors';
import { orderCreateBody } from '../../../src-shared/schemas/order';
import type { OrderChannelSyncResult, OrderChannelType } from '../../../src-shared/schemas/orderChannel';
import { orders } from '../../db/schema';
import { inSavepoint, inWriteTransaction, type ReadDb } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { isStorefront, storefrontClient } from '../../storefronts';
import { findOrderChannelRow, orderChannelCredentials } from '../orderChannels/orderChannels';
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

export async function syncOrderChannel(app: AppContext, orgId: string, channelId: string): Promise<OrderChannelSyncResult> {
  const channel = findOrderChannelRow(app.db, orgId, channelId);
  const type = channel.type as OrderChannelType;
  if (!isStorefront(type)) {
    throw new ApiError('CONFLICT', `Order channel ${channelId} is a ${type} channel: there is nothing to sync`);
  }
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
