/**
 * Storefront sync (decisions §5a): pulls the shop's orders and imports the ones this channel has
 * not seen. An order is known by the platform's id (`externalId`) within its channel, so a sync run
 * twice imports nothing twice; a bad order is reported in `errors` and the others still import.
 */
import { and, eq } from 'drizzle-orm';
import { ApiError, validationError } from '../../../src-shared/errors';
import { orderCreateBody } from '../../../src-shared/schemas/order';
import type { OrderChannelSyncResult, OrderChannelType } from '../../../src-shared/schemas/orderChannel';
import { orders } from '../../db/schema';
import { inWriteTransaction, type ReadDb } from '../../db/tx';
import type { AppContext } from '../../app/context';
import { isStorefront, storefrontClient } from '../../storefronts';
import { findOrderChannelRow, orderChannelCredentials } from '../orderChannels';
import { insertOrder } from './orders';

function alreadyImported(db: ReadDb, channelId: string, externalId: string): boolean {
  return !!db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.orderChannelId, channelId), eq(orders.externalId, externalId)))
    .get();
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
  for (const { externalId, order } of storefrontOrders) {
    const parsed = orderCreateBody.safeParse({ ...order, orderChannelId: channelId });
    if (!parsed.success) {
      const details = validationError('', parsed.error.issues).details ?? [];
      result.errors.push({ externalId, message: details.map((detail) => `${detail.path}: ${detail.message}`).join('; ') });
      continue;
    }
    try {
      // One transaction per order: the check and the insert cannot be split by a concurrent sync.
      const outcome = inWriteTransaction(app.db, (tx) => {
        if (alreadyImported(tx, channelId, externalId)) return 'skipped' as const;
        insertOrder(tx, app.now(), orgId, parsed.data);
        return 'created' as const;
      });
      result[outcome]++;
    } catch (error) {
      // A clash with an order typed in by hand, say; a channel deleted meanwhile ends the sync.
      if (!(error instanceof ApiError) || error.code === 'ORDER_CHANNEL_NOT_FOUND' || error.status >= 500) throw error;
      result.errors.push({ externalId, message: error.message });
    }
  }
  return result;
}
