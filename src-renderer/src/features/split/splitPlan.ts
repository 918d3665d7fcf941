/**
 * What a split or batch split would do, worked out in the dialog before anything is sent, with the
 * server's rules of decisions §7 put in words: only draft or pending shipments; a line cannot give
 * more units than it has; every new shipment takes something; the original keeps at least one line.
 */
import type { BodyOf } from '../../../../src-shared/operation';
import type { OperationById } from '../../../../src-shared/operations';
import type { ParcelOrderLine, Shipment } from '../../../../src-shared/schemas/shipment';
import { MAX_BATCH_SPLIT } from '../../../../src-shared/schemas/shipment';
import { canSplit } from '../shipments/lifecycle';

export type BatchSplitShipments = BodyOf<OperationById<'shipments.batchSplit'>>['shipments'];

/** Why this shipment cannot be split now, or null. */
export function statusProblem(shipment: Shipment): string | null {
  return canSplit(shipment.status) ? null : `Only draft or pending shipments can be split; ${shipment.reference} is ${shipment.status.replace(/_/g, ' ')}.`;
}

/** Order lines the shipment holds in its other parcels; they stay whatever happens to this one. */
export function linesInOtherParcels(shipment: Shipment, parcelId: string): number {
  return shipment.parcels.filter((parcel) => parcel.id !== parcelId).reduce((sum, parcel) => sum + parcel.orderLines.length, 0);
}

export const unitsOf = (lines: readonly ParcelOrderLine[]) => lines.reduce((sum, line) => sum + line.quantity, 0);

export interface SplitPlan {
  moving: ParcelOrderLine[];
  staying: ParcelOrderLine[];
  problems: string[];
}

/** Whole lines move (split). */
export function planSplit(shipment: Shipment, lines: readonly ParcelOrderLine[], parcelId: string, selected: ReadonlySet<string>): SplitPlan {
  const moving = lines.filter((line) => selected.has(line.id));
  const staying = lines.filter((line) => !selected.has(line.id));
  const problems: string[] = [];
  const state = statusProblem(shipment);
  if (state) problems.push(state);
  if (moving.length === 0) problems.push('Choose at least one order line to move.');
  else if (staying.length === 0 && linesInOtherParcels(shipment, parcelId) === 0) {
    problems.push(`At least one order line must stay in ${shipment.reference}: leave one unticked, or use the batch split to move part of a line.`);
  }
  return { moving, staying, problems };
}

/** One new shipment of a batch split as typed: quantities are kept as text until they are sent. */
export interface BatchColumn {
  key: number;
  reference: string;
  quantities: Record<string, string>;
}

export interface BatchPlan {
  /** Per `${column.key}:${line.id}`: what is wrong with the quantity typed there. */
  cellErrors: Record<string, string>;
  /** Units moved per line id, over all new shipments. */
  moved: Record<string, number>;
  /** Units per new shipment, in column order. */
  units: number[];
  /**
   * The parcel's units that move and that stay; they add up to the parcel's. A line asked for more
   * than it holds moves what it has (the excess is a problem, not units), so a summary never counts
   * a unit twice.
   */
  movingUnits: number;
  stayingUnits: number;
  problems: string[];
  /** The body's `shipments`, meaningful when there are no problems. */
  shipments: BatchSplitShipments;
}

export const cellKey = (column: BatchColumn, line: ParcelOrderLine) => `${column.key}:${line.id}`;

/** '' is 0; anything but a whole number ≥ 0 is refused rather than guessed at. */
function parseQuantity(raw: string): number | null {
  const text = raw.trim();
  if (text === '') return 0;
  return /^\d{1,7}$/.test(text) ? Number(text) : null;
}

export function planBatchSplit(shipment: Shipment, lines: readonly ParcelOrderLine[], parcelId: string, columns: readonly BatchColumn[]): BatchPlan {
  const cellErrors: Record<string, string> = {};
  const moved: Record<string, number> = Object.fromEntries(lines.map((line) => [line.id, 0]));
  const problems: string[] = [];
  const state = statusProblem(shipment);
  if (state) problems.push(state);

  const shipments = columns.map((column) => {
    const orderLines: { id: string; quantity: number }[] = [];
    for (const line of lines) {
      const quantity = parseQuantity(column.quantities[line.id] ?? '');
      if (quantity === null) {
        cellErrors[cellKey(column, line)] = 'Enter a whole number, 0 or more.';
        continue;
      }
      moved[line.id] = (moved[line.id] ?? 0) + quantity;
      if (quantity > 0) orderLines.push({ id: line.id, quantity });
    }
    const reference = column.reference.trim();
    return reference ? { orderLines, reference } : { orderLines };
  });
  const units = shipments.map((target) => target.orderLines.reduce((sum, line) => sum + line.quantity, 0));

  const badCells = Object.keys(cellErrors).length;
  if (badCells) problems.push(`${badCells === 1 ? 'One quantity is' : `${badCells} quantities are`} not a whole number.`);
  for (const line of lines) {
    const over = (moved[line.id] ?? 0) - line.quantity;
    if (over > 0) problems.push(`${line.sku}: ${moved[line.id]} of ${line.quantity} would move, ${over} more than the parcel holds.`);
  }
  columns.forEach((column, index) => {
    const hasError = lines.some((line) => cellErrors[cellKey(column, line)]);
    if (units[index] === 0 && !hasError) problems.push(`New shipment ${index + 1} takes nothing: enter a quantity or remove it.`);
  });
  const left = lines.some((line) => line.quantity > (moved[line.id] ?? 0));
  if (lines.length > 0 && !left && linesInOtherParcels(shipment, parcelId) === 0) {
    problems.push(`Nothing would be left in ${shipment.reference}: at least one unit must stay in the original shipment.`);
  }
  if (columns.length === 0) problems.push('Add a new shipment to move units into.');
  if (columns.length > MAX_BATCH_SPLIT) problems.push(`At most ${MAX_BATCH_SPLIT} new shipments at a time.`);
  const movingUnits = lines.reduce((sum, line) => sum + Math.min(line.quantity, moved[line.id] ?? 0), 0);
  return { cellErrors, moved, units, movingUnits, stayingUnits: unitsOf(lines) - movingUnits, problems, shipments };
}
