import type { Condition, conditionTypes, priceOperators } from '../../../../src-shared/schemas/shippingRule';
import { formatMoney } from './shared';

export type ConditionType = (typeof conditionTypes)[number];
export type PriceOperator = (typeof priceOperators)[number];

export const conditionTypeNames: Record<ConditionType, string> = {
  weight: 'Weight range',
  price: 'Order total compared with an amount',
  priceRange: 'Order total range',
  flatRate: 'Flat rate (always)',
};

export const operatorWords: Record<PriceOperator, string> = {
  gt: 'more than',
  gte: 'at least',
  lt: 'less than',
  lte: 'at most',
  eq: 'exactly',
};

const amount = (value: number | undefined) => (value === undefined ? '?' : String(Number(value.toFixed(3))));

/** What a condition asks for, as a sentence fragment: "weight 0–5 kg", "order total at least 500 DKK". */
export function describeTest(condition: Condition): string {
  switch (condition.type) {
    case 'weight':
      return `weight ${amount(condition.min)}–${amount(condition.max)} kg`;
    case 'price':
      return `order total ${operatorWords[condition.operator ?? 'eq']} ${amount(condition.value)} ${condition.currency}`;
    case 'priceRange':
      return `order total ${amount(condition.min)}–${amount(condition.max)} ${condition.currency}`;
    case 'flatRate':
      return 'any order (flat rate)';
    default:
      return `${condition.type} (unknown kind)`;
  }
}

/** "Weight 0–5 kg → 49,00 kr." */
export function describeCondition(condition: Condition): string {
  const test = describeTest(condition);
  return `${test.charAt(0).toUpperCase()}${test.slice(1)} → ${formatMoney(condition.shippingPrice, condition.currency)}`;
}
