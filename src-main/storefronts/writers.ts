import { storefrontTransport, type StorefrontTransportOptions } from './http';
import { shopifyWriter } from './shopifyFulfillments';
import { wooCommerceWriter } from './wooCommerceFulfillments';
import type { StorefrontType } from './index';
import type { StorefrontWriter } from './types';

/** The write-back client of each shop platform (issue 22). */
export function storefrontWriter(type: StorefrontType, options?: StorefrontTransportOptions): StorefrontWriter {
  const transport = storefrontTransport(options);
  return type === 'shopify' ? shopifyWriter(transport) : wooCommerceWriter(transport);
}
