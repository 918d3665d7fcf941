/** POST /orders/{orderId}/shipments (decisions §5). */
import { ApiError } from '../../../src-shared/errors';
import type { OrderShipmentCreateInput, Shipment } from '../../../src-shared/schemas/shipment';
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
import type { ParcelDraft } from './repository';

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

export function createShipmentFromOrder(app: AppContext, orgId: string, orderId: string, input: OrderShipmentCreateInput = {}): Shipment {
  const now = app.now();
  return inWriteTransaction(app.db, (tx) => {
    const order = findShippableOrderRow(tx, orgId, orderId);
    const parcel = parcelToShip(tx, order);
    const given = input.parties ?? [];
    const receiver = receiverFor(order, given);
    const resolved = resolveCarrier(tx, orgId, order, receiver.countryCode, parcel, input);
    const senderAddressId = input.senderAddressId ?? resolved.ruleSenderAddressId ?? findCarrierRow(tx, orgId, resolved.carrier.carrierId).senderAddressId;
    const senderAddress = findSenderAddressRow(tx, orgId, senderAddressId);
    const parties = given.includes(receiver) ? given : [...given, receiver];
    return insertShipment(tx, now, orgId, {
      reference: input.reference,
      senderAddressId,
      type: 'outbound',
      carrier: resolved.carrier,
      parties: withSenderParty(tx, orgId, senderAddress, parties),
      parcels: [parcel],
      termOfTrade: 'DAP',
      status: 'pending',
      servicePointId: input.servicePointId ?? null,
      pickupDetails: input.pickupDetails,
      orderId,
      shippingRuleId: resolved.ruleId,
      activities: resolved.ruleApplied ? [{ action: 'shipping_rule_applied', description: resolved.ruleApplied }] : [],
    });
  });
}
