import { create } from 'zustand';
import type { BodyOf } from '../../../../src-shared/operation';
import type { OperationById } from '../../../../src-shared/operations';
import type { WeightUnit } from '../../../../src-shared/schemas/shipment';

export type OrderCreateBody = BodyOf<OperationById<'orders.create'>>;

/** One order line as typed: text, so a half-typed number is kept exactly as it is. */
export interface LineDraft {
  key: number;
  name: string;
  sku: string;
  quantity: string;
  weight: string;
  weightUnit: WeightUnit;
  unitPrice: string;
  currency: string;
  hsCode: string;
  countryOfOrigin: string;
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
    requiresShipping: true,
  };
}

function emptyDraft(): OrderDraft {
  const address = Object.fromEntries(addressFields.map((field) => [field, ''])) as AddressDraft;
  return { orderChannelId: '', orderNumber: '', customerName: '', customerEmail: '', notes: '', address, lines: [emptyLine()] };
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

const optionalText = (value: string) => value.trim() || undefined;
/** Empty is "not given"; anything else goes as a number, and a non-number comes back as a field error. */
const optionalNumber = (value: string) => (value.trim() === '' ? undefined : Number(value));

/** The create body: empty optional fields are left out; an address only when something of it was typed. */
export function orderBody(draft: OrderDraft, orderChannelId: string): OrderCreateBody {
  const orderLines = draft.lines.map((line) => ({
    name: line.name.trim(),
    quantity: Number(line.quantity),
    sku: optionalText(line.sku),
    weight: optionalNumber(line.weight),
    weightUnit: line.weight.trim() ? line.weightUnit : undefined,
    unitPrice: optionalNumber(line.unitPrice),
    currency: optionalText(line.currency),
    hsCode: optionalText(line.hsCode),
    countryOfOrigin: optionalText(line.countryOfOrigin),
    requiresShipping: line.requiresShipping,
  }));
  const hasAddress = addressFields.some((field) => draft.address[field].trim());
  const address = draft.address;
  const total = orderTotal(draft.lines);
  return {
    orderChannelId,
    orderNumber: draft.orderNumber.trim(),
    customerName: optionalText(draft.customerName),
    customerEmail: optionalText(draft.customerEmail),
    notes: optionalText(draft.notes),
    shippingAddress: hasAddress
      ? {
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
        }
      : undefined,
    totalAmount: total?.amount,
    currency: total?.currency,
    orderLines,
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
    const price = Number(line.unitPrice);
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
  });
  return missing;
}
