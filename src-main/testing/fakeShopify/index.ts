/**
 * The fake Shopify GraphQL Admin API with every schema module the tests use. A module of another
 * part (fulfilments, say) is added to `fakeShopifyModules`; a test may also start the fake with a
 * list of its own.
 */
import { ordersModule } from './orders';
import { fulfillmentsModule } from './fulfillments';
import { startFakeShopifyServer, type FakeShopify, type FakeShopifyModule } from './server';

export const fakeShopifyModules: FakeShopifyModule[] = [ordersModule, fulfillmentsModule];

export function startFakeShopify(modules: FakeShopifyModule[] = fakeShopifyModules): Promise<FakeShopify> {
  return startFakeShopifyServer(modules);
}

export { changeShopifyOrder, fakeLineItem, shopifyOrder, type FakeShopifyLineItem, type FakeShopifyOrder } from './orders';
export { fakeShopify, shopifyMaxQueryCost, shopifyStandardThrottle, type FakeShopify, type FakeShopifyContext, type FakeShopifyModule } from './server';
export { fakeFulfillmentControl, fulfillmentsOf, fulfillmentsModule, type FakeFulfillment, type FakeFulfillmentOrder } from './fulfillments';
