import { and, count, desc, eq, isNull, sql, type Placeholder } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { PageQuery } from '../../../src-shared/schemas/common';
import type { SenderAddress, SenderAddressInput } from '../../../src-shared/schemas/senderAddress';
import { carriers, senderAddresses, shippingRules } from '../../db/schema';
import { newId } from '../../db/ids';
import { inWriteTransaction, type ReadDb } from '../../db/tx';
import type { Db } from '../../db/types';
import { prepared } from '../../db/prepared';
import type { AppContext } from '../../app/kernel/context';
import { assertWithinLimit } from '../orgs/plans';
import { paginate } from '../pagination';
import { updateColumns } from '../../db/updateColumns';

export type SenderAddressRow = typeof senderAddresses.$inferSelect;
type Row = SenderAddressRow;

export function toSenderAddress(row: Row): SenderAddress {
  const address: SenderAddress = {
    id: row.id,
    name: row.name,
    attContact: row.attContact,
    address1: row.address1,
    address2: row.address2,
    zipcode: row.zipcode,
    city: row.city,
    phone: row.phone,
    countryCode: row.countryCode,
    state: row.state,
    // Stored as '' when there is none; the spec's email format has no empty value, so it is left out.
    ...(row.email !== '' ? { email: row.email } : {}),
    orgId: row.orgId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
  // decisions §1: an optional object is left out when empty; `{}` is how a PUT clears it.
  if (row.customs && Object.keys(row.customs).length > 0) address.customs = row.customs;
  return address;
}

const live = (orgId: string | Placeholder) => and(eq(senderAddresses.orgId, orgId), isNull(senderAddresses.deletedAt));

const senderAddressById = (root: Db) =>
  root
    .select()
    .from(senderAddresses)
    .where(and(live(sql.placeholder('orgId')), eq(senderAddresses.id, sql.placeholder('addressId'))))
    .prepare();

/** The live row, or 404 ADDRESS_NOT_FOUND (also for another organization's address). */
export function findSenderAddressRow(db: ReadDb, orgId: string, addressId: string): Row {
  const row = prepared(db, 'senderAddresses.byId', senderAddressById).get({ orgId, addressId });
  if (!row) throw new ApiError('ADDRESS_NOT_FOUND', `Sender address ${addressId} does not exist in this organization`);
  return row;
}

export function createSenderAddress(app: AppContext, orgId: string, input: SenderAddressInput): SenderAddress {
  const now = app.now().toISOString();
  return inWriteTransaction(app.db, (tx) => {
    assertWithinLimit(tx, orgId, 'senderAddresses', now);
    const row: Row = {
      id: newId('senderAddress'),
      orgId,
      name: input.name,
      attContact: input.attContact ?? '',
      address1: input.address1,
      address2: input.address2 ?? null,
      zipcode: input.zipcode,
      city: input.city,
      phone: input.phone ?? '',
      countryCode: input.countryCode,
      state: input.state ?? '',
      email: input.email ?? '',
      customs: input.customs ?? null,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    tx.insert(senderAddresses).values(row).run();
    return toSenderAddress(row);
  });
}

export function listSenderAddresses(app: AppContext, orgId: string, query: PageQuery) {
  const total = app.db.select({ n: count() }).from(senderAddresses).where(live(orgId)).get()?.n ?? 0;
  return paginate(query, total, (limit, offset) =>
    app.db
      .select()
      .from(senderAddresses)
      .where(live(orgId))
      .orderBy(desc(senderAddresses.createdAt), desc(senderAddresses.id))
      .limit(limit)
      .offset(offset)
      .all()
      .map(toSenderAddress),
  );
}

export function getSenderAddress(app: AppContext, orgId: string, addressId: string): SenderAddress {
  return toSenderAddress(findSenderAddressRow(app.db, orgId, addressId));
}

export function updateSenderAddress(app: AppContext, orgId: string, addressId: string, input: Partial<SenderAddressInput>): SenderAddress {
  return inWriteTransaction(app.db, (tx) => {
    const row = findSenderAddressRow(tx, orgId, addressId);
    const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<Row>;
    const updated: Row = { ...row, ...changes, updatedAt: app.now().toISOString() };
    tx.update(senderAddresses).set(updateColumns(updated)).where(eq(senderAddresses.id, addressId)).run();
    return toSenderAddress(updated);
  });
}

/** Refused while a live carrier or shipping rule sends from it: those would be left without a sender. */
export function deleteSenderAddress(app: AppContext, orgId: string, addressId: string): { message: string } {
  return inWriteTransaction(app.db, (tx) => {
    findSenderAddressRow(tx, orgId, addressId);
    const carrier = tx
      .select({ id: carriers.id, name: carriers.name })
      .from(carriers)
      .where(and(eq(carriers.senderAddressId, addressId), isNull(carriers.deletedAt)))
      .get();
    if (carrier) {
      throw new ApiError('CONFLICT', `This sender address is the address of carrier ${carrier.name} (${carrier.id}); give the carrier another address first`);
    }
    const rule = tx
      .select({ id: shippingRules.id, name: shippingRules.name })
      .from(shippingRules)
      .where(and(eq(shippingRules.senderAddressId, addressId), isNull(shippingRules.deletedAt)))
      .get();
    if (rule) {
      throw new ApiError('CONFLICT', `This sender address is used by shipping rule ${rule.name} (${rule.id}); give the rule another address first`);
    }
    const now = app.now().toISOString();
    tx.update(senderAddresses).set({ deletedAt: now, updatedAt: now }).where(eq(senderAddresses.id, addressId)).run();
    return { message: `Sender address ${addressId} deleted` };
  });
}
