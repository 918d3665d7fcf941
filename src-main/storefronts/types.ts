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

export interface StorefrontClient {
  /** Every order the shop has waiting to be shipped, all pages; `since` limits it to orders created after that moment. */
  fetchNewOrders(config: Record<string, unknown>, since?: Date): Promise<StorefrontOrder[]>;
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
