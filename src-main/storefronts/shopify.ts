/**
 * Shopify Admin REST: `GET /admin/api/2024-10/orders.json`, 250 orders a page, the next page named
 * by the `Link: <…>; rel="next"` header (cursor pagination, which keeps the first page's filters).
 */
import { orderChannelConfigSchemas } from '../../src-shared/schemas/orderChannel';
import { getStorefrontJson, storefrontError, type StorefrontTransport } from './http';
import { amount, clipped, defined, isObjectList, joinName, list, record, str, type Json, type StorefrontClient, type StorefrontOrder } from './types';

const platform = 'Shopify';
export const shopifyApiVersion = '2024-10';
// 400 pages of 250 is 100,000 orders; a shop that keeps answering "next" past that is looping.
const maxPages = 400;

/** The URL of the `rel="next"` entry of a Link header, if any. */
export function nextPageUrl(link: string | null): string | null {
  if (!link) return null;
  for (const part of link.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (match?.[1]) return match[1];
  }
  return null;
}

function shippingAddressOf(raw: Json | null): StorefrontOrder['order']['shippingAddress'] {
  if (!raw) return null;
  return {
    name: joinName(raw.first_name, raw.last_name) ?? str(raw.name) ?? '',
    address1: str(raw.address1) ?? '',
    city: str(raw.city) ?? '',
    postalCode: str(raw.zip) ?? '',
    countryCode: str(raw.country_code)?.toUpperCase() ?? '',
    company: str(raw.company),
    address2: str(raw.address2),
    province: str(raw.province),
    provinceCode: str(raw.province_code),
    country: str(raw.country),
    phone: str(raw.phone),
  };
}

/**
 * An order the warehouse still has to ship. The query asks the shop for these only; the check is
 * repeated here so a shop that ignores the filter cannot fill the order list with its history.
 */
function awaitsShipping(raw: Json): boolean {
  if (raw.cancelled_at || raw.closed_at) return false;
  return raw.fulfillment_status === null || raw.fulfillment_status === undefined || raw.fulfillment_status === 'partial';
}

export function mapShopifyOrder(raw: Json): StorefrontOrder {
  const currency = str(raw.currency)?.toUpperCase() ?? null;
  const customer = record(raw.customer);
  const shipping = record(raw.shipping_address);
  const billing = record(raw.billing_address);
  const email = str(raw.email) ?? str(customer?.email);
  return {
    externalId: str(raw.id) ?? '',
    order: {
      orderNumber: str(raw.name) ?? str(raw.order_number) ?? '',
      externalId: str(raw.id),
      customerName: joinName(customer?.first_name, customer?.last_name) ?? str(shipping?.name) ?? joinName(billing?.first_name, billing?.last_name),
      customerEmail: email,
      notes: clipped(raw.note),
      shippingAddress: shippingAddressOf(shipping),
      totalAmount: amount(raw.total_price) ?? null,
      currency,
      // What is left to ship: a partly fulfilled order's shipped units, and refunded ones, are not
      // shipped again. A line with nothing left is left out.
      orderLines: list(raw.line_items)
        .filter((line) => line.fulfillable_quantity !== 0)
        .map((line) => {
          const ordered = typeof line.quantity === 'number' ? line.quantity : Number(line.quantity ?? 0);
          const quantity = typeof line.fulfillable_quantity === 'number' ? line.fulfillable_quantity : ordered;
          const unitPrice = amount(line.price);
          const grams = typeof line.grams === 'number' ? line.grams : undefined;
          return defined({
            name: str(line.name) ?? str(line.title) ?? '',
            quantity,
            sku: str(line.sku) ?? undefined,
            unitPrice,
            totalPrice: unitPrice === undefined ? undefined : Math.round(unitPrice * quantity * 100) / 100,
            currency: currency ?? undefined,
            // Shopify reports 0 g for a variant whose weight was never entered: unknown, not weightless.
            weight: grams ? grams / 1000 : undefined,
            weightUnit: grams ? ('kg' as const) : undefined,
            variantId: str(line.variant_id) ?? undefined,
            productId: str(line.product_id) ?? undefined,
            vendor: str(line.vendor) ?? undefined,
            requiresShipping: typeof line.requires_shipping === 'boolean' ? line.requires_shipping : undefined,
            taxable: typeof line.taxable === 'boolean' ? line.taxable : undefined,
            giftCard: typeof line.gift_card === 'boolean' ? line.gift_card : undefined,
          });
        }),
      externalData: defined({
        platform: 'shopify',
        name: str(raw.name) ?? undefined,
        orderNumber: raw.order_number ?? undefined,
        createdAt: str(raw.created_at) ?? undefined,
        financialStatus: str(raw.financial_status) ?? undefined,
        fulfillmentStatus: str(raw.fulfillment_status) ?? undefined,
        adminGraphqlApiId: str(raw.admin_graphql_api_id) ?? undefined,
      }),
    },
  };
}

export function shopifyClient(transport: StorefrontTransport): StorefrontClient {
  return {
    async fetchNewOrders(rawConfig, since) {
      const parsed = orderChannelConfigSchemas.shopify.safeParse(rawConfig);
      if (!parsed.success) throw storefrontError(platform, 'CONFIG_INVALID', "the channel's shop domain or access token is missing");
      const { shopDomain, accessToken } = parsed.data;
      let url: URL | null = new URL(`https://${shopDomain}/admin/api/${shopifyApiVersion}/orders.json`);
      // The orders waiting to be shipped: not closed (archived) or cancelled, not yet fully fulfilled.
      url.searchParams.set('status', 'open');
      url.searchParams.set('fulfillment_status', 'unfulfilled');
      url.searchParams.set('limit', '250');
      if (since) url.searchParams.set('created_at_min', since.toISOString());

      const orders: StorefrontOrder[] = [];
      for (let page = 1; url; page++) {
        if (page > maxPages) throw storefrontError(platform, 'TOO_MANY_PAGES', `${shopDomain} listed more than ${maxPages} pages of orders`);
        const { body, headers } = await getStorefrontJson(transport, platform, url, { 'X-Shopify-Access-Token': accessToken });
        const pageOrders = record(body)?.orders;
        if (!isObjectList(pageOrders)) throw storefrontError(platform, 'INVALID_RESPONSE', `${shopDomain} answered without an orders list`);
        orders.push(...pageOrders.filter(awaitsShipping).map(mapShopifyOrder));
        const next = nextPageUrl(headers.get('link'));
        url = next ? new URL(next) : null;
        // The access token goes to the shop only, whatever a Link header says.
        if (url && url.host !== shopDomain) throw storefrontError(platform, 'INVALID_RESPONSE', `${shopDomain} pointed the next page at another host`);
      }
      return orders;
    },
  };
}
