/**
 * `GET …/shipments/{id}` answers from a cache of committed full reads (db/readCache.ts): a packing
 * station reopening a shipment, or a script polling one for its tracking number, costs a lookup
 * instead of a read of nine tables. Every table the full read shows is watched, so any write to it
 * drops the shipment's entry at once.
 */
import type Database from 'better-sqlite3';
import type { Shipment } from '../../../src-shared/schemas/shipment';
import { JsonText } from '../../app/kernel/jsonText';
import { CommittedReadCache, type ForeignCommits } from '../../db/readCache';
import type { Db } from '../../db/types';
import { readShipmentJson } from './repository';
import { tablesOfTheFullRead } from './shipmentJson';

/** A few thousand shipments, or fewer with labels (their PDFs travel inside the read). */
const MAX_CHARACTERS = 16 * 1024 * 1024;

export function createShipmentReadCache(client: Database.Database, foreign: ForeignCommits): CommittedReadCache<string> {
  // Watching exactly the tables the read is built from keeps the two from drifting apart.
  return new CommittedReadCache<string>(client, 'shipment_reads', tablesOfTheFullRead, MAX_CHARACTERS, foreign);
}

/** The full read as JSON text, from the cache when nothing it shows has changed since. */
export function readShipmentCached(db: Db, cache: CommittedReadCache<string>, orgId: string, shipmentId: string): JsonText<Shipment> {
  const kept = cache.get(shipmentId, orgId);
  if (kept !== undefined) return new JsonText<Shipment>(kept);
  const read = readShipmentJson(db, orgId, shipmentId);
  cache.set(shipmentId, orgId, read.text, read.text.length);
  return read;
}
