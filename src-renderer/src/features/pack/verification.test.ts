import { describe, expect, it } from 'vitest';
import type { OrderLine } from '../../../../src-shared/schemas/order';
import { orderItem, orderLine, parcel, shipment } from '../../testing/shipmentFixtures';
import { classifyScan } from './scanKind';
import {
  boxParcels,
  boxWeight,
  needsRepack,
  nextBox,
  progress,
  restByParcel,
  startVerification,
  stillFits,
  tick,
  ticked,
  undo,
  unweighedBoxes,
  verifyCodesOf,
  weighOpenBox,
  withoutRest,
  type Verification,
} from './verification';

function line(name: string, more: Partial<OrderLine> = {}): OrderLine {
  return orderItem(`oln_${name}`, name, null, more);
}

const orderLines = [
  line('Stoneware mug', { sku: 'MUG-01', barcode: '5701234567899', weight: 400, weightUnit: 'g' }),
  line('Teapot', { sku: 'POT-01', weight: 1.2, weightUnit: 'kg' }),
];
const packed = shipment({
  parcels: [
    parcel('prc_1', [orderLine('pol_mug', 'MUG-01', 3, { description: 'Stoneware mug', unitPrice: 9 }), orderLine('pol_pot', 'POT-01', 1)], {
      weight: 2.4,
    }),
  ],
});
const withoutId = ({ id: _id, ...fields }: ReturnType<typeof orderLine>) => fields;
const start = () => startVerification(packed, orderLines) as Verification;
/** Scans codes in turn, as the pack store does with its items. */
function scanAll(verification: Verification, ...codes: string[]): Verification {
  return codes.reduce((state, code) => {
    const kind = classifyScan(code, state.lines, verifyCodesOf);
    if (kind.kind !== 'item') throw new Error(`${code} is no item`);
    return tick(state, kind.lines)?.verification ?? state;
  }, verification);
}

describe('starting to check a shipment', () => {
  it('lists its lines with the order lines’ barcodes and unit weights', () => {
    const verification = start();
    expect(verification.lines).toEqual([
      { id: 'pol_mug', parcelId: 'prc_1', sku: 'MUG-01', barcode: '5701234567899', description: 'Stoneware mug', location: '', quantity: 3, unitWeightKg: 0.4 },
      { id: 'pol_pot', parcelId: 'prc_1', sku: 'POT-01', barcode: null, description: 'Teapot', location: '', quantity: 1, unitWeightKg: 1.2 },
    ]);
    expect(progress(verification)).toEqual({ ticked: 0, total: 4, complete: false });
  });

  it('is not started when no line carries a code (the SKU is only the product’s name)', () => {
    const unnamed = shipment({ parcels: [parcel('prc_1', [orderLine('pol_1', 'Gift card', 1)])] });
    expect(startVerification(unnamed, [line('Gift card')])).toBeNull();
    expect(startVerification(shipment({ parcels: [parcel('prc_1', [])] }), null)).toBeNull();
    // Without an order, the SKUs typed on the parcel lines are the codes.
    expect(startVerification(unnamed, null)?.lines).toHaveLength(1);
  });

  it('shares a parcel’s weight over its units when the order knows no weights', () => {
    const verification = startVerification(packed, [line('Stoneware mug', { sku: 'MUG-01' }), line('Teapot', { sku: 'POT-01' })]);
    expect(verification?.lines.map((one) => one.unitWeightKg)).toEqual([0.6, 0.6]);
  });

  it('goes on where it stopped only while the lines are the same', () => {
    const kept = scanAll(start(), 'MUG-01');
    expect(stillFits(kept, start())).toBe(true);
    const changed = startVerification(shipment({ parcels: [parcel('prc_1', [orderLine('pol_mug', 'MUG-01', 2)])] }), orderLines) as Verification;
    expect(stillFits(kept, changed)).toBe(false);
  });
});

describe('ticking items', () => {
  it('counts one unit per scan, by SKU or barcode', () => {
    const verification = scanAll(start(), 'MUG-01', '5701234567899', 'pot-01');
    expect(ticked(verification, 'pol_mug')).toBe(2);
    expect(ticked(verification, 'pol_pot')).toBe(1);
    expect(progress(verification)).toEqual({ ticked: 3, total: 4, complete: false });
    expect(progress(scanAll(verification, 'MUG-01')).complete).toBe(true);
  });

  it('refuses one too many, counting nothing', () => {
    const verification = scanAll(start(), 'POT-01');
    const again = tick(
      verification,
      verification.lines.filter((one) => one.sku === 'POT-01'),
    );
    expect(again?.outcome).toEqual({ kind: 'too-many', line: verification.lines[1] });
    expect(again?.verification).toBe(verification);
  });

  it('fills the next line of the same SKU when the first is full', () => {
    const twoLines = startVerification(
      shipment({ parcels: [parcel('prc_1', [orderLine('pol_a', 'MUG-01', 1), orderLine('pol_b', 'MUG-01', 1)])] }),
      orderLines,
    ) as Verification;
    const verification = scanAll(twoLines, 'MUG-01', 'MUG-01');
    expect([ticked(verification, 'pol_a'), ticked(verification, 'pol_b')]).toEqual([1, 1]);
  });

  it('takes back the newest tick, then a box start, and then says there is nothing', () => {
    const inTwo = scanAll(nextBox(scanAll(start(), 'MUG-01')) as Verification, 'POT-01');
    const once = undo(inTwo);
    expect(once?.undone).toEqual({ kind: 'tick', line: inTwo.lines[1] });
    const twice = undo(once?.verification as Verification);
    expect(twice?.undone).toEqual({ kind: 'box' });
    expect(twice?.verification.weights).toHaveLength(1);
    const thrice = undo(twice?.verification as Verification);
    expect(progress(thrice?.verification as Verification).ticked).toBe(0);
    expect(undo(thrice?.verification as Verification)).toBeNull();
  });
});

describe('boxes and weights', () => {
  it('opens a next box only when the open one has something in it', () => {
    expect(nextBox(start())).toBeNull();
    const two = nextBox(scanAll(start(), 'MUG-01')) as Verification;
    expect(two.weights).toEqual([null, null]);
    expect(nextBox(two)).toBeNull();
  });

  it('weighs a box by the scale, else by its items', () => {
    const two = scanAll(nextBox(scanAll(start(), 'MUG-01', 'MUG-01')) as Verification, 'POT-01');
    expect(boxWeight(two, 0)).toEqual({ weight: 0.8, weightUnit: 'kg', fromScale: false });
    const weighed = weighOpenBox(two, { weight: 1350, weightUnit: 'g' });
    expect(boxWeight(weighed, 1)).toEqual({ weight: 1350, weightUnit: 'g', fromScale: true });
    expect(unweighedBoxes(weighed)).toEqual([]);
  });

  it('names the boxes with no weight to book', () => {
    const noWeights = startVerification(shipment({ parcels: [parcel('prc_1', [orderLine('pol_1', 'MUG-01', 1)], { weight: 0 })] }), [
      line('Mug', { sku: 'MUG-01' }),
    ]) as Verification;
    const verification = scanAll(noWeights, 'MUG-01');
    expect(unweighedBoxes(verification)).toEqual([1]);
    expect(unweighedBoxes(weighOpenBox(verification, { weight: 0.5, weightUnit: 'kg' }))).toEqual([]);
  });

  it('makes one parcel per box; a line in two boxes keeps its id in the first', () => {
    const verification = scanAll(nextBox(scanAll(start(), 'MUG-01', 'MUG-01')) as Verification, 'MUG-01', 'POT-01');
    expect(needsRepack(verification, packed)).toBe(true);
    expect(boxParcels(verification, packed)).toEqual([
      {
        id: 'prc_1',
        weight: 0.8,
        weightUnit: 'kg',
        dimensions: { length: 30, width: 20, height: 10 },
        orderLines: [{ ...orderLine('pol_mug', 'MUG-01', 2, { description: 'Stoneware mug', unitPrice: 9 }) }],
      },
      {
        weight: 1.6,
        weightUnit: 'kg',
        dimensions: { length: 30, width: 20, height: 10 },
        // The mug's third unit is a new line (no id): the server ties it to the same order line by SKU.
        orderLines: [withoutId(orderLine('pol_new', 'MUG-01', 1, { description: 'Stoneware mug', unitPrice: 9 })), orderLine('pol_pot', 'POT-01', 1)],
      },
    ]);
  });

  it('leaves out a box started and left empty', () => {
    const oneFilled = nextBox(scanAll(start(), 'MUG-01')) as Verification;
    expect(unweighedBoxes(weighOpenBox(oneFilled, { weight: 0, weightUnit: 'kg' }))).toEqual([]);
    expect(needsRepack(oneFilled, packed)).toBe(false);
    expect(boxParcels(oneFilled, packed)).toHaveLength(1);
  });

  it('writes nothing before the send for one box of one parcel weighed by its items', () => {
    expect(needsRepack(scanAll(start(), 'MUG-01'), packed)).toBe(false);
    expect(needsRepack(weighOpenBox(scanAll(start(), 'MUG-01'), { weight: 2, weightUnit: 'kg' }), packed)).toBe(true);
  });
});

describe('a short pack', () => {
  it('splits off what is not ticked, per parcel, and then checks only what stays', () => {
    const verification = scanAll(start(), 'MUG-01');
    expect(restByParcel(verification)).toEqual([
      {
        parcelId: 'prc_1',
        orderLines: [
          { id: 'pol_mug', quantity: 2 },
          { id: 'pol_pot', quantity: 1 },
        ],
      },
    ]);
    const kept = withoutRest(verification);
    expect(kept.lines.map((one) => [one.id, one.quantity])).toEqual([['pol_mug', 1]]);
    expect(progress(kept).complete).toBe(true);
    expect(restByParcel(kept)).toEqual([]);
  });
});
