import type { OrderChannelType } from '../../src-shared/schemas/orderChannel';
import { storefrontTransport, type StorefrontTransportOptions } from './http';
import { shopifyReader } from './shopify/orders';
import { wooCommerceReader } from './woocommerce';
import type { StorefrontReader } from './types';

export type StorefrontType = Extract<OrderChannelType, 'shopify' | 'woocommerce'>;
export type { OrderRead, ShopOrder, ShopOrderState, StorefrontOrder, StorefrontReader } from './types';

export function isStorefront(type: OrderChannelType): type is StorefrontType {
  return type === 'shopify' || type === 'woocommerce';
}

/** Reads a shop's orders: the first run what waits to be shipped, later runs what changed since the cursor. */
export function storefrontReader(type: StorefrontType, options?: StorefrontTransportOptions): StorefrontReader {
  const transport = storefrontTransport(options);
  return type === 'shopify' ? shopifyReader(transport) : wooCommerceReader(transport);
}
