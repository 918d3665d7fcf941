/**
 * The full read of a shipment (interface §2.1 plus the decisions §4 extras) as JSON text built by
 * SQLite in one statement: the shipment row, parties, parcels with their order lines, documents,
 * errors, activities, carrier logs and the shipping rule summary. This is the one place that gives
 * a shipment its API shape; `GET …/shipments/{id}` sends the text as it is, everything else parses
 * it. One statement instead of nine queries and a JavaScript mapping is what keeps a read cheap.
 */
import { getTableName, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
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
  trackingEvents,
} from '../../db/schema';
import type { Db } from '../../db/types';
import type { WatchedTable } from '../../db/readCache';

/** Empty text for a missing optional string (decisions §1: the field is present, `''`). */
const text = (column: SQLiteColumn) => sql`coalesce(${column}, '')`;
/** A whole number without SQLite's `.0` (30, not 30.0), as JavaScript would write it. */
const num = (column: SQLiteColumn | SQL) => sql`iif(${column} = cast(${column} as integer), cast(${column} as integer), ${column})`;
/** A JSON column embedded as JSON, not as a string of JSON. */
const embedded = (column: SQLiteColumn) => sql`json(${column})`;
const bool = (column: SQLiteColumn) => sql`json(iif(${column}, 'true', 'false'))`;

/**
 * Optional members that are not nullable are left out when empty (decisions §1): written as null,
 * then removed. A path that names no member removes nothing, so each one is removed only when null.
 */
const unlessNull = (member: string, value: SQL) => sql`iif(${value} IS NULL, ${sql.raw(`'$.${member}'`)}, '$.__none')`;

// A party's email is an email or absent, never "" (interface 2.2 gives it the email format).
const partiesJson = sql`(
  SELECT json_group_array(json_remove(json_object(
    'type', ${shipmentParties.type}, 'name', ${shipmentParties.name}, 'attention', ${text(shipmentParties.attention)},
    'address1', ${shipmentParties.address1}, 'address2', ${text(shipmentParties.address2)}, 'postalCode', ${shipmentParties.postalCode},
    'city', ${shipmentParties.city}, 'countryCode', ${shipmentParties.countryCode}, 'phone', ${text(shipmentParties.phone)},
    'email', ${shipmentParties.email}, 'attributes', ${embedded(shipmentParties.attributes)}
  ), ${unlessNull('email', sql`nullif(${shipmentParties.email}, '')`)}) ORDER BY ${shipmentParties.position})
  FROM ${shipmentParties} WHERE ${shipmentParties.shipmentId} = ${shipments.id})`;

const orderLinesJson = sql`(
  SELECT json_group_array(json_object(
    'id', ${parcelOrderLines.id}, 'sku', ${parcelOrderLines.sku}, 'quantity', ${parcelOrderLines.quantity},
    'description', ${text(parcelOrderLines.description)}, 'unitPrice', ${num(sql`coalesce(${parcelOrderLines.unitPrice}, 0)`)},
    'currency', ${text(parcelOrderLines.currency)}, 'vatPercent', ${num(sql`coalesce(${parcelOrderLines.vatPercent}, 0)`)},
    'location', ${text(parcelOrderLines.location)}, 'countryOfOrigin', ${text(parcelOrderLines.countryOfOrigin)},
    'tarrifNumber', ${text(parcelOrderLines.tarrifNumber)}, 'weight', ${num(parcelOrderLines.unitWeightKg)}
  ) ORDER BY ${parcelOrderLines.position})
  FROM ${parcelOrderLines} WHERE ${parcelOrderLines.parcelId} = ${parcels.id})`;

// A parcel's carrier numbers show once it is booked (decisions §13).
const parcelsJson = sql`(
  SELECT json_group_array(json_remove(json_object(
    'id', ${parcels.id}, 'weight', ${num(parcels.weight)}, 'weightUnit', ${parcels.weightUnit},
    'dimensions', json_object('length', ${num(parcels.length)}, 'width', ${num(parcels.width)}, 'height', ${num(parcels.height)}),
    'orderLines', json(${orderLinesJson}), 'trackingNumber', ${parcels.trackingNumber}, 'parcelNumber', ${parcels.parcelNumber}
  ), ${unlessNull('trackingNumber', sql`${parcels.trackingNumber}`)}, ${unlessNull('parcelNumber', sql`${parcels.parcelNumber}`)}) ORDER BY ${parcels.position})
  FROM ${parcels} WHERE ${parcels.shipmentId} = ${shipments.id})`;

const documentsJson = sql`(
  SELECT json_group_array(json_object(
    'id', ${documents.id}, 'shipmentId', ${documents.shipmentId}, 'documentType', ${documents.documentType},
    'format', ${documents.format}, 'content', base64(${documents.content}), 'size', ${documents.size},
    'createdAt', ${documents.createdAt}, 'updatedAt', ${documents.updatedAt}
  ) ORDER BY ${documents.createdAt}, ${documents.id})
  FROM ${documents} WHERE ${documents.shipmentId} = ${shipments.id})`;

const errorsJson = sql`(
  SELECT json_group_array(json_object(
    'id', ${shipmentErrors.id}, 'code', ${shipmentErrors.code}, 'message', ${shipmentErrors.message}, 'createdAt', ${shipmentErrors.createdAt}
  ) ORDER BY ${shipmentErrors.createdAt}, ${shipmentErrors.id})
  FROM ${shipmentErrors} WHERE ${shipmentErrors.shipmentId} = ${shipments.id})`;

const activitiesJson = sql`(
  SELECT json_group_array(json_object(
    'id', ${shipmentActivities.id}, 'action', ${shipmentActivities.action}, 'description', ${shipmentActivities.description},
    'createdAt', ${shipmentActivities.createdAt}
  ) ORDER BY ${shipmentActivities.createdAt}, ${shipmentActivities.id})
  FROM ${shipmentActivities} WHERE ${shipmentActivities.shipmentId} = ${shipments.id})`;

const logsJson = sql`(
  SELECT json_group_array(json_object(
    'id', ${shipmentLogs.id}, 'direction', ${shipmentLogs.direction}, 'request', ${embedded(shipmentLogs.request)},
    'response', ${embedded(shipmentLogs.response)}, 'statusCode', ${shipmentLogs.statusCode}, 'error', ${shipmentLogs.error},
    'duration', ${shipmentLogs.duration}, 'createdAt', ${shipmentLogs.createdAt}
  ) ORDER BY ${shipmentLogs.createdAt}, ${shipmentLogs.id})
  FROM ${shipmentLogs} WHERE ${shipmentLogs.shipmentId} = ${shipments.id})`;

/** The shipping rule summary (a shipment's or an order's `shippingRule`). */
const ruleObject = sql`json_object(
  'id', ${shippingRules.id}, 'name', ${shippingRules.name}, 'carrierId', ${shippingRules.carrierId},
  'productId', ${shippingRules.productId}, 'services', ${embedded(shippingRules.services)},
  'senderAddressId', ${shippingRules.senderAddressId}, 'returnShippingRuleId', ${shippingRules.returnShippingRuleId},
  'autoCreateReturnShipment', ${bool(shippingRules.autoCreateReturnShipment)}
)`;

const ruleJson = sql`(SELECT ${ruleObject} FROM ${shippingRules} WHERE ${shippingRules.id} = ${shipments.shippingRuleId})`;

const pickupJson = sql`iif(${shipments.pickupDate} <> '', json_object('date', ${shipments.pickupDate}, 'from', ${text(shipments.pickupFrom)},
  'to', ${text(shipments.pickupTo)}, 'instruction', ${text(shipments.pickupInstruction)}), NULL)`;
// Newest event first, as a tracking page shows them.
const trackingEventsJson = sql`(
  SELECT json_group_array(json_object(
    'at', ${trackingEvents.at}, 'code', ${trackingEvents.code}, 'description', ${trackingEvents.description}, 'location', ${trackingEvents.location}
  ) ORDER BY ${trackingEvents.at} DESC, ${trackingEvents.id} DESC)
  FROM ${trackingEvents} WHERE ${trackingEvents.shipmentId} = ${shipments.id})`;
const trackingJson = sql`iif(${shipments.trackingNumber} <> '', json_object('number', ${shipments.trackingNumber}, 'url', ${text(shipments.trackingUrl)},
  'status', coalesce(${shipments.trackingStatus}, 'pending'), 'events', json(${trackingEventsJson}), 'lastCheckedAt', ${shipments.trackingCheckedAt}), NULL)`;

const shipmentJson = sql<string>`json_remove(json_object(
  'id', ${shipments.id}, 'reference', ${shipments.reference}, 'senderAddressId', ${shipments.senderAddressId},
  'parties', json(${partiesJson}), 'type', ${shipments.type},
  'carrierSettings', json_object('carrierId', ${shipments.carrierId}, 'productId', ${shipments.productId},
    'services', ${embedded(shipments.services)}, 'additionalParameters', ${embedded(shipments.additionalParameters)}),
  'parcels', json(${parcelsJson}), 'termOfTrade', ${shipments.termOfTrade}, 'status', ${shipments.status},
  'orgId', ${shipments.orgId}, 'createdAt', ${shipments.createdAt}, 'updatedAt', ${shipments.updatedAt},
  'servicePointId', ${shipments.servicePointId}, 'documents', json(${documentsJson}), 'orderId', ${shipments.orderId},
  'shippingRuleId', ${shipments.shippingRuleId}, 'returnForShipmentId', ${shipments.returnForShipmentId},
  'errors', json(${errorsJson}), 'activities', json(${activitiesJson}), 'logs', json(${logsJson}),
  'pickupDetails', ${pickupJson}, 'tracking', ${trackingJson}, 'shippingRule', json(${ruleJson})
), ${unlessNull('pickupDetails', pickupJson)}, ${unlessNull('tracking', trackingJson)}, ${unlessNull('shippingRule', ruleJson)})`;

/** One shipment of one organization, found by primary key. */
export const shipmentJsonById = (root: Db) =>
  root
    .select({ json: shipmentJson })
    .from(shipments)
    .where(sql`${shipments.id} = ${sql.placeholder('shipmentId')} AND ${shipments.orgId} = ${sql.placeholder('orgId')}`)
    .prepare();

/**
 * Many shipments of one organization in one statement, with their ids. `+org_id` keeps SQLite on
 * the primary key: the cost does not grow with the organization.
 */
export const shipmentJsonByIds = (root: Db) =>
  root
    .select({ id: shipments.id, json: shipmentJson })
    .from(shipments)
    .where(sql`${shipments.id} IN (SELECT value FROM json_each(${sql.placeholder('ids')})) AND +${shipments.orgId} = ${sql.placeholder('orgId')}`)
    .prepare();

export const ruleSummaryJsonById = (root: Db) =>
  root
    .select({ json: sql<string>`${ruleObject}` })
    .from(shippingRules)
    .where(sql`${shippingRules.id} = ${sql.placeholder('ruleId')}`)
    .prepare();

const byShipment = (table: Parameters<typeof getTableName>[0] & { shipmentId: { name: string } }): WatchedTable => ({
  table: getTableName(table),
  key: `ROW."${table.shipmentId.name}"`,
});

/**
 * Every table the full read is built from, and how a written row names its shipment: the read cache
 * (readCache.ts) watches exactly these. A table added to the read belongs here too.
 */
export const tablesOfTheFullRead: WatchedTable[] = [
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
  byShipment(trackingEvents),
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
