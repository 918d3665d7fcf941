import { and, eq } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { PartyInput } from '../../../src-shared/schemas/shipment';
import { orders } from '../../db/schema';
import type { ReadDb } from '../../db/tx';
import { parcelToShip } from '../orders/allocation';
import type { ParcelDraft } from './repository';

export type OrderRow = typeof orders.$inferSelect;

export function findOrderRow(db: ReadDb, orgId: string, orderId: string): OrderRow {
  const row = db.select().from(orders).where(and(eq(orders.orgId, orgId), eq(orders.id, orderId))).get();
  if (!row) throw new ApiError('ORDER_NOT_FOUND', `Order ${orderId} does not exist in this organization`);
  return row;
}

/** The receiver party from the order's shipping address (decisions §5). */
export function receiverFromOrder(order: OrderRow): PartyInput {
  const address = order.shippingAddress;
  if (!address) throw new ApiError('ORDER_INVALID_STATE', `Order ${order.orderNumber} has no shipping address`);
  const optional = (value: string | null | undefined) => (value ? value : undefined);
  const party: PartyInput = {
    type: 'receiver',
    name: address.name,
    address1: address.address1,
    postalCode: address.postalCode,
    city: address.city,
    countryCode: address.countryCode,
    attributes: [],
  };
  const attention = optional(address.attention) ?? optional(address.company);
  if (attention) party.attention = attention;
  const address2 = optional(address.address2);
  if (address2) party.address2 = address2;
  const phone = optional(address.phone);
  if (phone) party.phone = phone;
  const email = optional(address.email) ?? optional(order.customerEmail);
  if (email) party.email = email;
  return party;
}

/** What a shipment copies from an order: its receiver and one parcel of what is left to ship (parcelToShip). */
export function orderDefaults(db: ReadDb, orgId: string, orderId: string): { order: OrderRow; receiver: PartyInput; parcel: ParcelDraft } {
  const order = findOrderRow(db, orgId, orderId);
  if (order.status === 'cancelled') throw new ApiError('ORDER_INVALID_STATE', `Order ${order.orderNumber} is cancelled`);
  return { order, receiver: receiverFromOrder(order), parcel: parcelToShip(db, order) };
}
