import { describe, expect, it } from 'vitest';
import { MAX_BATCH_SPLIT } from '../../../../src-shared/schemas/shipment';
import { orderLine, parcel, shipment } from '../../testing/shipmentFixtures';
import { linesInOtherParcels, planBatchSplit, planSplit, statusProblem, unitsOf, type BatchColumn } from './splitPlan';

const mugs = orderLine('pol_mug', 'MUG', 4);
const plates = orderLine('pol_plate', 'PLATE', 2);
const lines = [mugs, plates];
/** One parcel holding both lines: everything the shipment has. */
const single = shipment({ reference: 'SHP-000010', parcels: [parcel('prc_1', lines)] });
/** The same parcel, and a second one with a line of its own. */
const twoParcels = shipment({ reference: 'SHP-000010', parcels: [parcel('prc_1', lines), parcel('prc_2', [orderLine('pol_bowl', 'BOWL', 1)])] });

let nextKey = 1;
const column = (quantities: Record<string, string>, reference = ''): BatchColumn => ({ key: nextKey++, reference, quantities });

describe('which shipments can be split', () => {
  it('only draft and pending ones, saying the status in words otherwise', () => {
    expect(statusProblem(shipment({ status: 'draft' }))).toBeNull();
    expect(statusProblem(shipment({ status: 'pending' }))).toBeNull();
    expect(statusProblem(shipment({ status: 'partly_dispatched', reference: 'SHP-7' }))).toBe(
      'Only draft or pending shipments can be split; SHP-7 is partly dispatched.',
    );
    expect(statusProblem(shipment({ status: 'error' }))).not.toBeNull();
  });
});

describe('counting lines and units', () => {
  it('counts the order lines of the other parcels only', () => {
    expect(linesInOtherParcels(twoParcels, 'prc_1')).toBe(1);
    expect(linesInOtherParcels(twoParcels, 'prc_2')).toBe(2);
    expect(linesInOtherParcels(single, 'prc_1')).toBe(0);
  });

  it('adds the units of lines', () => {
    expect(unitsOf(lines)).toBe(6);
    expect(unitsOf([])).toBe(0);
  });
});

describe('a split of whole lines', () => {
  it('moves the ticked lines and keeps the rest', () => {
    const plan = planSplit(single, lines, 'prc_1', new Set(['pol_plate']));
    expect(plan).toEqual({ moving: [plates], staying: [mugs], problems: [] });
  });

  it('asks for a line when none is ticked', () => {
    expect(planSplit(single, lines, 'prc_1', new Set()).problems).toEqual(['Choose at least one order line to move.']);
  });

  it('keeps at least one line in the original shipment', () => {
    expect(planSplit(single, lines, 'prc_1', new Set(['pol_mug', 'pol_plate'])).problems).toEqual([
      'At least one order line must stay in SHP-000010: leave one unticked, or use the batch split to move part of a line.',
    ]);
  });

  it('may empty a parcel when another parcel keeps a line', () => {
    expect(planSplit(twoParcels, lines, 'prc_1', new Set(['pol_mug', 'pol_plate'])).problems).toEqual([]);
  });

  it('refuses a shipment already on its way, whatever is ticked', () => {
    const plan = planSplit(shipment({ ...single, status: 'dispatched' }), lines, 'prc_1', new Set(['pol_mug']));
    expect(plan.problems).toEqual(['Only draft or pending shipments can be split; SHP-000010 is dispatched.']);
  });
});

describe('a batch split', () => {
  it('builds the body from the quantities typed, leaving out lines that give nothing', () => {
    const plan = planBatchSplit(single, lines, 'prc_1', [column({ pol_mug: '2', pol_plate: '' }, '  Box B '), column({ pol_mug: ' 1 ', pol_plate: '1' })]);
    expect(plan.problems).toEqual([]);
    expect(plan.shipments).toEqual([
      { reference: 'Box B', orderLines: [{ id: 'pol_mug', quantity: 2 }] },
      {
        orderLines: [
          { id: 'pol_mug', quantity: 1 },
          { id: 'pol_plate', quantity: 1 },
        ],
      },
    ]);
  });

  it('adds up what moves per line, per new shipment, and what stays', () => {
    const plan = planBatchSplit(single, lines, 'prc_1', [column({ pol_mug: '2' }), column({ pol_mug: '1', pol_plate: '2' })]);
    expect(plan.moved).toEqual({ pol_mug: 3, pol_plate: 2 });
    expect(plan.units).toEqual([2, 3]);
    expect(plan.movingUnits).toBe(5);
    expect(plan.stayingUnits).toBe(1);
    expect(plan.problems).toEqual([]);
  });

  it('refuses a line giving more units than it has, and never counts a unit twice', () => {
    const plan = planBatchSplit(single, lines, 'prc_1', [column({ pol_mug: '3' }), column({ pol_mug: '3' })]);
    expect(plan.problems).toContain('MUG: 6 of 4 would move, 2 more than the parcel holds.');
    expect(plan.movingUnits).toBe(4);
    expect(plan.stayingUnits).toBe(2);
    expect(plan.movingUnits + plan.stayingUnits).toBe(unitsOf(lines));
  });

  it('marks each quantity that is not a whole number ≥ 0 at its cell, and counts them once', () => {
    const first = column({ pol_mug: '1.5', pol_plate: '-1' });
    const second = column({ pol_mug: '1' });
    const plan = planBatchSplit(single, lines, 'prc_1', [first, second]);
    expect(plan.cellErrors).toEqual({
      [`${first.key}:pol_mug`]: 'Enter a whole number, 0 or more.',
      [`${first.key}:pol_plate`]: 'Enter a whole number, 0 or more.',
    });
    expect(plan.problems).toEqual(['2 quantities are not a whole number.']);
    expect(planBatchSplit(single, lines, 'prc_1', [column({ pol_mug: '2x' })]).problems).toEqual(['One quantity is not a whole number.']);
  });

  it('asks every new shipment to take something', () => {
    const plan = planBatchSplit(single, lines, 'prc_1', [column({ pol_mug: '1' }), column({ pol_mug: '0', pol_plate: '' })]);
    expect(plan.problems).toEqual(['New shipment 2 takes nothing: enter a quantity or remove it.']);
  });

  it('keeps at least one unit in the original shipment unless another parcel keeps a line', () => {
    const everything = [column({ pol_mug: '4' }), column({ pol_plate: '2' })];
    expect(planBatchSplit(single, lines, 'prc_1', everything).problems).toEqual([
      'Nothing would be left in SHP-000010: at least one unit must stay in the original shipment.',
    ]);
    expect(planBatchSplit(twoParcels, lines, 'prc_1', everything).problems).toEqual([]);
  });

  it('moves part of a line, which a split of whole lines cannot', () => {
    const plan = planBatchSplit(shipment({ parcels: [parcel('prc_1', [mugs])] }), [mugs], 'prc_1', [column({ pol_mug: '3' })]);
    expect(plan.problems).toEqual([]);
    expect(plan.stayingUnits).toBe(1);
  });

  it('needs a new shipment, and takes at most 100 at a time', () => {
    expect(planBatchSplit(single, lines, 'prc_1', []).problems).toEqual(['Add a new shipment to move units into.']);
    const big = shipment({ parcels: [parcel('prc_1', [orderLine('pol_many', 'SOCK', 500)])] });
    const many = Array.from({ length: MAX_BATCH_SPLIT + 1 }, () => column({ pol_many: '1' }));
    expect(planBatchSplit(big, big.parcels[0]?.orderLines ?? [], 'prc_1', many).problems).toEqual(['At most 100 new shipments at a time.']);
    expect(planBatchSplit(big, big.parcels[0]?.orderLines ?? [], 'prc_1', many.slice(1)).problems).toEqual([]);
  });

  it('refuses a shipment that cannot be split first', () => {
    const plan = planBatchSplit({ ...single, status: 'on_hold' }, lines, 'prc_1', [column({ pol_mug: '1' })]);
    expect(plan.problems).toEqual(['Only draft or pending shipments can be split; SHP-000010 is on hold.']);
  });
});
