import type { OrderLine } from '../../../../src-shared/schemas/order';
import { kgPerWeightUnit, type ParcelInput, type Shipment, type WeightUnit } from '../../../../src-shared/schemas/shipment';

/**
 * Scan-to-verify (issue 20): the items of a shipment ticked one unit per scan, into one box or more,
 * before it is sent. Pure: the pack store keeps a Verification and replaces it with what these answer.
 */

/** A parcel line to pack, with the codes printed on the item (its SKU, the order line's barcode). */
export interface VerifyLine {
  id: string;
  parcelId: string;
  sku: string;
  barcode: string | null;
  description: string;
  location: string;
  quantity: number;
  /** One unit's weight in kg: the order line's, else its parcel's weight shared over the parcel's units. */
  unitWeightKg: number;
}

export interface ScaleWeight {
  weight: number;
  weightUnit: WeightUnit;
}

/** Ticks and box starts, oldest first: undo takes the newest back. */
export type VerifyStep = { kind: 'tick'; lineId: string; box: number } | { kind: 'box' };

export interface Verification {
  shipmentId: string;
  lines: VerifyLine[];
  /** The weight read from the scale (or typed) per box; null where the items' weights are used. The last box is the open one. */
  weights: (ScaleWeight | null)[];
  steps: VerifyStep[];
}

export const verifyCodesOf = (line: VerifyLine) => [line.sku, line.barcode];

/** The SKU an order-made parcel line carries for an order line (src-main/domain/orders/placement.ts `orderLineSku`). */
const orderLineSku = (line: Pick<OrderLine, 'sku' | 'productId' | 'name'>) => line.sku ?? line.productId ?? line.name;

const toKg = (weight: number, unit: string) => weight * (kgPerWeightUnit[unit as WeightUnit] ?? 1);

/**
 * The verification of a shipment's lines, or null when none of them carries a code to scan: a line
 * made from an order line with neither SKU nor barcode has only the product's name as its SKU, which
 * no label carries. `orderLines` are the lines of the shipment's order (null without an order: then
 * the parcel lines' own SKUs, typed by hand, are the codes).
 */
export function startVerification(shipment: Pick<Shipment, 'id' | 'parcels'>, orderLines: readonly OrderLine[] | null): Verification | null {
  const lines: VerifyLine[] = [];
  let scannable = false;
  for (const parcel of shipment.parcels) {
    const units = parcel.orderLines.reduce((total, line) => total + line.quantity, 0);
    const shareKg = units > 0 ? toKg(parcel.weight, parcel.weightUnit) / units : 0;
    for (const line of parcel.orderLines) {
      const orderLine = orderLines?.find((candidate) => orderLineSku(candidate) === line.sku) ?? null;
      if (orderLines === null || orderLine?.sku || orderLine?.barcode) scannable = true;
      const ownWeight = orderLine?.weight != null ? toKg(orderLine.weight, orderLine.weightUnit ?? 'kg') : null;
      lines.push({
        id: line.id,
        parcelId: parcel.id,
        sku: line.sku,
        barcode: orderLine?.barcode ?? null,
        description: line.description || orderLine?.name || '',
        location: line.location,
        quantity: line.quantity,
        unitWeightKg: ownWeight ?? shareKg,
      });
    }
  }
  return scannable && lines.length > 0 ? { shipmentId: shipment.id, lines, weights: [null], steps: [] } : null;
}

/** Whether a kept verification still fits the shipment as read now (nobody changed its lines meanwhile). */
export function stillFits(kept: Verification, fresh: Verification): boolean {
  return (
    kept.shipmentId === fresh.shipmentId &&
    kept.lines.length === fresh.lines.length &&
    kept.lines.every((line, index) => line.id === fresh.lines[index]?.id && line.quantity === fresh.lines[index]?.quantity)
  );
}

export const openBox = (verification: Verification) => verification.weights.length - 1;

/** Units of a line ticked, in one box or in all. */
export function ticked(verification: Verification, lineId: string, box?: number): number {
  return verification.steps.filter((step) => step.kind === 'tick' && step.lineId === lineId && (box === undefined || step.box === box)).length;
}

export function progress(verification: Verification): { ticked: number; total: number; complete: boolean } {
  const total = verification.lines.reduce((sum, line) => sum + line.quantity, 0);
  const done = verification.steps.filter((step) => step.kind === 'tick').length;
  return { ticked: done, total, complete: done >= total };
}

export type TickOutcome = { kind: 'right'; line: VerifyLine; count: number } | { kind: 'too-many'; line: VerifyLine };

/** One unit of the first matching line that still needs one; none left is "too many", and nothing is ticked. */
export function tick(verification: Verification, matching: readonly VerifyLine[]): { verification: Verification; outcome: TickOutcome } | null {
  const first = matching[0];
  if (!first) return null;
  const line = matching.find((candidate) => ticked(verification, candidate.id) < candidate.quantity);
  if (!line) return { verification, outcome: { kind: 'too-many', line: first } };
  const next = { ...verification, steps: [...verification.steps, { kind: 'tick' as const, lineId: line.id, box: openBox(verification) }] };
  return { verification: next, outcome: { kind: 'right', line, count: ticked(next, line.id) } };
}

/** Takes back the newest tick or box start; null when there is nothing to take back. */
export function undo(verification: Verification): { verification: Verification; undone: { kind: 'tick'; line: VerifyLine } | { kind: 'box' } } | null {
  const last = verification.steps[verification.steps.length - 1];
  if (!last) return null;
  const steps = verification.steps.slice(0, -1);
  if (last.kind === 'box') return { verification: { ...verification, steps, weights: verification.weights.slice(0, -1) }, undone: { kind: 'box' } };
  const line = verification.lines.find((candidate) => candidate.id === last.lineId);
  return line ? { verification: { ...verification, steps }, undone: { kind: 'tick', line } } : null;
}

/** Closes the open box and opens the next; null while the open box is empty (two empty boxes are no use). */
export function nextBox(verification: Verification): Verification | null {
  const box = openBox(verification);
  if (boxUnits(verification, box) === 0) return null;
  return { ...verification, weights: [...verification.weights, null], steps: [...verification.steps, { kind: 'box' }] };
}

export function weighOpenBox(verification: Verification, weight: ScaleWeight): Verification {
  const weights = [...verification.weights];
  weights[openBox(verification)] = weight;
  return { ...verification, weights };
}

/** A box's weight: the scale's, else the sum of its items' weights in kg (0 when they are unknown). */
export function boxWeight(verification: Verification, box: number): ScaleWeight & { fromScale: boolean } {
  const scale = verification.weights[box];
  if (scale) return { ...scale, fromScale: true };
  const kg = verification.lines.reduce((sum, line) => sum + line.unitWeightKg * ticked(verification, line.id, box), 0);
  return { weight: Math.round(kg * 1000) / 1000, weightUnit: 'kg', fromScale: false };
}

/** Units ticked into a box. */
export function boxUnits(verification: Verification, box: number): number {
  return verification.steps.filter((step) => step.kind === 'tick' && step.box === box).length;
}

/**
 * The boxes that hold something (0-based). Only the open box can be empty (a next box is refused while
 * the open one is, and undo takes a box start back before the ticks of the box before it): a box
 * started and left empty is no parcel.
 */
export function filledBoxes(verification: Verification): number[] {
  return verification.weights.map((_, box) => box).filter((box) => boxUnits(verification, box) > 0);
}

/** Boxes (numbered from 1) that have no weight to book: no scale reading and no known item weights. */
export function unweighedBoxes(verification: Verification): number[] {
  return filledBoxes(verification)
    .filter((box) => boxWeight(verification, box).weight <= 0)
    .map((box) => box + 1);
}

/** What is not ticked, per parcel: the rest a short pack splits into a new shipment. */
export function restByParcel(verification: Verification): { parcelId: string; orderLines: { id: string; quantity: number }[] }[] {
  const rest = new Map<string, { id: string; quantity: number }[]>();
  for (const line of verification.lines) {
    const quantity = line.quantity - ticked(verification, line.id);
    if (quantity > 0) rest.set(line.parcelId, [...(rest.get(line.parcelId) ?? []), { id: line.id, quantity }]);
  }
  return [...rest].map(([parcelId, orderLines]) => ({ parcelId, orderLines }));
}

/**
 * The verification once the rest has been split off: each line holds what was ticked (a partly moved
 * line keeps its id, decisions §7), and lines with nothing ticked are gone.
 */
export function withoutRest(verification: Verification): Verification {
  return {
    ...verification,
    lines: verification.lines.map((line) => ({ ...line, quantity: ticked(verification, line.id) })).filter((line) => line.quantity > 0),
  };
}

/**
 * Whether the boxes differ from the shipment's parcels, so they must be written before the send:
 * more than one box, a weight from the scale, or parcels to bring together into one box.
 */
export function needsRepack(verification: Verification, shipment: Pick<Shipment, 'parcels'>): boolean {
  const boxes = filledBoxes(verification);
  return boxes.length > 1 || boxes.some((box) => verification.weights[box] !== null) || shipment.parcels.length !== 1;
}

/**
 * The parcels for the shipment's update: one per box, holding the units ticked into it. A line's
 * first box keeps its id (and the first parcels theirs); a line spread over boxes gets a new line in
 * the others, which the server ties to the same order line by its SKU.
 */
export function boxParcels(verification: Verification, shipment: Pick<Shipment, 'parcels'>): ParcelInput[] {
  const sources = new Map(shipment.parcels.flatMap((parcel) => parcel.orderLines.map((line) => [line.id, { parcel, line }] as const)));
  const placed = new Set<string>();
  return filledBoxes(verification).map((box, index) => {
    const orderLines = verification.lines.flatMap((line) => {
      const quantity = ticked(verification, line.id, box);
      const source = sources.get(line.id);
      if (quantity === 0 || !source) return [];
      const { id, quantity: _all, ...fields } = source.line;
      const keepId = !placed.has(id);
      placed.add(id);
      return [{ ...(keepId ? { id } : {}), ...fields, quantity }];
    });
    const firstLine = verification.lines.find((line) => ticked(verification, line.id, box) > 0);
    const template = shipment.parcels.find((parcel) => parcel.id === firstLine?.parcelId) ?? shipment.parcels[0];
    const parcelId = shipment.parcels[index]?.id;
    const { weight, weightUnit } = boxWeight(verification, box);
    return {
      ...(parcelId ? { id: parcelId } : {}),
      weight,
      weightUnit,
      dimensions: template?.dimensions ?? { length: 0, width: 0, height: 0 },
      orderLines,
    };
  });
}

/** "1.25 kg" */
export function weightText(weight: ScaleWeight): string {
  return `${new Intl.NumberFormat(undefined, { maximumFractionDigits: 3, useGrouping: false }).format(weight.weight)} ${weight.weightUnit}`;
}
