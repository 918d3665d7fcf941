/**
 * Daily pickups (issue 21): a pickup that books itself on the chosen weekdays (scheduler.ts books it).
 * Deleting one only hides it, so the pickups it booked keep their link.
 */
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { PageQuery } from '../../../src-shared/schemas/common';
import { WORKING_WEEK, type DailyPickup, type DailyPickupCreateInput, type DailyPickupUpdateInput } from '../../../src-shared/schemas/pickup';
import type { AppContext } from '../../app/kernel/context';
import { newId } from '../../db/ids';
import { dailyPickups } from '../../db/schema';
import { inWriteTransaction, type ReadDb } from '../../db/tx';
import { updateColumns } from '../../db/updateColumns';
import { paginate } from '../pagination';
import { findSenderAddressRow } from '../senderAddresses/senderAddresses';
import { pickupCarrier } from './pickups';

export type DailyPickupRow = typeof dailyPickups.$inferSelect;

export function toDailyPickup(row: DailyPickupRow): DailyPickup {
  return {
    id: row.id,
    carrierId: row.carrierId,
    senderAddressId: row.senderAddressId,
    from: row.fromTime,
    to: row.toTime,
    parcelCount: row.parcelCount,
    weight: row.weight,
    instruction: row.instruction,
    weekdays: row.weekdays,
    enabled: row.enabled,
    lastBookedDate: row.lastBookedDate,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const live = (orgId: string) => and(eq(dailyPickups.orgId, orgId), isNull(dailyPickups.deletedAt));

function findDailyPickupRow(db: ReadDb, orgId: string, dailyPickupId: string): DailyPickupRow {
  const row = db
    .select()
    .from(dailyPickups)
    .where(and(live(orgId), eq(dailyPickups.id, dailyPickupId)))
    .get();
  if (!row) throw new ApiError('PICKUP_NOT_FOUND', `Daily pickup ${dailyPickupId} does not exist in this organization`);
  return row;
}

export function createDailyPickup(app: AppContext, orgId: string, input: DailyPickupCreateInput): DailyPickup {
  const now = app.now().toISOString();
  return inWriteTransaction(app.db, (tx) => {
    pickupCarrier(tx, orgId, input.carrierId);
    findSenderAddressRow(tx, orgId, input.senderAddressId);
    const row: DailyPickupRow = {
      id: newId('dailyPickup'),
      orgId,
      carrierId: input.carrierId,
      senderAddressId: input.senderAddressId,
      fromTime: input.from,
      toTime: input.to,
      parcelCount: input.parcelCount ?? null,
      weight: input.weight ?? null,
      instruction: input.instruction ?? null,
      weekdays: input.weekdays ?? WORKING_WEEK,
      enabled: input.enabled ?? true,
      lastBookedDate: null,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    tx.insert(dailyPickups).values(row).run();
    return toDailyPickup(row);
  });
}

export function listDailyPickups(app: AppContext, orgId: string, query: PageQuery) {
  const total = app.db.select({ n: count() }).from(dailyPickups).where(live(orgId)).get()?.n ?? 0;
  return paginate(query, total, (limit, offset) =>
    app.db
      .select()
      .from(dailyPickups)
      .where(live(orgId))
      .orderBy(desc(dailyPickups.createdAt), desc(dailyPickups.id))
      .limit(limit)
      .offset(offset)
      .all()
      .map(toDailyPickup),
  );
}

export function getDailyPickup(app: AppContext, orgId: string, dailyPickupId: string): DailyPickup {
  return toDailyPickup(findDailyPickupRow(app.db, orgId, dailyPickupId));
}

export function updateDailyPickup(app: AppContext, orgId: string, dailyPickupId: string, input: DailyPickupUpdateInput): DailyPickup {
  return inWriteTransaction(app.db, (tx) => {
    const row = findDailyPickupRow(tx, orgId, dailyPickupId);
    if (input.senderAddressId !== undefined) findSenderAddressRow(tx, orgId, input.senderAddressId);
    const updated: DailyPickupRow = {
      ...row,
      ...(input.senderAddressId !== undefined ? { senderAddressId: input.senderAddressId } : {}),
      ...(input.from !== undefined ? { fromTime: input.from } : {}),
      ...(input.to !== undefined ? { toTime: input.to } : {}),
      ...(input.parcelCount !== undefined ? { parcelCount: input.parcelCount } : {}),
      ...(input.weight !== undefined ? { weight: input.weight } : {}),
      ...(input.instruction !== undefined ? { instruction: input.instruction } : {}),
      ...(input.weekdays !== undefined ? { weekdays: input.weekdays } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      updatedAt: app.now().toISOString(),
    };
    // Checked on the result: changing only one end must still leave a window.
    if (updated.fromTime >= updated.toTime) {
      throw new ApiError('VALIDATION_FAILED', 'The pickup window ends before it starts', {
        details: [{ path: 'body.to', message: 'Must be later than the start of the pickup window' }],
      });
    }
    tx.update(dailyPickups).set(updateColumns(updated)).where(eq(dailyPickups.id, dailyPickupId)).run();
    return toDailyPickup(updated);
  });
}

export function deleteDailyPickup(app: AppContext, orgId: string, dailyPickupId: string): { message: string } {
  return inWriteTransaction(app.db, (tx) => {
    findDailyPickupRow(tx, orgId, dailyPickupId);
    const now = app.now().toISOString();
    tx.update(dailyPickups).set({ deletedAt: now, updatedAt: now }).where(eq(dailyPickups.id, dailyPickupId)).run();
    return { message: `Daily pickup ${dailyPickupId} deleted; pickups it already booked stay as they are` };
  });
}
