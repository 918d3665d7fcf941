import type { OrderChannelType } from '../../src-shared/schemas/orderChannel';
import { storefrontTransport, type StorefrontTransportOptions } from './http';
import { shopifyClient } from './shopify';
import { wooCommerceClient } from './woocommerce';
import type { StorefrontClient } from './types';

export type StorefrontType = Extract<OrderChannelType, 'shopify' | 'woocommerce'>;
export type { StorefrontClient, StorefrontOrder } from './types';

export function isStorefront(type: OrderChannelType): type is StorefrontType {
  return type === 'shopify' || type === 'woocommerce';
}

export function storefrontClient(type: StorefrontType, options?: StorefrontTransportOptions): StorefrontClient {
  const transport = storefrontTransport(options);
  return type === 'shopify' ? shopifyClient(transport) : wooCommerceClient(transport);
}
