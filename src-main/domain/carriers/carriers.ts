import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { ApiError, validationError } from '../../../src-shared/errors';
import type { Page, PageQuery } from '../../../src-shared/schemas/common';
import type { Carrier, CarrierInput, CarrierProduct, CarrierUpdate } from '../../../src-shared/schemas/carrier';
import { carriers, senderAddresses, shippingRules } from '../../db/schema';
import { newId } from '../../db/ids';
import { inWriteTransaction, type ReadDb } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import type { CarrierAdapter } from '../../carriers/adapter';
import { availableCarriers, carrierAdapterFor, secretKeysOf } from '../../carriers/catalogue';
import { assertWithinLimit } from '../orgs/plans';
import { paginate } from '../pagination';
import { maskConfig, sealConfig } from '../secrets';
import { findSenderAddressRow, toSenderAddress } from '../senderAddresses/senderAddresses';
import { updateColumns } from '../../db/updateColumns';
import { assertValidConfig, configForProducts, productsToKeep } from './carrierSetup';
import { adapterOfRow, findCarrierRow, live, productsOfCarrier } from './carrierRows';

// Callers elsewhere find a carrier row with the carrier operations.
export { adapterConfigOf, adapterOfRow, findCarrierRow, findCarrierRowOfBooking, productsOfCarrier } from './carrierRows';

type Row = typeof carriers.$inferSelect;
type AddressRow = typeof senderAddresses.$inferSelect;

/** The carrier without its sender address (as a shipping rule shows it); secrets masked. */
export function toCarrierBase(app: AppContext, row: Row): Omit<Carrier, 'senderAddress'> {
  return {
    id: row.id,
    name: row.name,
    carrierSlug: row.carrierSlug,
    config: maskConfig(app.keys.sealKey, row.config, secretKeysOf(row.carrierSlug)),
    senderAddressId: row.senderAddressId,
    orgId: row.orgId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function toCarrier(app: AppContext, row: Row, address: AddressRow): Carrier {
  return { ...toCarrierBase(app, row), senderAddress: toSenderAddress(address) };
}

/** Carriers with their sender address. A live carrier's address is live: its delete is refused meanwhile. */
const withAddress = (db: ReadDb) =>
  db.select({ carrier: carriers, address: senderAddresses }).from(carriers).innerJoin(senderAddresses, eq(senderAddresses.id, carriers.senderAddressId));

function adapterForSlug(slug: string): CarrierAdapter {
  const adapter = carrierAdapterFor(slug);
  if (adapter) return adapter;
  const known = availableCarriers().map((entry) => entry.slug);
  throw validationError('body', [{ path: ['carrierSlug'], message: `Unknown carrier; available: ${known.join(', ')}` }]);
}

/**
 * A carrier whose products are read from it (Karrio) is read before the write transaction, so no
 * transaction waits on the network; one that cannot be read is not saved (422 CARRIER_ERROR /
 * CARRIER_AUTH_FAILED), since it could not book.
 */
export async function createCarrier(app: AppContext, orgId: string, input: CarrierInput): Promise<Carrier> {
  const adapter = adapterForSlug(input.carrierSlug);
  assertValidConfig(adapter, input.config);
  // Cheap refusals first, so a wrong address is not answered after a slow carrier call.
  findSenderAddressRow(app.db, orgId, input.senderAddressId);
  assertWithinLimit(app.db, orgId, 'carriers', app.now().toISOString());
  const products = await productsToKeep(app, orgId, adapter, configForProducts(app, adapter, input.config, null), input.name);
  const now = app.now().toISOString();
  return inWriteTransaction(app.db, (tx) => {
    const address = findSenderAddressRow(tx, orgId, input.senderAddressId);
    assertWithinLimit(tx, orgId, 'carriers', now);
    const row: Row = {
      id: newId('carrier'),
      orgId,
      name: input.name,
      carrierSlug: adapter.slug,
      config: sealConfig(app.keys.sealKey, input.config, secretKeysOf(adapter.slug)),
      senderAddressId: address.id,
      products,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    tx.insert(carriers).values(row).run();
    return toCarrier(app, row, address);
  });
}

export function listCarriers(app: AppContext, orgId: string, query: PageQuery): Page<Carrier> {
  const total = app.db.select({ n: count() }).from(carriers).where(live(orgId)).get()?.n ?? 0;
  return paginate(query, total, (limit, offset) =>
    withAddress(app.db)
      .where(live(orgId))
      .orderBy(desc(carriers.createdAt), desc(carriers.id))
      .limit(limit)
      .offset(offset)
      .all()
      .map(({ carrier, address }) => toCarrier(app, carrier, address)),
  );
}

export function getCarrier(app: AppContext, orgId: string, carrierId: string): Carrier {
  const found = withAddress(app.db)
    .where(and(live(orgId), eq(carriers.id, carrierId)))
    .get();
  if (!found) throw new ApiError('CARRIER_NOT_FOUND', `Carrier ${carrierId} does not exist in this organization`);
  return toCarrier(app, found.carrier, found.address);
}

/**
 * PUT changes the fields given. A new config replaces the stored one whole and is checked like a
 * create; a secret sent back masked, as a read showed it, keeps the stored secret. A new config of a
 * carrier whose products are read from it reads them again first (the connection may have changed).
 */
export async function updateCarrier(app: AppContext, orgId: string, carrierId: string, input: CarrierUpdate): Promise<Carrier> {
  const before = findCarrierRow(app.db, orgId, carrierId);
  const adapter = adapterOfRow(before);
  let products: CarrierProduct[] | null = null;
  if (input.config) {
    assertValidConfig(adapter, input.config);
    if (input.senderAddressId) findSenderAddressRow(app.db, orgId, input.senderAddressId);
    products = await productsToKeep(app, orgId, adapter, configForProducts(app, adapter, input.config, before), input.name ?? before.name, carrierId);
  }
  return inWriteTransaction(app.db, (tx) => {
    const row = findCarrierRow(tx, orgId, carrierId);
    // The products were read with the stored secrets of `before`: a config changed meanwhile is not mixed in.
    if (products && row.updatedAt !== before.updatedAt) {
      throw new ApiError('CONFLICT', `Carrier ${carrierId} was changed by someone else while its products were read; load it again and save`);
    }
    const secretKeys = secretKeysOf(row.carrierSlug);
    const address = findSenderAddressRow(tx, orgId, input.senderAddressId ?? row.senderAddressId);
    const updated: Row = {
      ...row,
      name: input.name ?? row.name,
      config: input.config ? sealConfig(app.keys.sealKey, input.config, secretKeys, row.config) : row.config,
      senderAddressId: address.id,
      products: products ?? row.products,
      updatedAt: app.now().toISOString(),
    };
    tx.update(carriers).set(updateColumns(updated)).where(eq(carriers.id, carrierId)).run();
    return toCarrier(app, updated, address);
  });
}

/**
 * Soft delete, so shipments booked with it keep their carrier; refused while a live shipping rule
 * books with it, as the rule would otherwise point at nothing.
 */
export function deleteCarrier(app: AppContext, orgId: string, carrierId: string): { message: string } {
  return inWriteTransaction(app.db, (tx) => {
    findCarrierRow(tx, orgId, carrierId);
    const rule = tx
      .select({ id: shippingRules.id, name: shippingRules.name })
      .from(shippingRules)
      .where(and(eq(shippingRules.carrierId, carrierId), isNull(shippingRules.deletedAt)))
      .get();
    if (rule) {
      throw new ApiError('CONFLICT', `This carrier is used by shipping rule ${rule.name} (${rule.id}); change or delete the rule first`);
    }
    const now = app.now().toISOString();
    tx.update(carriers).set({ deletedAt: now, updatedAt: now }).where(eq(carriers.id, carrierId)).run();
    return { message: `Carrier ${carrierId} deleted` };
  });
}

export function carrierProducts(app: AppContext, orgId: string, carrierId: string): CarrierProduct[] {
  return [...productsOfCarrier(app, findCarrierRow(app.db, orgId, carrierId))];
}
