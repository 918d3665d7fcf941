import { and, asc, count, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Page } from '../../../src-shared/schemas/common';
import type { ShipmentListItem, shipmentListQuery } from '../../../src-shared/schemas/shipment';
import { parcels, senderAddresses, shipmentCounts, shipments } from '../../db/schema';
import type { ReadDb } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { paginate } from '../pagination';
import { containsCode } from '../../db/search';
import { toSenderAddress } from '../senderAddresses/senderAddresses';
import { carrierSettingsOf } from './repository';

export type ShipmentListQuery = z.output<typeof shipmentListQuery>;

/** Up to this many matches of a search are sorted rather than met in order along an index. */
const FEW_MATCHES = 5000;

/** Interface §2.4a items, newest first, with the sender address each was sent from. */
export function listShipments(app: AppContext, orgId: string, query: ShipmentListQuery): Page<ShipmentListItem> {
  const filters: SQL[] = [eq(shipments.orgId, orgId)];
  if (query.status) filters.push(eq(shipments.status, query.status));
  if (query.orderId) filters.push(eq(shipments.orderId, query.orderId));
  if (query.search) filters.push(containsCode(shipments.reference, query.search));
  if (query.reference) filters.push(eq(shipments.reference, query.reference));
  if (query.code) filters.push(carriesCode(app.db, orgId, query.code));
  // On the (org, tracking status, created) index; a shipment never booked has no tracking status.
  if (query.trackingStatus) filters.push(inArray(shipments.trackingStatus, query.trackingStatus));
  const where = and(...filters);
  const total =
    query.search || query.orderId || query.reference || query.code || query.trackingStatus
      ? (app.db.select({ n: count() }).from(shipments).where(where).get()?.n ?? 0)
      : countedShipments(app.db, orgId, query.status);
  return paginate(query, total, (limit, offset) => {
    // The page's ids first: skipping `offset` rows then walks an index only (for the default order
    // and the status filter, a covering one), not every skipped row and its sender address.
    const order = sql.join(sortOrder(query.sort), sql`, `);
    // Few matches (an exact reference, a search the count found few rows for) are found on the
    // (org, reference) index, the reference read there, and then sorted. Left to itself, SQLite walks
    // the organization's shipments in the list's order and reads each one's row for its reference:
    // right only when matches are many, so that the page's come early (0.5 s on a million otherwise).
    const fewByReference = query.reference !== undefined || (query.search !== undefined && total <= FEW_MATCHES);
    const ids = (
      fewByReference
        ? app.db.all<{ id: string }>(
            sql`SELECT ${shipments.id} FROM ${shipments} INDEXED BY shipments_org_reference WHERE ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
          )
        : app.db.select({ id: shipments.id }).from(shipments).where(where).orderBy(order).limit(limit).offset(offset).all()
    ).map((row) => row.id);
    if (!ids.length) return [];
    const rows = new Map(
      app.db
        .select({ shipment: shipments, senderAddress: senderAddresses })
        .from(shipments)
        .innerJoin(senderAddresses, eq(senderAddresses.id, shipments.senderAddressId))
        .where(inArray(shipments.id, ids))
        .all()
        .map((row) => [row.shipment.id, row]),
    );
    return ids
      .map((id) => rows.get(id) as NonNullable<ReturnType<typeof rows.get>>)
      .map(({ shipment, senderAddress }) => ({
        id: shipment.id,
        reference: shipment.reference,
        type: shipment.type as ShipmentListItem['type'],
        carrierSettings: carrierSettingsOf(shipment),
        status: shipment.status as ShipmentListItem['status'],
        senderAddress: toSenderAddress(senderAddress),
        createdAt: shipment.createdAt,
        updatedAt: shipment.updatedAt,
        ...(shipment.trackingStatus ? { trackingStatus: shipment.trackingStatus as NonNullable<ShipmentListItem['trackingStatus']> } : {}),
      }));
  });
}

/** A shipment whose labels print this code: its own tracking number or one of its parcels' numbers. */
function carriesCode(db: ReadDb, orgId: string, code: string): SQL {
  // The few ids first, each on its own index: with an OR in the list's query, SQLite walks every
  // shipment of the organization in the list's order instead.
  const ids = new Set([
    ...db
      .select({ id: shipments.id })
      .from(shipments)
      .where(and(eq(shipments.orgId, orgId), eq(shipments.trackingNumber, code)))
      .all()
      .map((row) => row.id),
    ...db
      .select({ id: parcels.shipmentId })
      .from(parcels)
      .where(or(eq(parcels.trackingNumber, code), eq(parcels.parcelNumber, code)))
      .all()
      .map((row) => row.id),
  ]);
  return inArray(shipments.id, [...ids]);
}

/** The trigger-maintained count (migration 0002): O(1) however many shipments there are. */
export function countedShipments(db: ReadDb, orgId: string, status?: string): number {
  const row = db
    .select({ n: sql<number>`coalesce(sum(${shipmentCounts.n}), 0)` })
    .from(shipmentCounts)
    .where(and(eq(shipmentCounts.orgId, orgId), status ? eq(shipmentCounts.status, status) : undefined))
    .get();
  return Number(row?.n ?? 0);
}

const sortColumns = { createdAt: shipments.createdAt, updatedAt: shipments.updatedAt, reference: shipments.reference, status: shipments.status };

/** The requested order, then newest first so pages are stable. */
function sortOrder(sort: ShipmentListQuery['sort']): SQL[] {
  const descending = sort.startsWith('-');
  const column = sortColumns[(descending ? sort.slice(1) : sort) as keyof typeof sortColumns];
  const first = descending ? desc(column) : asc(column);
  return column === shipments.createdAt ? [first, descending ? desc(shipments.id) : asc(shipments.id)] : [first, desc(shipments.createdAt), desc(shipments.id)];
}
