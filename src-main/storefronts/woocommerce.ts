/**
 * WooCommerce REST v3: `GET {siteUrl}/wp-json/wc/v3/orders?status=processing&per_page=100&page=N` with HTTP Basic
 * auth (consumer key and secret), pages counted by the `X-WP-TotalPages` header.
 */
import { orderChannelConfigSchemas } from '../../src-shared/schemas/orderChannel';
import { getStorefrontJson, storefrontError, type StorefrontTransport } from './http';
import { amount, clipped, defined, isObjectList, joinName, list, record, str, type Json, type StorefrontClient, type StorefrontOrder } from './types';

const platform = 'WooCommerce';
// 1,000 pages of 100 is 100,000 orders.
const maxPages = 1000;

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

export function mapWooCommerceOrder(raw: Json): StorefrontOrder {
  const currency = str(raw.currency)?.toUpperCase() ?? null;
  const billing = record(raw.billing);
  const email = str(billing?.email);
  return {
    externalId: str(raw.id) ?? '',
    order: {
      orderNumber: str(raw.number) ?? str(raw.id) ?? '',
      externalId: str(raw.id),
      customerName: joinName(billing?.first_name, billing?.last_name),
      customerEmail: email,
      notes: clipped(raw.customer_note),
      shippingAddress: shippingAddressOf(record(raw.shipping), email),
      totalAmount: amount(raw.total) ?? null,
      currency,
      orderLines: list(raw.line_items).map((line) => {
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

export function wooCommerceClient(transport: StorefrontTransport): StorefrontClient {
  return {
    async fetchNewOrders(rawConfig, since) {
      const parsed = orderChannelConfigSchemas.woocommerce.safeParse(rawConfig);
      if (!parsed.success) throw storefrontError(platform, 'CONFIG_INVALID', "the channel's site URL or API keys are missing");
      const { siteUrl, consumerKey, consumerSecret } = parsed.data;
      const authorization = `Basic ${Buffer.from(`${consumerKey}:${consumerSecret}`).toString('base64')}`;
      const base = siteUrl.replace(/\/+$/, '');

      const orders: StorefrontOrder[] = [];
      let totalPages = 1;
      for (let page = 1; page <= totalPages; page++) {
        const url = new URL(`${base}/wp-json/wc/v3/orders`);
        // `processing` is WooCommerce's "paid, waiting to be shipped"; pending and on-hold wait for payment.
        url.searchParams.set('status', 'processing');
        url.searchParams.set('per_page', '100');
        url.searchParams.set('page', String(page));
        if (since) url.searchParams.set('after', since.toISOString());
        const { body, headers } = await getStorefrontJson(transport, platform, url, { authorization });
        if (!isObjectList(body)) throw storefrontError(platform, 'INVALID_RESPONSE', `${url.host} answered without an orders list`);
        // Checked again here, so a shop that ignores the filter cannot fill the order list with its history.
        orders.push(...body.filter((raw) => raw.status === undefined || raw.status === 'processing').map(mapWooCommerceOrder));
        const announced = Number(headers.get('x-wp-totalpages') ?? '1');
        totalPages = Number.isInteger(announced) && announced > 0 ? announced : 1;
        if (totalPages > maxPages) throw storefrontError(platform, 'TOO_MANY_PAGES', `${url.host} listed more than ${maxPages} pages of orders`);
      }
      return orders;
    },
  };
}
