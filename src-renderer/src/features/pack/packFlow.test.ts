import { describe, expect, it, vi } from 'vitest';

// packFlow reaches the client (lib/api.ts), which looks for Electron's bridge on `window` as it loads;
// without one it is the HTTP client, which these tests never call.
vi.hoisted(() => vi.stubGlobal('window', {}));

import { ApiError } from '../../../../src-shared/errors';
import type { OrderDetail, OrderSummary } from '../../../../src-shared/schemas/order';
import type { PrintJob } from '../../../../src-shared/schemas/printing';
import type { ShipmentListItem, ShipmentStatus } from '../../../../src-shared/schemas/shipment';
import { document, shipment } from '../../testing/shipmentFixtures';
import {
  canReprint,
  canSendNow,
  createProblem,
  orderStep,
  printSummary,
  scanTarget,
  sendProblem,
  summarize,
  unprintedLabels,
  type PackResult,
  type PrintState,
} from './packFlow';

const orderSummary = (id: string, orderNumber = '1001') => ({ id, orderNumber }) as OrderSummary;
const listItem = (id: string, reference = 'SHP-000001') => ({ id, reference }) as ShipmentListItem;
const order = { id: 'ord_1', orderNumber: '1001' };

function job(documentId: string, status: PrintJob['status'], printerId: string | null = 'prn_zebra', error: string | null = null): PrintJob {
  const at = '2025-03-01T10:00:00.000Z';
  return { id: `pjb_${documentId}_${status}`, printerId, documentId, shipmentId: 'shp_1', status, error, attempts: 1, copies: 1, createdAt: at, updatedAt: at };
}
const printers = new Map([
  ['prn_zebra', 'Zebra desk 1'],
  ['prn_a4', 'Office A4'],
]);
const printState = (...jobs: PrintJob[]): PrintState => ({ jobs, printerNames: printers });

function shown(more: Partial<Extract<PackResult, { kind: 'shipment' }>> = {}): PackResult {
  return { kind: 'shipment', code: '1001', shipment: shipment(), order, made: false, sent: false, print: null, otherOpen: 0, problem: null, ...more };
}

describe('what a shipment on the pack screen allows', () => {
  it('sends only a shipment that is pending or in error', () => {
    const sendable = (['draft', 'pending', 'processing', 'dispatched', 'partly_dispatched', 'error', 'cancelled', 'on_hold'] as ShipmentStatus[]).filter(
      canSendNow,
    );
    expect(sendable).toEqual(['pending', 'error']);
  });

  it('reprints a dispatched shipment that has a label, never one still to be booked', () => {
    const label = document('doc_label');
    const packingList = document('doc_list', { documentType: 'packing_list', size: 'A4' });
    expect(canReprint({ status: 'dispatched', documents: [packingList, label] })).toBe(true);
    expect(canReprint({ status: 'partly_dispatched', documents: [label] })).toBe(true);
    expect(canReprint({ status: 'dispatched', documents: [packingList] })).toBe(false);
    expect(canReprint({ status: 'pending', documents: [label] })).toBe(false);
    expect(canReprint({ status: 'error', documents: [label] })).toBe(false);
  });
});

describe('what a scanned code names', () => {
  it('is the order when one order has the number, even if a shipment has it as its reference', () => {
    const target = scanTarget('1001', { orders: [orderSummary('ord_1')], shipments: [listItem('shp_1', '1001')] });
    expect(target).toEqual({ kind: 'order', order: orderSummary('ord_1') });
  });

  it('is the shipment when no order has the number', () => {
    expect(scanTarget('SHP-000001', { orders: [], shipments: [listItem('shp_1')] })).toEqual({ kind: 'shipment', shipment: listItem('shp_1') });
  });

  it('is nothing when neither has it', () => {
    expect(scanTarget('XYZ', { orders: [], shipments: [] })).toEqual({ kind: 'nothing', code: 'XYZ' });
  });

  it('is the shipment whose label carries it (a tracking or parcel number), when no order or reference is it', () => {
    expect(scanTarget('LOC000123', { orders: [], shipments: [], labelShipments: [listItem('shp_7')] })).toEqual({
      kind: 'shipment',
      shipment: listItem('shp_7'),
      byLabel: true,
    });
    const two = scanTarget('LOC000123', { orders: [], shipments: [], labelShipments: [listItem('shp_7'), listItem('shp_8')] });
    expect(two).toMatchObject({ kind: 'problem', problem: { title: '2 shipments have LOC000123 on their labels' } });
  });

  it('is a choice, never a guess, when two orders share the number (two channels)', () => {
    const target = scanTarget('1001', { orders: [orderSummary('ord_1'), orderSummary('ord_2')], shipments: [listItem('shp_1', '1001')] });
    expect(target.kind).toBe('problem');
    if (target.kind !== 'problem') return;
    expect(target.problem.title).toBe('2 orders have the number 1001');
    expect(target.problem.link).toEqual({ to: '/orders', label: 'Show them in Orders', search: { list: 'orders', text: '1001' } });
  });

  it('is a choice when two shipments share the reference', () => {
    const target = scanTarget('SHP-1', { orders: [], shipments: [listItem('shp_1', 'SHP-1'), listItem('shp_2', 'SHP-1'), listItem('shp_3', 'SHP-1')] });
    expect(target.kind).toBe('problem');
    if (target.kind !== 'problem') return;
    expect(target.problem.title).toBe('3 shipments have the reference SHP-1');
    expect(target.problem.link?.search).toEqual({ list: 'shipments', text: 'SHP-1' });
  });
});

describe('what a scanned order leads to', () => {
  type OrderShipment = OrderDetail['shipments'][number];
  const ofOrder = (id: string, status: ShipmentStatus, type: 'outbound' | 'inbound' = 'outbound') => ({ id, status, type }) as OrderShipment;
  const detail = (status: OrderDetail['status'], shipments: OrderShipment[] = [], id = 'ord_1') => ({ id, orderNumber: '1001', status, shipments });

  it('shows its first open outbound shipment instead of making a second, counting the other open ones', () => {
    const step = orderStep(
      detail('processing', [ofOrder('shp_sent', 'dispatched'), ofOrder('shp_a', 'on_hold'), ofOrder('shp_b', 'error'), ofOrder('shp_c', 'draft')]),
    );
    expect(step).toEqual({ kind: 'open', shipmentId: 'shp_a', otherOpen: 2 });
  });

  it('makes a new shipment when every shipment of the order is sent, cancelled or a return', () => {
    const step = orderStep(
      detail('partially_fulfilled', [ofOrder('shp_sent', 'dispatched'), ofOrder('shp_gone', 'cancelled'), ofOrder('shp_ret', 'pending', 'inbound')]),
    );
    expect(step).toEqual({ kind: 'create' });
    expect(orderStep(detail('pending'))).toEqual({ kind: 'create' });
  });

  it('says a cancelled order is cancelled, with a link to it', () => {
    const step = orderStep(detail('cancelled', [ofOrder('shp_gone', 'cancelled')], 'ord/1'));
    expect(step).toEqual({
      kind: 'problem',
      problem: { title: 'Order 1001 is cancelled', detail: 'Nothing more is shipped for it.', link: { to: '/orders/ord%2F1', label: 'Open order 1001' } },
    });
  });

  it('says a fulfilled order is already packed and points to its shipments', () => {
    const step = orderStep(detail('fulfilled', [ofOrder('shp_sent', 'dispatched')]));
    expect(step.kind).toBe('problem');
    if (step.kind !== 'problem') return;
    expect(step.problem.title).toBe('Everything in order 1001 is already packed');
    expect(step.problem.link).toEqual({ to: '/orders/ord_1', label: 'See the shipments of order 1001' });
  });
});

describe('a refused shipment for an order, in a packer’s words', () => {
  it('no matching rule links to the order to choose a carrier', () => {
    const problem = createProblem(new ApiError('NO_MATCHING_SHIPPING_RULE', 'No rule matches DK → US'), order);
    expect(problem).toEqual({
      title: 'No shipping rule fits this order: choose a carrier on the order page',
      detail: 'No rule matches DK → US',
      link: { to: '/orders/ord_1', label: 'Choose a carrier for order 1001' },
      code: 'NO_MATCHING_SHIPPING_RULE',
    });
  });

  it('"already placed" is an order that is packed; another invalid state cannot be shipped yet', () => {
    expect(createProblem(new ApiError('ORDER_INVALID_STATE', 'Every line is already placed in a shipment'), order)).toMatchObject({
      title: 'Everything in order 1001 is already packed',
      code: 'ORDER_INVALID_STATE',
    });
    expect(createProblem(new ApiError('ORDER_INVALID_STATE', 'The order has no shipping address'), order)).toEqual({
      title: 'Order 1001 cannot be shipped yet',
      detail: 'The order has no shipping address',
      link: { to: '/orders/ord_1', label: 'Open order 1001' },
      code: 'ORDER_INVALID_STATE',
    });
  });

  it('anything else is said as the rest of the app says it, still with the way to the order', () => {
    const problem = createProblem(new TypeError('Failed to fetch'), order);
    expect(problem).toEqual({
      title: 'Shipdesk cannot be reached.',
      detail: 'Failed to fetch',
      code: 'NETWORK',
      link: { to: '/orders/ord_1', label: 'Open order 1001' },
    });
  });
});

describe('a refused send, in a packer’s words', () => {
  const refused = shipment({ id: 'shp_1', reference: 'SHP-000001' });
  const fixIt = { to: '/shipments/shp_1', label: 'Open SHP-000001 to fix it' };

  it('lists what an incomplete shipment is missing, one item a line', () => {
    const error = new ApiError('SHIPMENT_INCOMPLETE', 'Missing fields', {
      details: [
        { path: 'parties.0.postalCode', message: 'The receiver has no postal code' },
        { path: 'parcels.0.weight', message: 'Parcel 1 has no weight' },
      ],
    });
    expect(sendProblem(error, refused)).toEqual({
      title: 'SHP-000001 is missing information and was not sent',
      items: ['The receiver has no postal code', 'Parcel 1 has no weight'],
      link: fixIt,
      code: 'SHIPMENT_INCOMPLETE',
    });
  });

  it('names the carrier’s own errors with their codes', () => {
    const error = new ApiError('CARRIER_ERROR', 'Booking refused', { errors: [{ code: 'E102', message: 'Postal code does not exist' }] });
    const problem = sendProblem(error, refused);
    expect(problem.title).toBe('The carrier refused SHP-000001');
    expect(problem.items).toEqual(['Postal code does not exist (E102)']);
    expect(problem.link).toEqual(fixIt);
  });

  it('an unknown outcome says to send again; a 409 asks for a confirmed rebook', () => {
    const unknown = sendProblem(
      new ApiError('CARRIER_OUTCOME_UNKNOWN', 'PostNord did not answer', { errors: [{ code: 'CARRIER_OUTCOME_UNKNOWN', message: 'timeout' }] }),
      refused,
    );
    expect(unknown).toMatchObject({
      title: 'The carrier did not say whether it booked SHP-000001',
      advice: expect.stringContaining('Send again: Shipdesk asks the carrier first'),
    });
    expect(unknown.rebook).toBeUndefined();
    const cannotAsk = sendProblem(new ApiError('CARRIER_OUTCOME_UNKNOWN', 'GLS may already have booked it', { status: 409 }), refused);
    expect(cannotAsk).toMatchObject({
      title: 'SHP-000001 may already be booked with the carrier',
      rebook: true,
      advice: expect.stringContaining('Check with the carrier'),
    });
  });

  it('refused credentials say so, with the carrier’s words', () => {
    const problem = sendProblem(
      new ApiError('CARRIER_AUTH_FAILED', 'GLS refused the credentials. Check the API key', { errors: [{ code: '401', message: 'Unauthorized' }] }),
      refused,
    );
    expect(problem).toMatchObject({
      title: 'The carrier refused the credentials; SHP-000001 was not sent',
      detail: expect.stringContaining('Check the API key'),
      items: ['Unauthorized (401)'],
    });
  });

  it('says any other refusal was not sent, with its reason', () => {
    const problem = sendProblem(new ApiError('SHIPMENT_INVALID_STATE', 'Shipment is already dispatched'), refused);
    expect(problem).toEqual({ title: 'SHP-000001 was not sent', detail: 'Shipment is already dispatched', code: 'SHIPMENT_INVALID_STATE', link: fixIt });
  });
});

describe('labels the send gave to no printer', () => {
  const label = document('doc_1');
  const secondLabel = document('doc_2', { format: 'zpl', size: '100X150' });
  const packingList = document('doc_list', { documentType: 'packing_list', size: 'A4' });
  const sent = shipment({ status: 'dispatched', documents: [label, secondLabel, packingList] });

  it('are every label without a job, never a packing list', () => {
    expect(unprintedLabels(sent, []).map((doc) => doc.id)).toEqual(['doc_1', 'doc_2']);
  });

  it('leave out a label the rule printed, even when its job failed (no second print)', () => {
    expect(unprintedLabels(sent, [job('doc_1', 'failed', 'prn_zebra', 'Out of paper')]).map((doc) => doc.id)).toEqual(['doc_2']);
  });

  it('keep a label whose job found no printer at all: nothing came out', () => {
    expect(unprintedLabels(sent, [job('doc_1', 'failed', null), job('doc_2', 'done')]).map((doc) => doc.id)).toEqual(['doc_1']);
  });
});

describe('what the print line says', () => {
  it('says nothing when nothing was printed', () => {
    expect(printSummary(null)).toBeNull();
    expect(printSummary(printState())).toBeNull();
  });

  it('names the printer a label went to', () => {
    expect(printSummary(printState(job('doc_1', 'done')))).toEqual({ text: 'Label sent to Zebra desk 1', tone: 'ok' });
  });

  it('reads only the newest job of each label: a retry that printed is printed', () => {
    const retried = printState(job('doc_1', 'done'), job('doc_1', 'failed', 'prn_zebra', 'Out of paper'));
    expect(printSummary(retried)).toEqual({ text: 'Label sent to Zebra desk 1', tone: 'ok' });
  });

  it('says a failure with the printer and the reason, before anything still printing', () => {
    const state = printState(job('doc_1', 'failed', 'prn_zebra', 'Out of paper'), job('doc_2', 'printing', 'prn_a4'));
    expect(printSummary(state)).toEqual({ text: 'Label not printed on Zebra desk 1: Out of paper', tone: 'bad' });
    expect(printSummary(printState(job('doc_1', 'failed', null)))).toEqual({ text: 'Label not printed on no printer: the print job failed', tone: 'bad' });
  });

  it('says labels still on their way, each printer once', () => {
    const state = printState(job('doc_1', 'queued'), job('doc_2', 'printing'), job('doc_3', 'done', 'prn_a4'));
    expect(printSummary(state)).toEqual({ text: 'Label printing on Zebra desk 1…', tone: 'info' });
    expect(printSummary(printState(job('doc_1', 'done'), job('doc_2', 'done', 'prn_a4'), job('doc_3', 'done')))?.text).toBe(
      'Label sent to Zebra desk 1, Office A4',
    );
  });

  it('says "a printer" for one deleted since', () => {
    expect(printSummary(printState(job('doc_1', 'done', 'prn_gone')))?.text).toBe('Label sent to a printer');
  });
});

describe('the scan log line', () => {
  it('says nothing was found, or the problem with its way forward', () => {
    expect(summarize({ kind: 'nothing', code: 'XYZ' })).toEqual({ text: 'Nothing found', tone: 'bad' });
    const link = { to: '/orders/ord_1', label: 'Open order 1001' };
    expect(summarize({ kind: 'problem', code: '1001', problem: { title: 'Order 1001 is cancelled', link } })).toEqual({
      text: 'Order 1001 is cancelled',
      tone: 'bad',
      link,
    });
    expect(summarize({ kind: 'problem', code: '1001', problem: { title: 'Shipdesk cannot be reached.' } })).toEqual({
      text: 'Shipdesk cannot be reached.',
      tone: 'bad',
    });
  });

  it('puts a shipment’s problem after its reference, linked to the shipment', () => {
    const line = summarize(shown({ problem: { title: 'The carrier refused SHP-000001' } }));
    expect(line).toEqual({ text: 'SHP-000001: The carrier refused SHP-000001', tone: 'bad', link: { to: '/shipments/shp_1', label: 'Open' } });
  });

  it('says a send with where the label went, and is bad when the label failed', () => {
    expect(summarize(shown({ sent: true, print: printState(job('doc_1', 'done')) }))).toMatchObject({
      text: 'Sent SHP-000001 · Label sent to Zebra desk 1',
      tone: 'ok',
    });
    expect(summarize(shown({ sent: true, print: printState(job('doc_1', 'failed', 'prn_zebra', 'Out of paper')) }))).toMatchObject({
      text: 'Sent SHP-000001 · Label not printed on Zebra desk 1: Out of paper',
      tone: 'bad',
    });
    expect(summarize(shown({ sent: true, print: null }))).toMatchObject({ text: 'Sent SHP-000001', tone: 'ok' });
  });

  it('says no label was printed, and why, when the pack screen’s own print was refused', () => {
    const line = summarize(shown({ sent: true, print: printState(), printRefused: 'No default printer for PDF labels' }));
    expect(line).toMatchObject({ text: 'Sent SHP-000001 · No label printed: No default printer for PDF labels', tone: 'bad' });
  });

  it('tells a shipment made but not sent from one only shown, with its status in words', () => {
    expect(summarize(shown({ made: true }))).toMatchObject({ text: 'Made SHP-000001, not sent yet', tone: 'info' });
    expect(summarize(shown({ shipment: shipment({ status: 'on_hold' }) }))).toMatchObject({ text: 'Shown SHP-000001 (on hold)', tone: 'info' });
  });
});
