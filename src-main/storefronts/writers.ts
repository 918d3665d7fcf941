import { storefrontTransport, type StorefrontTransportOptions } from './http';
import { shopifyWriter } from './shopifyFulfillments';
import { wooCommerceWriter } from './wooCommerceFulfillments';
import type { StorefrontWriter } from './types';

/** The shop platforms Shipdesk writes back to. */
export type ShopPlatform = 'shopify' | 'woocommerce';

/** The write-back client of each shop platform (issue 22). */
export function storefrontWriter(type: ShopPlatform, options?: StorefrontTransportOptions): StorefrontWriter {
  const transport = storefrontTransport(options);
  return type === 'shopify' ? shopifyWriter(transport) : wooCommerceWriter(transport);
}
