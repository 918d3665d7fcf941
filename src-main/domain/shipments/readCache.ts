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

/**
 * About 2 400 shipments with their labels (the PDFs travel inside the read, 1.7 kB a shipment in the
 * soak), several thousand without: far more than a packing station reopens in a day. It was 16 M
 * characters, which a soak at 100 requests a second took 14 minutes to fill, growing the heap by
 * 17 MB all the while (issue 23, docs/benchmarks.md "Memory").
 */
const MAX_CHARACTERS = 4 * 1024 * 1024;

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
