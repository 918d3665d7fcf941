/**
 * Creating shipments: the one insert path used by create, order-based create, split and returns,
 * so references, plan counting, the `created` activity, the event and the order's status are
 * handled the same way everywhere.
 */
import { eq, sql } from 'drizzle-orm';
import type { PartyInput, Shipment, ShipmentCreateInput, ShipmentStatus, ShipmentType } from '../../../src-shared/schemas/shipment';
import { orgs, shipmentParties, shipments } from '../../db/schema';
import { newId } from '../../db/ids';
import { inWriteTransaction, type ReadDb, type WriteTx } from '../../db/tx';
import type { Db } from '../../db/types';
import { insertRows, prepared } from '../../db/prepared';
import { withSearchDocsDeferred } from '../../db/search';
import type { AppContext } from '../../app/kernel/context';
import { JsonText } from '../../app/kernel/jsonText';
import type { BookingParty } from '../../carriers/adapter';
import { findCarrierRow } from '../carriers/carriers';
import { findSenderAddressRow, type SenderAddressRow } from '../senderAddresses/senderAddresses';
import { findOrgRow } from '../orgs/orgs';
import { emitEvents } from '../events';
import { countShipmentsCreated } from '../orgs/usage';
import { linkLinesToOrders, parcelToShip } from '../orders/allocation';
import { recomputeOrder } from '../orders/orderStatus';
import { withinOrderAllowance } from '../orders/placement';
import { findShippableOrderRow, receiverFromOrder } from './fromOrder';
import { insertParcelsOf, parcelDraftsFromInput, partyRows, readShipmentsJson, recordActivities, type ActivityAction, type ParcelDraft } from './repository';
import { newShipmentJson, type WrittenShipment } from './newShipmentJson';

export interface CarrierChoice {
  carrierId: string;
  productId: string;
  services: string[];
  additionalParameters: Record<string, unknown>;
}

/** A shipment with every default resolved, ready to be written. */
export interface ShipmentDraft {
  reference?: string | undefined;
  senderAddressId: string;
  type: ShipmentType;
  carrier: CarrierChoice;
  parties: PartyInput[];
  parcels: ParcelDraft[];
  termOfTrade: string;
  status: ShipmentStatus;
  servicePointId: string | null;
  pickupDetails?: { date: string; from: string; to: string; instruction: string } | undefined;
  orderId: string | null;
  shippingRuleId: string | null;
  returnForShipmentId?: string | null;
  /** Further activities to record after `created` (e.g. shipping_rule_applied), before the read. */
  activities?: { action: ActivityAction; description: string }[];
}

const advanceShipmentSeq = (root: Db) =>
  root
    .update(orgs)
    .set({ shipmentSeq: sql`${orgs.shipmentSeq} + ${sql.placeholder('count')}` })
    .where(eq(orgs.id, sql.placeholder('orgId')))
    .returning({ seq: orgs.shipmentSeq })
    .prepare();

/** The next `count` references `SHP-000001`…, from the organization's own sequence, in one write. */
export function nextReferences(tx: WriteTx, orgId: string, count: number): string[] {
  if (count === 0) return [];
  const row = prepared(tx, 'orgs.advanceShipmentSeq', advanceShipmentSeq).get({ orgId, count });
  const last = row?.seq ?? count;
  return Array.from({ length: count }, (_, i) => `SHP-${String(last - count + 1 + i).padStart(6, '0')}`);
}

/**
 * The carrier must be live in the organization (404 otherwise). Whether it offers the product and
 * services is checked when the shipment is sent (decisions §8 "known product"), as for every shipment.
 */
export function checkCarrierChoice(db: ReadDb, orgId: string, choice: CarrierChoice): void {
  findCarrierRow(db, orgId, choice.carrierId);
}

/** decisions §5: the sender party built from the sender address, named after the company. */
export function senderPartyFromAddress(db: ReadDb, orgId: string, address: SenderAddressRow): PartyInput {
  const org = findOrgRow(db, orgId);
  return {
    type: 'sender',
    name: org.companyName || address.name,
    attention: address.attContact,
    address1: address.address1,
    ...(address.address2 ? { address2: address.address2 } : {}),
    postalCode: address.zipcode,
    city: address.city,
    countryCode: address.countryCode,
    phone: address.phone,
    ...(address.email ? { email: address.email } : {}),
    attributes: [],
  };
}

/** A sender address as a carrier call names it (pickups, close-outs): the same party a shipment gets. */
export function senderBookingParty(db: ReadDb, orgId: string, address: SenderAddressRow): BookingParty {
  const party = senderPartyFromAddress(db, orgId, address);
  return {
    name: party.name,
    attention: party.attention || null,
    company: party.name,
    address1: party.address1,
    address2: party.address2 || null,
    postalCode: party.postalCode,
    city: party.city,
    countryCode: party.countryCode,
    phone: party.phone || null,
    email: party.email || null,
  };
}

/** The parties with a sender party built from `address` when none was given. Callers pass the row they checked. */
export function withSenderParty(db: ReadDb, orgId: string, address: SenderAddressRow, parties: PartyInput[]): PartyInput[] {
  if (parties.some((party) => party.type === 'sender')) return parties;
  return [senderPartyFromAddress(db, orgId, address), ...parties];
}

/**
 * Writes resolved shipments with everything that goes with a new one — plan usage, references, the
 * `created` activity, the order's status, `shipment.created` — and returns their full reads. Rows
 * are written with statements prepared once per connection (a batch split writes 100 at once). Runs
 * inside the caller's transaction; `fill` runs after the parcels exist and before the reads, for
 * callers that move existing order lines into them.
 */
export function insertShipments(tx: WriteTx, now: Date, orgId: string, drafts: readonly ShipmentDraft[], fill?: (shipmentIds: string[]) => void): Shipment[] {
  return insertShipmentsJson(tx, now, orgId, drafts, fill).map((json) => json.parse());
}

/** insertShipments, with the full reads as the JSON text SQLite built (what a GET sends). */
export function insertShipmentsJson(
  tx: WriteTx,
  now: Date,
  orgId: string,
  drafts: readonly ShipmentDraft[],
  fill?: (shipmentIds: string[]) => void,
): JsonText<Shipment>[] {
  if (!drafts.length) return [];
  const written = writeNewShipments(tx, now, orgId, drafts, fill);
  // The answer and the event's data are the same text a GET of the shipment sends: built from the
  // rows just written (newShipmentJson.ts), or read back when a `fill` moved rows in or the builder
  // cannot be sure of SQLite's text.
  const built = fill ? [] : written.map((shipment) => newShipmentJson(tx, shipment));
  const toRead = written.filter((_, i) => built[i] === undefined).map((shipment) => shipment.row.id as string);
  const read = new Map(readShipmentsJson(tx, orgId, toRead).map((json, i) => [toRead[i] as string, json]));
  const created = written.map((shipment, i) => {
    const text = built[i];
    return text === undefined ? (read.get(shipment.row.id as string) as JsonText<Shipment>) : new JsonText<Shipment>(text);
  });
  emitEvents(tx, now, orgId, 'shipment.created', created);
  // After the shipments' own events: webhooks hear of a change before of what it did to its order.
  for (const orderId of new Set(drafts.map((draft) => draft.orderId))) recomputeOrder(tx, now, orderId);
  return created;
}

/**
 * The rows of new shipments with everything that goes with them but the event — plan usage,
 * references, parties, parcels and lines tied to their orders' lines, the `created` activity — in
 * the order of `drafts`, as they were written.
 */
export function writeNewShipments(
  tx: WriteTx,
  now: Date,
  orgId: string,
  drafts: readonly ShipmentDraft[],
  fill?: (shipmentIds: string[]) => void,
): WrittenShipment[] {
  // What the new shipments (and a split's `fill`) place of an order stays within what it has left.
  const written = withinOrderAllowance(
    tx,
    drafts.map((draft) => draft.orderId),
    () => writeShipmentRows(tx, now, orgId, drafts, fill),
  );
  const activities = recordActivities(
    tx,
    now,
    drafts.flatMap((draft, i) => {
      const shipmentId = written[i]?.row.id as string;
      return [
        { shipmentId, action: 'created' as const, description: `Shipment created with status ${draft.status}` },
        ...(draft.activities ?? []).map((activity) => ({ shipmentId, ...activity })),
      ];
    }),
  );
  const byShipment = new Map(written.map((shipment) => [shipment.row.id, shipment]));
  for (const activity of activities) byShipment.get(activity.shipmentId)?.activities.push(activity);
  return written;
}

/** The rows of new shipments, their parcels and lines, tied to their orders' lines. */
function writeShipmentRows(tx: WriteTx, now: Date, orgId: string, drafts: readonly ShipmentDraft[], fill?: (shipmentIds: string[]) => void): WrittenShipment[] {
  countShipmentsCreated(tx, findOrgRow(tx, orgId), now, drafts.length);
  const at = now.toISOString();
  const generated = nextReferences(tx, orgId, drafts.filter((draft) => draft.reference === undefined).length);
  const ids = drafts.map(() => newId('shipment'));
  const rows = drafts.map((draft, i): typeof shipments.$inferInsert => ({
    id: ids[i] as string,
    orgId,
    reference: draft.reference ?? (generated.shift() as string),
    senderAddressId: draft.senderAddressId,
    type: draft.type,
    carrierId: draft.carrier.carrierId,
    productId: draft.carrier.productId,
    services: draft.carrier.services,
    additionalParameters: draft.carrier.additionalParameters,
    termOfTrade: draft.termOfTrade,
    status: draft.status,
    servicePointId: draft.servicePointId,
    pickupDate: draft.pickupDetails?.date ?? null,
    pickupFrom: draft.pickupDetails?.from ?? null,
    pickupTo: draft.pickupDetails?.to ?? null,
    pickupInstruction: draft.pickupDetails?.instruction ?? null,
    orderId: draft.orderId,
    shippingRuleId: draft.shippingRuleId,
    returnForShipmentId: draft.returnForShipmentId ?? null,
    createdAt: at,
    updatedAt: at,
  }));
  // The new shipments' search documents are written once, after their receivers and parcels.
  const { parties, parcels } = withSearchDocsDeferred(tx, 'shipment', ids, () => {
    insertRows(tx, shipments, rows);
    const parties = drafts.map((draft, i) => partyRows(ids[i] as string, draft.parties));
    insertRows(tx, shipmentParties, parties.flat());
    const parcels = insertParcelsOf(
      tx,
      drafts.map((draft, i) => ({ shipmentId: ids[i] as string, parcels: draft.parcels })),
    );
    return { parties, parcels };
  });
  fill?.(ids);
  const withOrder = ids.filter((_, i) => drafts[i]?.orderId);
  if (withOrder.length) linkLinesToOrders(tx, withOrder);
  return rows.map((row, i) => ({ row, parties: parties[i] ?? [], parcels: parcels[i] ?? [], activities: [] }));
}

export function insertShipment(tx: WriteTx, now: Date, orgId: string, draft: ShipmentDraft, fill?: (shipmentIds: string[]) => void): Shipment {
  return insertShipments(tx, now, orgId, [draft], fill)[0] as Shipment;
}

/** POST /shipments (decisions §5): answered with the full read as SQLite built it, as a GET sends it. */
export function createShipment(app: AppContext, orgId: string, input: ShipmentCreateInput): JsonText<Shipment> {
  const now = app.now();
  return inWriteTransaction(app.db, (tx) => {
    const carrier = findCarrierRow(tx, orgId, input.carrierSettings.carrierId);
    const senderAddressId = input.senderAddressId ?? carrier.senderAddressId;
    const senderAddress = findSenderAddressRow(tx, orgId, senderAddressId);

    let parties = input.parties ?? [];
    let parcels = input.parcels ? parcelDraftsFromInput(input.parcels) : [];
    const orderId = input.orderId ?? null;
    let servicePointId = input.servicePointId ?? null;
    if (orderId) {
      const order = findShippableOrderRow(tx, orgId, orderId);
      // The service point chosen at checkout, unless the request says otherwise (decisions §13).
      if (input.servicePointId === undefined) servicePointId = order.servicePointId;
      // With an order and without parties/parcels, they are copied from the order (ref).
      if (!input.parties) parties = [receiverFromOrder(order)];
      if (!input.parcels) {
        parcels = [parcelToShip(tx, order)];
      }
    }
    return insertShipmentsJson(tx, now, orgId, [
      {
        reference: input.reference,
        senderAddressId,
        type: input.type,
        carrier: input.carrierSettings,
        parties: withSenderParty(tx, orgId, senderAddress, parties),
        parcels,
        termOfTrade: input.termOfTrade,
        status: input.status ?? 'pending',
        servicePointId,
        pickupDetails: input.pickupDetails,
        orderId,
        shippingRuleId: null,
      },
    ])[0] as JsonText<Shipment>;
  });
}
