/**
 * WooCommerce REST v3: `GET {siteUrl}/wp-json/wc/v3/orders` with HTTP Basic auth (consumer key and
 * secret), 100 a page, pages counted by the `X-WP-TotalPages` header.
 *
 * - With no cursor (a channel's first sync): `status=processing`, WooCommerce's "paid, waiting to
 *   be shipped".
 * - With a cursor: every order modified since, `modified_after=…&dates_are_gmt=true` (a little
 *   before the cursor; reading one twice is harmless), in the statuses that matter to the warehouse:
 *   processing (new or edited), completed, cancelled, refunded and failed; oldest change first.
 *
 * The cursor answered is the newest `date_modified_gmt` read, by the shop's own clock.
 */
import { orderChannelConfigSchemas } from '../../src-shared/schemas/orderChannel';
import { getStorefrontJson, storefrontError, type StorefrontTransport } from './http';
import {
  amount,
  clipped,
  defined,
  isObjectList,
  joinName,
  list,
  record,
  str,
  type Json,
  type OrderRead,
  type ShopOrder,
  type ShopOrderState,
  type StorefrontOrder,
  type StorefrontReader,
} from './types';

const platform = 'WooCommerce';
// 1,000 pages of 100 is 100,000 orders.
const maxPages = 1000;
/** A run reads back this far before its cursor. */
export const cursorOverlapMs = 10 * 60_000;
/** What a later run asks for: an imported order may have moved to any of these. */
export const changedStatuses = ['processing', 'completed', 'cancelled', 'refunded', 'failed'];

/** WooCommerce's `…_gmt` dates carry no zone: they are UTC. */
function gmt(value: unknown): string | null {
  const text = str(value);
  if (!text) return null;
  const date = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

export function wooShopState(status: unknown): ShopOrderState {
  if (status === 'cancelled' || status === 'refunded' || status === 'failed' || status === 'trash') return 'cancelled';
  if (status === 'completed') return 'closed';
  return 'open';
}

function shippingAddressOf(raw: Json | null, email: string | null): StorefrontOrder['order']['shippingAddress'] {
  // WooCommerce always sends a shipping object; all empty means the order has no shipping address.
  if (!raw || !Object.values(raw).some((value) => str(value))) return null;
  return {
    name: joinName(raw.first_name, raw.last_name) ?? '',
    address1: str(raw.address_1) ?? '',
    city: str(raw.city) ?? '',
    postalCode: str(raw.postcode) ?? '',
    countryCode: str(raw.country)?.toUpperCase() ?? '',
    company: str(raw.company),
    address2: str(raw.address_2),
    province: str(raw.state),
    phone: str(raw.phone),
    email,
  };
}

export function mapWooCommerceOrder(raw: Json): ShopOrder {
  const currency = str(raw.currency)?.toUpperCase() ?? null;
  const billing = record(raw.billing);
  const email = str(billing?.email);
  const lines = list(raw.line_items);
  return {
    externalId: str(raw.id) ?? '',
    shopState: wooShopState(raw.status),
    updatedAt: gmt(raw.date_modified_gmt),
    lineIds: lines.map((line) => str(line.id)),
    order: {
      orderNumber: str(raw.number) ?? str(raw.id) ?? '',
      externalId: str(raw.id),
      customerName: joinName(billing?.first_name, billing?.last_name),
      customerEmail: email,
      notes: clipped(raw.customer_note),
      shippingAddress: shippingAddressOf(record(raw.shipping), email),
      totalAmount: amount(raw.total) ?? null,
      currency,
      orderLines: lines.map((line) => {
        const quantity = typeof line.quantity === 'number' ? line.quantity : Number(line.quantity ?? 0);
        const variationId = str(line.variation_id);
        return defined({
          name: str(line.name) ?? '',
          quantity,
          sku: str(line.sku) ?? undefined,
          unitPrice: amount(line.price),
          totalPrice: amount(line.total),
          currency: currency ?? undefined,
          // 0 is WooCommerce's "no variation".
          variantId: variationId && variationId !== '0' ? variationId : undefined,
          productId: str(line.product_id) ?? undefined,
        });
      }),
      externalData: defined({
        platform: 'woocommerce',
        number: str(raw.number) ?? undefined,
        status: str(raw.status) ?? undefined,
        createdAt: str(raw.date_created_gmt) ?? undefined,
        paymentMethod: str(raw.payment_method_title) ?? undefined,
      }),
    },
  };
}

function validCursor(cursor: string | null): string | null {
  return cursor && !Number.isNaN(new Date(cursor).getTime()) ? cursor : null;
}

export function wooCommerceReader(transport: StorefrontTransport): StorefrontReader {
  return {
    async fetchOrders(rawConfig, rawCursor): Promise<OrderRead> {
      const parsed = orderChannelConfigSchemas.woocommerce.safeParse(rawConfig);
      if (!parsed.success) throw storefrontError(platform, 'CONFIG_INVALID', "the channel's site URL or API keys are missing");
      const { siteUrl, consumerKey, consumerSecret } = parsed.data;
      const authorization = `Basic ${Buffer.from(`${consumerKey}:${consumerSecret}`).toString('base64')}`;
      const base = siteUrl.replace(/\/+$/, '');
      const cursor = validCursor(rawCursor);
      const wanted = cursor ? changedStatuses : ['processing'];

      const orders: ShopOrder[] = [];
      let newest = cursor;
      let totalPages = 1;
      for (let page = 1; page <= totalPages; page++) {
        const url = new URL(`${base}/wp-json/wc/v3/orders`);
        url.searchParams.set('status', wanted.join(','));
        if (cursor) {
          url.searchParams.set('modified_after', new Date(new Date(cursor).getTime() - cursorOverlapMs).toISOString());
          url.searchParams.set('dates_are_gmt', 'true');
          url.searchParams.set('orderby', 'modified');
          url.searchParams.set('order', 'asc');
        }
        url.searchParams.set('per_page', '100');
        url.searchParams.set('page', String(page));
        const { body, headers } = await getStorefrontJson(transport, platform, url, { authorization });
        if (!isObjectList(body)) throw storefrontError(platform, 'INVALID_RESPONSE', `${url.host} answered without an orders list`);
        for (const raw of body) {
          // Checked again here, so a shop that ignores the filter cannot fill the order list with its history.
          if (raw.status !== undefined && !wanted.includes(String(raw.status))) continue;
          const order = mapWooCommerceOrder(raw);
          if (order.updatedAt && (!newest || new Date(order.updatedAt).getTime() > new Date(newest).getTime())) newest = order.updatedAt;
          orders.push(order);
        }
        const announced = Number(headers.get('x-wp-totalpages') ?? '1');
        totalPages = Number.isInteger(announced) && announced > 0 ? announced : 1;
        if (totalPages > maxPages) throw storefrontError(platform, 'TOO_MANY_PAGES', `${url.host} listed more than ${maxPages} pages of orders`);
      }
      return { orders, cursor: newest };
    },
  };
}
