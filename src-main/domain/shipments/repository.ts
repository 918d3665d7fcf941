/**
 * The shipment aggregate in and out of SQLite: one shipment row plus its parties, parcels, parcel
 * order lines, documents, errors, activities and carrier logs. Everything that reads or writes a
 * whole shipment goes through here, so the API shape is produced in one place.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { ApiError } from '../../../src-shared/errors';
import type {
  Parcel,
  ParcelInput,
  ParcelOrderLine,
  Party,
  PartyInput,
  Shipment,
  ShipmentDocument,
  ShipmentStatus,
  ShippingRuleSummary,
} from '../../../src-shared/schemas/shipment';
import {
  documents,
  parcelOrderLines,
  parcels,
  shipmentActivities,
  shipmentErrors,
  shipmentLogs,
  shipmentParties,
  shipments,
  shippingRules,
} from '../../db/schema';
import { newId } from '../../db/ids';
import type { ReadDb, WriteTx } from '../../db/tx';
import type { Db } from '../../db/open';
import { prepared } from '../../db/prepared';

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
  root.select().from(shipments).where(and(eq(shipments.orgId, sql.placeholder('orgId')), eq(shipments.id, sql.placeholder('shipmentId')))).prepare();

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
  documents: (root: Db) => root.select().from(documents).where(inIds(documents.shipmentId)).orderBy(asc(documents.createdAt), asc(documents.id)).prepare(),
  errors: (root: Db) => root.select().from(shipmentErrors).where(inIds(shipmentErrors.shipmentId)).orderBy(asc(shipmentErrors.createdAt), asc(shipmentErrors.id)).prepare(),
  activities: (root: Db) =>
    root.select().from(shipmentActivities).where(inIds(shipmentActivities.shipmentId)).orderBy(asc(shipmentActivities.createdAt), asc(shipmentActivities.id)).prepare(),
  logs: (root: Db) => root.select().from(shipmentLogs).where(inIds(shipmentLogs.shipmentId)).orderBy(asc(shipmentLogs.createdAt), asc(shipmentLogs.id)).prepare(),
  rules: (root: Db) => root.select().from(shippingRules).where(inIds(shippingRules.id)).prepare(),
  shipments: (root: Db) =>
    root.select().from(shipments).where(and(eq(shipments.orgId, sql.placeholder('orgId')), inIds(shipments.id))).prepare(),
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

// ---- Mapping to the API shape ----

export function toParty(row: PartyRow): Party {
  return {
    type: row.type,
    name: row.name,
    attention: row.attention ?? '',
    address1: row.address1,
    address2: row.address2 ?? '',
    postalCode: row.postalCode,
    city: row.city,
    countryCode: row.countryCode,
    phone: row.phone ?? '',
    email: row.email ?? '',
    attributes: row.attributes,
  };
}

export function toParcelOrderLine(row: ParcelLineRow): ParcelOrderLine {
  return {
    id: row.id,
    sku: row.sku,
    quantity: row.quantity,
    description: row.description ?? '',
    unitPrice: row.unitPrice ?? 0,
    currency: row.currency ?? '',
    vatPercent: row.vatPercent ?? 0,
    location: row.location ?? '',
    countryOfOrigin: row.countryOfOrigin ?? '',
    tarrifNumber: row.tarrifNumber ?? '',
  };
}

export function toParcel(record: ParcelRecord): Parcel {
  return {
    id: record.id,
    weight: record.weight,
    weightUnit: record.weightUnit,
    dimensions: { length: record.length, width: record.width, height: record.height },
    orderLines: record.lines.map(toParcelOrderLine),
  };
}

export function toDocument(row: DocumentRow): ShipmentDocument {
  return {
    id: row.id,
    shipmentId: row.shipmentId,
    documentType: row.documentType as ShipmentDocument['documentType'],
    format: row.format as ShipmentDocument['format'],
    content: row.content.toString('base64'),
    size: row.size as ShipmentDocument['size'],
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function carrierSettingsOf(row: ShipmentRow): Shipment['carrierSettings'] {
  return {
    carrierId: row.carrierId,
    productId: row.productId,
    services: row.services,
    additionalParameters: row.additionalParameters,
  };
}

/** Optional objects that are not nullable are left out when empty (decisions §1). */
export function trackingOf(row: ShipmentRow): Shipment['tracking'] {
  return row.trackingNumber ? { number: row.trackingNumber, url: row.trackingUrl ?? '' } : undefined;
}

function pickupOf(row: ShipmentRow): Shipment['pickupDetails'] {
  if (!row.pickupDate) return undefined;
  return { date: row.pickupDate, from: row.pickupFrom ?? '', to: row.pickupTo ?? '', instruction: row.pickupInstruction ?? '' };
}


/** What a full read adds to a record: documents, errors, activities, carrier logs and the rule. */
interface ShipmentExtras {
  documents: Map<string, DocumentRow[]>;
  errors: Map<string, (typeof shipmentErrors.$inferSelect)[]>;
  activities: Map<string, (typeof shipmentActivities.$inferSelect)[]>;
  logs: Map<string, (typeof shipmentLogs.$inferSelect)[]>;
  rules: Map<string, ShippingRuleSummary>;
}

function loadExtras(db: ReadDb, records: readonly ShipmentRecord[]): ShipmentExtras {
  const ids = records.map((record) => record.row.id);
  const byShipment = <T extends { shipmentId: string }>(rows: T[]) => groupBy(rows, (row) => row.shipmentId);
  const ruleIds = [...new Set(records.map((record) => record.row.shippingRuleId).filter((id): id is string => id !== null))];
  return {
    documents: byShipment(byIds(db, 'documents', childQueries.documents, ids)),
    errors: byShipment(byIds(db, 'errors', childQueries.errors, ids)),
    activities: byShipment(byIds(db, 'activities', childQueries.activities, ids)),
    logs: byShipment(byIds(db, 'logs', childQueries.logs, ids)),
    rules: new Map(byIds(db, 'rules', childQueries.rules, ruleIds).map((rule) => [rule.id, toRuleSummary(rule)])),
  };
}

function toRuleSummary(rule: typeof shippingRules.$inferSelect): ShippingRuleSummary {
  return {
    id: rule.id,
    name: rule.name,
    carrierId: rule.carrierId,
    productId: rule.productId,
    services: rule.services,
    senderAddressId: rule.senderAddressId,
    returnShippingRuleId: rule.returnShippingRuleId,
    autoCreateReturnShipment: rule.autoCreateReturnShipment,
  };
}

export function ruleSummary(db: ReadDb, ruleId: string | null): ShippingRuleSummary | undefined {
  if (!ruleId) return undefined;
  const rule = db.select().from(shippingRules).where(eq(shippingRules.id, ruleId)).get();
  return rule ? toRuleSummary(rule) : undefined;
}

export function documentsOf(db: ReadDb, shipmentId: string): DocumentRow[] {
  return db.select().from(documents).where(eq(documents.shipmentId, shipmentId)).orderBy(asc(documents.createdAt), asc(documents.id)).all();
}

/** The full read (interface §2.1 plus decisions §4 extras), from a record and its loaded extras. */
function toShipmentWith(record: ShipmentRecord, extras: ShipmentExtras): Shipment {
  const { row } = record;
  const id = row.id;
  const shipment: Shipment = {
    id,
    reference: row.reference,
    senderAddressId: row.senderAddressId,
    parties: record.parties.map(toParty),
    type: row.type as Shipment['type'],
    carrierSettings: carrierSettingsOf(row),
    parcels: record.parcels.map(toParcel),
    termOfTrade: row.termOfTrade,
    status: row.status as ShipmentStatus,
    orgId: row.orgId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    servicePointId: row.servicePointId,
    documents: (extras.documents.get(id) ?? []).map(toDocument),
    orderId: row.orderId,
    shippingRuleId: row.shippingRuleId,
    returnForShipmentId: row.returnForShipmentId,
    errors: (extras.errors.get(id) ?? []).map(({ id: errorId, code, message, createdAt }) => ({ id: errorId, code, message, createdAt })),
    activities: (extras.activities.get(id) ?? []).map(({ id: activityId, action, description, createdAt }) => ({
      id: activityId,
      action: action as Shipment['activities'][number]['action'],
      description,
      createdAt,
    })),
    logs: (extras.logs.get(id) ?? []).map((log) => ({
      id: log.id,
      direction: log.direction as 'outbound' | 'inbound' | 'carrier',
      request: log.request ?? null,
      response: log.response ?? null,
      statusCode: log.statusCode,
      error: log.error,
      duration: log.duration,
      createdAt: log.createdAt,
    })),
  };
  const pickupDetails = pickupOf(row);
  if (pickupDetails) shipment.pickupDetails = pickupDetails;
  const tracking = trackingOf(row);
  if (tracking) shipment.tracking = tracking;
  const rule = row.shippingRuleId ? extras.rules.get(row.shippingRuleId) : undefined;
  if (rule) shipment.shippingRule = rule;
  return shipment;
}

export function toShipment(db: ReadDb, record: ShipmentRecord): Shipment {
  return toShipmentWith(record, loadExtras(db, [record]));
}

export function readShipment(db: ReadDb, orgId: string, shipmentId: string): Shipment {
  return toShipment(db, loadShipmentRecord(db, orgId, shipmentId));
}

/** Full reads of many shipments of one organization with one query per table, in the order given. */
export function readShipments(db: ReadDb, orgId: string, shipmentIds: readonly string[]): Shipment[] {
  if (!shipmentIds.length) return [];
  const query = prepared(db, 'shipments.byIds', childQueries.shipments);
  const rows = query.all({ orgId, ...idsParam(shipmentIds) });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const ordered = shipmentIds.map((id) => {
    const row = byId.get(id);
    if (!row) throw new ApiError('SHIPMENT_NOT_FOUND', `Shipment ${id} does not exist in this organization`);
    return row;
  });
  const records = loadShipmentRecords(db, ordered);
  const extras = loadExtras(db, records);
  return records.map((record) => toShipmentWith(record, extras));
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
    email: party.email ?? null,
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

export function parcelDraftsFromInput(input: readonly ParcelInput[]): ParcelDraft[] {
  return input.map((parcel) => ({ ...parcel, orderLines: parcel.orderLines.map((line) => ({ ...line })) }));
}

/** Parcels and their lines for many shipments, one statement per table (lines in chunks). */
export function insertParcelsOf(tx: WriteTx, groups: readonly { shipmentId: string; parcels: readonly ParcelDraft[]; firstPosition?: number }[]): void {
  const parcelValues: (typeof parcels.$inferInsert)[] = [];
  const lineValues: (typeof parcelOrderLines.$inferInsert)[] = [];
  for (const group of groups) {
    group.parcels.forEach((draft, index) => {
      const parcelId = draft.id ?? newId('parcel');
      parcelValues.push({
        id: parcelId,
        shipmentId: group.shipmentId,
        position: (group.firstPosition ?? 0) + index,
        weight: draft.weight,
        weightUnit: draft.weightUnit,
        length: draft.dimensions.length,
        width: draft.dimensions.width,
        height: draft.dimensions.height,
      });
      draft.orderLines.forEach((line, position) =>
        lineValues.push({
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
    });
  }
  if (parcelValues.length) tx.insert(parcels).values(parcelValues).run();
  // 15 columns a line: 1000 lines stay far below SQLite's 32766 bound parameters.
  for (let i = 0; i < lineValues.length; i += 1000) tx.insert(parcelOrderLines).values(lineValues.slice(i, i + 1000)).run();
}

export function insertParcels(tx: WriteTx, shipmentId: string, drafts: readonly ParcelDraft[], firstPosition = 0): void {
  insertParcelsOf(tx, [{ shipmentId, parcels: drafts, firstPosition }]);
}

export function replaceParties(tx: WriteTx, shipmentId: string, parties: readonly PartyInput[]): void {
  tx.delete(shipmentParties).where(eq(shipmentParties.shipmentId, shipmentId)).run();
  if (parties.length) tx.insert(shipmentParties).values(partyRows(shipmentId, parties)).run();
}

export function replaceParcels(tx: WriteTx, shipmentId: string, drafts: readonly ParcelDraft[]): void {
  tx.delete(parcels).where(eq(parcels.shipmentId, shipmentId)).run();
  insertParcels(tx, shipmentId, drafts);
}

export type ActivityAction = Shipment['activities'][number]['action'];

export function recordActivity(tx: WriteTx, now: Date, shipmentId: string, action: ActivityAction, description: string): void {
  recordActivities(tx, now, [{ shipmentId, action, description }]);
}

export function recordActivities(tx: WriteTx, now: Date, activities: readonly { shipmentId: string; action: ActivityAction; description: string }[]): void {
  if (!activities.length) return;
  const createdAt = now.toISOString();
  tx.insert(shipmentActivities)
    .values(activities.map((activity) => ({ id: newId('activity'), ...activity, createdAt })))
    .run();
}

export function recordError(tx: WriteTx, now: Date, shipmentId: string, code: string, message: string): void {
  tx.insert(shipmentErrors).values({ id: newId('shipmentError'), shipmentId, code, message, createdAt: now.toISOString() }).run();
}

export function setStatus(tx: WriteTx, now: Date, shipmentId: string, status: ShipmentStatus): void {
  tx.update(shipments).set({ status, updatedAt: now.toISOString() }).where(eq(shipments.id, shipmentId)).run();
}
