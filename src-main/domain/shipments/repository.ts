/**
 * The shipment aggregate in and out of SQLite: one shipment row plus its parties, parcels, parcel
 * order lines, documents, errors, activities and carrier logs. Everything that reads or writes a
 * whole shipment goes through here; the API shape itself is built in one place, shipmentJson.ts.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { ApiError } from '../../../src-shared/errors';
import type { ParcelInput, PartyInput, Shipment, ShipmentStatus, ShippingRuleSummary } from '../../../src-shared/schemas/shipment';
import { documents, parcelOrderLines, parcels, shipmentActivities, shipmentErrors, shipmentParties, shipments } from '../../db/schema';
import { JsonText } from '../../app/kernel/jsonText';
import { ruleSummaryJsonById, shipmentJsonById, shipmentJsonByIds } from './shipmentJson';
import { newId } from '../../db/ids';
import type { ReadDb, WriteTx } from '../../db/tx';
import type { Db } from '../../db/types';
import { insertRows, prepared } from '../../db/prepared';
import { assertKnownParcelIds } from './parcelIds';

export type ShipmentRow = typeof shipments.$inferSelect;
export type PartyRow = typeof shipmentParties.$inferSelect;
export type ParcelRow = typeof parcels.$inferSelect;
export type ParcelLineRow = typeof parcelOrderLines.$inferSelect;
export type DocumentRow = typeof documents.$inferSelect;

export interface ParcelRecord extends ParcelRow {
  lines: ParcelLineRow[];
}

export interface ShipmentRecord {
  row: ShipmentRow;
  parties: PartyRow[];
  parcels: ParcelRecord[];
}

const shipmentById = (root: Db) =>
  root
    .select()
    .from(shipments)
    .where(and(eq(shipments.orgId, sql.placeholder('orgId')), eq(shipments.id, sql.placeholder('shipmentId'))))
    .prepare();

export function findShipmentRow(db: ReadDb, orgId: string, shipmentId: string): ShipmentRow {
  const row = prepared(db, 'shipments.byId', shipmentById).get({ orgId, shipmentId });
  if (!row) throw new ApiError('SHIPMENT_NOT_FOUND', `Shipment ${shipmentId} does not exist in this organization`);
  return row;
}

/** The shipment with its parties and parcels (what domain rules work on). */
export function loadShipmentRecord(db: ReadDb, orgId: string, shipmentId: string): ShipmentRecord {
  return loadShipmentRecords(db, [findShipmentRow(db, orgId, shipmentId)])[0] as ShipmentRecord;
}

function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const list = groups.get(key(row));
    if (list) list.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

/** `column IN (the ids)`, as one fixed SQL text whatever the number of ids (a JSON array parameter). */
const inIds = (column: SQLiteColumn) => sql`${column} IN (SELECT value FROM json_each(${sql.placeholder('ids')}))`;
const idsParam = (ids: readonly string[]) => ({ ids: JSON.stringify(ids) });

/** Prepared once per connection: the child rows of many shipments (or parcels), in their order. */
const childQueries = {
  parties: (root: Db) => root.select().from(shipmentParties).where(inIds(shipmentParties.shipmentId)).orderBy(asc(shipmentParties.position)).prepare(),
  parcels: (root: Db) => root.select().from(parcels).where(inIds(parcels.shipmentId)).orderBy(asc(parcels.position)).prepare(),
  lines: (root: Db) => root.select().from(parcelOrderLines).where(inIds(parcelOrderLines.parcelId)).orderBy(asc(parcelOrderLines.position)).prepare(),
};

function byIds<Row>(db: ReadDb, key: keyof typeof childQueries, build: (root: Db) => { all(params: { ids: string }): Row[] }, ids: readonly string[]): Row[] {
  return ids.length ? prepared(db, `shipments.${key}`, build).all(idsParam(ids)) : [];
}

/** Parties and parcels of many shipments with one query per table, in the order of `rows`. */
export function loadShipmentRecords(db: ReadDb, rows: readonly ShipmentRow[]): ShipmentRecord[] {
  const ids = rows.map((row) => row.id);
  const parties = groupBy(byIds(db, 'parties', childQueries.parties, ids), (party) => party.shipmentId);
  const parcelRows = byIds(db, 'parcels', childQueries.parcels, ids);
  const lines = groupBy(
    byIds(
      db,
      'lines',
      childQueries.lines,
      parcelRows.map((parcel) => parcel.id),
    ),
    (line) => line.parcelId,
  );
  const parcelsByShipment = groupBy(
    parcelRows.map((parcel) => ({ ...parcel, lines: lines.get(parcel.id) ?? [] })),
    (parcel) => parcel.shipmentId,
  );
  return rows.map((row) => ({ row, parties: parties.get(row.id) ?? [], parcels: parcelsByShipment.get(row.id) ?? [] }));
}

// ---- Reading in the API shape (built by SQLite: shipmentJson.ts) ----

/** carrierSettings from a shipment row (list items, which read rows, not full shipments). */
export function carrierSettingsOf(row: ShipmentRow): Shipment['carrierSettings'] {
  return {
    carrierId: row.carrierId,
    productId: row.productId,
    services: row.services,
    additionalParameters: row.additionalParameters,
  };
}

/** A shipping rule's summary, as a shipment's full read shows it (shipmentJson.ts). */
export function ruleSummary(db: ReadDb, ruleId: string | null): ShippingRuleSummary | undefined {
  if (!ruleId) return undefined;
  const row = prepared(db, 'shippingRules.summaryJson', ruleSummaryJsonById).get({ ruleId });
  return row ? (JSON.parse(row.json) as ShippingRuleSummary) : undefined;
}

export function documentsOf(db: ReadDb, shipmentId: string): DocumentRow[] {
  return db.select().from(documents).where(eq(documents.shipmentId, shipmentId)).orderBy(asc(documents.createdAt), asc(documents.id)).all();
}

/** The full read as JSON text, built by SQLite (shipmentJson.ts): what `GET …/shipments/{id}` sends. */
export function readShipmentJson(db: ReadDb, orgId: string, shipmentId: string): JsonText<Shipment> {
  const row = prepared(db, 'shipments.jsonById', shipmentJsonById).get({ orgId, shipmentId });
  if (!row) throw new ApiError('SHIPMENT_NOT_FOUND', `Shipment ${shipmentId} does not exist in this organization`);
  return new JsonText<Shipment>(row.json);
}

export function readShipment(db: ReadDb, orgId: string, shipmentId: string): Shipment {
  return readShipmentJson(db, orgId, shipmentId).parse();
}

/** Full reads of many shipments of one organization in one statement, in the order given. */
export function readShipmentsJson(db: ReadDb, orgId: string, shipmentIds: readonly string[]): JsonText<Shipment>[] {
  if (!shipmentIds.length) return [];
  const rows = prepared(db, 'shipments.jsonByIds', shipmentJsonByIds).all({ orgId, ...idsParam(shipmentIds) });
  const byId = new Map(rows.map((row) => [row.id, row.json]));
  return shipmentIds.map((id) => {
    const json = byId.get(id);
    if (json === undefined) throw new ApiError('SHIPMENT_NOT_FOUND', `Shipment ${id} does not exist in this organization`);
    return new JsonText<Shipment>(json);
  });
}

export function readShipments(db: ReadDb, orgId: string, shipmentIds: readonly string[]): Shipment[] {
  return readShipmentsJson(db, orgId, shipmentIds).map((json) => json.parse());
}

// ---- Writing ----

/** A stored party as create input: absent optional fields stay absent. */
export function partyInputOf(row: PartyRow): PartyInput {
  const party: PartyInput = {
    type: row.type as PartyInput['type'],
    name: row.name,
    address1: row.address1,
    postalCode: row.postalCode,
    city: row.city,
    countryCode: row.countryCode,
    attributes: row.attributes,
  };
  if (row.attention !== null) party.attention = row.attention;
  if (row.address2 !== null) party.address2 = row.address2;
  if (row.phone !== null) party.phone = row.phone;
  if (row.email !== null) party.email = row.email;
  return party;
}

export function partyRows(shipmentId: string, parties: readonly PartyInput[]): (typeof shipmentParties.$inferInsert)[] {
  return parties.map((party, position) => ({
    shipmentId,
    position,
    type: party.type,
    name: party.name,
    attention: party.attention ?? null,
    address1: party.address1,
    address2: party.address2 ?? null,
    postalCode: party.postalCode,
    city: party.city,
    countryCode: party.countryCode,
    phone: party.phone ?? null,
    email: party.email || null,
    attributes: party.attributes ?? [],
  }));
}

/** A parcel line as written: the API fields plus the order allocation and unit weight it carries. */
export interface ParcelLineDraft {
  id?: string;
  sku: string;
  quantity: number;
  description?: string | null;
  unitPrice?: number | null;
  currency?: string | null;
  vatPercent?: number | null;
  location?: string | null;
  countryOfOrigin?: string | null;
  tarrifNumber?: string | null;
  orderLineId?: string | null;
  unitWeightKg?: number | null;
}

export interface ParcelDraft {
  id?: string;
  weight: number;
  weightUnit: string;
  dimensions: { length: number; width: number; height: number };
  orderLines: ParcelLineDraft[];
}

/** Parcels as a body gives them; `existing` are the shipment's parcels, whose ids the body may keep. */
export function parcelDraftsFromInput(input: readonly ParcelInput[], existing: readonly ParcelRecord[] = []): ParcelDraft[] {
  assertKnownParcelIds(input, existing);
  const storedWeights = new Map(existing.flatMap((parcel) => parcel.lines.map((line) => [line.id, line.unitWeightKg ?? null] as const)));
  return input.map((parcel) => ({
    ...parcel,
    orderLines: parcel.orderLines.map(({ currency, countryOfOrigin, weight, ...line }) => ({
      ...line,
      // "" is how a read shows no value (schemas: emptyOr), so it is stored as none.
      ...(currency ? { currency } : {}),
      ...(countryOfOrigin ? { countryOfOrigin } : {}),
      // The API's `weight` is the unit weight; a kept line the body gives without it keeps its own.
      unitWeightKg: weight !== undefined ? weight : line.id !== undefined ? (storedWeights.get(line.id) ?? null) : null,
    })),
  }));
}

/** Parcels and their lines for many shipments: every parcel first, as the lines refer to them. Returns the rows written, per group. */
export function insertParcelsOf(
  tx: WriteTx,
  groups: readonly { shipmentId: string; parcels: readonly ParcelDraft[]; firstPosition?: number }[],
): { row: typeof parcels.$inferInsert; lines: (typeof parcelOrderLines.$inferInsert)[] }[][] {
  const parcelValues: (typeof parcels.$inferInsert)[] = [];
  const lineValues: (typeof parcelOrderLines.$inferInsert)[] = [];
  const written = groups.map(() => [] as { row: typeof parcels.$inferInsert; lines: (typeof parcelOrderLines.$inferInsert)[] }[]);
  groups.forEach((group, groupIndex) => {
    group.parcels.forEach((draft, index) => {
      const parcelId = draft.id ?? newId('parcel');
      const lines: (typeof parcelOrderLines.$inferInsert)[] = [];
      const parcel: typeof parcels.$inferInsert = {
        id: parcelId,
        shipmentId: group.shipmentId,
        position: (group.firstPosition ?? 0) + index,
        weight: draft.weight,
        weightUnit: draft.weightUnit,
        length: draft.dimensions.length,
        width: draft.dimensions.width,
        height: draft.dimensions.height,
      };
      parcelValues.push(parcel);
      written[groupIndex]?.push({ row: parcel, lines });
      draft.orderLines.forEach((line, position) =>
        lines.push({
          id: line.id ?? newId('parcelOrderLine'),
          parcelId,
          position,
          orderLineId: line.orderLineId ?? null,
          sku: line.sku,
          quantity: line.quantity,
          description: line.description ?? null,
          unitPrice: line.unitPrice ?? null,
          currency: line.currency ?? null,
          vatPercent: line.vatPercent ?? null,
          location: line.location ?? null,
          countryOfOrigin: line.countryOfOrigin ?? null,
          tarrifNumber: line.tarrifNumber ?? null,
          unitWeightKg: line.unitWeightKg ?? null,
        }),
      );
      lineValues.push(...lines);
    });
  });
  insertRows(tx, parcels, parcelValues);
  insertRows(tx, parcelOrderLines, lineValues);
  return written;
}

export function insertParcels(tx: WriteTx, shipmentId: string, drafts: readonly ParcelDraft[], firstPosition = 0): void {
  insertParcelsOf(tx, [{ shipmentId, parcels: drafts, firstPosition }]);
}

const deletePartiesOf = (root: Db) =>
  root
    .delete(shipmentParties)
    .where(eq(shipmentParties.shipmentId, sql.placeholder('shipmentId')))
    .prepare();
/** Their lines go with them (ON DELETE CASCADE). */
const deleteParcelsOf = (root: Db) =>
  root
    .delete(parcels)
    .where(eq(parcels.shipmentId, sql.placeholder('shipmentId')))
    .prepare();

export function replaceParties(tx: WriteTx, shipmentId: string, parties: readonly PartyInput[]): void {
  prepared(tx, 'shipments.deletePartiesOf', deletePartiesOf).run({ shipmentId });
  insertRows(tx, shipmentParties, partyRows(shipmentId, parties));
}

export function replaceParcels(tx: WriteTx, shipmentId: string, drafts: readonly ParcelDraft[]): void {
  prepared(tx, 'shipments.deleteParcelsOf', deleteParcelsOf).run({ shipmentId });
  insertParcels(tx, shipmentId, drafts);
}

export type ActivityAction = Shipment['activities'][number]['action'];

export function recordActivity(tx: WriteTx, now: Date, shipmentId: string, action: ActivityAction, description: string): void {
  recordActivities(tx, now, [{ shipmentId, action, description }]);
}

/** Returns the rows written. */
export function recordActivities(
  tx: WriteTx,
  now: Date,
  activities: readonly { shipmentId: string; action: ActivityAction; description: string }[],
): (typeof shipmentActivities.$inferInsert & { id: string; createdAt: string })[] {
  const createdAt = now.toISOString();
  const rows = activities.map((activity) => ({ id: newId('activity'), ...activity, createdAt }));
  insertRows(tx, shipmentActivities, rows);
  return rows;
}

export function recordError(tx: WriteTx, now: Date, shipmentId: string, code: string, message: string): void {
  insertRows(tx, shipmentErrors, [{ id: newId('shipmentError'), shipmentId, code, message, createdAt: now.toISOString() }]);
}

const setStatusQuery = (root: Db) =>
  root
    .update(shipments)
    .set({
      status: sql`${sql.placeholder('status')}`,
      bookingStartedAt: sql`${sql.placeholder('bookingStartedAt')}`,
      updatedAt: sql`${sql.placeholder('updatedAt')}`,
    })
    .where(eq(shipments.id, sql.placeholder('shipmentId')))
    .prepare();

/**
 * Only a send moves a shipment to `processing` (no PATCH may), so this is where a booking is marked
 * as started, and where every later status clears the mark.
 */
export function setStatus(tx: WriteTx, now: Date, shipmentId: string, status: ShipmentStatus): void {
  const at = now.toISOString();
  prepared(tx, 'shipments.setStatus', setStatusQuery).run({ shipmentId, status, bookingStartedAt: status === 'processing' ? at : null, updatedAt: at });
}
