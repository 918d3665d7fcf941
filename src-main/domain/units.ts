import { kgPerWeightUnit as kgPer, type WeightUnit } from '../../src-shared/schemas/shipment';

/** Rules compare in kg (decisions §1); unknown units are treated as kg. */
export function toKg(weight: number, unit: string | null | undefined): number {
  return weight * (kgPer[(unit ?? 'kg') as WeightUnit] ?? 1);
}

export function fromKg(kg: number, unit: string): number {
  return kg / (kgPer[unit as WeightUnit] ?? 1);
}

/** Weights are kept to the gram so that splits add up exactly. */
export function roundWeight(value: number): number {
  return Math.round(value * 1000) / 1000;
}
