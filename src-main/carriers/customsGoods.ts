import type { CustomsDeclaration, CustomsLine } from './adapter';

/**
 * The goods of a customs declaration as every paper and carrier states them (issue 21): the same goods
 * packed in several parcels are one line with their quantities added, values in cents and weights in
 * grams so totals add up exactly. The invoice and CN22/CN23 made here group the same way
 * (documents/invoice.ts invoiceLines), so what the carrier is sent and what is printed agree.
 */
export interface DeclaredGoods {
  sku: string;
  description: string;
  tarrifNumber: string;
  countryOfOrigin: string;
  quantity: number;
  unitPrice: number;
  currency: string;
  unitWeightKg: number;
  valueCents: number;
  netGrams: number;
}

export function declaredGoods(declaration: Pick<CustomsDeclaration, 'lines'>): DeclaredGoods[] {
  const byGoods = new Map<string, DeclaredGoods>();
  const key = (line: CustomsLine) =>
    JSON.stringify([line.sku, line.description, line.tarrifNumber, line.countryOfOrigin, line.unitPrice, line.currency, line.unitWeightKg]);
  for (const line of declaration.lines) {
    const valueCents = Math.round(line.unitPrice * 100) * line.quantity;
    const netGrams = Math.round(line.unitWeightKg * 1000) * line.quantity;
    const existing = byGoods.get(key(line));
    if (existing) {
      existing.quantity += line.quantity;
      existing.valueCents += valueCents;
      existing.netGrams += netGrams;
    } else {
      const { parcelId: _parcel, ...goods } = line;
      byGoods.set(key(line), { ...goods, valueCents, netGrams });
    }
  }
  return [...byGoods.values()];
}

export const totalNetGrams = (goods: readonly DeclaredGoods[]) => goods.reduce((sum, line) => sum + line.netGrams, 0);
