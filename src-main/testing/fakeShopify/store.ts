/**
 * The fake Shopify's orders as the GraphQL Admin API (2026-10) shapes them: what `shop.orders`
 * holds, shared by every schema module (orders.ts reads them, a fulfilment module changes them).
 */
export interface FakeMoneyBag {
  shopMoney: { amount: string; currencyCode: string };
  presentmentMoney: { amount: string; currencyCode: string };
}

export interface FakeShopifyAddress {
  id?: string;
  firstName: string | null;
  lastName: string | null;
  name: string | null;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  provinceCode: string | null;
  country: string | null;
  countryCodeV2: string | null;
  zip: string | null;
  phone: string | null;
}

export interface FakeShopifyLineItem {
  id: string;
  name: string;
  title: string;
  sku: string | null;
  quantity: number;
  currentQuantity: number;
  unfulfilledQuantity: number;
  nonFulfillableQuantity: number;
  requiresShipping: boolean;
  taxable: boolean;
  isGiftCard: boolean;
  vendor: string | null;
  originalUnitPriceSet: FakeMoneyBag;
  variant: {
    id: string;
    title: string;
    sku: string | null;
    product: { id: string; title: string };
    inventoryItem: { id: string; measurement: { id: string; weight: { unit: string; value: number } | null } };
  } | null;
  product: { id: string; title: string } | null;
}

export interface FakeShopifyOrder {
  id: string;
  legacyResourceId: string;
  name: string;
  email: string | null;
  phone: string | null;
  createdAt: string;
  updatedAt: string;
  processedAt: string;
  cancelledAt: string | null;
  cancelReason: string | null;
  closed: boolean;
  closedAt: string | null;
  confirmed: boolean;
  test: boolean;
  note: string | null;
  currencyCode: string;
  totalPriceSet: FakeMoneyBag;
  displayFinancialStatus: string | null;
  displayFulfillmentStatus: string;
  customer: { id: string; firstName: string | null; lastName: string | null; displayName: string } | null;
  shippingAddress: FakeShopifyAddress | null;
  billingAddress: FakeShopifyAddress | null;
  lineItems: FakeShopifyLineItem[];
  /** What another module keeps on an order (fulfilment orders, fulfilments, …), by module name. */
  extra?: Record<string, unknown>;
}
