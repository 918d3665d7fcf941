/**
 * The full read of a shipment that was just written, built in JavaScript from the values written
 * instead of read back (issue 23: the read-back was about a sixth of a create). The text is byte for
 * byte what shipmentJson.ts makes SQLite build for the same rows, so a create answers what a GET of
 * it sends. It mirrors that read for a new shipment only: no documents, errors, logs or tracking yet,
 * parcels without carrier numbers, no shipping rule. Anything it cannot be sure SQLite writes the same
 * way gives `undefined`, and the caller reads the shipment back as before:
 * - a whole number beyond 2^53 (a fraction's text is SQLite's own, see realText);
 * - an unpaired surrogate (SQLite stores U+FFFD; the doors refuse them, other paths might not);
 * - a JSON column's text longer than MAX_EMBEDDED (SQLite's json() refuses nesting deeper than
 *   1000 levels, which a GET would then fail on; a create must fail the same way).
 * A member added to the full read (shipmentJson.ts) belongs here too: newShipmentJson.test.ts
 * compares the two over varied shipments.
 */
import type { parcelOrderLines, parcels, shipmentActivities, shipmentParties, shipments } from '../../db/schema';
import type { ReadDb } from '../../db/tx';
import { prepared } from '../../db/prepared';

export interface WrittenParcel {
  row: typeof parcels.$inferInsert;
  lines: (typeof parcelOrderLines.$inferInsert)[];
}

/** A new shipment's rows as they were handed to insertRows. */
export interface WrittenShipment {
  row: typeof shipments.$inferInsert;
  parties: (typeof shipmentParties.$inferInsert)[];
  parcels: WrittenParcel[];
  activities: (typeof shipmentActivities.$inferInsert)[];
}

const MAX_EMBEDDED = 1000;

class NotBuilt extends Error {}

/** Texts SQLite gave for fractions; numbers repeat (weights, sizes, prices), so a miss is rare. */
const realTexts = new Map<number, string>();
const MAX_REAL_TEXTS = 4096;

/**
 * A REAL as SQLite's JSON functions write it ("%!0.17g": 17 digits, fewer only when its own
 * shortening applies, so 0.1 but 491.79477151483297 for JavaScript's 491.794771514833; exponent
 * form below 1e-4). Asked of SQLite itself rather than imitated: json_quote writes a bound double
 * exactly as json_object writes a REAL column.
 */
export function realText(db: ReadDb, value: number): string {
  let text = realTexts.get(value);
  if (text === undefined) {
    text = prepared(db, 'json.quoteReal', (root) => root.$client.prepare('SELECT json_quote(?)').pluck()).get(value) as string;
    if (realTexts.size >= MAX_REAL_TEXTS) realTexts.clear();
    realTexts.set(value, text);
  }
  return text;
}

/** A text column's value as json_object writes it (a missing value is NULL). */
function str(value: string | null | undefined): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value !== 'string') throw new NotBuilt();
  return JSON.stringify(value);
}

/** `coalesce(column, '')`. */
function textOrEmpty(value: string | null | undefined): string {
  return value === null || value === undefined ? '""' : str(value);
}

/**
 * A number as SQLite's json_object writes it: whole numbers (num() in shipmentJson.ts casts them,
 * and an INTEGER column stores them as integers) as JavaScript does, fractions as SQLite does.
 * NaN and infinities are stored as NULL or as REALs JavaScript has no text for: read back.
 */
function num(db: ReadDb, value: number | null | undefined): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new NotBuilt();
  if (Number.isInteger(value)) {
    if (!Number.isSafeInteger(value)) throw new NotBuilt();
    return String(value);
  }
  return realText(db, value);
}

/** A json column's value embedded as JSON: json() of the text drizzle stores (JSON.stringify), unchanged. */
function embedded(value: unknown): string {
  const text = JSON.stringify(value);
  if (typeof text !== 'string' || text.length > MAX_EMBEDDED) throw new NotBuilt();
  return text;
}

const byCreation = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

function partyJson(party: WrittenShipment['parties'][number]): string {
  const email = party.email === null || party.email === undefined || party.email === '' ? '' : `,"email":${str(party.email)}`;
  return (
    `{"type":${str(party.type)},"name":${str(party.name)},"attention":${textOrEmpty(party.attention)},"address1":${str(party.address1)},` +
    `"address2":${textOrEmpty(party.address2)},"postalCode":${str(party.postalCode)},"city":${str(party.city)},` +
    `"countryCode":${str(party.countryCode)},"phone":${textOrEmpty(party.phone)}${email},"attributes":${embedded(party.attributes)}}`
  );
}

function lineJson(db: ReadDb, line: WrittenParcel['lines'][number]): string {
  return (
    `{"id":${str(line.id)},"sku":${str(line.sku)},"quantity":${num(db, line.quantity)},"description":${textOrEmpty(line.description)},` +
    `"unitPrice":${num(db, line.unitPrice ?? 0)},"currency":${textOrEmpty(line.currency)},"vatPercent":${num(db, line.vatPercent ?? 0)},` +
    `"location":${textOrEmpty(line.location)},"countryOfOrigin":${textOrEmpty(line.countryOfOrigin)},` +
    `"tarrifNumber":${textOrEmpty(line.tarrifNumber)},"weight":${num(db, line.unitWeightKg)}}`
  );
}

function parcelJson(db: ReadDb, { row, lines }: WrittenParcel): string {
  // A new parcel has no carrier numbers: both members are left out (shipmentJson.ts).
  if ((row.trackingNumber ?? null) !== null || (row.parcelNumber ?? null) !== null) throw new NotBuilt();
  const ordered = [...lines].sort((a, b) => a.position - b.position);
  return (
    `{"id":${str(row.id)},"weight":${num(db, row.weight)},"weightUnit":${str(row.weightUnit ?? 'kg')},` +
    `"dimensions":{"length":${num(db, row.length ?? 0)},"width":${num(db, row.width ?? 0)},"height":${num(db, row.height ?? 0)}},` +
    `"orderLines":[${ordered.map((line) => lineJson(db, line)).join(',')}]}`
  );
}

/**
 * The full read of a shipment just written with exactly these rows, or undefined when it must be
 * read back. `db` is the connection it was written on (for realText).
 */
export function newShipmentJson(db: ReadDb, written: WrittenShipment): string | undefined {
  const { row } = written;
  // Members a new shipment does not have yet; a caller that gives them gets the read.
  if ((row.shippingRuleId ?? null) !== null || (row.trackingNumber ?? null) !== null) return undefined;
  try {
    const parties = [...written.parties].sort((a, b) => a.position - b.position);
    const parcelList = [...written.parcels].sort((a, b) => a.row.position - b.row.position);
    const activities = [...written.activities].sort((a, b) => byCreation(a as { createdAt: string; id: string }, b as { createdAt: string; id: string }));
    const pickup =
      row.pickupDate === null || row.pickupDate === undefined || row.pickupDate === ''
        ? ''
        : `,"pickupDetails":{"date":${str(row.pickupDate)},"from":${textOrEmpty(row.pickupFrom)},"to":${textOrEmpty(row.pickupTo)},"instruction":${textOrEmpty(row.pickupInstruction)}}`;
    const text =
      `{"id":${str(row.id)},"reference":${str(row.reference)},"senderAddressId":${str(row.senderAddressId)},` +
      `"parties":[${parties.map(partyJson).join(',')}],"type":${str(row.type)},` +
      `"carrierSettings":{"carrierId":${str(row.carrierId)},"productId":${str(row.productId)},"services":${embedded(row.services)},"additionalParameters":${embedded(row.additionalParameters)}},` +
      `"parcels":[${parcelList.map((parcel) => parcelJson(db, parcel)).join(',')}],"termOfTrade":${str(row.termOfTrade ?? 'DAP')},"status":${str(row.status)},` +
      `"orgId":${str(row.orgId)},"createdAt":${str(row.createdAt)},"updatedAt":${str(row.updatedAt)},` +
      `"servicePointId":${str(row.servicePointId)},"documents":[],"orderId":${str(row.orderId)},"shippingRuleId":null,` +
      `"returnForShipmentId":${str(row.returnForShipmentId)},"errors":[],` +
      `"activities":[${activities
        .map(
          (activity) =>
            `{"id":${str(activity.id)},"action":${str(activity.action)},"description":${str(activity.description)},"createdAt":${str(activity.createdAt)}}`,
        )
        .join(',')}],"logs":[]${pickup}}`;
    // JSON.stringify escapes an unpaired surrogate as \udXXX, where SQLite would have stored U+FFFD
    // (a JSON column's text keeps the escape, but one test covers both).
    if (text.includes('\\ud')) return undefined;
    return text;
  } catch (error) {
    if (error instanceof NotBuilt) return undefined;
    throw error;
  }
}
