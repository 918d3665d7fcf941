import { create } from 'zustand';
import type { BodyOf } from '../../../../src-shared/operation';
import type { OperationById } from '../../../../src-shared/operations';
import type { OrderDetail, OrderLine } from '../../../../src-shared/schemas/order';
import { weightUnits, type WeightUnit } from '../../../../src-shared/schemas/shipment';
import { useSession } from '../../lib/session';

export type OrderCreateBody = BodyOf<OperationById<'orders.create'>>;
export type OrderUpdateBody = BodyOf<OperationById<'orders.update'>>;

/**
 * What an existing line has that the form does not show (a shop's variant, barcode, vendor…). A
 * line given in a PATCH is replaced as given, so an edit sends these back as they were.
 */
type KeptLineFields = Pick<
  OrderCreateBody['orderLines'][number],
  'variantId' | 'productId' | 'imageUrl' | 'provinceOfOrigin' | 'barcode' | 'vendor' | 'taxable' | 'giftCard'
>;

/** One order line as typed: text, so a half-typed number is kept exactly as it is. */
export interface LineDraft {
  key: number;
  /** The line's id when it is one of the order's (an edit); a line added in the form has none. */
  id?: string;
  kept?: KeptLineFields;
  name: string;
  sku: string;
  quantity: string;
  weight: string;
  weightUnit: WeightUnit;
  unitPrice: string;
  currency: string;
  hsCode: string;
  countryOfOrigin: string;
  /** Where the warehouse keeps it (the bin), for the pick list. */
  location: string;
  requiresShipping: boolean;
}

export const addressFields = ['name', 'company', 'attention', 'address1', 'address2', 'postalCode', 'city', 'countryCode', 'phone', 'email'] as const;
export type AddressDraft = Record<(typeof addressFields)[number], string>;

export interface OrderDraft {
  orderChannelId: string;
  orderNumber: string;
  customerName: string;
  customerEmail: string;
  notes: string;
  /** The service point the customer chose at checkout (decisions §13); order-based shipments take it. */
  servicePointId: string;
  address: AddressDraft;
  lines: LineDraft[];
}

let nextLineKey = 1;
export function emptyLine(currency = ''): LineDraft {
  return {
    key: nextLineKey++,
    name: '',
    sku: '',
    quantity: '1',
    weight: '',
    weightUnit: 'kg',
    unitPrice: '',
    currency,
    hsCode: '',
    countryOfOrigin: '',
    location: '',
    requiresShipping: true,
  };
}

function emptyDraft(): OrderDraft {
  const address = Object.fromEntries(addressFields.map((field) => [field, ''])) as AddressDraft;
  return { orderChannelId: '', orderNumber: '', customerName: '', customerEmail: '', notes: '', servicePointId: '', address, lines: [emptyLine()] };
}

/**
 * The order being typed in "New order". It outlives the dialog and the screen, so closing the
 * dialog, a failed save or a trip to another screen loses nothing; a successful save clears it.
 */
interface DraftState {
  draft: OrderDraft;
  change(update: (draft: OrderDraft) => OrderDraft): void;
  clear(): void;
}

export const useOrderDraft = create<DraftState>()((set) => ({
  draft: emptyDraft(),
  change: (update) => set((state) => ({ draft: update(state.draft) })),
  clear: () => set({ draft: emptyDraft() }),
}));

// The order being typed is its typist's: signing out forgets it (see the shipment drafts).
useSession.subscribe((state, previous) => {
  if (previous.login && state.login?.user.id !== previous.login.user.id) useOrderDraft.getState().clear();
});

const optionalText = (value: string) => value.trim() || undefined;
/** A number as typed; a comma is a decimal separator for most of Europe's warehouses ("0,4" is 0.4). */
const decimal = (value: string) => Number(value.trim().replace(',', '.'));
/** Empty is "not given"; anything else goes as a number (missingFields reports one that is not). */
const optionalNumber = (value: string) => (value.trim() === '' ? undefined : decimal(value));

/** A line as the API takes it: empty optional fields are left out. */
function lineBody(line: LineDraft): OrderCreateBody['orderLines'][number] {
  return {
    name: line.name.trim(),
    quantity: Number(line.quantity),
    sku: optionalText(line.sku),
    weight: optionalNumber(line.weight),
    weightUnit: line.weight.trim() ? line.weightUnit : undefined,
    unitPrice: optionalNumber(line.unitPrice),
    currency: optionalText(line.currency),
    hsCode: optionalText(line.hsCode),
    countryOfOrigin: optionalText(line.countryOfOrigin),
    location: optionalText(line.location),
    requiresShipping: line.requiresShipping,
  };
}

/** The address as typed, or undefined when nothing of it was. */
function addressBody(address: AddressDraft): NonNullable<OrderCreateBody['shippingAddress']> | undefined {
  if (!addressFields.some((field) => address[field].trim())) return undefined;
  return {
    name: address.name.trim(),
    address1: address.address1.trim(),
    city: address.city.trim(),
    postalCode: address.postalCode.trim(),
    countryCode: address.countryCode.trim(),
    company: optionalText(address.company),
    attention: optionalText(address.attention),
    address2: optionalText(address.address2),
    phone: optionalText(address.phone),
    email: optionalText(address.email),
  };
}

/** The create body: empty optional fields are left out; an address only when something of it was typed. */
export function orderBody(draft: OrderDraft, orderChannelId: string): OrderCreateBody {
  const total = orderTotal(draft.lines);
  return {
    orderChannelId,
    orderNumber: draft.orderNumber.trim(),
    customerName: optionalText(draft.customerName),
    customerEmail: optionalText(draft.customerEmail),
    notes: optionalText(draft.notes),
    servicePointId: optionalText(draft.servicePointId),
    shippingAddress: addressBody(draft.address),
    totalAmount: total?.amount,
    currency: total?.currency,
    orderLines: draft.lines.map(lineBody),
  };
}

/** An existing order as the form shows it, each line with its id and what the form does not show. */
export function draftOfOrder(order: OrderDetail): OrderDraft {
  const shown = order.shippingAddress;
  const address = Object.fromEntries(addressFields.map((field) => [field, shown?.[field] ?? ''])) as AddressDraft;
  return {
    orderChannelId: order.orderChannelId,
    orderNumber: order.orderNumber,
    customerName: order.customerName ?? '',
    customerEmail: order.customerEmail ?? '',
    notes: order.notes ?? '',
    servicePointId: order.servicePointId ?? '',
    address,
    lines: order.orderLines.map(lineDraftOf),
  };
}

function lineDraftOf(line: OrderLine): LineDraft {
  const orNothing = (value: string | null) => value ?? undefined;
  return {
    key: nextLineKey++,
    id: line.id,
    kept: {
      variantId: orNothing(line.variantId),
      productId: orNothing(line.productId),
      imageUrl: orNothing(line.imageUrl),
      provinceOfOrigin: orNothing(line.provinceOfOrigin),
      barcode: orNothing(line.barcode),
      vendor: orNothing(line.vendor),
      taxable: line.taxable,
      giftCard: line.giftCard,
    },
    name: line.name,
    sku: line.sku ?? '',
    quantity: String(line.quantity),
    weight: line.weight === null ? '' : String(line.weight),
    weightUnit: (weightUnits as readonly string[]).includes(line.weightUnit ?? '') ? (line.weightUnit as WeightUnit) : 'kg',
    unitPrice: line.unitPrice === null ? '' : String(line.unitPrice),
    currency: line.currency ?? '',
    hsCode: line.hsCode ?? '',
    countryOfOrigin: line.countryOfOrigin ?? '',
    location: line.location ?? '',
    requiresShipping: line.requiresShipping,
  };
}

/**
 * The PATCH body of an edit. A field emptied in the form is cleared (null); the address keeps the
 * parts the form does not show (province, country name). The total follows the lines only where it
 * was their sum before, as in an order typed in here: a shop's total (with shipping, discounts) is
 * left as the shop sent it.
 */
export function orderUpdateBody(draft: OrderDraft, original: OrderDetail): OrderUpdateBody {
  const typed = addressBody(draft.address);
  const before = original.shippingAddress;
  const originalTotal = orderTotal(original.orderLines.map(lineDraftOf));
  const totalFollowsLines = originalTotal !== null && originalTotal.amount === original.totalAmount && originalTotal.currency === original.currency;
  const total = orderTotal(draft.lines);
  return {
    orderNumber: draft.orderNumber.trim(),
    customerName: optionalText(draft.customerName) ?? null,
    customerEmail: optionalText(draft.customerEmail) ?? null,
    notes: optionalText(draft.notes) ?? null,
    servicePointId: optionalText(draft.servicePointId) ?? null,
    shippingAddress: typed ? { province: before?.province, provinceCode: before?.provinceCode, country: before?.country, ...typed } : before ? null : undefined,
    ...(totalFollowsLines ? { totalAmount: total?.amount ?? null, currency: total?.currency ?? null } : {}),
    orderLines: draft.lines.map((line) => ({ ...line.kept, ...(line.id ? { id: line.id } : {}), ...lineBody(line) })),
  };
}

/** Σ quantity × unit price when every line has a price in one and the same currency; otherwise no total. */
export function orderTotal(lines: readonly LineDraft[]): { amount: number; currency: string } | null {
  const currencies = new Set(lines.map((line) => line.currency.trim()));
  const [currency] = [...currencies];
  if (currencies.size !== 1 || !currency) return null;
  let amount = 0;
  for (const line of lines) {
    const quantity = Number(line.quantity);
    const price = decimal(line.unitPrice);
    if (!line.unitPrice.trim() || !Number.isFinite(price) || !Number.isInteger(quantity)) return null;
    amount += quantity * price;
  }
  return { amount: Math.round(amount * 100) / 100, currency };
}

const requiredAddressFields = ['name', 'address1', 'postalCode', 'city', 'countryCode'] as const;

/**
 * The fields decisions §5a requires that are still empty, keyed as the server's field errors are, so
 * a form that cannot pass is answered here in plain words, without a request.
 */
export function missingFields(draft: OrderDraft): Record<string, string> {
  const missing: Record<string, string> = {};
  const required = 'Required.';
  if (!draft.orderNumber.trim()) missing.orderNumber = required;
  if (addressFields.some((field) => draft.address[field].trim())) {
    for (const field of requiredAddressFields) {
      if (!draft.address[field].trim()) missing[`shippingAddress.${field}`] = 'Required when an address is given.';
    }
  }
  draft.lines.forEach((line, index) => {
    if (!line.name.trim()) missing[`orderLines.${index}.name`] = required;
    if (!/^\d+$/.test(line.quantity.trim()) || Number(line.quantity) < 1) missing[`orderLines.${index}.quantity`] = 'A whole number, 1 or more.';
    for (const field of ['weight', 'unitPrice'] as const) {
      if (line[field].trim() && !Number.isFinite(decimal(line[field]))) missing[`orderLines.${index}.${field}`] = 'A number, e.g. 0.5 or 0,5.';
    }
  });
  return missing;
}
