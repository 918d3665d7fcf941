/**
 * Booking a shipment with its carrier: the path shared by send, batch send and returns. Three steps,
 * so a crash or a slow carrier never leaves a shipment silently half-sent:
 *  1. beginBooking, in the caller's write transaction: state and completeness checks, then status
 *     `processing` — written before the carrier call so a crash is visible on restart;
 *  2. callCarrier, outside any transaction: the adapter books while the database stays free, and
 *     then the papers the shipment's rule asks for are made (shippingDocuments.ts);
 *  3. finishBooking, in its own transaction: labels, papers, tracking and `dispatched`, or `error`
 *     with the carrier's errors.
 */
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { ApiError, type CarrierErrorItem, type ErrorDetail } from '../../../src-shared/errors';
import type { Shipment, ShipmentStatus } from '../../../src-shared/schemas/shipment';
import { carriers, documents, parcels, shipments, shippingRules } from '../../db/schema';
import { newId } from '../../db/ids';
import { durable, inWriteTransaction, type ReadDb, type WriteTx } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import type { BookingParty, BookingRequest, BookingResult, CarrierAdapter, CarrierCallLog, CarrierConfig, CustomsDeclaration } from '../../carriers/adapter';
import { carrierAdapterFor } from '../../carriers/catalogue';
import { CarrierFailure } from '../../carriers/errors';
import { plainSentence } from '../../carriers/platform/plainWords';
import { carrierSecrets, masked, writeCarrierCalls, type CarrierSecrets } from './carrierLogs';
import { adapterConfigOf, productsOfCarrier } from '../carriers/carriers';
import { carrierCall } from '../carriers/carrierCalls';
import { firstTrackingCheck } from '../tracking/schedule';
import { emitEvent } from '../events';
import { recomputeOrder } from '../orders/orderStatus';
import { toKg } from '../units';
import { customsDeclarationOf } from '../customs/declaration';
import { customsProblems } from '../customs/completeness';
import { assertActionAllowed } from './lifecycle';
import { customerEmailPlan, queueCustomerEmail, type CustomerEmailPlan } from '../email/messages';
import { queueShopWriteBack } from '../shopWriteBack/outbox';
import { printedCompany } from '../../../src-shared/partyCompany';
import { loadShipmentRecord, readShipment, recordActivity, recordError, setStatus, type PartyRow, type ShipmentRecord } from './repository';
import {
  NO_SHIPPING_DOCUMENTS,
  paperNames,
  paperProblem,
  planShippingDocuments,
  renderPaperlessInvoice,
  renderShippingDocuments,
  type ShippingDocumentsPlan,
  type ShippingDocumentsResult,
} from './shippingDocuments';

/** Everything needed to call the carrier and to write the outcome, resolved in the first transaction. */
export interface PreparedBooking {
  orgId: string;
  shipmentId: string;
  reference: string;
  orderId: string | null;
  carrierName: string;
  carrierRow: CarrierRow;
  adapter: CarrierAdapter;
  config: CarrierConfig;
  /**
   * A booking call before this one ended without an answer (decisions §13): `ask` first asks the
   * carrier for the reference; `rebook` books again because the user confirmed it; null: a first booking.
   */
  afterUnknownOutcome: 'ask' | 'rebook' | null;
  /** Config keys and values that must never reach a log. */
  secrets: CarrierSecrets;
  request: BookingRequest;
  /** The papers the applied rule asks for (packing list, invoices), or null. */
  shippingDocuments: ShippingDocumentsPlan | null;
  /** The customer e-mail Shipdesk sends once dispatched (issue 22), queued with the dispatch; null: none. */
  customerEmail: CustomerEmailPlan | null;
}

export type BookingOutcome =
  | { ok: true; result: BookingResult; found: boolean; calls: CarrierCallLog[]; shippingDocuments: ShippingDocumentsResult }
  | { ok: false; failure: FailureKind; errors: CarrierErrorItem[]; calls: CarrierCallLog[]; durationMs: number };

/**
 * `unknown`: the carrier may have booked (decisions §13), `auth`: it refused the credentials,
 * `failed`: it did not book.
 */
type FailureKind = 'unknown' | 'auth' | 'failed';

type CarrierRow = typeof carriers.$inferSelect;

function liveCarrierRow(db: ReadDb, orgId: string, carrierId: string): CarrierRow | undefined {
  return db
    .select()
    .from(carriers)
    .where(and(eq(carriers.orgId, orgId), eq(carriers.id, carrierId), isNull(carriers.deletedAt)))
    .get();
}

/**
 * decisions §8: sender, receiver, at least one parcel, every parcel weighing something, and a product
 * the carrier offers. Everything missing is listed at once, so the packer fixes it in one go.
 */
function completenessProblems(
  app: AppContext,
  db: ReadDb,
  record: ShipmentRecord,
  customs: CustomsDeclaration | null,
): { problems: ErrorDetail[]; carrier?: { row: CarrierRow; adapter: CarrierAdapter; config: CarrierConfig; productName: string; postal: boolean } } {
  const { row } = record;
  const problems: ErrorDetail[] = [];
  if (!record.parties.some((party) => party.type === 'sender')) problems.push({ path: 'parties', message: 'a sender party' });
  if (!record.parties.some((party) => party.type === 'receiver')) problems.push({ path: 'parties', message: 'a receiver party' });
  if (record.parcels.length === 0) problems.push({ path: 'parcels', message: 'at least one parcel' });
  record.parcels.forEach((parcel, index) => {
    if (!(parcel.weight > 0)) {
      problems.push({ path: `parcels.${index}.weight`, message: `a weight above 0 for parcel ${index + 1} (${parcel.id})` });
    }
  });
  // An export is declared to customs: what each line needs is checked before any carrier is called (issue 21).
  if (customs) problems.push(...customsProblems(record, customs));

  const carrierRow = liveCarrierRow(db, row.orgId, row.carrierId);
  if (!carrierRow) {
    problems.push({ path: 'carrierSettings.carrierId', message: `a carrier: carrier ${row.carrierId} no longer exists` });
    return { problems };
  }
  const adapter = carrierAdapterFor(carrierRow.carrierSlug);
  if (!adapter) {
    problems.push({
      path: 'carrierSettings.carrierId',
      message: `a usable carrier: ${carrierRow.name} is of type ${carrierRow.carrierSlug}, which this version of Shipdesk cannot use`,
    });
    return { problems };
  }
  // What the carrier offers is checked here, not when the shipment or rule is written (decisions §8).
  const config = adapterConfigOf(app, carrierRow);
  const products = productsOfCarrier(app, carrierRow);
  const product = products.find((candidate) => candidate.productId === row.productId);
  if (!product) {
    problems.push({
      path: 'carrierSettings.productId',
      message: `a product ${carrierRow.name} offers: ${row.productId} is not one of ${products.map((candidate) => candidate.productId).join(', ')}`,
    });
  } else {
    const unknown = row.services.filter((service) => !product.services.some((offered) => offered.serviceId === service));
    if (unknown.length) {
      problems.push({
        path: 'carrierSettings.services',
        message: `services ${product.productId} offers: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not among ${product.services.map((offered) => offered.serviceId).join(', ') || 'none'}`,
      });
    }
  }
  return { problems, carrier: { row: carrierRow, adapter, config, productName: product?.name ?? row.productId, postal: product?.postal === true } };
}

function bookingParty(party: PartyRow): BookingParty {
  return {
    name: party.name,
    attention: party.attention || null,
    company: printedCompany(party),
    address1: party.address1,
    address2: party.address2 || null,
    postalCode: party.postalCode,
    city: party.city,
    countryCode: party.countryCode,
    phone: party.phone || null,
    email: party.email || null,
  };
}

/** The shipment as its carrier books it; also what a label is drawn again from (labelRedraw.ts). */
export function bookingRequest(
  record: ShipmentRecord,
  adapter: CarrierAdapter,
  config: CarrierConfig,
  notify: BookingRequest['notify'] = { phone: false, email: false },
  customs: BookingRequest['customs'] = null,
): BookingRequest {
  const { row } = record;
  const partyOf = (type: string) => record.parties.find((party) => party.type === type) as PartyRow;
  return {
    shipmentId: row.id,
    reference: row.reference,
    type: row.type as BookingRequest['type'],
    productId: row.productId,
    services: row.services,
    additionalParameters: row.additionalParameters,
    sender: bookingParty(partyOf('sender')),
    receiver: bookingParty(partyOf('receiver')),
    otherParties: record.parties
      .filter((party) => party.type !== 'sender' && party.type !== 'receiver')
      .map((party) => ({ ...bookingParty(party), type: party.type })),
    parcels: record.parcels.map((parcel) => ({
      parcelId: parcel.id,
      weightKg: toKg(parcel.weight, parcel.weightUnit),
      length: parcel.length,
      width: parcel.width,
      height: parcel.height,
    })),
    servicePointId: row.servicePointId,
    notify,
    pickup: row.pickupDate ? { date: row.pickupDate, from: row.pickupFrom, to: row.pickupTo, instruction: row.pickupInstruction } : null,
    termOfTrade: row.termOfTrade,
    // The carrier's configured defaults; printers choosing their own size arrive with printing.
    label: adapter.labelDefaults(config),
    customs,
  };
}

/** The carrier notices the shipment's shipping rule asks for (interface: emailNotification, phoneNotification). */
function ruleNotices(db: ReadDb, ruleId: string | null): BookingRequest['notify'] {
  const rule = ruleId
    ? db
        .select({ phone: shippingRules.phoneNotification, email: shippingRules.emailNotification })
        .from(shippingRules)
        .where(eq(shippingRules.id, ruleId))
        .get()
    : undefined;
  return { phone: rule?.phone ?? false, email: rule?.email ?? false };
}

/** When Shipdesk e-mails the customer itself, the carrier is not asked for its own e-mail notice too. */
function carrierNotices(notices: BookingRequest['notify'], customerEmail: CustomerEmailPlan | null): BookingRequest['notify'] {
  return customerEmail ? { ...notices, email: false } : notices;
}

/**
 * Step 1, inside the caller's write transaction: 409 when the status forbids sending, 422
 * SHIPMENT_INCOMPLETE listing everything missing (the transaction rolls back, nothing changes), 409
 * CARRIER_OUTCOME_UNKNOWN when an earlier booking may have gone through and the carrier cannot be
 * asked (until `confirmRebook`), else status `processing` with its activity.
 */
export function beginBooking(
  app: AppContext,
  tx: WriteTx,
  now: Date,
  orgId: string,
  shipmentId: string,
  options: { confirmRebook?: boolean } = {},
): PreparedBooking {
  const record = loadShipmentRecord(tx, orgId, shipmentId);
  const { row } = record;
  const from = row.status as ShipmentStatus;
  assertActionAllowed('send', shipmentId, from);
  const customs = customsDeclarationOf(tx, record, now);
  const { problems, carrier } = completenessProblems(app, tx, record, customs);
  if (problems.length > 0 || !carrier) {
    throw new ApiError('SHIPMENT_INCOMPLETE', `Shipment ${row.reference} cannot be sent; it needs ${problems.map((problem) => problem.message).join('; ')}`, {
      details: problems,
    });
  }
  let afterUnknownOutcome: PreparedBooking['afterUnknownOutcome'] = null;
  if (row.bookingOutcomeUnknownAt) {
    if (carrier.adapter.findBooking) afterUnknownOutcome = 'ask';
    else if (options.confirmRebook) afterUnknownOutcome = 'rebook';
    else {
      throw new ApiError(
        'CARRIER_OUTCOME_UNKNOWN',
        `${carrier.row.name} may already have booked shipment ${row.reference} (the call at ${row.bookingOutcomeUnknownAt} got no answer), and it cannot be asked. Check with ${carrier.row.name}; if it has no such booking, send again with confirmRebook.`,
        { status: 409 },
      );
    }
  }

  setStatus(tx, now, shipmentId, 'processing');
  const customerEmail = customerEmailPlan(tx, orgId, record);
  recordActivity(
    tx,
    now,
    shipmentId,
    'status_changed',
    `Status ${from} → processing: ${afterUnknownOutcome === 'ask' ? `asking ${carrier.row.name} for an earlier booking, then booking` : `booking with ${carrier.row.name}`}${afterUnknownOutcome === 'rebook' ? ' again, as confirmed' : ''}`,
  );
  recomputeOrder(tx, now, row.orderId);

  return {
    orgId,
    shipmentId,
    reference: row.reference,
    orderId: row.orderId,
    carrierName: carrier.row.name,
    carrierRow: carrier.row,
    adapter: carrier.adapter,
    config: carrier.config,
    afterUnknownOutcome,
    secrets: carrierSecrets(carrier.row.carrierSlug, carrier.config),
    customerEmail,
    request: bookingRequest(record, carrier.adapter, carrier.config, carrierNotices(ruleNotices(tx, row.shippingRuleId), customerEmail), customs),
    shippingDocuments: planShippingDocuments(
      tx,
      record,
      { carrierName: carrier.row.name, productName: carrier.productName },
      customs
        ? {
            declaration: customs,
            postal: carrier.postal,
            paperless: carrier.adapter.paperlessInvoice?.(carrier.config) === true,
            onPaper: carrier.adapter.customsOnPaper === true,
          }
        : null,
    ),
  };
}

/** What a failed booking tells the user: the carrier's own errors when it gave them, else its message. */
export function carrierErrorsOf(error: unknown): CarrierErrorItem[] {
  if (error instanceof CarrierFailure) return error.errors;
  if (error instanceof ApiError) return error.errors?.length ? error.errors : [{ code: error.code, message: error.message }];
  if (error instanceof Error) {
    const code = (error as Error & { code?: unknown }).code;
    return [{ code: typeof code === 'string' && code !== '' ? code : 'BOOKING_FAILED', message: error.message }];
  }
  return [{ code: 'BOOKING_FAILED', message: String(error) }];
}

function failureKindOf(error: unknown): FailureKind {
  if (error instanceof CarrierFailure) return error.kind === 'outcome_unknown' ? 'unknown' : error.kind === 'auth' ? 'auth' : 'failed';
  return 'failed';
}

/**
 * Step 2, outside any transaction. A carrier's failure is an outcome to be written, never thrown;
 * what throws is a step 1 that did not reach the disk, and then no carrier is called. After an
 * unknown outcome the carrier is first asked for the reference (decisions §13), and a booking it
 * finds is taken instead of a second one. After a booking the rule's papers are made here, before
 * step 3's transaction (pdf-lib is async); one that fails is an error entry on the dispatched
 * shipment, never a lost booking.
 */
export async function callCarrier(app: AppContext, prepared: PreparedBooking): Promise<BookingOutcome> {
  // `processing` must be on disk before the carrier hears of the shipment (recovered at start-up).
  await durable(app.db);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const { adapter, context } = carrierCall(app, prepared.carrierRow, prepared.config);
  // Paperless trade: the customs invoice is made before the call and handed to the carrier; the same
  // bytes become the shipment's invoice document, never rendered a second time.
  const paperless = await renderPaperlessInvoice(prepared.shippingDocuments, app.now());
  const request: BookingRequest =
    paperless.invoice && prepared.request.customs
      ? { ...prepared.request, customs: { ...prepared.request.customs, invoice: paperless.invoice } }
      : prepared.request;
  let result: BookingResult | null = null;
  let found = false;
  try {
    if (prepared.afterUnknownOutcome === 'ask' && adapter.findBooking) {
      try {
        result = await adapter.findBooking(context, request);
      } catch (error) {
        // Not knowing still: booking now could double it.
        const errors = carrierErrorsOf(error);
        return {
          ok: false,
          failure: failureKindOf(error) === 'auth' ? 'auth' : 'unknown',
          errors: [{ code: 'CARRIER_LOOKUP_FAILED', message: `${prepared.carrierName} could not be asked whether it already has this booking` }, ...errors],
          calls: context.http.calls,
          durationMs: elapsed(),
        };
      }
      found = result !== null;
    }
    result ??= await adapter.book(context, request);
  } catch (error) {
    return { ok: false, failure: failureKindOf(error), errors: carrierErrorsOf(error), calls: context.http.calls, durationMs: elapsed() };
  }
  // A booking without a tracking number or a label for every parcel cannot be shipped: treat it as failed.
  const problems: CarrierErrorItem[] = [];
  if (!result.trackingNumber) problems.push({ code: 'TRACKING_NUMBER_MISSING', message: 'The carrier returned no tracking number' });
  const labelled = new Set(result.labels.map((label) => label.parcelId));
  // One label for the whole shipment covers every parcel.
  if (!labelled.has(null)) {
    for (const parcel of prepared.request.parcels) {
      if (!labelled.has(parcel.parcelId)) problems.push({ code: 'LABEL_MISSING', message: `The carrier returned no label for parcel ${parcel.parcelId}` });
    }
  }
  if (problems.length) return { ok: false, failure: 'failed', errors: problems, calls: context.http.calls, durationMs: elapsed() };
  const rendered = prepared.shippingDocuments
    ? await renderShippingDocuments(prepared.shippingDocuments, { trackingNumber: result.trackingNumber, now: app.now() }, paperless.invoice)
    : NO_SHIPPING_DOCUMENTS;
  const shippingDocuments = { documents: rendered.documents, errors: [...paperless.errors, ...rendered.errors] };
  return { ok: true, result, found, calls: context.http.calls, shippingDocuments };
}

function writeSuccess(
  tx: WriteTx,
  now: Date,
  prepared: PreparedBooking,
  outcome: { result: BookingResult; found: boolean; calls: readonly CarrierCallLog[] },
  papers: ShippingDocumentsResult,
): Shipment {
  const { result } = outcome;
  const at = now.toISOString();
  for (const label of result.labels) {
    tx.insert(documents)
      .values({
        id: newId('document'),
        shipmentId: prepared.shipmentId,
        parcelId: label.parcelId,
        documentType: 'label',
        format: label.format,
        size: label.size,
        content: label.content,
        createdAt: at,
        updatedAt: at,
      })
      .run();
  }
  // After the labels, so the documents read labels first; the papers belong to the whole shipment.
  for (const paper of papers.documents) {
    tx.insert(documents)
      .values({
        id: newId('document'),
        shipmentId: prepared.shipmentId,
        parcelId: null,
        documentType: paper.documentType,
        format: 'pdf',
        // The CN22 is the one A6 paper; every other is A4.
        size: paper.documentType === 'cn22' ? 'A6' : 'A4',
        content: paper.content,
        createdAt: at,
        updatedAt: at,
      })
      .run();
  }
  for (const error of papers.errors) recordError(tx, now, prepared.shipmentId, error.code, error.message);
  for (const parcel of result.parcels) {
    tx.update(parcels)
      .set({ trackingNumber: parcel.trackingNumber, parcelNumber: parcel.parcelNumber })
      .where(and(eq(parcels.id, parcel.parcelId), eq(parcels.shipmentId, prepared.shipmentId)))
      .run();
  }
  tx.update(shipments)
    .set({
      status: 'dispatched',
      bookingStartedAt: null,
      bookingOutcomeUnknownAt: null,
      carrierBooking: result.booking,
      bookedAt: at,
      trackingNumber: result.trackingNumber,
      trackingUrl: result.trackingUrl,
      trackingStatus: 'pending',
      trackingCheckedAt: null,
      trackingDueAt: firstTrackingCheck(prepared.adapter, now),
      updatedAt: at,
    })
    .where(eq(shipments.id, prepared.shipmentId))
    .run();
  writeCarrierCalls(tx, now, prepared.shipmentId, prepared.secrets, outcome.calls);
  const labelCount = result.labels.length;
  const paperList = papers.documents.map((paper) => paperNames[paper.documentType]);
  recordActivity(
    tx,
    now,
    prepared.shipmentId,
    'sent',
    `${outcome.found ? `Found the earlier booking with ${prepared.carrierName} (nothing booked twice)` : `Booked with ${prepared.carrierName}`}: tracking number ${result.trackingNumber}, ${labelCount} label${labelCount === 1 ? '' : 's'}${paperList.length ? `, ${paperList.join(', ')}` : ''}`,
  );
  if (prepared.customerEmail) queueCustomerEmail(tx, now, prepared.orgId, prepared.shipmentId, prepared.customerEmail);
  // The order's shop hears of the dispatch (issue 22), queued with it so it is never lost.
  queueShopWriteBack(tx, now, prepared.shipmentId);
  const shipment = readShipment(tx, prepared.orgId, prepared.shipmentId);
  emitEvent(tx, now, prepared.orgId, 'shipment.dispatched', shipment);
  emitEvent(tx, now, prepared.orgId, 'tracking.updated', {
    shipmentId: shipment.id,
    reference: shipment.reference,
    carrierId: shipment.carrierSettings.carrierId,
    status: shipment.status,
    tracking: shipment.tracking,
  });
  recomputeOrder(tx, now, prepared.orderId);
  return shipment;
}

function writeFailure(
  tx: WriteTx,
  now: Date,
  prepared: PreparedBooking,
  failure: { failure: FailureKind; errors: CarrierErrorItem[]; calls: readonly CarrierCallLog[]; durationMs: number },
): { shipment: Shipment; errors: CarrierErrorItem[] } {
  const errors = failure.errors.map((error) => ({ code: error.code, message: masked(prepared.secrets, error.message) as string }));
  const summary = errors.map((error) => error.message).join('; ');
  setStatus(tx, now, prepared.shipmentId, 'error');
  // Unknown stays unknown until the carrier says otherwise; a clear refusal means nothing was booked.
  const stillUnknown = failure.failure === 'unknown' || (prepared.afterUnknownOutcome === 'ask' && failure.failure === 'auth');
  tx.update(shipments)
    .set({ bookingOutcomeUnknownAt: stillUnknown ? now.toISOString() : null })
    .where(eq(shipments.id, prepared.shipmentId))
    .run();
  if (failure.failure === 'unknown') {
    recordError(
      tx,
      now,
      prepared.shipmentId,
      'CARRIER_OUTCOME_UNKNOWN',
      `No answer from ${prepared.carrierName} to the booking: it may or may not have booked shipment ${prepared.reference}. Send again: Shipdesk asks ${prepared.carrierName} first where it can, so nothing is booked twice.`,
    );
  }
  for (const error of errors) recordError(tx, now, prepared.shipmentId, error.code, error.message);
  // The adapter's own calls when it returned any; otherwise the attempt itself, so logs[] shows it.
  const calls: readonly CarrierCallLog[] = failure.calls.length
    ? failure.calls
    : [
        {
          request: {
            operation: 'book',
            reference: prepared.reference,
            productId: prepared.request.productId,
            parcels: prepared.request.parcels.length,
            label: prepared.request.label,
          },
          response: null,
          statusCode: null,
          error: summary,
          durationMs: failure.durationMs,
        },
      ];
  writeCarrierCalls(tx, now, prepared.shipmentId, prepared.secrets, calls);
  recordActivity(tx, now, prepared.shipmentId, 'send_failed', `Booking with ${prepared.carrierName} failed: ${summary}`);
  const shipment = readShipment(tx, prepared.orgId, prepared.shipmentId);
  emitEvent(tx, now, prepared.orgId, 'shipment.error', shipment);
  recomputeOrder(tx, now, prepared.orderId);
  return { shipment, errors };
}

/**
 * For a shipment sent as part of another action (a return, decisions §7) that is refused before any
 * carrier call, for what it lacks: kept in error with the reason in errors[] instead of undone, so
 * the action's answer shows it and it can be completed and sent again.
 */
export function keepUnsent(tx: WriteTx, now: Date, orgId: string, shipmentId: string, refusal: ApiError): Shipment {
  setStatus(tx, now, shipmentId, 'error');
  recordError(tx, now, shipmentId, refusal.code, refusal.message);
  recordActivity(tx, now, shipmentId, 'send_failed', `Not sent: ${refusal.message}`);
  const shipment = readShipment(tx, orgId, shipmentId);
  emitEvent(tx, now, orgId, 'shipment.error', shipment);
  return shipment;
}

/**
 * Step 3, in its own transaction. Returns the full read and, when the booking failed, the 422
 * CARRIER_ERROR for callers that throw it (send); returns keep the shipment in error and answer 200.
 */
export function finishBooking(app: AppContext, prepared: PreparedBooking, outcome: BookingOutcome): { shipment: Shipment; failure: ApiError | null } {
  const now = app.now();
  if (outcome.ok) {
    try {
      return { shipment: inWriteTransaction(app.db, (tx) => writeSuccess(tx, now, prepared, outcome, outcome.shippingDocuments)), failure: null };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const papers = outcome.shippingDocuments;
      if (papers.documents.length) {
        // The papers are the one part of the write that is ours alone: keep the booking without them.
        const unsaved = papers.documents.map((paper) => ({
          code: 'DOCUMENT_FAILED' as const,
          message: paperProblem(prepared.shippingDocuments, paper.documentType, `; it was made but could not be saved: ${reason}`),
        }));
        return finishBooking(app, prepared, { ...outcome, shippingDocuments: { documents: [], errors: [...papers.errors, ...unsaved] } });
      }
      // The carrier booked but the result could not be stored: say so on the shipment instead of
      // leaving it in processing until the next start.
      const errors = [
        { code: 'BOOKING_NOT_SAVED', message: `The carrier booked tracking number ${outcome.result.trackingNumber}, but saving it failed: ${reason}` },
      ];
      // The carrier holds a booking Shipdesk has no record of: as good as unknown.
      return finishBooking(app, prepared, { ok: false, failure: 'unknown', errors, calls: outcome.calls, durationMs: 0 });
    }
  }
  const { shipment, errors } = inWriteTransaction(app.db, (tx) => writeFailure(tx, now, prepared, outcome));
  return { shipment, failure: bookingFailure(prepared, outcome.failure, errors) };
}

/** The answer of a failed send: which of the three it is, the carrier's words, and what to do in a sentence. */
function bookingFailure(prepared: PreparedBooking, kind: FailureKind, errors: CarrierErrorItem[]): ApiError {
  const carrier = prepared.carrierName;
  if (kind === 'unknown') {
    return new ApiError(
      'CARRIER_OUTCOME_UNKNOWN',
      `${carrier} did not answer whether it booked shipment ${prepared.reference}; it is in error. Send it again: Shipdesk asks ${carrier} first where it can, so nothing is booked twice.`,
      { errors },
    );
  }
  if (kind === 'auth') {
    return new ApiError(
      'CARRIER_AUTH_FAILED',
      `${carrier} refused the credentials, so shipment ${prepared.reference} was not booked. ${plainSentence('auth', carrier)}`,
      {
        errors,
      },
    );
  }
  const advice = plainSentence(errors, carrier);
  return new ApiError('CARRIER_ERROR', `${carrier} did not book shipment ${prepared.reference}; it is now in error.${advice ? ` ${advice}` : ''}`, { errors });
}

/**
 * decisions §4: a shipment left in `processing` by a send was being booked when the process stopped.
 * Whether the carrier got the booking is unknown, so it goes to error with an entry saying exactly
 * that. One created as `processing` (history brought in from another system) is left as it is.
 */
export function recoverInterruptedBookings(app: AppContext): number {
  const now = app.now();
  return inWriteTransaction(app.db, (tx) => {
    const stuck = tx
      .select({ row: shipments, carrierSlug: carriers.carrierSlug })
      .from(shipments)
      .innerJoin(carriers, eq(carriers.id, shipments.carrierId))
      // The status as a literal, not a bound value: only then can SQLite use the partial index
      // shipments_processing instead of reading every shipment.
      .where(and(sql`${shipments.status} = 'processing'`, isNotNull(shipments.bookingStartedAt)))
      .all();
    for (const { row, carrierSlug } of stuck) {
      setStatus(tx, now, row.id, 'error');
      // A carrier over the network may have booked: the next send asks it first (decisions §13).
      if (carrierAdapterFor(carrierSlug)?.remote) {
        tx.update(shipments).set({ bookingOutcomeUnknownAt: now.toISOString() }).where(eq(shipments.id, row.id)).run();
      }
      recordError(
        tx,
        now,
        row.id,
        'SEND_INTERRUPTED',
        'Shipdesk stopped while this shipment was being booked with the carrier. Check with the carrier whether the booking was made before sending it again.',
      );
      recordActivity(tx, now, row.id, 'send_failed', 'Send interrupted by a restart; status processing → error');
      emitEvent(tx, now, row.orgId, 'shipment.error', readShipment(tx, row.orgId, row.id));
      recomputeOrder(tx, now, row.orderId);
    }
    return stuck.length;
  });
}
