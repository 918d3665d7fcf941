/** PATCH, DELETE and cancel of a shipment (decisions §4). */
import { eq } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { PartyInput, Shipment, ShipmentStatus, ShipmentUpdateInput } from '../../../src-shared/schemas/shipment';
import { SERVICE_POINT_ID_ATTRIBUTE, SERVICE_POINT_PARTY } from '../../../src-shared/servicePointParty';
import { shipments } from '../../db/schema';
import { inWriteTransaction, type WriteTx } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { findCarrierRowOfBooking } from '../carriers/carriers';
import { carrierCall } from '../carriers/carrierCalls';
import type { CarrierCallLog, VoidResult } from '../../carriers/adapter';
import { bookedShipmentOf } from './bookedShipment';
import { CarrierFailure } from '../../carriers/errors';
import { masked, writeCarrierCalls, type CarrierSecrets } from './carrierLogs';
import { findSenderAddressRow } from '../senderAddresses/senderAddresses';
import { emitEvent } from '../events';
import { linkLinesToOrders } from '../orders/allocation';
import { recomputeOrder } from '../orders/orderStatus';
import { withinOrderAllowance } from '../orders/placement';
import { findShippingRuleRow, ruleCarrierChoice } from '../shippingRules/rules';
import { findShippableOrderRow } from './fromOrder';
import { withSenderParty } from './create';
import { assertActionAllowed, assertBookingOutcomeKnown, assertTransition } from './lifecycle';
import { assertNotHandedOver, handedOverIn } from '../closeOuts/handedOver';
import {
  findShipmentRow,
  loadShipmentRecords,
  parcelDraftsFromInput,
  partyInputOf,
  readShipment,
  recordActivity,
  replaceParcels,
  replaceParties,
  type ShipmentRow,
} from './repository';

type ShipmentChanges = Partial<typeof shipments.$inferInsert>;

export function updateShipment(app: AppContext, orgId: string, shipmentId: string, input: ShipmentUpdateInput): Shipment {
  const now = app.now();
  return inWriteTransaction(app.db, (tx) => {
    const row = findShipmentRow(tx, orgId, shipmentId);
    const from = row.status as ShipmentStatus;
    const { status: target, ...fields } = input;
    const changesFields = Object.values(fields).some((value) => value !== undefined);
    // A status is judged by the transition table (decisions §4), which has no move to the status the
    // shipment already has: sent alone, that is a 409; next to field changes it changes nothing. Field
    // changes and an empty body are edits, refused once the shipment is booked or cancelled.
    const moves = target !== undefined && !(target === from && changesFields);
    if (!moves || changesFields) assertActionAllowed('updateFields', shipmentId, from);
    if (moves) assertTransition(shipmentId, from, target);
    if (target === 'cancelled') assertBookingOutcomeKnown(row, 'be cancelled');
    if (input.reference !== undefined && input.reference !== row.reference) assertBookingOutcomeKnown(row, 'have its reference changed');

    const changes: ShipmentChanges = {};
    if (input.reference !== undefined) changes.reference = input.reference;
    if (input.type !== undefined) changes.type = input.type;
    if (input.termOfTrade !== undefined) changes.termOfTrade = input.termOfTrade;
    if (input.servicePointId !== undefined) changes.servicePointId = input.servicePointId;
    if (input.pickupDetails !== undefined) {
      changes.pickupDate = input.pickupDetails?.date ?? null;
      changes.pickupFrom = input.pickupDetails?.from ?? null;
      changes.pickupTo = input.pickupDetails?.to ?? null;
      changes.pickupInstruction = input.pickupDetails?.instruction ?? null;
    }
    // Moving a shipment into an order is refused once that order is cancelled, as creating one there is.
    if (input.orderId !== undefined && input.orderId !== null && input.orderId !== row.orderId) findShippableOrderRow(tx, orgId, input.orderId);
    if (input.orderId !== undefined) changes.orderId = input.orderId;
    if (input.shippingRuleId !== undefined) applyRule(tx, orgId, input.shippingRuleId, changes, now, shipmentId);
    // A new sender address is checked here; the row also builds a missing sender party below.
    const newSenderAddress = input.senderAddressId !== undefined ? findSenderAddressRow(tx, orgId, input.senderAddressId) : null;
    if (input.senderAddressId !== undefined) changes.senderAddressId = input.senderAddressId;
    if (target !== undefined) changes.status = target;

    const senderAddressChanged = changes.senderAddressId !== undefined && changes.senderAddressId !== row.senderAddressId;
    // A service point changed by its id alone must not leave the party of the old one behind, which
    // the label and the carrier would read as where the parcel goes (decisions §13).
    const pointChanged = !input.parties && input.servicePointId !== undefined && input.servicePointId !== row.servicePointId;
    if (input.parties || senderAddressChanged || pointChanged) {
      // An explicit address wins over a rule's (applied above), so a checked one is the one in use.
      const senderAddress = newSenderAddress ?? findSenderAddressRow(tx, orgId, changes.senderAddressId ?? row.senderAddressId);
      // A new sender address brings its own sender party (as on create, decisions §5) unless the
      // body names one; the other parties stay as they are.
      const parties =
        input.parties ??
        (loadShipmentRecords(tx, [row])[0]?.parties ?? [])
          .filter((party) => !(senderAddressChanged && party.type === 'sender'))
          .map(partyInputOf)
          .filter((party) => !(pointChanged && isPartyOfOtherPoint(party, input.servicePointId ?? null)));
      replaceParties(tx, shipmentId, withSenderParty(tx, orgId, senderAddress, parties));
    }
    // New parcels, another order or another type may place more of an order than it has left.
    withinOrderAllowance(tx, [row.orderId, changes.orderId], () => {
      if (input.parcels) replaceParcels(tx, shipmentId, parcelDraftsFromInput(input.parcels, loadShipmentRecords(tx, [row])[0]?.parcels));
      tx.update(shipments)
        .set({ ...changes, updatedAt: now.toISOString() })
        .where(eq(shipments.id, shipmentId))
        .run();
      // New lines, lines now in another order's shipment, or lines of a shipment made outbound (an
      // inbound one's are tied to nothing) count against the right order lines.
      const relink = input.parcels || (input.orderId !== undefined && input.orderId !== row.orderId) || (input.type !== undefined && input.type !== row.type);
      if (relink) linkLinesToOrders(tx, [shipmentId]);
    });

    if (changesFields) recordActivity(tx, now, shipmentId, 'updated', `Changed ${changedNames(fields).join(', ')}`);
    if (target !== undefined && target !== from) recordActivity(tx, now, shipmentId, 'status_changed', `Status ${from} → ${target}`);
    const shipment = readShipment(tx, orgId, shipmentId);
    emitEvent(tx, now, orgId, target === 'cancelled' && from !== 'cancelled' ? 'shipment.cancelled' : 'shipment.updated', shipment);
    recomputeOrder(tx, now, row.orderId);
    if (shipment.orderId !== row.orderId) recomputeOrder(tx, now, shipment.orderId);
    return shipment;
  });
}

/** A service_point party made from a lookup of another point than `servicePointId` (src-shared/servicePointParty.ts). */
function isPartyOfOtherPoint(party: PartyInput, servicePointId: string | null): boolean {
  if (party.type !== SERVICE_POINT_PARTY) return false;
  const madeFor = party.attributes?.find((attribute) => attribute.name === SERVICE_POINT_ID_ATTRIBUTE)?.value;
  return madeFor !== undefined && madeFor !== servicePointId;
}

function changedNames(fields: Record<string, unknown>): string[] {
  return Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([name]) => name);
}

/** decisions §4: shippingRuleId re-applies the rule's carrier, product, services and sender. */
function applyRule(tx: WriteTx, orgId: string, ruleId: string | null, changes: ShipmentChanges, now: Date, shipmentId: string): void {
  changes.shippingRuleId = ruleId;
  if (ruleId === null) return;
  const rule = findShippingRuleRow(tx, orgId, ruleId);
  const choice = ruleCarrierChoice(rule);
  changes.carrierId = choice.carrier.carrierId;
  changes.productId = choice.carrier.productId;
  changes.services = choice.carrier.services;
  changes.additionalParameters = choice.carrier.additionalParameters;
  changes.senderAddressId = choice.senderAddressId;
  recordActivity(tx, now, shipmentId, 'shipping_rule_applied', `Shipping rule ${rule.name} applied`);
}

export function deleteShipment(app: AppContext, orgId: string, shipmentId: string): { message: string } {
  const now = app.now();
  return inWriteTransaction(app.db, (tx) => {
    const row = findShipmentRow(tx, orgId, shipmentId);
    assertActionAllowed('delete', shipmentId, row.status as ShipmentStatus);
    assertBookingOutcomeKnown(row, 'be deleted');
    tx.delete(shipments).where(eq(shipments.id, shipmentId)).run();
    recomputeOrder(tx, now, row.orderId);
    return { message: `Shipment ${shipmentId} deleted` };
  });
}

/**
 * Cancel from any status but processing and cancelled. A dispatched shipment is voided with the
 * carrier first, outside the transaction; if the carrier refuses, nothing changes here. Where the
 * carrier has no way to void (decisions §13), it is cancelled here with an activity saying what the
 * user must do.
 */
export async function cancelShipment(app: AppContext, orgId: string, shipmentId: string): Promise<Shipment> {
  const row = findShipmentRow(app.db, orgId, shipmentId);
  assertActionAllowed('cancel', shipmentId, row.status as ShipmentStatus);
  assertBookingOutcomeKnown(row, 'be cancelled');
  assertNotHandedOver(app.db, row);
  const voided = (row.status === 'dispatched' || row.status === 'partly_dispatched') && row.trackingNumber ? await voidBooking(app, orgId, row) : null;
  const now = app.now();
  return inWriteTransaction(app.db, (tx) => {
    // Re-read: another request may have changed the shipment while the carrier was called.
    const current = findShipmentRow(tx, orgId, shipmentId);
    if (voided) writeCarrierCalls(tx, now, shipmentId, voided.secrets, voided.calls);
    assertActionAllowed('cancel', shipmentId, current.status as ShipmentStatus);
    // Nobody follows a cancelled shipment's tracking.
    tx.update(shipments).set({ status: 'cancelled', trackingDueAt: null, updatedAt: now.toISOString() }).where(eq(shipments.id, shipmentId)).run();
    const description = !current.trackingNumber
      ? 'Cancelled'
      : voided?.result.voided === false
        ? `Cancelled here only: ${voided.result.instruction}`
        : `Cancelled; booking ${current.trackingNumber} voided`;
    // Handed over while the carrier voided it: the void stands, so the cancel does too, and says so.
    const handedOver = handedOverIn(tx, shipmentId);
    recordActivity(
      tx,
      now,
      shipmentId,
      'cancelled',
      handedOver ? `${description}; it had just been handed over in close-out ${handedOver.closeOutId}: strike it from that handover list` : description,
    );
    const shipment = readShipment(tx, orgId, shipmentId);
    emitEvent(tx, now, orgId, 'shipment.cancelled', shipment);
    recomputeOrder(tx, now, current.orderId);
    return shipment;
  });
}

/** The void, with the calls it made for `logs[]`; a refusal is logged too and changes nothing else. */
async function voidBooking(
  app: AppContext,
  orgId: string,
  row: ShipmentRow,
): Promise<{ result: VoidResult; calls: CarrierCallLog[]; secrets: CarrierSecrets }> {
  const { adapter, context, secrets } = carrierCall(app, findCarrierRowOfBooking(app.db, orgId, row.carrierId));
  const trackingNumber = row.trackingNumber as string;
  try {
    const result = await adapter.void(context, bookedShipmentOf(app.db, row));
    return { result, calls: context.http.calls, secrets };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // An adapter that failed before any call still shows the attempt in logs[].
    const calls: CarrierCallLog[] = context.http.calls.length
      ? context.http.calls
      : [{ request: { operation: 'void', trackingNumber }, response: null, statusCode: null, error: message, durationMs: 0 }];
    inWriteTransaction(app.db, (tx) => writeCarrierCalls(tx, app.now(), row.id, secrets, calls));
    throw new ApiError('CARRIER_ERROR', `The carrier did not void booking ${trackingNumber}; the shipment is unchanged`, {
      errors: (error instanceof CarrierFailure ? error.errors : [{ code: 'VOID_FAILED', message }]).map((item) => ({
        code: item.code,
        message: masked(secrets, item.message) as string,
      })),
    });
  }
}
