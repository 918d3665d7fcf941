import { describe, expect, it } from 'vitest';
import { hasCrowdedObject, MAX_OBJECT_FIELDS } from './crowdedJson';

const objectWith = (fields: number) => JSON.stringify(Object.fromEntries(Array.from({ length: fields }, (_, i) => [`k${i}`, i])));

describe('an object with too many fields', () => {
  it('is found at the top or nested, and a full object is not', () => {
    expect(hasCrowdedObject(objectWith(MAX_OBJECT_FIELDS))).toBe(false);
    expect(hasCrowdedObject(objectWith(MAX_OBJECT_FIELDS + 1))).toBe(true);
    expect(hasCrowdedObject(`{"parcels":[{"orderLines":[${objectWith(MAX_OBJECT_FIELDS + 1)}]}]}`)).toBe(true);
  });

  it('counts fields per object: many small objects are what a big shipment is', () => {
    const lines = Array.from({ length: 5_000 }, (_, i) => ({ sku: `SKU-${i}`, quantity: 1, description: 'a: b', unitPrice: 1 }));
    expect(hasCrowdedObject(JSON.stringify({ parcels: [{ orderLines: lines }] }))).toBe(false);
  });

  it('is not fooled by colons, braces and escaped quotes inside strings', () => {
    const tricky = Array.from({ length: 2_000 }, () => 'a\\":{"x":1,"y":[').join('');
    expect(hasCrowdedObject(JSON.stringify({ note: tricky, other: { a: 1 } }))).toBe(false);
    expect(hasCrowdedObject(JSON.stringify([Array.from({ length: 5_000 }, () => 'k:v')]))).toBe(false);
  });
});
