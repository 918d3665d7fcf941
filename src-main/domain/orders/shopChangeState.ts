/**
 * What `orders.shop_change` holds for an order that came from a shop: the shop's values as last
 * seen (`seen`, what the next sync compares the shop's order with, so a change made here by hand is
 * never taken for one made in the shop) and the change held for the user (`pending`), or null.
 */
import type { OrderLineInput, ShopChange } from '../../../src-shared/schemas/order';
import type { ShippingAddress } from '../../db/schema';

export interface ShopLineSnapshot {
  lineId: string | null;
  name: string;
  sku: string | null;
  quantity: number;
}

/** The shop's side of an order, as compared from one sync to the next. */
export interface ShopSnapshot {
  state: 'open' | 'cancelled' | 'closed';
  customerName: string | null;
  customerEmail: string | null;
  notes: string | null;
  shippingAddress: ShippingAddress | null;
  lines: ShopLineSnapshot[];
}

export interface HeldShopChange {
  kind: ShopChange['kind'];
  detectedAt: string;
  summary: string[];
  /** The fields the shop changed; `shop` carries their values. */
  fields: ('customerName' | 'customerEmail' | 'notes' | 'shippingAddress' | 'lines')[];
  snapshot: ShopSnapshot;
  /** The shop's lines in full (prices, weights, …), when the lines changed: what applying them writes. */
  lines?: OrderLineInput[];
}

export interface StoredShopChange {
  seen: ShopSnapshot | null;
  pending: HeldShopChange | null;
}

export function storedShopChange(raw: unknown): StoredShopChange {
  const value = raw && typeof raw === 'object' ? (raw as Partial<StoredShopChange>) : {};
  return { seen: value.seen ?? null, pending: value.pending ?? null };
}

/** The held change as order reads carry it, or null. */
export function shopChangeOf(raw: unknown, toAddress: (address: ShippingAddress) => NonNullable<ShopChange['shop']['shippingAddress']>): ShopChange | null {
  const pending = storedShopChange(raw).pending;
  if (!pending) return null;
  const shop: ShopChange['shop'] = {};
  for (const field of pending.fields) {
    if (field === 'lines') shop.orderLines = pending.snapshot.lines.map(({ name, sku, quantity }) => ({ name, sku, quantity }));
    else if (field === 'shippingAddress') shop.shippingAddress = pending.snapshot.shippingAddress ? toAddress(pending.snapshot.shippingAddress) : null;
    else shop[field] = pending.snapshot[field];
  }
  return { kind: pending.kind, detectedAt: pending.detectedAt, summary: pending.summary, shop };
}
