/**
 * Split and batch split (decisions §7): units of a parcel's order lines move into new shipments that
 * copy the original's parties, sender, order, terms and status. One path serves both operations: a
 * split is a batch of one new shipment that takes every named line whole.
 *
 * Everything happens in one IMMEDIATE transaction that reads the parcel first, checks every rule
 * and only then writes, so a failed check changes nothing and two concurrent splits of the same
 * parcel cannot both take the same units (the second one reads what the first one left).
 */
import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { BatchSplitInput, Shipment, SplitInput } from '../../../src-shared/schemas/shipment';
import { orderLines, parcelOrderLines, parcels, shipments } from '../../db/schema';
import { newId } from '../../db/ids';
import { inWriteTransaction, type ReadDb, type WriteTx } from '../../db/tx';
import type { Db } from '../../db/types';
import { insertRows, prepared } from '../../db/prepared';
import type { AppContext } from '../../app/kernel/context';
import { emitEvent } from '../events';
import { recomputeOrder } from '../orders/orderStatus';
import { fromKg, roundWeight, toKg } from '../units';
import { checkCarrierChoice, insertShipments, type CarrierChoice, type ShipmentDraft } from './create';
import { assertActionAllowed } from './lifecycle';
import {
  loadShipmentRecord,
  partyInputOf,
  readShipment,
  recordActivity,
  type ParcelLineRow,
  type ParcelRecord,
  type ShipmentRecord,
  type ShipmentRow,
} from './repository';

type CarrierOverride = Partial<CarrierChoice>;

/** One new shipment asked for: which units of which lines it takes. */
interface SplitTarget {
  orderLines: { id: string; quantity: number }[];
  reference?: string | undefined;
}

/** A target after validation, with its lines resolved and its weight worked out. */
interface PlannedShipment {
  reference: string;
  moves: { line: ParcelLineRow; quantity: number }[];
  /** In the source parcel's weight unit. */
  weight: number;
}

function invalidSplit(message: string): ApiError {
  return new ApiError('PARCEL_INVALID_SPLIT', message);
}

export interface SplitResult {
  originalShipment: Shipment;
  newShipment: Shipment;
}

export interface BatchSplitResult {
  originalShipment: Shipment;
  newShipments: Shipment[];
}

/** POST …/parcels/{parcelId}/split: the named lines (default: all of them) move whole. */
export function splitParcel(app: AppContext, orgId: string, shipmentId: string, parcelId: string, input: SplitInput = {}): SplitResult {
  const now = app.now();
  return inWriteTransaction(app.db, (tx) => {
    const { record, parcel } = loadSplittable(tx, orgId, shipmentId, parcelId);
    const ids = input.orderLineIds ?? parcel.lines.map((line) => line.id);
    if (!ids.length) throw invalidSplit(`Parcel ${parcel.id} has no order lines to split`);
    // Whole lines; an id that is not a line of the parcel (quantity unknown here) is refused by planSplit.
    const quantityOf = new Map(parcel.lines.map((line) => [line.id, line.quantity]));
    const target: SplitTarget = { orderLines: ids.map((id) => ({ id, quantity: quantityOf.get(id) ?? 0 })), reference: input.reference };
    const result = splitInto(app, tx, now, record, parcel, [target], input, 'split');
    return { originalShipment: result.originalShipment, newShipment: result.newShipments[0] as Shipment };
  });
}

/** POST …/parcels/{parcelId}/batch-split: quantities of lines into several new shipments, all or nothing. */
export function batchSplitParcel(app: AppContext, orgId: string, shipmentId: string, parcelId: string, input: BatchSplitInput): BatchSplitResult {
  const now = app.now();
  return inWriteTransaction(app.db, (tx) => {
    const { record, parcel } = loadSplittable(tx, orgId, shipmentId, parcelId);
    return splitInto(app, tx, now, record, parcel, input.shipments, input, 'batch');
  });
}

/** The source shipment, re-read inside the transaction, in a state that may be split. */
function loadSplittable(tx: WriteTx, orgId: string, shipmentId: string, parcelId: string): { record: ShipmentRecord; parcel: ParcelRecord } {
  const record = loadShipmentRecord(tx, orgId, shipmentId);
  assertActionAllowed('split', shipmentId, record.row.status as Shipment['status']);
  const parcel = record.parcels.find((candidate) => candidate.id === parcelId);
  if (!parcel) throw new ApiError('PARCEL_NOT_FOUND', `Parcel ${parcelId} does not exist in shipment ${shipmentId}`);
  return { record, parcel };
}

function splitInto(
  app: AppContext,
  tx: WriteTx,
  now: Date,
  record: ShipmentRecord,
  parcel: ParcelRecord,
  targets: readonly SplitTarget[],
  override: CarrierOverride,
  kind: 'split' | 'batch',
): BatchSplitResult {
  const source = record.row;
  const carrier = carrierFor(app, tx, source, override);
  const planned = planSplit(tx, record, parcel, targets, kind);

  // ---- Every check has passed: write. ----
  const remaining = new Map(parcel.lines.map((line) => [line.id, line.quantity]));
  const parties = record.parties.map(partyInputOf);
  const pickupDetails = source.pickupDate
    ? { date: source.pickupDate, from: source.pickupFrom ?? '', to: source.pickupTo ?? '', instruction: source.pickupInstruction ?? '' }
    : undefined;
  const draftFor = (plan: PlannedShipment, parcelId: string): ShipmentDraft => ({
    reference: plan.reference,
    senderAddressId: source.senderAddressId,
    type: source.type as Shipment['type'],
    carrier,
    parties,
    parcels: [
      {
        id: parcelId,
        weight: plan.weight,
        weightUnit: parcel.weightUnit,
        dimensions: { length: parcel.length, width: parcel.width, height: parcel.height },
        orderLines: [],
      },
    ],
    termOfTrade: source.termOfTrade,
    status: source.status as Shipment['status'],
    servicePointId: source.servicePointId,
    pickupDetails,
    orderId: source.orderId,
    // The rule goes with its carrier: its papers (customs invoices), printing and return product
    // still apply when only the product or services were changed, but not for another carrier.
    shippingRuleId: carrier.carrierId === source.carrierId ? source.shippingRuleId : null,
  });
  // Activities are read by people at the packing table: references, parcel numbers and SKUs, not ids.
  const parcelNumber = record.parcels.findIndex((candidate) => candidate.id === parcel.id) + 1;
  const parcelIds = planned.map(() => newId('parcel'));
  const created = insertShipments(
    tx,
    now,
    source.orgId,
    planned.map((plan, i) => ({
      ...draftFor(plan, parcelIds[i] as string),
      activities: [{ action: 'shipment_split', description: `Split from parcel ${parcelNumber} of ${source.reference}` }],
    })),
    // The lines go in before the new shipments are read, so shipment.created carries them.
    () => moveLines(tx, planned, parcelIds, remaining),
  );

  // The source parcel keeps what is left; an emptied one is removed.
  const movedWeight = planned.reduce((sum, plan) => sum + plan.weight, 0);
  if ([...remaining.values()].every((quantity) => quantity === 0)) {
    tx.delete(parcels).where(eq(parcels.id, parcel.id)).run();
  } else {
    tx.update(parcels)
      .set({ weight: roundWeight(Math.max(0, parcel.weight - movedWeight)) })
      .where(eq(parcels.id, parcel.id))
      .run();
  }
  const at = now.toISOString();
  tx.update(shipments).set({ updatedAt: at }).where(eq(shipments.id, source.id)).run();

  const references = planned.map((plan) => plan.reference);
  recordActivity(
    tx,
    now,
    source.id,
    'shipment_split',
    kind === 'split'
      ? `Moved ${planned[0]?.moves.map((move) => `${move.quantity} × ${move.line.sku}`).join(', ')} from parcel ${parcelNumber} to ${references[0]}`
      : `Parcel ${parcelNumber} split into ${planned.length} new shipments: ${references.join(', ')}`,
  );
  const originalShipment = readShipment(tx, source.orgId, source.id);
  emitEvent(tx, now, source.orgId, 'shipment.updated', originalShipment);
  recomputeOrder(tx, now, source.orderId);
  return { originalShipment, newShipments: created };
}

/** Carrier fields from the body, else the original's; an override must be a valid choice. */
function carrierFor(app: AppContext, db: ReadDb, source: ShipmentRow, override: CarrierOverride): CarrierChoice {
  const choice: CarrierChoice = {
    carrierId: override.carrierId ?? source.carrierId,
    productId: override.productId ?? source.productId,
    services: override.services ?? source.services,
    additionalParameters: override.additionalParameters ?? source.additionalParameters,
  };
  const overridden = [override.carrierId, override.productId, override.services, override.additionalParameters].some((value) => value !== undefined);
  if (overridden) checkCarrierChoice(db, source.orgId, choice);
  return choice;
}

/** Checks every rule of decisions §7 against the parcel as it is now, and works out references and weights. */
function planSplit(db: ReadDb, record: ShipmentRecord, parcel: ParcelRecord, targets: readonly SplitTarget[], kind: 'split' | 'batch'): PlannedShipment[] {
  const lineById = new Map(parcel.lines.map((line) => [line.id, line]));
  const taken = new Map<string, number>();
  const resolved = targets.map((target, index) => {
    const where = kind === 'batch' ? ` (shipments[${index}])` : '';
    const inTarget = new Set<string>();
    const moves = target.orderLines.map(({ id, quantity }) => {
      const line = lineById.get(id);
      if (!line) throw invalidSplit(`Order line ${id} is not a line of parcel ${parcel.id}${where}`);
      if (inTarget.has(id)) throw invalidSplit(`Order line ${id} is named more than once${where}`);
      inTarget.add(id);
      taken.set(id, (taken.get(id) ?? 0) + quantity);
      return { line, quantity };
    });
    return { target, moves };
  });
  for (const [id, quantity] of taken) {
    const line = lineById.get(id) as ParcelLineRow;
    if (quantity > line.quantity) {
      throw invalidSplit(`Order line ${id} (${line.sku}) has ${line.quantity} units in parcel ${parcel.id}; ${quantity} would be moved`);
    }
  }
  const linesLeft =
    record.parcels.filter((other) => other.id !== parcel.id).reduce((sum, other) => sum + other.lines.length, 0) +
    parcel.lines.filter((line) => line.quantity > (taken.get(line.id) ?? 0)).length;
  if (linesLeft === 0) throw invalidSplit(`The split would leave shipment ${record.row.id} without any order line`);

  const parcelUnits = parcel.lines.reduce((sum, line) => sum + line.quantity, 0);
  const unitWeights = unitWeightsKg(db, parcel.lines);
  const references = referencesFor(db, record.row, targets);
  return resolved.map(({ moves }, index) => ({
    reference: references[index] as string,
    moves,
    weight: roundWeight(movedWeight(parcel, parcelUnits, moves, unitWeights)),
  }));
}

/**
 * The unit weight in kg of each line of the parcel, when the order knows it: the weight the
 * order-based create wrote on the line, else that of the order line it is tied to. Lines placed by
 * hand (POST /shipments with orderId and parcels, a PATCH of parcels) are tied to their order line
 * but carry no weight of their own, and decisions §7 moves the order's weight whenever it knows one.
 */
function unitWeightsKg(db: ReadDb, lines: readonly ParcelLineRow[]): Map<string, number | null> {
  const linked = lines.filter((line) => line.unitWeightKg === null && line.orderLineId !== null).map((line) => line.orderLineId as string);
  const orderWeights = new Map(
    (linked.length
      ? db
          .select({ id: orderLines.id, weight: orderLines.weight, weightUnit: orderLines.weightUnit })
          .from(orderLines)
          .where(inArray(orderLines.id, linked))
          .all()
      : []
    ).map((row) => [row.id, row.weight === null ? null : toKg(row.weight, row.weightUnit)]),
  );
  return new Map(lines.map((line) => [line.id, line.unitWeightKg ?? (line.orderLineId ? (orderWeights.get(line.orderLineId) ?? null) : null)]));
}

/**
 * Σ unit weight × quantity when every moved line's unit weight is known (from its order), else the
 * parcel's weight × the moved share of its units; in the parcel's own unit.
 */
function movedWeight(
  parcel: ParcelRecord,
  parcelUnits: number,
  moves: readonly { line: ParcelLineRow; quantity: number }[],
  unitWeights: ReadonlyMap<string, number | null>,
): number {
  const weightOf = (line: ParcelLineRow) => unitWeights.get(line.id) ?? null;
  if (moves.every((move) => weightOf(move.line) !== null)) {
    const kg = moves.reduce((sum, move) => sum + (weightOf(move.line) as number) * move.quantity, 0);
    return fromKg(kg, parcel.weightUnit);
  }
  const units = moves.reduce((sum, move) => sum + move.quantity, 0);
  return parcelUnits > 0 ? (parcel.weight * units) / parcelUnits : 0;
}

/**
 * The body's reference, else the original's plus the lowest free suffix (-2, -3, …) among the
 * organization's shipments and this request's own references — read inside the transaction, so
 * concurrent splits never share one. The lowest free one, not one above the highest: an unrelated
 * "ACME-2024" must not make the first split of "ACME" "ACME-2025".
 */
function referencesFor(db: ReadDb, source: ShipmentRow, targets: readonly SplitTarget[]): string[] {
  const prefix = `${source.reference}-`;
  // Every reference starting with "<ref>-" sorts between "<ref>-" and "<ref>." ('.' follows '-').
  const taken = new Set(
    db
      .select({ reference: shipments.reference })
      .from(shipments)
      .where(and(eq(shipments.orgId, source.orgId), gte(shipments.reference, prefix), lt(shipments.reference, `${source.reference}.`)))
      .all()
      .map((row) => row.reference),
  );
  for (const target of targets) if (target.reference) taken.add(target.reference);
  let suffix = 1;
  return targets.map((target) => {
    if (target.reference) return target.reference;
    do suffix++;
    while (taken.has(`${prefix}${suffix}`));
    return `${prefix}${suffix}`;
  });
}

const moveLineQuery = (root: Db) =>
  root
    .update(parcelOrderLines)
    .set({ parcelId: sql`${sql.placeholder('parcelId')}`, position: sql`${sql.placeholder('position')}`, quantity: sql`${sql.placeholder('quantity')}` })
    .where(eq(parcelOrderLines.id, sql.placeholder('id')))
    .prepare();
const reduceLineQuery = (root: Db) =>
  root
    .update(parcelOrderLines)
    .set({ quantity: sql`${sql.placeholder('quantity')}` })
    .where(eq(parcelOrderLines.id, sql.placeholder('id')))
    .prepare();

/**
 * Moves the planned quantities into the new parcels: a whole line moves as it is (its id kept), part
 * of a line becomes a new line and the original keeps the rest.
 */
function moveLines(tx: WriteTx, planned: readonly PlannedShipment[], parcelIds: readonly string[], remaining: Map<string, number>): void {
  const moveLine = prepared(tx, 'split.moveLine', moveLineQuery);
  const reduceLine = prepared(tx, 'split.reduceLine', reduceLineQuery);
  const copies: (typeof parcelOrderLines.$inferInsert)[] = [];
  planned.forEach((plan, index) => {
    const parcelId = parcelIds[index] as string;
    plan.moves.forEach(({ line, quantity }, position) => {
      const left = remaining.get(line.id) as number;
      if (quantity === left) moveLine.run({ id: line.id, parcelId, position, quantity });
      else {
        copies.push({ ...line, id: newId('parcelOrderLine'), parcelId, position, quantity });
        reduceLine.run({ id: line.id, quantity: left - quantity });
      }
      remaining.set(line.id, left - quantity);
    });
  });
  insertRows(tx, parcelOrderLines, copies);
}
