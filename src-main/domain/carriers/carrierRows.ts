/**
 * A configured carrier's row as the rest of the domain needs it: found (live, or of a booking),
 * its adapter, its config with secrets opened, and what it offers. Apart from carriers.ts so that
 * carrier calls and carrier setup can use it without importing the carrier operations.
 */
import { and, eq, isNull, sql, type Placeholder } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { CarrierProduct } from '../../../src-shared/schemas/carrier';
import { carriers } from '../../db/schema';
import type { ReadDb } from '../../db/tx';
import type { Db } from '../../db/types';
import { prepared } from '../../db/prepared';
import type { AppContext } from '../../app/kernel/context';
import type { CarrierAdapter, CarrierConfig } from '../../carriers/adapter';
import { carrierAdapterFor, secretKeysOf } from '../../carriers/catalogue';
import { openConfig } from '../secrets';

type Row = typeof carriers.$inferSelect;

export const live = (orgId: string | Placeholder) => and(eq(carriers.orgId, orgId), isNull(carriers.deletedAt));

const carrierById = (root: Db) =>
  root
    .select()
    .from(carriers)
    .where(and(live(sql.placeholder('orgId')), eq(carriers.id, sql.placeholder('carrierId'))))
    .prepare();

/** The live row, or 404 CARRIER_NOT_FOUND (also for another organization's carrier). */
export function findCarrierRow(db: ReadDb, orgId: string, carrierId: string): Row {
  const row = prepared(db, 'carriers.byId', carrierById).get({ orgId, carrierId });
  if (!row) throw new ApiError('CARRIER_NOT_FOUND', `Carrier ${carrierId} does not exist in this organization`);
  return row;
}

/**
 * The row even when the carrier was deleted since: a shipment it booked can still be voided with
 * it (deleting a carrier only hides it from new work). 404 only for an id this org never had.
 */
export function findCarrierRowOfBooking(db: ReadDb, orgId: string, carrierId: string): Row {
  const row = db
    .select()
    .from(carriers)
    .where(and(eq(carriers.orgId, orgId), eq(carriers.id, carrierId)))
    .get();
  if (!row) throw new ApiError('CARRIER_NOT_FOUND', `Carrier ${carrierId} does not exist in this organization`);
  return row;
}

/** The adapter of a stored carrier; missing only if a carrier type was dropped from this build. */
export function adapterOfRow(row: Row): CarrierAdapter {
  const adapter = carrierAdapterFor(row.carrierSlug);
  if (!adapter) {
    throw new ApiError('CARRIER_ERROR', `Carrier ${row.id} is of type ${row.carrierSlug}, which this version of Shipdesk cannot use`, {
      errors: [{ code: 'CARRIER_TYPE_UNAVAILABLE', message: `No adapter for ${row.carrierSlug}` }],
    });
  }
  return adapter;
}

/** The stored config with secrets opened, for the adapter only: never put it in a response. */
export function adapterConfigOf(app: AppContext, row: Row): CarrierConfig {
  return openConfig(app.keys.sealKey, row.config, secretKeysOf(row.carrierSlug));
}

/** What the carrier offers: the adapter's list, or what was last read from the carrier and kept with it. */
export function productsOfCarrier(app: AppContext, row: Row): readonly CarrierProduct[] {
  return adapterOfRow(row).products(adapterConfigOf(app, row), row.products);
}
