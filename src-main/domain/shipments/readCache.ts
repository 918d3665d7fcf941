/**
 * `GET …/shipments/{id}` answers from a cache of committed full reads (db/readCache.ts): a packing
 * station reopening a shipment, or a script polling one for its tracking number, costs a lookup
 * instead of a read of nine tables. Every table the full read shows is watched, so any write to it
 * drops the shipment's entry at once.
 */
import type Database from 'better-sqlite3';
import { getTableName } from 'drizzle-orm';
import type { Shipment } from '../../../src-shared/schemas/shipment';
import { JsonText } from '../../app/jsonText';
import { CommittedReadCache, type ForeignCommits, type WatchedTable } from '../../db/readCache';
import type { Db } from '../../db/open';
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
import { readShipmentJson } from './repository';

/** A few thousand shipments, or fewer with labels (their PDFs travel inside the read). */
const MAX_CHARACTERS = 16 * 1024 * 1024;

const byShipment = (table: Parameters<typeof getTableName>[0] & { shipmentId: { name: string } }): WatchedTable => ({
  table: getTableName(table),
  key: `ROW."${table.shipmentId.name}"`,
});

/** Every table shipmentJson.ts reads, and how a written row names its shipment. */
const watched: WatchedTable[] = [
  { table: getTableName(shipments), key: `ROW."${shipments.id.name}"` },
  byShipment(shipmentParties),
  byShipment(parcels),
  {
    table: getTableName(parcelOrderLines),
    key: `(SELECT "${parcels.shipmentId.name}" FROM "${getTableName(parcels)}" WHERE "${parcels.id.name}" = ROW."${parcelOrderLines.parcelId.name}")`,
  },
  byShipment(documents),
  byShipment(shipmentErrors),
  byShipment(shipmentActivities),
  byShipment(shipmentLogs),
  // The rule summary shows in every shipment that uses the rule: a change to it drops them all.
  {
    table: getTableName(shippingRules),
    key: null,
    columns: [
      shippingRules.name,
      shippingRules.carrierId,
      shippingRules.productId,
      shippingRules.services,
      shippingRules.senderAddressId,
      shippingRules.returnShippingRuleId,
      shippingRules.autoCreateReturnShipment,
    ].map((column) => column.name),
  },
];

export function createShipmentReadCache(client: Database.Database, foreign: ForeignCommits): CommittedReadCache<string> {
  return new CommittedReadCache<string>(client, 'shipment_reads', watched, MAX_CHARACTERS, foreign);
}

/** The full read as JSON text, from the cache when nothing it shows has changed since. */
export function readShipmentCached(db: Db, cache: CommittedReadCache<string>, orgId: string, shipmentId: string): JsonText<Shipment> {
  const kept = cache.get(shipmentId, orgId);
  if (kept !== undefined) return new JsonText<Shipment>(kept);
  const read = readShipmentJson(db, orgId, shipmentId);
  cache.set(shipmentId, orgId, read.text, read.text.length);
  return read;
}
