/**
 * The end-of-day handover (issue 21; docs/decisions.md "Close-outs"). Three steps, like a booking, so
 * a slow carrier never holds the database and a failure never leaves a shipment half closed:
 *  1. claim, in one write transaction: every waiting shipment of the carrier goes into a new close-out
 *     in `closing` (close_out_shipments' key makes a second claim of the same shipment impossible);
 *  2. the carrier's manifest or end-of-day call, outside any transaction, then the handover list is
 *     drawn (pdf-lib is async);
 *  3. one transaction marks it `closed` with both documents, or, when the carrier refused, deletes the
 *     close-out and its rows: nothing is closed and the shipments wait for the next one.
 */
import { and, asc, count, desc, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { Page } from '../../../src-shared/schemas/common';
import {
  CLOSE_OUT_WINDOW_DAYS,
  type CloseOut,
  type CloseOutCreateInput,
  type CloseOutListQuery,
  type CloseOutPrintInput,
  type CloseOutPrintResult,
  type CloseOutSummary,
  type CloseOutWaiting,
} from '../../../src-shared/schemas/closeOut';
import type { AppContext } from '../../app/kernel/context';
import type { BinaryResult } from '../../app/kernel/handler';
import type { BookedShipment, CloseOutRequest, CloseOutResult } from '../../carriers/adapter';
import { senderBookingParty } from '../shipments/create';
import { carrierAdapterFor } from '../../carriers/catalogue';
import { CarrierFailure } from '../../carriers/errors';
import { isTestMode } from '../../carriers/platform/origin';
import { plainSentence } from '../../carriers/platform/plainWords';
import { carriers, closeOutShipments, closeOuts, parcels, senderAddresses, shipments } from '../../db/schema';
import { newId } from '../../db/ids';
import { durable, inWriteTransaction, type ReadDb, type WriteTx } from '../../db/tx';
import { renderHandoverList, type HandoverListData } from '../../documents/handoverList';
import type { PaperParty } from '../../documents/paper';
import { carrierCall } from '../carriers/carrierCalls';
import { adapterOfRow, findCarrierRowOfBooking } from '../carriers/carrierRows';
import { findOrgRow } from '../orgs/orgs';
import { paginate } from '../pagination';
import { printPaperPdf } from '../printing/paperPrint';
import { bookedShipmentsOf } from '../shipments/bookedShipment';
import { carrierErrorsOf } from '../shipments/booking';
import { masked, type CarrierSecrets } from '../shipments/carrierLogs';
import { recordActivities } from '../shipments/repository';
import { toKg } from '../units';

type CloseOutRow = typeof closeOuts.$inferSelect;
type CarrierRow = ReturnType<typeof findCarrierRowOfBooking>;
type SenderAddressRow = typeof senderAddresses.$inferSelect;

/** Statuses of a shipment that went with the carrier: what a driver takes away. */
const HANDED_OVER_STATUSES = ['dispatched', 'partly_dispatched'];
const DAY_MS = 86_400_000;
/** Parcels are read for this many shipments at a time (well inside SQLite's bound parameters). */
const CHUNK = 500;

interface Candidate {
  id: string;
  reference: string;
  trackingNumber: string;
  parcelCount: number;
  weightKg: number;
}

/**
 * The shipments the next close-out of a carrier takes: dispatched outbound shipments with a tracking
 * number, booked in the last 7 days, in no close-out yet; oldest booking first. Cancelled (voided)
 * shipments are no longer dispatched, and returns are inbound, so both stay out.
 */
function waitingCondition(orgId: string, now: Date, carrierId?: string, senderAddressId?: string): SQL {
  const since = new Date(now.getTime() - CLOSE_OUT_WINDOW_DAYS * DAY_MS).toISOString();
  const conditions: SQL[] = [
    eq(shipments.orgId, orgId),
    inArray(shipments.status, HANDED_OVER_STATUSES),
    eq(shipments.type, 'outbound'),
    isNotNull(shipments.trackingNumber),
    sql`${shipments.bookedAt} >= ${since}`,
    sql`NOT EXISTS (SELECT 1 FROM ${closeOutShipments} WHERE ${closeOutShipments.shipmentId} = ${shipments.id})`,
  ];
  if (carrierId) conditions.push(eq(shipments.carrierId, carrierId));
  if (senderAddressId) conditions.push(eq(shipments.senderAddressId, senderAddressId));
  return and(...conditions) as SQL;
}

/** Each shipment's parcel count and weight in kilograms, read in chunks. */
function parcelTotals(db: ReadDb, shipmentIds: readonly string[]): Map<string, { parcels: number; weightKg: number }> {
  const totals = new Map<string, { parcels: number; weightKg: number }>(shipmentIds.map((id) => [id, { parcels: 0, weightKg: 0 }]));
  for (let start = 0; start < shipmentIds.length; start += CHUNK) {
    const rows = db
      .select({ shipmentId: parcels.shipmentId, weight: parcels.weight, weightUnit: parcels.weightUnit })
      .from(parcels)
      .where(inArray(parcels.shipmentId, shipmentIds.slice(start, start + CHUNK)))
      .all();
    for (const row of rows) {
      const total = totals.get(row.shipmentId);
      if (!total) continue;
      total.parcels += 1;
      total.weightKg += toKg(row.weight, row.weightUnit);
    }
  }
  return totals;
}

/** Kilograms to the gram: sums of many parcels stay readable. */
const grams = (kg: number) => Math.round(kg * 1000) / 1000;

function waitingShipments(db: ReadDb, orgId: string, now: Date, carrierId: string, senderAddressId?: string): Candidate[] {
  const rows = db
    .select({ id: shipments.id, reference: shipments.reference, trackingNumber: shipments.trackingNumber })
    .from(shipments)
    .where(waitingCondition(orgId, now, carrierId, senderAddressId))
    .orderBy(asc(shipments.bookedAt), asc(shipments.id))
    .all();
  const totals = parcelTotals(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const total = totals.get(row.id) ?? { parcels: 0, weightKg: 0 };
    return { id: row.id, reference: row.reference, trackingNumber: row.trackingNumber ?? '', parcelCount: total.parcels, weightKg: grams(total.weightKg) };
  });
}

/** The sender address a close-out is filtered by: any of the organization's, even one deleted since its shipments left. */
function senderAddressOf(db: ReadDb, orgId: string, senderAddressId: string): SenderAddressRow {
  const row = db
    .select()
    .from(senderAddresses)
    .where(and(eq(senderAddresses.orgId, orgId), eq(senderAddresses.id, senderAddressId)))
    .get();
  if (!row) throw new ApiError('ADDRESS_NOT_FOUND', `Sender address ${senderAddressId} does not exist in this organization`);
  return row;
}

interface Claim {
  closeOutId: string;
  carrier: CarrierRow;
  senderAddress: SenderAddressRow | null;
  shipments: Candidate[];
  createdAt: string;
}

/** Step 1: 409 NOTHING_TO_CLOSE when nothing waits; else the close-out in `closing` with its shipments. */
function claim(tx: WriteTx, now: Date, orgId: string, input: CloseOutCreateInput): Claim {
  // A deleted carrier's shipments can still be handed over: deleting only hides it from new work.
  const carrier = findCarrierRowOfBooking(tx, orgId, input.carrierId);
  const senderAddress = input.senderAddressId ? senderAddressOf(tx, orgId, input.senderAddressId) : null;
  const waiting = waitingShipments(tx, orgId, now, carrier.id, senderAddress?.id);
  if (waiting.length === 0) {
    const from = senderAddress ? ` from ${senderAddress.name}` : '';
    throw new ApiError(
      'NOTHING_TO_CLOSE',
      `No shipment of ${carrier.name}${from} is waiting to be handed over: every shipment dispatched in the last ${CLOSE_OUT_WINDOW_DAYS} days is in a close-out already`,
    );
  }
  const closeOutId = newId('closeOut');
  const createdAt = now.toISOString();
  tx.insert(closeOuts)
    .values({
      id: closeOutId,
      orgId,
      carrierId: carrier.id,
      senderAddressId: senderAddress?.id ?? null,
      status: 'closing',
      shipmentCount: waiting.length,
      parcelCount: waiting.reduce((sum, shipment) => sum + shipment.parcelCount, 0),
      weight: grams(waiting.reduce((sum, shipment) => sum + shipment.weightKg, 0)),
      createdAt,
      updatedAt: createdAt,
    })
    .run();
  for (let start = 0; start < waiting.length; start += CHUNK) {
    tx.insert(closeOutShipments)
      .values(
        waiting.slice(start, start + CHUNK).map((shipment, index) => ({
          shipmentId: shipment.id,
          closeOutId,
          position: start + index,
          reference: shipment.reference,
          trackingNumber: shipment.trackingNumber,
          parcelCount: shipment.parcelCount,
          weight: shipment.weightKg,
        })),
      )
      .run();
  }
  return { closeOutId, carrier, senderAddress, shipments: waiting, createdAt };
}

/** Deletes a close-out that did not close (its rows go with it): its shipments wait for the next one. */
function release(tx: WriteTx, closeOutId: string): void {
  tx.delete(closeOutShipments).where(eq(closeOutShipments.closeOutId, closeOutId)).run();
  tx.delete(closeOuts)
    .where(and(eq(closeOuts.id, closeOutId), eq(closeOuts.status, 'closing')))
    .run();
}

/** A refused close as the API answers it: the carrier's words, what to do, and that nothing was closed. */
function closeOutFailure(carrierName: string, error: unknown, secrets: CarrierSecrets): ApiError {
  const errors = carrierErrorsOf(error).map((item) => ({ code: item.code, message: masked(secrets, item.message) as string }));
  if (error instanceof CarrierFailure && error.kind === 'auth') {
    return new ApiError('CARRIER_AUTH_FAILED', `${carrierName} refused the credentials, so nothing was closed. ${plainSentence('auth', carrierName)}`, {
      errors,
    });
  }
  const unanswered = error instanceof CarrierFailure && (error.kind === 'outcome_unknown' || error.kind === 'unavailable');
  const advice = plainSentence(errors, carrierName);
  const what = unanswered ? `${carrierName} did not answer the end-of-day close` : `${carrierName} refused the end-of-day close`;
  return new ApiError('CARRIER_ERROR', `${what}; nothing was closed, and the shipments wait for the next try.${advice ? ` ${advice}` : ''}`, { errors });
}

function orgNameOf(db: ReadDb, orgId: string): string {
  const org = findOrgRow(db, orgId);
  return org.companyName || org.name;
}

function paperParty(address: SenderAddressRow, orgName: string): PaperParty {
  return {
    name: orgName || address.name,
    attention: address.attContact || null,
    address1: address.address1,
    address2: address.address2 || null,
    postalCode: address.zipcode,
    city: address.city,
    countryCode: address.countryCode,
  };
}

/** The handover list's data from the stored close-out: what was handed over, as it was then. */
function handoverData(db: ReadDb, row: CloseOutRow): HandoverListData {
  const orgName = orgNameOf(db, row.orgId);
  const carrier = findCarrierRowOfBooking(db, row.orgId, row.carrierId);
  const address = row.senderAddressId ? senderAddressOf(db, row.orgId, row.senderAddressId) : null;
  return {
    orgName,
    carrierName: carrier.name,
    closeOutId: row.id,
    createdAt: row.createdAt,
    senderAddress: address ? paperParty(address, orgName) : null,
    carrierReference: row.carrierReference,
    testMode: Boolean(carrierAdapterFor(carrier.carrierSlug)?.remote) && isTestMode(carrier.config),
    shipments: shipmentsOf(db, row.id).map((shipment) => ({
      reference: shipment.reference,
      trackingNumber: shipment.trackingNumber,
      parcelCount: shipment.parcelCount,
      weightKg: shipment.weight,
    })),
    totals: { shipments: row.shipmentCount, parcels: row.parcelCount, weightKg: row.weight },
  };
}

/** Step 2: the carrier's manifest call for the claimed shipments; its refusal as the API answers it. */
async function callCarrier(
  app: AppContext,
  orgId: string,
  claimed: Claim,
  closeOut: NonNullable<ReturnType<typeof adapterOfRow>['closeOut']>,
): Promise<CloseOutResult> {
  // The claim must be on disk before the carrier hears of it (a crash then is released at start-up).
  await durable(app.db);
  const call = carrierCall(app, claimed.carrier);
  const ids = claimed.shipments.map((shipment) => shipment.id);
  const byId = new Map<string, BookedShipment>();
  // In chunks: a busy week's close-out must not pass SQLite's bound on parameters.
  for (let start = 0; start < ids.length; start += CHUNK) {
    const rows = app.db
      .select()
      .from(shipments)
      .where(inArray(shipments.id, ids.slice(start, start + CHUNK)))
      .all();
    for (const booked of bookedShipmentsOf(app.db, rows)) byId.set(booked.shipmentId, booked);
  }
  const request: CloseOutRequest = {
    closeOutId: claimed.closeOutId,
    senderAddress: claimed.senderAddress ? senderBookingParty(app.db, orgId, claimed.senderAddress) : null,
    shipments: ids.flatMap((id) => byId.get(id) ?? []),
  };
  try {
    return await closeOut(call.context, request);
  } catch (error) {
    throw closeOutFailure(claimed.carrier.name, error, call.secrets);
  }
}

/** POST /close-outs: the three steps above. Answers the closed close-out with its shipments. */
export async function createCloseOut(app: AppContext, orgId: string, input: CloseOutCreateInput): Promise<CloseOut> {
  const claimed = inWriteTransaction(app.db, (tx) => claim(tx, app.now(), orgId, input));
  let result: CloseOutResult = { carrierReference: null, document: null };
  try {
    const adapter = adapterOfRow(claimed.carrier);
    if (adapter.closeOut) result = await callCarrier(app, orgId, claimed, adapter.closeOut);
  } catch (error) {
    inWriteTransaction(app.db, (tx) => release(tx, claimed.closeOutId));
    throw error;
  }
  // Past the carrier's yes nothing undoes the close-out: a list that cannot be drawn now is drawn on request.
  const row = findCloseOutRow(app.db, orgId, claimed.closeOutId);
  const pdf = await renderHandoverList(handoverData(app.db, { ...row, carrierReference: result.carrierReference })).then(
    (rendered) => rendered.pdf,
    () => null,
  );
  const now = app.now();
  inWriteTransaction(app.db, (tx) => {
    tx.update(closeOuts)
      .set({
        status: 'closed',
        carrierReference: result.carrierReference,
        document: pdf,
        carrierDocument: result.document?.content ?? null,
        updatedAt: now.toISOString(),
      })
      .where(eq(closeOuts.id, claimed.closeOutId))
      .run();
    recordActivities(
      tx,
      now,
      claimed.shipments.map((shipment) => ({
        shipmentId: shipment.id,
        action: 'updated' as const,
        description: `Handed over to ${claimed.carrier.name} in close-out ${claimed.closeOutId}`,
      })),
    );
  });
  return getCloseOut(app, orgId, claimed.closeOutId);
}

/**
 * Start-up: a close-out left `closing` by a crash is released, as a refused one is: its shipments wait
 * for the next close-out, which calls the carrier again. Nothing is taken as closed that the carrier
 * may not have heard of. Answers how many were released.
 */
export function releaseInterruptedCloseOuts(app: AppContext): number {
  return inWriteTransaction(app.db, (tx) => {
    const stuck = tx.select({ id: closeOuts.id }).from(closeOuts).where(eq(closeOuts.status, 'closing')).all();
    for (const { id } of stuck) release(tx, id);
    return stuck.length;
  });
}

function findCloseOutRow(db: ReadDb, orgId: string, closeOutId: string): CloseOutRow {
  const row = db
    .select()
    .from(closeOuts)
    .where(and(eq(closeOuts.orgId, orgId), eq(closeOuts.id, closeOutId)))
    .get();
  if (!row) throw new ApiError('NOT_FOUND', `Close-out ${closeOutId} does not exist in this organization`);
  return row;
}

function shipmentsOf(db: ReadDb, closeOutId: string) {
  return db.select().from(closeOutShipments).where(eq(closeOutShipments.closeOutId, closeOutId)).orderBy(asc(closeOutShipments.position)).all();
}

function toSummary(row: CloseOutRow): CloseOutSummary {
  return {
    id: row.id,
    carrierId: row.carrierId,
    senderAddressId: row.senderAddressId,
    status: row.status as CloseOutSummary['status'],
    carrierReference: row.carrierReference,
    createdAt: row.createdAt,
    totals: { shipments: row.shipmentCount, parcels: row.parcelCount, weight: row.weight },
  };
}

export function getCloseOut(app: AppContext, orgId: string, closeOutId: string): CloseOut {
  const row = findCloseOutRow(app.db, orgId, closeOutId);
  return {
    ...toSummary(row),
    shipments: shipmentsOf(app.db, closeOutId).map((shipment) => ({
      id: shipment.shipmentId,
      reference: shipment.reference,
      trackingNumber: shipment.trackingNumber,
      parcelCount: shipment.parcelCount,
      weight: shipment.weight,
    })),
  };
}

/** GET /close-outs: newest first, on the index of (org, created, id). */
export function listCloseOuts(app: AppContext, orgId: string, query: CloseOutListQuery): Page<CloseOutSummary> {
  const where = and(eq(closeOuts.orgId, orgId), query.carrierId ? eq(closeOuts.carrierId, query.carrierId) : undefined);
  const total = app.db.select({ n: count() }).from(closeOuts).where(where).get()?.n ?? 0;
  return paginate(query, total, (limit, offset) =>
    app.db.select().from(closeOuts).where(where).orderBy(desc(closeOuts.createdAt), desc(closeOuts.id)).limit(limit).offset(offset).all().map(toSummary),
  );
}

/**
 * GET /close-outs/waiting: what the next close-out of each carrier would take, carriers with none left
 * out. Asked carrier by carrier (deleted ones too: their shipments still go), so each look is a range
 * of the (org, carrier, status, booked) index rather than every shipment the organization has sent.
 */
export function waitingForCloseOut(app: AppContext, orgId: string): CloseOutWaiting {
  const now = app.now();
  const carrierIds = app.db
    .select({ id: carriers.id })
    .from(carriers)
    .where(eq(carriers.orgId, orgId))
    .orderBy(asc(carriers.createdAt), asc(carriers.id))
    .all();
  const rows = carrierIds.flatMap(({ id }) =>
    app.db
      .select({ id: shipments.id, carrierId: shipments.carrierId })
      .from(shipments)
      .where(waitingCondition(orgId, now, id))
      .all(),
  );
  const totals = parcelTotals(
    app.db,
    rows.map((row) => row.id),
  );
  const byCarrier = new Map<string, { carrierId: string; shipments: number; parcels: number; weight: number }>();
  for (const row of rows) {
    const entry = byCarrier.get(row.carrierId) ?? { carrierId: row.carrierId, shipments: 0, parcels: 0, weight: 0 };
    const total = totals.get(row.id) ?? { parcels: 0, weightKg: 0 };
    entry.shipments += 1;
    entry.parcels += total.parcels;
    entry.weight = grams(entry.weight + total.weightKg);
    byCarrier.set(row.carrierId, entry);
  }
  return { data: [...byCarrier.values()] };
}

/** The handover list as made when it closed (drawn again from its rows if it could not be kept then); 409 while closing. */
export async function handoverListPdf(app: AppContext, orgId: string, closeOutId: string): Promise<{ pdf: Buffer; row: CloseOutRow }> {
  const row = findCloseOutRow(app.db, orgId, closeOutId);
  if (row.status !== 'closed')
    throw new ApiError('CONFLICT', `Close-out ${closeOutId} is still being closed with the carrier; its handover list follows in a moment`);
  return { pdf: row.document ?? (await renderHandoverList(handoverData(app.db, row))).pdf, row };
}

export async function closeOutContent(app: AppContext, orgId: string, closeOutId: string): Promise<BinaryResult> {
  const { pdf, row } = await handoverListPdf(app, orgId, closeOutId);
  return { contentType: 'application/pdf', data: pdf, filename: `handover-list-${row.createdAt.slice(0, 10)}-${row.id}.pdf` };
}

/** POST /close-outs/{id}/print: the handover list on a PDF printer, for the driver to sign. */
export async function printHandoverList(app: AppContext, orgId: string, closeOutId: string, input: CloseOutPrintInput): Promise<CloseOutPrintResult> {
  const row = findCloseOutRow(app.db, orgId, closeOutId);
  const carrierName = findCarrierRowOfBooking(app.db, orgId, row.carrierId).name;
  const printed = await printPaperPdf(app, orgId, {
    printerId: input.printerId,
    copies: input.copies,
    name: 'handover list',
    render: async () => (await handoverListPdf(app, orgId, closeOutId)).pdf,
  });
  const pages = `${printed.pageCount} page${printed.pageCount === 1 ? '' : 's'}`;
  return {
    ...printed,
    message: `The handover list for ${carrierName} (${row.shipmentCount} shipment${row.shipmentCount === 1 ? '' : 's'}, ${pages}) went to '${printed.printerName}'.`,
  };
}

/** GET /close-outs/{id}/carrier-document: the carrier's manifest as it returned it, or 404 when it made none. */
export function carrierDocumentOf(app: AppContext, orgId: string, closeOutId: string): BinaryResult {
  const row = findCloseOutRow(app.db, orgId, closeOutId);
  if (!row.carrierDocument)
    throw new ApiError('NOT_FOUND', `The carrier made no document of its own for close-out ${closeOutId}; the handover list is its paper`);
  const pdf = row.carrierDocument.subarray(0, 5).toString('latin1') === '%PDF-';
  return {
    contentType: pdf ? 'application/pdf' : 'application/zpl',
    data: row.carrierDocument,
    filename: `carrier-manifest-${row.createdAt.slice(0, 10)}-${row.id}.${pdf ? 'pdf' : 'zpl'}`,
  };
}
