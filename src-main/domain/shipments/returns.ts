/**
 * Return shipments (decisions §7): from a dispatched outbound shipment, sender and receiver swapped,
 * booked at once. A shipment may have several returns.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { PartyInput, Shipment, ShipmentStatus } from '../../../src-shared/schemas/shipment';
import { carriers } from '../../db/schema';
import { inWriteTransaction, type ReadDb } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { carrierAdapterFor } from '../../carriers/catalogue';
import { productsOfCarrier } from '../carriers/carriers';
import { findShippingRuleRow, ruleCarrierChoice, type ShippingRuleRow } from '../shippingRules/rules';
import { beginBooking, callCarrier, finishBooking, keepUnsent } from './booking';
import { insertShipment, type CarrierChoice } from './create';
import { assertActionAllowed } from './lifecycle';
import { loadShipmentRecord, partyInputOf, recordActivity, type ParcelDraft, type PartyRow, type ShipmentRecord, type ShipmentRow } from './repository';

/** The live rule, or null when there is none or it was deleted since. */
export function liveRuleOrNull(db: ReadDb, orgId: string, ruleId: string | null): ShippingRuleRow | null {
  if (!ruleId) return null;
  try {
    return findShippingRuleRow(db, orgId, ruleId);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'SHIPPING_RULE_NOT_FOUND') return null;
    throw error;
  }
}

interface ReturnRoute {
  carrier: CarrierChoice;
  shippingRuleId: string | null;
  /** For the activity: how the carrier was chosen. */
  via: string;
}

/** The original rule's return rule, else the first inbound (return) product of the same carrier. */
function returnRoute(app: AppContext, db: ReadDb, original: ShipmentRow): ReturnRoute {
  const rule = liveRuleOrNull(db, original.orgId, original.shippingRuleId);
  const returnRule = rule ? liveRuleOrNull(db, original.orgId, rule.returnShippingRuleId) : null;
  if (returnRule) {
    return { carrier: ruleCarrierChoice(returnRule).carrier, shippingRuleId: returnRule.id, via: `return rule ${returnRule.name}` };
  }
  const carrier = db
    .select()
    .from(carriers)
    .where(and(eq(carriers.orgId, original.orgId), eq(carriers.id, original.carrierId), isNull(carriers.deletedAt)))
    .get();
  const adapter = carrier ? carrierAdapterFor(carrier.carrierSlug) : undefined;
  const product = carrier && adapter ? productsOfCarrier(app, carrier).find((candidate) => candidate.type === 'inbound') : undefined;
  if (carrier && product) {
    return {
      carrier: { carrierId: carrier.id, productId: product.productId, services: [], additionalParameters: {} },
      shippingRuleId: null,
      via: `${carrier.name}'s return product ${product.name}`,
    };
  }
  const ruleHint = rule ? `shipping rule ${rule.name} has no return rule` : 'the shipment has no shipping rule';
  const carrierHint = carrier ? `carrier ${carrier.name} offers no return product` : `carrier ${original.carrierId} no longer exists`;
  throw new ApiError(
    'RETURN_RULE_MISSING',
    `Shipment ${original.reference} has no way back: ${ruleHint} and ${carrierHint}. Give the rule a return shipping rule, or use a carrier with a return product.`,
  );
}

/** decisions §7: `RET-` + the original's reference, for every return of it (references need not be unique; `returnForShipmentId` links them). */
function returnReference(original: ShipmentRow): string {
  return `RET-${original.reference}`;
}

/** The original's sender becomes the receiver and the other way round; other parties are dropped. */
function swappedParties(parties: readonly PartyRow[]): PartyInput[] {
  const as = (party: PartyRow | undefined, type: 'sender' | 'receiver'): PartyInput[] => (party ? [{ ...partyInputOf(party), type }] : []);
  return [
    ...as(
      parties.find((party) => party.type === 'receiver'),
      'sender',
    ),
    ...as(
      parties.find((party) => party.type === 'sender'),
      'receiver',
    ),
  ];
}

/**
 * Parcels copied with new ids. Lines are copied without their order-line link: a return places
 * nothing of the order (allocation also skips returns by return_for_shipment_id).
 */
function copiedParcels(record: ShipmentRecord): ParcelDraft[] {
  return record.parcels.map((parcel) => ({
    weight: parcel.weight,
    weightUnit: parcel.weightUnit,
    dimensions: { length: parcel.length, width: parcel.width, height: parcel.height },
    orderLines: parcel.lines.map((line) => ({
      sku: line.sku,
      quantity: line.quantity,
      description: line.description,
      unitPrice: line.unitPrice,
      currency: line.currency,
      vatPercent: line.vatPercent,
      location: line.location,
      countryOfOrigin: line.countryOfOrigin,
      tarrifNumber: line.tarrifNumber,
      unitWeightKg: line.unitWeightKg,
      orderLineId: null,
    })),
  }));
}

/**
 * POST /shipments/{id}/create-return. Creating the return and starting its booking is one
 * transaction: without a route (RETURN_RULE_MISSING) nothing is created. A return that cannot be sent
 * for what it lacks (the original had no receiver, so the return has no sender; a parcel without
 * weight), or that the carrier then refuses, stays in error with its errors[] and is answered with
 * 200 (decisions §7), not thrown.
 */
export async function createReturn(app: AppContext, orgId: string, shipmentId: string): Promise<Shipment> {
  const now = app.now();
  const prepared = inWriteTransaction(app.db, (tx) => {
    const original = loadShipmentRecord(tx, orgId, shipmentId);
    const { row } = original;
    assertActionAllowed('createReturn', shipmentId, row.status as ShipmentStatus);
    if (row.type !== 'outbound') {
      throw new ApiError('SHIPMENT_INVALID_STATE', `Shipment ${shipmentId} is ${row.type}; only outbound shipments get a return`);
    }
    const route = returnRoute(app, tx, row);
    const created = insertShipment(tx, now, orgId, {
      reference: returnReference(row),
      senderAddressId: row.senderAddressId,
      type: 'inbound',
      carrier: route.carrier,
      parties: swappedParties(original.parties),
      parcels: copiedParcels(original),
      termOfTrade: row.termOfTrade,
      status: 'pending',
      servicePointId: null,
      orderId: row.orderId,
      shippingRuleId: route.shippingRuleId,
      returnForShipmentId: row.id,
    });
    recordActivity(tx, now, row.id, 'return_created', `Return ${created.reference} (${created.id}) created via ${route.via}`);
    try {
      return beginBooking(app, tx, now, orgId, created.id);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'SHIPMENT_INCOMPLETE') return keepUnsent(tx, now, orgId, created.id, error);
      throw error;
    }
  });
  // Kept in error before any carrier call: the answer is that return as it stands.
  if (!('request' in prepared)) return prepared;
  const outcome = await callCarrier(app, prepared);
  return finishBooking(app, prepared, outcome).shipment;
}
