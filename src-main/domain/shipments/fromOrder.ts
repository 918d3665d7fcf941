import { and, eq } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { PartyInput } from '../../../src-shared/schemas/shipment';
import { orders } from '../../db/schema';
import type { ReadDb } from '../../db/tx';
import { companyAttribute } from '../../../src-shared/partyCompany';

export type OrderRow = typeof orders.$inferSelect;

export function findOrderRow(db: ReadDb, orgId: string, orderId: string): OrderRow {
  const row = db
    .select()
    .from(orders)
    .where(and(eq(orders.orgId, orgId), eq(orders.id, orderId)))
    .get();
  if (!row) throw new ApiError('ORDER_NOT_FOUND', `Order ${orderId} does not exist in this organization`);
  return row;
}

/** An order that may still get shipments: 409 ORDER_INVALID_STATE once it is cancelled (decisions §5). */
export function findShippableOrderRow(db: ReadDb, orgId: string, orderId: string): OrderRow {
  const order = findOrderRow(db, orgId, orderId);
  if (order.status === 'cancelled') throw new ApiError('ORDER_INVALID_STATE', `Order ${order.orderNumber} is cancelled; a cancelled order gets no shipments`);
  return order;
}

/**
 * The receiver: the one the request gives, else one from the order's shipping address (decisions
 * §5). An order imported without an address can still be shipped by giving the receiver.
 */
export function receiverFor(order: OrderRow, given: readonly PartyInput[]): PartyInput {
  return given.find((party) => party.type === 'receiver') ?? receiverFromOrder(order);
}

/** The receiver party from the order's shipping address (decisions §5). */
export function receiverFromOrder(order: OrderRow): PartyInput {
  const address = order.shippingAddress;
  if (!address) throw new ApiError('ORDER_INVALID_STATE', `Order ${order.orderNumber} has no shipping address; give the receiver in parties`);
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
  // A company without a contact goes on the attention line, as before the company attribute.
  const company = optional(address.company);
  const attention = optional(address.attention) ?? company;
  if (attention) party.attention = attention;
  if (company) party.attributes = [companyAttribute(company)];
  const address2 = optional(address.address2);
  if (address2) party.address2 = address2;
  const phone = optional(address.phone);
  if (phone) party.phone = phone;
  const email = optional(address.email) ?? optional(order.customerEmail);
  if (email) party.email = email;
  return party;
}
