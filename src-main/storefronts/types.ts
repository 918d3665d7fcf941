import type { z } from 'zod';
import type { orderCreateBody } from '../../src-shared/schemas/order';

/**
 * A storefront order turned into what `POST /orders` takes, less the channel. Not yet validated:
 * the sync checks it with orderCreateBody, so a bad order is reported, never fatal.
 */
export interface StorefrontOrder {
  /** The platform's own order id; with the channel it makes the import idempotent. */
  externalId: string;
  order: Omit<z.input<typeof orderCreateBody>, 'orderChannelId'>;
}

// ---- Incremental reads (the sync) and write-back (the outbox). ----

/** The shop's state of an order as a read finds it. */
export type ShopOrderState = 'open' | 'cancelled' | 'closed';

export interface ShopOrder extends StorefrontOrder {
  /** open: waiting to be shipped; cancelled in the shop; closed: fulfilled or archived there. */
  shopState: ShopOrderState;
  /** The shop's last change of the order (ISO 8601), or null when it does not say. */
  updatedAt: string | null;
  /** The shop's id of each line of `order.orderLines`, same positions; kept for the fulfilments written back. */
  lineIds: (string | null)[];
}

export interface OrderRead {
  orders: ShopOrder[];
  /** Opaque: where the next read starts (the channel's sync_cursor). */
  cursor: string | null;
}

export interface StorefrontReader {
  /**
   * With no cursor: every order waiting to be shipped. With one: every order the shop changed since
   * (new, edited, cancelled, closed), all pages, so a cancellation in the shop is seen.
   */
  fetchOrders(config: Record<string, unknown>, cursor: string | null): Promise<OrderRead>;
}

/** What the shop is told when a shipment of its order leaves. */
export interface ShopFulfillment {
  /** The Shipdesk shipment: marks what is written so a read-back after a timeout finds it. */
  shipmentId: string;
  orderExternalId: string;
  carrierName: string;
  trackingNumber: string;
  trackingUrl: string | null;
  /** The shipped lines and quantities; `externalLineId` is the shop's line id when the order came from it. */
  lines: { externalLineId: string | null; sku: string | null; quantity: number }[];
  /** Ask the shop to notify the customer: only when Shipdesk sends no e-mail of its own. */
  notifyCustomer: boolean;
  /** The shop's id of what was written before, when only the tracking number changed. */
  remoteId: string | null;
  /** Every line of the order has now shipped (Shipdesk's order is fulfilled): WooCommerce completes the order. */
  orderFullyShipped: boolean;
}

export interface WrittenFulfillment {
  remoteId: string;
  trackingNumber: string | null;
}

export interface StorefrontWriter {
  writeFulfillment(config: Record<string, unknown>, fulfillment: ShopFulfillment): Promise<WrittenFulfillment>;
  /** What the shop already holds for this shipment (read back after a timeout before trying again), or null. */
  findFulfillment(config: Record<string, unknown>, fulfillment: ShopFulfillment): Promise<WrittenFulfillment | null>;
}

// ---- Lenient readers for platform JSON: a missing field becomes null and validation reports it. ----

export type Json = Record<string, unknown>;

export function record(value: unknown): Json | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
}

/** A list of objects, as a page of a shop's orders is; anything else in it means the answer is not one. */
export function isObjectList(value: unknown): value is Json[] {
  return Array.isArray(value) && value.every((item) => record(item) !== null);
}

export function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.map((item) => record(item) ?? {}) : [];
}

/** A trimmed string (numbers too, as platform ids are), or null when empty or absent. */
export function str(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed ? trimmed : null;
}

/** Long free text (notes) is cut to what the API accepts rather than failing the order. */
export function clipped(value: unknown, max = 1000): string | null {
  const text = str(value);
  return text && text.length > max ? text.slice(0, max) : text;
}

/** Platforms send money as decimal strings; an unreadable amount stays NaN so validation catches it. */
export function amount(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim()) return Number(value);
  return undefined;
}

export function joinName(...parts: unknown[]): string | null {
  return str(parts.map((part) => str(part) ?? '').join(' '));
}

/** Drops undefined entries so the mapped order only holds what the platform sent. */
export function defined<T extends Json>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
