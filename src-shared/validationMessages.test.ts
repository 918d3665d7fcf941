import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { requiredText } from './schemas/common';
import { senderAddressCreateBody } from './schemas/senderAddress';

const messages = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('validation messages in plain words', () => {
  it('says Required for missing and empty fields', () => {
    expect(messages(senderAddressCreateBody, { name: '', countryCode: 'DK', address1: 'x', zipcode: '1', city: 'c' })).toEqual(['name: Required']);
    expect(messages(senderAddressCreateBody, { countryCode: 'DK', address1: 'x', zipcode: '1', city: 'c' })).toEqual(['name: Required']);
  });

  it('names bounds, formats and choices', () => {
    expect(messages(requiredText(), 'x'.repeat(1001))).toEqual([': At most 1000 characters']);
    expect(messages(z.number().int().min(1), 0)).toEqual([': Must be at least 1']);
    expect(messages(z.number().int(), 1.5)).toEqual([': Expected a whole number']);
    expect(messages(z.array(z.string()).min(1), [])).toEqual([': At least 1 item']);
    expect(messages(z.email(), 'nope')).toEqual([': Not a valid email address']);
    expect(messages(z.enum(['kg', 'g']), 'lb')).toEqual([': Must be one of: kg, g']);
    expect(messages(z.string(), 5)).toEqual([': Expected string']);
  });

  it('keeps messages written on a schema', () => {
    expect(messages(z.string().min(8, 'At least 8 characters'), 'short')).toEqual([': At least 8 characters']);
  });
});
