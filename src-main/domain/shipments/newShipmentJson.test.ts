import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inWriteTransaction } from '../../db/tx';
import { setupLocalCarrier, startTestServer, type TestServer } from '../../testing/harness';
import type { PartyInput } from '../../../src-shared/schemas/shipment';
import { writeNewShipments, type ShipmentDraft } from './create';
import { newShipmentJson } from './newShipmentJson';
import { readShipmentJson } from './repository';
import { setPlan } from '../orgs/orgs';

/**
 * The full read of a new shipment built in JavaScript (newShipmentJson.ts) is byte for byte what
 * SQLite builds for the same rows (shipmentJson.ts), over many random shipments; where the builder
 * declines (whole numbers past 2^53, unpaired surrogates, a shipping rule), the create reads the
 * shipment back instead.
 */
let t: TestServer;
let carrierId: string;
let senderAddressId: string;
beforeAll(async () => {
  t = await startTestServer();
  ({ carrierId, senderAddressId } = await setupLocalCarrier(t));
  setPlan(t.app, t.org.orgId, 'unlimited');
});
afterAll(async () => t.close());

/** A seeded generator (mulberry32): the same shipments on every run. */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(next() * below);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  const chance = (p: number) => next() < p;
  // Control characters, quotes, backslashes, Latin, CJK, an astral character, U+2028, DEL.
  const alphabet = ['a', 'Z', '0', ' ', '"', '\\', '/', '\n', '\t', '\u0000', '\u0001', '\u001f', '\u007f', 'é', 'Ø', 'ß', '山', '😀', '\u2028', '\ufeff', '<'];
  const text = (max = 12) => Array.from({ length: int(max + 1) }, () => pick(alphabet)).join('');
  const number = () =>
    pick([
      () => int(1000),
      () => int(100_000) / 100,
      () => int(1_000_000) / 1000,
      () => next() * 1000,
      () => 1 / (1 + int(9)),
      () => int(10) / 100_000,
      () => pick([0, 0.1, 0.2, 0.30000000000000004, 1e-4, 12.5, 99.99, 250, 123456.789, 1e15, 1e21]),
    ])();
  const json = (depth = 0): unknown =>
    depth > 2 || chance(0.5)
      ? pick([() => text(), () => number(), () => -number(), () => chance(0.5), () => null])()
      : chance(0.5)
        ? Array.from({ length: int(4) }, () => json(depth + 1))
        : Object.fromEntries(Array.from({ length: int(4) }, () => [pick([text(4), String(int(10)), '__proto__x']), json(depth + 1)]));
  const record = () => Object.fromEntries(Array.from({ length: int(5) }, () => [pick([text(4), String(int(10)), '__proto__x']), json(1)]));
  return { next, int, pick, chance, text, number, json, record };
}

function randomDraft(g: ReturnType<typeof generator>): ShipmentDraft {
  const optional = <T>(value: () => T): T | undefined => (g.chance(0.5) ? value() : undefined);
  const party = (type: PartyInput['type']): PartyInput => {
    const result: PartyInput = {
      type,
      name: g.text() || 'n',
      address1: g.text() || 'a',
      postalCode: g.text(5) || '1',
      city: g.text() || 'c',
      countryCode: g.pick(['DK', 'SE', 'DE']),
      attributes: Array.from({ length: g.int(3) }, () => ({ name: g.text(5), value: g.text() })),
    };
    const attention = optional(() => g.text());
    if (attention !== undefined) result.attention = attention;
    const address2 = optional(() => g.text());
    if (address2 !== undefined) result.address2 = address2;
    const phone = optional(() => g.text());
    if (phone !== undefined) result.phone = phone;
    const email = optional(() => g.pick(['', 'x@example.dk', 'æ@example.dk']));
    if (email !== undefined) result.email = email;
    return result;
  };
  const pickup = g.chance(0.3) ? { date: g.pick(['2026-12-01', '']), from: '09:00', to: '17:00', instruction: g.text() } : undefined;
  return {
    reference: optional(() => g.text() || 'r'),
    senderAddressId,
    type: g.pick(['outbound', 'inbound'] as const),
    carrier: {
      carrierId,
      productId: g.text() || 'p',
      services: Array.from({ length: g.int(3) }, () => g.text(6)),
      additionalParameters: g.record(),
    },
    parties: [party('sender'), ...(g.chance(0.9) ? [party('receiver')] : []), ...(g.chance(0.3) ? [party('billing')] : [])],
    parcels: Array.from({ length: g.int(4) }, () => ({
      weight: g.number(),
      weightUnit: g.pick(['kg', 'g', 'lb', 'oz']),
      dimensions: { length: g.number(), width: g.number(), height: g.number() },
      orderLines: Array.from({ length: g.int(4) }, () => ({
        sku: g.text() || 's',
        quantity: 1 + g.int(1000),
        description: optional(() => g.text()) ?? null,
        unitPrice: optional(() => g.number()) ?? null,
        currency: optional(() => g.pick(['DKK', 'EUR'])) ?? null,
        vatPercent: optional(() => g.number()) ?? null,
        location: optional(() => g.text()) ?? null,
        countryOfOrigin: optional(() => g.pick(['CN', 'DK'])) ?? null,
        tarrifNumber: optional(() => g.text(10)) ?? null,
        unitWeightKg: optional(() => g.number()) ?? null,
      })),
    })),
    termOfTrade: g.pick(['DAP', 'DDP', 'EXW']),
    status: g.pick(['pending', 'draft', 'on_hold'] as const),
    servicePointId: optional(() => g.text()) ?? null,
    pickupDetails: pickup,
    orderId: null,
    shippingRuleId: null,
    ...(g.chance(0.2) ? { activities: [{ action: 'shipping_rule_applied' as const, description: g.text() }] } : {}),
  };
}

describe('the full read of a new shipment built in JavaScript', () => {
  it('is byte for byte what SQLite builds from the same rows, over 600 random shipments', () => {
    const g = generator(23);
    let built = 0;
    for (let round = 0; round < 60; round++) {
      const drafts = Array.from({ length: 10 }, () => randomDraft(g));
      inWriteTransaction(t.app.db, (tx) => {
        for (const written of writeNewShipments(tx, new Date(), t.org.orgId, drafts)) {
          const text = newShipmentJson(tx, written);
          if (text === undefined) continue;
          built++;
          expect(text).toBe(readShipmentJson(tx, t.org.orgId, written.row.id as string).text);
        }
      });
    }
    // All but those with a whole number past 2^53 (1e15 and 1e21 among the generated numbers).
    expect(built).toBeGreaterThan(300);
  });

  it('declines what SQLite writes differently, and what a new shipment does not have', () => {
    inWriteTransaction(t.app.db, (tx) => {
      const draft = randomDraft(generator(7));
      const [written] = writeNewShipments(tx, new Date(), t.org.orgId, [
        { ...draft, parcels: [{ weight: 1, weightUnit: 'kg', dimensions: { length: 1, width: 1, height: 1 }, orderLines: [] }] },
      ]);
      if (!written) throw new Error('nothing written');
      expect(newShipmentJson(tx, written)).toBe(readShipmentJson(tx, t.org.orgId, written.row.id as string).text);
      const withParcel = (weight: number) => ({ ...written, parcels: [{ ...written.parcels[0]!, row: { ...written.parcels[0]!.row, weight } }] });
      for (const weight of [1e21, 2 ** 60, Number.NaN, Number.POSITIVE_INFINITY]) expect(newShipmentJson(tx, withParcel(weight))).toBeUndefined();
      expect(newShipmentJson(tx, { ...written, row: { ...written.row, name: undefined, reference: 'x\ud800' } as typeof written.row })).toBeUndefined();
      expect(newShipmentJson(tx, { ...written, row: { ...written.row, shippingRuleId: 'rul_x' } })).toBeUndefined();
      expect(newShipmentJson(tx, { ...written, row: { ...written.row, additionalParameters: { deep: 'x'.repeat(2000) } } })).toBeUndefined();
    });
  });
});
