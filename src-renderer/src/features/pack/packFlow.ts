import { ApiError } from '../../../../src-shared/errors';
import type { OrderDetail, OrderLine, OrderSummary } from '../../../../src-shared/schemas/order';
import type { PrintJob } from '../../../../src-shared/schemas/printing';
import type { Shipment, ShipmentListItem, ShipmentStatus } from '../../../../src-shared/schemas/shipment';
import { client } from '../../lib/api';
import { operationCache, readCached } from '../../lib/useOperation';
import { exactMatches } from '../../lib/scan';
import { describeError } from '../../components/ErrorNotice';
import { printGroups, rememberedPrinter, sendBodyOf } from '../shipments/printerChoice';
import { sendFailureStep } from '../../lib/sendFailure';
import { canSend } from '../shipments/lifecycle';
import { startVerification } from './verification';

/**
 * What a scan on the pack screen does (USERS 5), without the screen: find what the code names, make
 * the shipment by rule, send it, and read back what the printer did. Each step answers a result the
 * screen shows as it is; refusals become problems in a packer's words, with the way forward.
 */

/** A place to go from a result: an order to choose a carrier on, a shipment's page, the orders found. */
export interface PackLink {
  to: string;
  label: string;
  /** Fill that list's search with the code on the way, so it shows what was found. */
  search?: { list: 'orders' | 'shipments'; text: string };
}

export interface PackProblem {
  title: string;
  detail?: string;
  /** What is missing, one item a line (SHIPMENT_INCOMPLETE), or the carrier's own errors. */
  items?: string[];
  link?: PackLink;
  /** The error code, for support. */
  code?: string;
  /** What to do next when the words above do not say it. */
  advice?: string;
  /** The carrier may have booked it and cannot be asked: a new booking needs the packer's confirmation (decisions §13). */
  rebook?: boolean;
}

/** Label print jobs of a shipment and the printers' names, as the print-job log has them. */
export interface PrintState {
  jobs: PrintJob[];
  printerNames: ReadonlyMap<string, string>;
}

export type PackResult =
  | {
      kind: 'shipment';
      code: string;
      shipment: Shipment;
      order: { id: string; orderNumber: string } | null;
      /** The order's lines, with the barcodes the items carry, for checking them (scan-to-verify); absent without an order. */
      orderLines?: OrderLine[] | null;
      /** Found by a barcode on its label (a tracking or parcel number), not by its reference. */
      byLabel?: boolean;
      /** Made by this scan from the order. */
      made: boolean;
      /** Sent by this scan or its confirmation. */
      sent: boolean;
      print: PrintState | null;
      /** Why the label the Pack screen printed after the send did not print (no printer at all, say). */
      printRefused?: string;
      /** More open shipments of the same order (splits), besides this one. */
      otherOpen: number;
      problem: PackProblem | null;
    }
  | { kind: 'problem'; code: string; problem: PackProblem }
  | { kind: 'nothing'; code: string };

/** Outbound shipments of an order that are still to be packed; the first is shown. */
const openStatuses: readonly ShipmentStatus[] = ['pending', 'error', 'draft', 'on_hold'];

export const canSendNow = canSend;
export const canReprint = (shipment: Pick<Shipment, 'status' | 'documents'>) =>
  (shipment.status === 'dispatched' || shipment.status === 'partly_dispatched') && shipment.documents.some((document) => document.documentType === 'label');

const orderLink = (order: { id: string; orderNumber: string }, label = `Open order ${order.orderNumber}`): PackLink => ({
  to: `/orders/${encodeURIComponent(order.id)}`,
  label,
});

/** Any other refusal, in the words the rest of the app uses. */
function problemOf(error: unknown, title?: string): PackProblem {
  const described = describeError(error);
  const items = [...described.fieldProblems, ...described.carrierErrors.map((item) => `${item.message} (${item.code})`)];
  return {
    title: title ?? described.summary,
    ...(described.detail ? { detail: described.detail } : {}),
    ...(items.length ? { items } : {}),
    ...(described.advice ? { advice: described.advice } : {}),
    code: described.code,
  };
}

/**
 * Orders and shipments the code names exactly: an order number, a shipment reference, else a barcode
 * on a shipment's label (its tracking number or a parcel's number, `code=`).
 */
export async function lookUp(
  orgId: string,
  code: string,
): Promise<{ orders: OrderSummary[]; shipments: ShipmentListItem[]; labelShipments?: ShipmentListItem[] }> {
  // Exact first: answered from an index however many orders and shipments there are (a search
  // reads them all: a second on a million shipments). The label barcode is asked at the same time.
  if (code.length <= 1000) {
    const [orders, shipments, labels] = await Promise.all([
      client.call('orders.list', { params: { orgId }, query: { orderNumber: code, limit: 100 } }),
      client.call('shipments.list', { params: { orgId }, query: { reference: code, limit: 100 } }),
      client.call('shipments.list', { params: { orgId }, query: { code, limit: 100 } }),
    ]);
    if (orders.data.length || shipments.data.length) return { orders: orders.data, shipments: shipments.data };
    if (labels.data.length) return { orders: [], shipments: [], labelShipments: labels.data };
  }
  // Nothing is exactly this code: a scanner left in caps lock types "shp-000123"; search, and take
  // what matches the code in another case.
  const search = code.slice(0, 200);
  const [orders, shipments] = await Promise.all([
    client.call('orders.list', { params: { orgId }, query: { search, limit: 100 } }),
    client.call('shipments.list', { params: { orgId }, query: { search, limit: 100 } }),
  ]);
  return {
    orders: exactMatches(orders.data, code, (order) => order.orderNumber),
    shipments: exactMatches(shipments.data, code, (shipment) => shipment.reference),
  };
}

/** The label print jobs of a shipment, newest first, with the printers' names. */
export async function readPrintState(orgId: string, shipment: Shipment): Promise<PrintState | null> {
  const labels = new Set(shipment.documents.filter((document) => document.documentType === 'label').map((document) => document.id));
  if (labels.size === 0) return null;
  try {
    const [jobs, printers] = await Promise.all([
      client.call('printJobs.list', { params: { orgId }, query: { shipmentId: shipment.id, limit: 100 } }),
      client.call('printers.list', { params: { orgId }, query: { limit: 100 } }),
    ]);
    return {
      jobs: jobs.data.filter((job) => labels.has(job.documentId)),
      printerNames: new Map(printers.data.map((printer) => [printer.id, printer.name])),
    };
  } catch {
    // A packer without read:printers still packs; the print line then says nothing it cannot know.
    return null;
  }
}

/**
 * A scanned order: its open shipment if it has one (nothing is made twice), else a new shipment by
 * the order's rule or the matching rule (no carrier is chosen here, decisions §5), sent at once when
 * `sendOnScan`.
 */
export async function packOrder(orgId: string, code: string, found: OrderSummary, options: ScanOptions): Promise<PackResult> {
  const order = await client.call('orders.get', { params: { orgId, orderId: found.id } });
  const ref = { id: order.id, orderNumber: order.orderNumber };
  const orderLines = order.orderLines;
  const step = orderStep(order);
  if (step.kind === 'problem') return { kind: 'problem', code, problem: step.problem };
  if (step.kind === 'open') {
    const shipment = await client.call('shipments.get', { params: { orgId, shipmentId: step.shipmentId } });
    return { kind: 'shipment', code, shipment, order: ref, orderLines, made: false, sent: false, print: null, otherOpen: step.otherOpen, problem: null };
  }

  let shipment: Shipment;
  try {
    shipment = await client.call('orders.createShipment', { params: { orgId, orderId: order.id } });
  } catch (error) {
    return { kind: 'problem', code, problem: createProblem(error, ref) };
  }
  const made: PackResult = { kind: 'shipment', code, shipment, order: ref, orderLines, made: true, sent: false, print: null, otherOpen: 0, problem: null };
  // A shipment whose items are to be checked is sent when they are, never on the order's scan.
  const checked = options.verify && startVerification(shipment, orderLines) !== null;
  return options.sendOnScan && !checked ? sendAndPrint(orgId, made) : made;
}

/** The station's settings a scan follows. */
export interface ScanOptions {
  /** "Send and print on scan": a new shipment with nothing to check is sent at once. */
  sendOnScan: boolean;
  /** "Check items by scanning": a shipment whose items carry codes is checked before it is sent. */
  verify: boolean;
}

/**
 * What a scanned order leads to before anything is made: its first open outbound shipment (nothing is
 * made twice), a cancelled or fulfilled order said so, else a new shipment.
 */
export function orderStep(
  order: Pick<OrderDetail, 'id' | 'orderNumber' | 'status' | 'shipments'>,
): { kind: 'open'; shipmentId: string; otherOpen: number } | { kind: 'problem'; problem: PackProblem } | { kind: 'create' } {
  const ref = { id: order.id, orderNumber: order.orderNumber };
  const open = order.shipments.filter((shipment) => shipment.type === 'outbound' && openStatuses.includes(shipment.status));
  const first = open[0];
  if (first) return { kind: 'open', shipmentId: first.id, otherOpen: open.length - 1 };
  if (order.status === 'cancelled') {
    return { kind: 'problem', problem: { title: `Order ${order.orderNumber} is cancelled`, detail: 'Nothing more is shipped for it.', link: orderLink(ref) } };
  }
  if (order.status === 'fulfilled') return { kind: 'problem', problem: allPacked(ref) };
  return { kind: 'create' };
}

function allPacked(order: { id: string; orderNumber: string }): PackProblem {
  return {
    title: `Everything in order ${order.orderNumber} is already packed`,
    detail: 'Every line is in a shipment already. Reprint a label from its shipment.',
    link: orderLink(order, `See the shipments of order ${order.orderNumber}`),
  };
}

export function createProblem(error: unknown, order: { id: string; orderNumber: string }): PackProblem {
  if (error instanceof ApiError && error.code === 'NO_MATCHING_SHIPPING_RULE') {
    return {
      title: 'No shipping rule fits this order: choose a carrier on the order page',
      detail: error.message,
      link: orderLink(order, `Choose a carrier for order ${order.orderNumber}`),
      code: error.code,
    };
  }
  if (error instanceof ApiError && error.code === 'ORDER_INVALID_STATE') {
    if (/already placed/i.test(error.message)) return { ...allPacked(order), code: error.code };
    return { title: `Order ${order.orderNumber} cannot be shipped yet`, detail: error.message, link: orderLink(order), code: error.code };
  }
  return { ...problemOf(error), link: orderLink(order) };
}

/**
 * Books the shown shipment and makes sure its label prints (USERS 5: scan, shipment, label printed),
 * in one call when the rule prints: send answers the print jobs it started (`printJobs`), so which
 * labels came out, and where, is known without reading the print-job log. The labels it gave to no
 * printer (no rule, a rule that does not print) are printed here, on the station's printer, and
 * their print answers say how that went. A refusal keeps the shipment on screen, read again (a
 * carrier failure leaves it in error with its reasons).
 */
export async function sendAndPrint(orgId: string, result: Extract<PackResult, { kind: 'shipment' }>, confirmRebook = false): Promise<PackResult> {
  const params = { orgId, shipmentId: result.shipment.id };
  try {
    const body = { ...sendBodyOf(orgId), ...(confirmRebook ? { confirmRebook: true } : {}) };
    const { printJobs, ...shipment } = await client.call('shipments.send', { params, body });
    const labelIds = new Set(shipment.documents.filter((document) => document.documentType === 'label').map((document) => document.id));
    // Newest first, as the print-job log lists them; a return's label (its own shipment) is not this one's.
    const labelJobs = printJobs.filter((job) => labelIds.has(job.documentId)).reverse();
    const unprinted = unprintedLabels(shipment, labelJobs);
    const wanted = [...labelJobs.map((job) => job.printerId), ...printGroups(unprinted).map((group) => rememberedPrinter(orgId, group.key))];
    const printerNames = labelIds.size ? await printerNamesFor(orgId, wanted) : null;
    const print: PrintState | null = printerNames ? { jobs: labelJobs, printerNames } : null;
    const sent = { ...result, shipment, sent: true, print, problem: null };
    // Not knowing the printers (no read:printers) prints nothing: never a double print.
    if (!print || unprinted.length === 0) return sent;
    const printed = await printLabels(orgId, shipment, unprinted, print);
    const jobs = [...printed.jobs.reverse(), ...print.jobs];
    // The server chose the printer when none was remembered: its name may be new to the cache.
    const names =
      (await printerNamesFor(
        orgId,
        jobs.map((job) => job.printerId),
      )) ?? print.printerNames;
    return { ...sent, print: { jobs, printerNames: names }, ...(printed.refused ? { printRefused: printed.refused } : {}) };
  } catch (error) {
    const shipment = await client.call('shipments.get', { params }).catch(() => result.shipment);
    return { ...result, shipment, problem: sendProblem(error, shipment) };
  }
}

/**
 * The printers' names, from the read cache; read again when a printer this needs is not among them
 * (added or remembered since), so a station's own printer is never taken for a deleted one. Null
 * when they cannot be read (a packer without read:printers).
 */
async function printerNamesFor(orgId: string, needed: readonly (string | null)[]): Promise<ReadonlyMap<string, string> | null> {
  const input = { params: { orgId }, query: { limit: 100 } };
  const namesOf = (page: { data: { id: string; name: string }[] }) => new Map(page.data.map((printer) => [printer.id, printer.name]));
  try {
    const names = namesOf(await readCached('printers.list', input));
    if (needed.every((id) => id === null || names.has(id))) return names;
    return namesOf((await operationCache.reload('printers.list', input)) as { data: { id: string; name: string }[] });
  } catch {
    return null;
  }
}

/**
 * Labels the send gave to no printer. A label the rule's print took, even one that failed, has a job
 * on a printer and is left to Retry or Print label, never printed a second time here. A job without
 * a printer is the rule's print finding none (no default printer): nothing came out, so it prints here.
 */
export function unprintedLabels(shipment: Shipment, jobs: readonly PrintJob[]) {
  const taken = new Set(jobs.filter((job) => job.printerId !== null).map((job) => job.documentId));
  return shipment.documents.filter((document) => document.documentType === 'label' && !taken.has(document.id));
}

/**
 * Prints labels on this station's remembered printer for their format, else (none remembered, or
 * deleted since) on the organization's default for it, which the server picks. Answers the jobs made
 * and why nothing could be printed, or null; a job that failed says so itself.
 */
async function printLabels(
  orgId: string,
  shipment: Shipment,
  labels: Shipment['documents'],
  print: PrintState,
): Promise<{ jobs: PrintJob[]; refused: string | null }> {
  const jobs: PrintJob[] = [];
  for (const group of printGroups(labels)) {
    const remembered = rememberedPrinter(orgId, group.key);
    const printerId = remembered && print.printerNames.has(remembered) ? remembered : undefined;
    const documentIds = group.documents.map((document) => document.id);
    try {
      const answer = await client.call('shipments.print', {
        params: { orgId, shipmentId: shipment.id },
        body: { documentIds, ...(printerId ? { printerId } : {}) },
      });
      jobs.push(...answer.jobs);
    } catch (error) {
      const described = describeError(error);
      return { jobs, refused: described.detail || described.summary };
    }
  }
  return { jobs, refused: null };
}

export function sendProblem(error: unknown, shipment: Shipment): PackProblem {
  const link = { to: `/shipments/${encodeURIComponent(shipment.id)}`, label: `Open ${shipment.reference} to fix it` };
  if (error instanceof ApiError && error.code === 'SHIPMENT_INCOMPLETE') {
    return {
      title: `${shipment.reference} is missing information and was not sent`,
      items: (error.details ?? []).map((detail) => detail.message),
      link,
      code: error.code,
    };
  }
  if (error instanceof ApiError && error.code === 'CARRIER_ERROR') return { ...problemOf(error, `The carrier refused ${shipment.reference}`), link };
  if (error instanceof ApiError && error.code === 'CARRIER_AUTH_FAILED')
    return { ...problemOf(error, `The carrier refused the credentials; ${shipment.reference} was not sent`), link };
  if (sendFailureStep(error) === 'send-again') return { ...problemOf(error, `The carrier did not say whether it booked ${shipment.reference}`), link };
  if (sendFailureStep(error) === 'confirm-rebook') {
    return { ...problemOf(error, `${shipment.reference} may already be booked with the carrier`), link, rebook: true };
  }
  return { ...problemOf(error, `${shipment.reference} was not sent`), link };
}

/** A scanned shipment reference: the shipment, with what was printed for it so far. */
export async function showShipment(orgId: string, code: string, found: ShipmentListItem, byLabel = false): Promise<PackResult> {
  const shipment = await client.call('shipments.get', { params: { orgId, shipmentId: found.id } });
  const order = shipment.orderId ? await client.call('orders.get', { params: { orgId, orderId: shipment.orderId } }).catch(() => null) : null;
  return {
    kind: 'shipment',
    code,
    shipment,
    order: order ? { id: order.id, orderNumber: order.orderNumber } : null,
    orderLines: order?.orderLines ?? null,
    ...(byLabel ? { byLabel } : {}),
    made: false,
    sent: false,
    print: await readPrintState(orgId, shipment),
    otherOpen: 0,
    problem: null,
  };
}

/** The whole scan: what the code names, then the order's or the shipment's way. */
export async function runScan(orgId: string, code: string, options: ScanOptions): Promise<PackResult> {
  try {
    const target = scanTarget(code, await lookUp(orgId, code));
    if (target.kind === 'order') return await packOrder(orgId, code, target.order, options);
    if (target.kind === 'shipment') return await showShipment(orgId, code, target.shipment, target.byLabel);
    return target;
  } catch (error) {
    return { kind: 'problem', code, problem: problemOf(error, `The scan of ${code} could not be handled`) };
  }
}

/**
 * What the records a code names lead to: an order first (an order number wins over a shipment
 * reference), else a shipment; two of either are a choice for the packer, never guessed.
 */
export function scanTarget(
  code: string,
  found: { orders: readonly OrderSummary[]; shipments: readonly ShipmentListItem[]; labelShipments?: readonly ShipmentListItem[] },
):
  | { kind: 'order'; order: OrderSummary }
  | { kind: 'shipment'; shipment: ShipmentListItem; byLabel?: boolean }
  | Extract<PackResult, { kind: 'problem' | 'nothing' }> {
  const [order, ...moreOrders] = found.orders;
  if (order && moreOrders.length > 0) {
    return {
      kind: 'problem',
      code,
      problem: {
        title: `${found.orders.length} orders have the number ${code}`,
        detail: 'They come from different channels. Open the right one from the orders list.',
        link: { to: '/orders', label: 'Show them in Orders', search: { list: 'orders', text: code } },
      },
    };
  }
  if (order) return { kind: 'order', order };
  const [shipment, ...moreShipments] = found.shipments;
  if (shipment && moreShipments.length > 0) {
    return {
      kind: 'problem',
      code,
      problem: {
        title: `${found.shipments.length} shipments have the reference ${code}`,
        detail: 'Open the right one from the shipments list.',
        link: { to: '/shipments', label: 'Show them in Shipments', search: { list: 'shipments', text: code } },
      },
    };
  }
  if (shipment) return { kind: 'shipment', shipment };
  // A label barcode names one shipment; two (a number a carrier used again) are a choice.
  const [labelled, ...moreLabelled] = found.labelShipments ?? [];
  if (labelled && moreLabelled.length > 0) {
    return {
      kind: 'problem',
      code,
      problem: {
        title: `${(found.labelShipments ?? []).length} shipments have ${code} on their labels`,
        detail: 'Open the right one from the shipments list.',
        link: { to: '/shipments', label: 'Show them in Shipments', search: { list: 'shipments', text: code } },
      },
    };
  }
  if (labelled) return { kind: 'shipment', shipment: labelled, byLabel: true };
  return { kind: 'nothing', code };
}

/** One line for the scan log: what came of a scan. */
export function summarize(result: PackResult): { text: string; tone: 'ok' | 'bad' | 'info'; link?: PackLink } {
  if (result.kind === 'nothing') return { text: 'Nothing found', tone: 'bad' };
  if (result.kind === 'problem') return { text: result.problem.title, tone: 'bad', ...(result.problem.link ? { link: result.problem.link } : {}) };
  const { shipment } = result;
  const link = { to: `/shipments/${encodeURIComponent(shipment.id)}`, label: 'Open' };
  if (result.problem) return { text: `${shipment.reference}: ${result.problem.title}`, tone: 'bad', link };
  if (result.sent) {
    const print = printSummary(result.print);
    if (!print && result.printRefused) return { text: `Sent ${shipment.reference} · No label printed: ${result.printRefused}`, tone: 'bad', link };
    return { text: `Sent ${shipment.reference}${print ? ` · ${print.text}` : ''}`, tone: print?.tone === 'bad' ? 'bad' : 'ok', link };
  }
  if (result.made) return { text: `Made ${shipment.reference}, not sent yet`, tone: 'info', link };
  return { text: `Shown ${shipment.reference} (${shipment.status.replace(/_/g, ' ')})`, tone: 'info', link };
}

/**
 * What the label's print jobs say, newest job per label: "Label sent to Zebra desk 1", a failure with
 * its reason, or still printing. Null when nothing was printed for it.
 */
export function printSummary(print: PrintState | null): { text: string; tone: 'ok' | 'bad' | 'info' } | null {
  if (!print || print.jobs.length === 0) return null;
  const newest = new Map<string, PrintJob>();
  for (const job of print.jobs) if (!newest.has(job.documentId)) newest.set(job.documentId, job);
  const jobs = [...newest.values()];
  const name = (job: PrintJob) => (job.printerId ? (print.printerNames.get(job.printerId) ?? 'a printer') : 'no printer');
  const names = (list: PrintJob[]) => [...new Set(list.map(name))].join(', ');
  const failed = jobs.filter((job) => job.status === 'failed');
  if (failed.length) {
    return { text: `Label not printed on ${names(failed)}: ${failed[0]?.error ?? 'the print job failed'}`, tone: 'bad' };
  }
  const waiting = jobs.filter((job) => job.status === 'queued' || job.status === 'printing');
  if (waiting.length) return { text: `Label printing on ${names(waiting)}…`, tone: 'info' };
  return { text: `Label sent to ${names(jobs)}`, tone: 'ok' };
}
