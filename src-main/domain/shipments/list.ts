import { and, asc, count, desc, eq, gte, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Page } from '../../../src-shared/schemas/common';
import type { ShipmentListItem, shipmentListQuery } from '../../../src-shared/schemas/shipment';
import { orders, parcels, senderAddresses, shipmentCounts, shipmentParties, shipments } from '../../db/schema';
import type { ReadDb } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { paginate } from '../pagination';
import { prepared } from '../../db/prepared';
import { inIds } from '../../db/inIds';
import { FEW_TO_READ, textMatches } from '../../db/search';
import { toSenderAddress } from '../senderAddresses/senderAddresses';
import { carrierSettingsOf } from './repository';

export type ShipmentListQuery = z.output<typeof shipmentListQuery>;

/** Interface §2.4a items, newest first, with the sender address each was sent from. */
export function listShipments(app: AppContext, orgId: string, query: ShipmentListQuery): Page<ShipmentListItem> {
  // A search's matches and a scanned code's shipments are ids found on their own indexes first.
  const idSets: string[][] = [];
  const filters: SQL[] = [];
  if (query.code) idSets.push(carriesCode(app.db, orgId, query.code));
  if (query.status) filters.push(eq(shipments.status, query.status));
  if (query.orderId) filters.push(eq(shipments.orderId, query.orderId));
  if (query.reference) filters.push(eq(shipments.reference, query.reference));
  if (query.carrierId) filters.push(eq(shipments.carrierId, query.carrierId));
  if (query.createdFrom) filters.push(gte(shipments.createdAt, query.createdFrom));
  if (query.createdTo) filters.push(lte(shipments.createdAt, query.createdTo));
  if (query.country) {
    // On the receivers' country index (migration 0011).
    filters.push(
      sql`${shipments.id} IN (SELECT ${shipmentParties.shipmentId} FROM ${shipmentParties} WHERE ${shipmentParties.type} = 'receiver' AND ${shipmentParties.countryCode} = ${query.country})`,
    );
  }
  // On the (org, tracking status, created) index; a shipment never booked has no tracking status.
  if (query.trackingStatus) filters.push(inArray(shipments.trackingStatus, query.trackingStatus));
  const inCreationOrder = query.sort === '-createdAt' || query.sort === 'createdAt';
  const search = query.search ? textMatches(app.db, 'shipment', orgId, query.search) : undefined;
  // A search alone, in creation order: the trigram index counts its matches and hands out the page.
  const bySearch = search?.page && !filters.length && !idSets.length && inCreationOrder ? search : undefined;
  if (search && !bySearch) {
    const few = search.few();
    if (few) idSets.push(few);
    else filters.push(sql`${shipments.id} IN (${search.subquery})`);
  }
  for (const ids of idSets) filters.push(inIds(shipments.id, ids));
  // With few ids, `+org_id` keeps SQLite off the organization's indexes, whose order it would
  // otherwise walk, reading every shipment of the organization, to find them (no ANALYZE statistics
  // tell it how many that is): it reads just them, then sorts.
  filters.unshift(idSets.length ? sql`+${shipments.orgId} = ${orgId}` : eq(shipments.orgId, orgId));
  const where = and(...filters);
  const order = sql.join(sortOrder(query.sort), sql`, `);
  // Few ids (at most FEW_MATCHES): each is read once, for the count and the page both, and sorted.
  // A search alone with few matches: they come oldest first from the index, in the list's order already.
  const searchIds = bySearch?.few(FEW_TO_READ);
  const fewIds = idSets.length
    ? app.db.select({ id: shipments.id }).from(shipments).where(where).orderBy(order).all()
    : searchIds && (query.sort === '-createdAt' ? searchIds.reverse() : searchIds).map((id) => ({ id }));
  const onlyStatus = filters.length === (query.status ? 2 : 1) && !idSets.length && !bySearch;
  // The whole organization in creation order: a deep page seeks through the hour counts.
  const byCreation = filters.length === 1 && !idSets.length && inCreationOrder && !bySearch;
  const total = fewIds
    ? fewIds.length
    : bySearch
      ? bySearch.total()
      : onlyStatus
        ? countedShipments(app.db, orgId, query.status)
        : (app.db.select({ n: count() }).from(shipments).where(where).get()?.n ?? 0);
  return paginate(query, total, (limit, offset) => {
    // The page's ids first: skipping `offset` rows then walks an index only (for the default order
    // and the status filter, a covering one), not every skipped row and its sender address.
    // An exact reference is found on the (org, reference) index and then sorted. Left to itself,
    // SQLite walks the organization's shipments in the list's order and reads each one's reference.
    const ids = (
      fewIds
        ? fewIds.slice(offset, offset + limit)
        : bySearch?.page
          ? bySearch.page(limit, offset, query.sort === '-createdAt').map((id) => ({ id }))
          : byCreation && offset >= DEEP_OFFSET
            ? deepPageIds(app.db, orgId, query.sort === '-createdAt', total, offset, limit)
            : query.reference !== undefined
              ? app.db.all<{ id: string }>(
                  sql`SELECT ${shipments.id} FROM ${shipments} INDEXED BY shipments_org_reference WHERE ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
                )
              : app.db.select({ id: shipments.id }).from(shipments).where(where).orderBy(order).limit(limit).offset(offset).all()
    ).map((row) => row.id);
    if (!ids.length) return [];
    const rows = new Map(
      app.db
        .select({ shipment: shipments, senderAddress: senderAddresses, orderNumber: orders.orderNumber })
        .from(shipments)
        .innerJoin(senderAddresses, eq(senderAddresses.id, shipments.senderAddressId))
        .leftJoin(orders, eq(orders.id, shipments.orderId))
        .where(inArray(shipments.id, ids))
        .all()
        .map((row) => [row.shipment.id, row]),
    );
    const receivers = receiversOf(app.db, ids);
    return ids
      .map((id) => rows.get(id) as NonNullable<ReturnType<typeof rows.get>>)
      .map(({ shipment, senderAddress, orderNumber }) => {
        const receiver = receivers.get(shipment.id);
        return {
          id: shipment.id,
          reference: shipment.reference,
          type: shipment.type as ShipmentListItem['type'],
          carrierSettings: carrierSettingsOf(shipment),
          status: shipment.status as ShipmentListItem['status'],
          senderAddress: toSenderAddress(senderAddress),
          createdAt: shipment.createdAt,
          updatedAt: shipment.updatedAt,
          ...(shipment.trackingStatus ? { trackingStatus: shipment.trackingStatus as NonNullable<ShipmentListItem['trackingStatus']> } : {}),
          ...(receiver ? { receiverName: receiver.name, receiverCountryCode: receiver.countryCode } : {}),
          ...(orderNumber ? { orderNumber } : {}),
          ...(shipment.trackingNumber ? { trackingNumber: shipment.trackingNumber } : {}),
        };
      });
  });
}

/** From this many rows skipped on, a page in creation order seeks through the hour counts. */
export const DEEP_OFFSET = 2000;

const hourEnd = '\u{10FFFF}';

/**
 * The ids of the page `offset`..`offset + limit` of the organization's shipments in creation order
 * (newest first when `newestFirst`), the same rows as `ORDER BY created_at, id LIMIT … OFFSET …`
 * (issue 23). The trigger-kept shipment_hour_counts (migration 0015) are summed from the nearer end
 * to the hour the page's first row is in; the page is then the rows from that hour on, skipping only
 * the rows of that hour that come before it, on the (org, created, id) index. On a million shipments
 * page 25 000 skips at most an hour's shipments instead of 500 000.
 */
export function deepPageIds(db: ReadDb, orgId: string, newestFirst: boolean, total: number, offset: number, limit: number): { id: string }[] {
  // Rows of the list before each hour, walked from the end the page is nearer to: `before` is
  // how many rows of the list come before the hour (in the list's own order).
  const fromFront = offset <= total / 2;
  const walkNewestFirst = newestFirst === fromFront;
  const hours = prepared(db, `shipmentHours.${walkNewestFirst ? 'desc' : 'asc'}`, (root) =>
    root.$client.prepare(`SELECT bucket, n FROM shipment_hour_counts WHERE org_id = ? AND n > 0 ORDER BY bucket ${walkNewestFirst ? 'DESC' : 'ASC'}`),
  );
  let seen = 0;
  let found: { bucket: string; before: number } | undefined;
  for (const row of hours.iterate(orgId) as IterableIterator<{ bucket: string; n: number }>) {
    const before = fromFront ? seen : total - seen - row.n;
    seen += row.n;
    if (fromFront ? offset < seen : before <= offset) {
      found = { bucket: row.bucket, before };
      break;
    }
  }
  if (!found) return [];
  const page = prepared(db, `shipmentDeepPage.${newestFirst ? 'desc' : 'asc'}`, (root) =>
    root.$client.prepare(
      newestFirst
        ? `SELECT id FROM shipments WHERE org_id = ? AND created_at < ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`
        : `SELECT id FROM shipments WHERE org_id = ? AND created_at >= ? ORDER BY created_at ASC, id ASC LIMIT ? OFFSET ?`,
    ),
  );
  // Newest first, the hour and every older one: created_at below the hour's prefix followed by the
  // highest character; oldest first, the hour and every newer one: created_at from the prefix on.
  const bound = newestFirst ? found.bucket + hourEnd : found.bucket;
  return page.all(orgId, bound, limit, offset - found.before) as { id: string }[];
}

/** The page's receivers, one statement for the page: the first receiver party of each shipment. */
function receiversOf(db: ReadDb, shipmentIds: string[]): Map<string, { name: string; countryCode: string }> {
  const parties = db
    .select({ shipmentId: shipmentParties.shipmentId, name: shipmentParties.name, countryCode: shipmentParties.countryCode })
    .from(shipmentParties)
    .where(and(inArray(shipmentParties.shipmentId, shipmentIds), eq(shipmentParties.type, 'receiver')))
    .orderBy(desc(shipmentParties.position))
    .all();
  // Ordered last position first, so the first receiver is the one left in the map.
  return new Map(parties.map((party) => [party.shipmentId, { name: party.name, countryCode: party.countryCode }]));
}

/** A shipment whose labels print this code: its own tracking number or one of its parcels' numbers. */
function carriesCode(db: ReadDb, orgId: string, code: string): string[] {
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
  return [...ids];
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
