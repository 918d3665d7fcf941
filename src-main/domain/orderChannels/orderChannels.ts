import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { ApiError, validationError } from '../../../src-shared/errors';
import type { PageQuery } from '../../../src-shared/schemas/common';
import {
  defaultSyncIntervalMinutes,
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

const storefrontTypes: readonly string[] = ['shopify', 'woocommerce'];

/** A storefront channel's minutes between scheduled syncs (a config stored before issue 22 has none: the default); null for manual and CSV. */
export function syncIntervalOf(row: Pick<Row, 'type' | 'config'>): number | null {
  if (!storefrontTypes.includes(row.type)) return null;
  const value = row.config.syncIntervalMinutes;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : defaultSyncIntervalMinutes;
}

/** When the next scheduled run is due counted from `from`, or null when the schedule is off. */
export function nextSyncAfter(row: Pick<Row, 'type' | 'config'>, from: Date): string | null {
  const minutes = syncIntervalOf(row);
  return minutes ? new Date(from.getTime() + minutes * 60_000).toISOString() : null;
}

/** Every read shows credentials masked, never sealed or plain. */
export function toOrderChannel(app: AppContext, row: Row): OrderChannel {
  return {
    id: row.id,
    name: row.name,
    type: row.type as OrderChannelType,
    config: maskConfig(app.keys.sealKey, row.config, orderChannelSecretKeys),
    sync: syncIntervalOf(row) === null ? null : { lastSyncedAt: row.lastSyncedAt, nextSyncAt: row.nextSyncAt, lastError: row.lastSyncError },
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
    const interval = syncIntervalOf(input);
    const row: Row = {
      id: newId('orderChannel'),
      orgId,
      name: input.name,
      type: input.type,
      config: sealConfig(app.keys.sealKey, input.config, orderChannelSecretKeys),
      // A new storefront channel is due at once: the scheduler's next wake brings its orders in.
      lastSyncedAt: null,
      nextSyncAt: interval ? now : null,
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
    if (input.config) updated.nextSyncAt = rescheduled(row, updated, app.now());
    tx.update(orderChannels).set(updateColumns(updated)).where(eq(orderChannels.id, channelId)).run();
    return toOrderChannel(app, updated);
  });
}

/**
 * A changed interval: off clears the due time; otherwise the next run is the sooner of the one
 * already due and one interval from the last run (or from now, for a channel never synced or off).
 */
function rescheduled(before: Row, after: Row, now: Date): string | null {
  const minutes = syncIntervalOf(after);
  if (!minutes) return null;
  if (syncIntervalOf(before) === minutes && before.nextSyncAt) return before.nextSyncAt;
  const from = before.lastSyncedAt && before.nextSyncAt ? new Date(before.lastSyncedAt) : now;
  const candidate = new Date(Math.max(from.getTime() + minutes * 60_000, now.getTime())).toISOString();
  return before.nextSyncAt && before.nextSyncAt < candidate ? before.nextSyncAt : candidate;
}

/** A soft delete: the channel's orders keep their reference, and its plan place is freed. */
export function deleteOrderChannel(app: AppContext, orgId: string, channelId: string): { message: string } {
  return inWriteTransaction(app.db, (tx) => {
    findOrderChannelRow(tx, orgId, channelId);
    const now = app.now().toISOString();
    tx.update(orderChannels).set({ deletedAt: now, nextSyncAt: null, updatedAt: now }).where(eq(orderChannels.id, channelId)).run();
    return { message: `Order channel ${channelId} deleted` };
  });
}
