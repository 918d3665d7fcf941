import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { ApiError, validationError } from '../../../src-shared/errors';
import type { PageQuery } from '../../../src-shared/schemas/common';
import {
  orderChannelConfigSchemas,
  orderChannelSecretKeys,
  type OrderChannel,
  type OrderChannelInput,
  type OrderChannelType,
  type OrderChannelUpdate,
} from '../../../src-shared/schemas/orderChannel';
import { orderChannels } from '../../db/schema';
import { newId } from '../../db/ids';
import { inWriteTransaction, type ReadDb } from '../../db/tx';
import type { Db } from '../../db/types';
import { prepared } from '../../db/prepared';
import type { AppContext } from '../../app/kernel/context';
import { assertWithinLimit } from '../orgs/plans';
import { maskConfig, openConfig, sealConfig } from '../secrets';
import { paginate } from '../pagination';
import { updateColumns } from '../../db/updateColumns';

type Row = typeof orderChannels.$inferSelect;

/** Every read shows credentials masked, never sealed or plain. */
export function toOrderChannel(app: AppContext, row: Row): OrderChannel {
  return {
    id: row.id,
    name: row.name,
    type: row.type as OrderChannelType,
    config: maskConfig(app.keys.sealKey, row.config, orderChannelSecretKeys),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

// Soft-deleted channels stay in the table so their orders keep a valid reference.
const live = (orgId: string) => and(eq(orderChannels.orgId, orgId), isNull(orderChannels.deletedAt));

/** The live row, or 404 ORDER_CHANNEL_NOT_FOUND (also for another organization's channel). */
// Every order written (an import of thousands, a storefront sync) looks its channel up: prepared once.
const liveChannelById = (root: Db) =>
  root
    .select()
    .from(orderChannels)
    .where(and(eq(orderChannels.orgId, sql.placeholder('orgId')), isNull(orderChannels.deletedAt), eq(orderChannels.id, sql.placeholder('channelId'))))
    .prepare();

export function findOrderChannelRow(db: ReadDb, orgId: string, channelId: string): Row {
  const row = prepared(db, 'orderChannels.liveById', liveChannelById).get({ orgId, channelId });
  if (!row) throw new ApiError('ORDER_CHANNEL_NOT_FOUND', `Order channel ${channelId} does not exist in this organization`);
  return row;
}

/** The config with credentials opened, for the storefront client only. */
export function orderChannelCredentials(app: AppContext, row: Row): Record<string, unknown> {
  return openConfig(app.keys.sealKey, row.config, orderChannelSecretKeys);
}

export function createOrderChannel(app: AppContext, orgId: string, input: OrderChannelInput): OrderChannel {
  const now = app.now().toISOString();
  return inWriteTransaction(app.db, (tx) => {
    assertWithinLimit(tx, orgId, 'orderChannels', now);
    const row: Row = {
      id: newId('orderChannel'),
      orgId,
      name: input.name,
      type: input.type,
      config: sealConfig(app.keys.sealKey, input.config, orderChannelSecretKeys),
      // The scheduled sync (issue 22) fills these once it runs.
      lastSyncedAt: null,
      nextSyncAt: null,
      lastSyncError: null,
      syncStartedAt: null,
      syncCursor: null,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    tx.insert(orderChannels).values(row).run();
    return toOrderChannel(app, row);
  });
}

export function listOrderChannels(app: AppContext, orgId: string, query: PageQuery) {
  const total = app.db.select({ n: count() }).from(orderChannels).where(live(orgId)).get()?.n ?? 0;
  return paginate(query, total, (limit, offset) =>
    app.db
      .select()
      .from(orderChannels)
      .where(live(orgId))
      .orderBy(desc(orderChannels.createdAt), desc(orderChannels.id))
      .limit(limit)
      .offset(offset)
      .all()
      .map((row) => toOrderChannel(app, row)),
  );
}

export function getOrderChannel(app: AppContext, orgId: string, channelId: string): OrderChannel {
  return toOrderChannel(app, findOrderChannelRow(app.db, orgId, channelId));
}

/** The body schema cannot know the stored type, so the new config is checked against it here. */
function checkedConfig(type: OrderChannelType, config: Record<string, unknown>): Record<string, unknown> {
  const parsed = orderChannelConfigSchemas[type].safeParse(config);
  if (!parsed.success) throw validationError('body.config', parsed.error.issues);
  return parsed.data;
}

export function updateOrderChannel(app: AppContext, orgId: string, channelId: string, input: OrderChannelUpdate): OrderChannel {
  return inWriteTransaction(app.db, (tx) => {
    const row = findOrderChannelRow(tx, orgId, channelId);
    const config = input.config
      ? sealConfig(app.keys.sealKey, checkedConfig(row.type as OrderChannelType, input.config), orderChannelSecretKeys, row.config)
      : row.config;
    const updated: Row = { ...row, name: input.name ?? row.name, config, updatedAt: app.now().toISOString() };
    tx.update(orderChannels).set(updateColumns(updated)).where(eq(orderChannels.id, channelId)).run();
    return toOrderChannel(app, updated);
  });
}

/** A soft delete: the channel's orders keep their reference, and its plan place is freed. */
export function deleteOrderChannel(app: AppContext, orgId: string, channelId: string): { message: string } {
  return inWriteTransaction(app.db, (tx) => {
    findOrderChannelRow(tx, orgId, channelId);
    const now = app.now().toISOString();
    tx.update(orderChannels).set({ deletedAt: now, updatedAt: now }).where(eq(orderChannels.id, channelId)).run();
    return { message: `Order channel ${channelId} deleted` };
  });
}
