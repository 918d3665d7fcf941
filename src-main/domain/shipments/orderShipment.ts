/** POST /orders/{orderId}/shipments (decisions §5). */
import { ApiError } from '../../../src-shared/errors';
import type { OrderShipmentCreateInput, PartyInput, Shipment } from '../../../src-shared/schemas/shipment';
import { withServicePointParty } from '../../../src-shared/servicePointParty';
import { inWriteTransaction, type ReadDb } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { findCarrierRow } from '../carriers/carriers';
import { findSenderAddressRow } from '../senderAddresses/senderAddresses';
import { liveShippingRuleRow, ruleCarrierChoice } from '../shippingRules/rules';
import { matchShippingRules } from '../shippingRules/match';
import { toKg } from '../units';
import { checkCarrierChoice, insertShipment, withSenderParty, type CarrierChoice } from './create';
import { findShippableOrderRow, receiverFor, type OrderRow } from './fromOrder';
import { parcelToShip } from '../orders/allocation';
import { recordError, type ParcelDraft } from './repository';
import { writeCarrierCalls } from './carrierLogs';
import { chooseServicePoint } from './orderServicePoint';

interface ResolvedCarrier {
  carrier: CarrierChoice;
  ruleId: string | null;
  /** The activity's words when a rule chose the carrier. */
  ruleApplied: string | null;
  ruleSenderAddressId: string | null;
}

/**
 * The carrier: the explicit carrierId + productId if given (a user's choice is never overridden),
 * else the order's shipping rule, else the best matching rule for where the parcel goes.
 */
function resolveCarrier(
  tx: ReadDb,
  orgId: string,
  order: OrderRow,
  countryCode: string,
  parcel: ParcelDraft,
  input: OrderShipmentCreateInput,
): ResolvedCarrier {
  if (input.carrierId || input.productId) {
    if (!input.carrierId || !input.productId) {
      throw new ApiError('VALIDATION_FAILED', 'carrierId and productId go together', {
        details: [{ path: input.carrierId ? 'body.productId' : 'body.carrierId', message: 'Required when the other is given' }],
      });
    }
    const carrier: CarrierChoice = {
      carrierId: input.carrierId,
      productId: input.productId,
      services: input.services ?? [],
      additionalParameters: input.additionalParameters ?? {},
    };
    checkCarrierChoice(tx, orgId, carrier);
    return { carrier, ruleId: null, ruleApplied: null, ruleSenderAddressId: null };
  }
  // The order's rule while it lives; one deleted since (retired, replaced by others) leaves the
  // choice to rule matching, as for an order without one, and the activity says so.
  const ordersRule = order.shippingRuleId ? liveShippingRuleRow(tx, orgId, order.shippingRuleId) : undefined;
  const rule =
    ordersRule ??
    matchShippingRules(tx, orgId, {
      countryCode,
      weightKg: toKg(parcel.weight, parcel.weightUnit),
      ...(order.totalAmount !== null ? { orderTotal: order.totalAmount } : {}),
      ...(order.currency ? { currency: order.currency } : {}),
    })[0]?.rule;
  if (!rule) {
    throw new ApiError(
      'NO_MATCHING_SHIPPING_RULE',
      `No shipping rule matches order ${order.orderNumber} (${countryCode}, ${parcel.weight} kg); choose a carrier and product or add a rule`,
    );
  }
  const choice = ruleCarrierChoice(rule);
  const carrier: CarrierChoice = {
    ...choice.carrier,
    ...(input.services ? { services: input.services } : {}),
    ...(input.additionalParameters ? { additionalParameters: { ...choice.carrier.additionalParameters, ...input.additionalParameters } } : {}),
  };
  const retired = order.shippingRuleId !== null && !ordersRule ? ` (the order's rule ${order.shippingRuleId} was deleted)` : '';
  return { carrier, ruleId: rule.id, ruleApplied: `Shipping rule ${rule.name} applied${retired}`, ruleSenderAddressId: choice.senderAddressId };
}

interface OrderShipmentPlan {
  order: OrderRow;
  parcel: ParcelDraft;
  given: PartyInput[];
  receiver: PartyInput;
  resolved: ResolvedCarrier;
  /** The request's choice, else the one made at checkout (decisions §13). */
  servicePointId: string | null;
}

/** What the shipment will be, read alone: first to ask the carrier for a service point, then again inside the write. */
function planOrderShipment(db: ReadDb, orgId: string, orderId: string, input: OrderShipmentCreateInput): OrderShipmentPlan {
  const order = findShippableOrderRow(db, orgId, orderId);
  const parcel = parcelToShip(db, order);
  const given = input.parties ?? [];
  const receiver = receiverFor(order, given);
  const resolved = resolveCarrier(db, orgId, order, receiver.countryCode, parcel, input);
  const servicePointId = input.servicePointId !== undefined ? input.servicePointId : order.servicePointId;
  return { order, parcel, given, receiver, resolved, servicePointId };
}

export async function createShipmentFromOrder(app: AppContext, orgId: string, orderId: string, input: OrderShipmentCreateInput = {}): Promise<Shipment> {
  const before = planOrderShipment(app.db, orgId, orderId, input);
  const lookup = await chooseServicePoint(app, orgId, before.resolved.carrier, before.receiver, before.servicePointId, before.given);
  const now = app.now();
  return inWriteTransaction(app.db, (tx) => {
    const { order, parcel, given, receiver, resolved, servicePointId } = planOrderShipment(tx, orgId, orderId, input);
    const senderAddressId = input.senderAddressId ?? resolved.ruleSenderAddressId ?? findCarrierRow(tx, orgId, resolved.carrier.carrierId).senderAddressId;
    const senderAddress = findSenderAddressRow(tx, orgId, senderAddressId);
    // The lookup counts only for the carrier and product it was made for (the order may have changed meanwhile).
    const chosen = lookup && lookup.carrierId === resolved.carrier.carrierId && lookup.productId === resolved.carrier.productId ? lookup : null;
    const withReceiver = given.includes(receiver) ? given : [...given, receiver];
    const parties = chosen?.party ? withServicePointParty(withReceiver, chosen.party) : withReceiver;
    return insertShipment(
      tx,
      now,
      orgId,
      {
        reference: input.reference,
        senderAddressId,
        type: 'outbound',
        carrier: resolved.carrier,
        parties: withSenderParty(tx, orgId, senderAddress, parties),
        parcels: [parcel],
        termOfTrade: 'DAP',
        status: 'pending',
        servicePointId: chosen ? chosen.servicePointId : servicePointId,
        pickupDetails: input.pickupDetails,
        orderId: order.id,
        shippingRuleId: resolved.ruleId,
        activities: [
          ...(resolved.ruleApplied ? [{ action: 'shipping_rule_applied' as const, description: resolved.ruleApplied }] : []),
          ...(chosen && chosen.servicePointId !== servicePointId && chosen.party
            ? [
                {
                  action: 'updated' as const,
                  description: `Nearest service point chosen: ${chosen.party.name}, ${chosen.party.address1}, ${chosen.party.postalCode} ${chosen.party.city}`,
                },
              ]
            : []),
        ],
      },
      ([shipmentId]) => {
        if (!chosen || !shipmentId) return;
        writeCarrierCalls(tx, now, shipmentId, chosen.secrets, chosen.calls);
        if (chosen.error) recordError(tx, now, shipmentId, chosen.error.code, chosen.error.message);
      },
    );
  });
}
