import { useCallback, useState } from 'react';
import { MAX_BULK, MAX_EXPORT } from '../../../../src-shared/schemas/bulk';
import type { BinaryResponse } from '../../../../src-shared/client';
import type { Resource } from '../../../../src-shared/scopes';
import { client } from '../../lib/api';
import { withoutIds } from '../../lib/plainIds';
import { describeError } from '../../components/ErrorNotice';
import { saveFile } from './documents';
import { outcomeOf, type BulkOutcome, type ServerResult } from './bulkOutcome';

export type { BulkOutcome } from './bulkOutcome';

/**
 * The bulk actions on the shipments list's selection (issue 20). Each goes to the server in batches of
 * at most 100 (the operations' limit, like batch send); where each shipment takes a while (a label
 * printing, a carrier voiding a booking) the batches are smaller, so the progress bar moves.
 */
export type BulkActionId = 'print' | 'hold' | 'release' | 'cancel' | 'applyRule' | 'export';

export interface BulkAction {
  id: BulkActionId;
  /** The toolbar button; "…" when a dialog asks something first. */
  button: string;
  /** The dialog's title. */
  title: string;
  /** While it runs: "Printing: 3 of 40". */
  running: string;
  /** A shipment it was done to: "Printed". */
  doneWord: string;
  /** Shipments per call. */
  chunk: number;
  /** Whose write scope it needs (the server checks it too); null for a read. */
  resource: Resource | null;
  /** What the confirmation says will happen, for `count` shipments. */
  explain(count: number): string;
  danger?: boolean;
}

const shipments = (count: number) => `${count} shipment${count === 1 ? '' : 's'}`;

export const bulkActions: readonly BulkAction[] = [
  {
    id: 'print',
    button: 'Print labels…',
    title: 'Print labels',
    running: 'Printing',
    doneWord: 'Printed',
    chunk: 10,
    resource: 'printers',
    explain: (count) =>
      `Print the labels of ${shipments(count)}, one print job per label, in the order of the list. Printing never books a shipment again; shipments without labels are listed afterwards with the reason.`,
  },
  {
    id: 'hold',
    button: 'Put on hold',
    title: 'Put on hold',
    running: 'Putting on hold',
    doneWord: 'On hold',
    chunk: MAX_BULK,
    resource: 'shipments',
    explain: (count) => `Put ${shipments(count)} on hold, so nobody sends them until they are released. Sent or cancelled shipments are left as they are.`,
  },
  {
    id: 'release',
    button: 'Release',
    title: 'Release',
    running: 'Releasing',
    doneWord: 'Released',
    chunk: MAX_BULK,
    resource: 'shipments',
    explain: (count) => `Release ${shipments(count)} from hold: they become pending, ready to send. Only shipments on hold are released.`,
  },
  {
    id: 'cancel',
    button: 'Cancel shipments…',
    title: 'Cancel shipments',
    running: 'Cancelling',
    doneWord: 'Cancelled',
    chunk: 20,
    resource: 'shipments',
    danger: true,
    explain: (count) =>
      `Cancel ${shipments(count)}. A sent shipment's booking is voided with its carrier, and its labels can no longer be used. This cannot be undone.`,
  },
  {
    id: 'applyRule',
    button: 'Change shipping rule…',
    title: 'Change shipping rule',
    running: 'Applying the rule',
    doneWord: 'Rule applied',
    chunk: MAX_BULK,
    resource: 'shipments',
    explain: (count) => `Give ${shipments(count)} the carrier, product, services and sender address of the rule chosen. Shipments already sent keep theirs.`,
  },
  {
    id: 'export',
    button: 'Export CSV',
    title: 'Export CSV',
    running: 'Exporting',
    doneWord: 'Exported',
    chunk: MAX_EXPORT,
    resource: null,
    explain: (count) =>
      `Save ${shipments(count)} as a CSV file (one row each: reference, status, carrier, receiver, weight, tracking), to open in a spreadsheet.`,
  },
];

export const bulkActionById = (id: BulkActionId) => bulkActions.find((action) => action.id === id) as BulkAction;

export interface BulkOptions {
  printerId?: string;
  shippingRuleId?: string;
}

export interface BulkRun {
  action: BulkAction | null;
  running: boolean;
  done: number;
  total: number;
  outcomes: BulkOutcome[];
  start(action: BulkActionId, shipments: { id: string; reference: string }[], options?: BulkOptions): Promise<void>;
  reset(): void;
}

type Selected = { id: string; reference: string };

/** One batch through its operation; answers one result per shipment. */
async function runChunk(orgId: string, action: BulkActionId, chunk: Selected[], options: BulkOptions): Promise<ServerResult[]> {
  const params = { orgId };
  const shipmentIds = chunk.map((shipment) => shipment.id);
  switch (action) {
    case 'print':
      return (await client.call('shipments.batchPrint', { params, body: { shipmentIds, ...(options.printerId ? { printerId: options.printerId } : {}) } }))
        .results;
    case 'hold':
      return (await client.call('shipments.batchHold', { params, body: { shipmentIds } })).results;
    case 'release':
      return (await client.call('shipments.batchRelease', { params, body: { shipmentIds } })).results;
    case 'cancel':
      return (await client.call('shipments.batchCancel', { params, body: { shipmentIds } })).results;
    case 'applyRule':
      return (await client.call('shipments.batchApplyRule', { params, body: { shipmentIds, shippingRuleId: options.shippingRuleId ?? '' } })).results;
    case 'export':
      return exportChunk(orgId, chunk);
  }
}

/**
 * The export is one file; a row per shipment found. One chosen but not in the file was deleted since
 * it was selected: said per shipment like any other result. The id is the file's last column.
 */
async function exportChunk(orgId: string, chunk: Selected[]): Promise<ServerResult[]> {
  // The operation table types this response as a string; both transports hand back the bytes (client.ts BinaryResponse).
  const answer: unknown = await client.call('shipments.export', { params: { orgId }, body: { shipmentIds: chunk.map((shipment) => shipment.id) } });
  const file = answer as BinaryResponse;
  saveFile(file, 'shipments.csv');
  const exported = new Set(
    new TextDecoder()
      .decode(file.data)
      .split('\r\n')
      .slice(1)
      .map((line) => line.slice(line.lastIndexOf(',') + 1)),
  );
  return chunk.map((shipment) =>
    exported.has(shipment.id)
      ? { shipmentId: shipment.id, status: 'done' }
      : { shipmentId: shipment.id, status: 'failed', code: 'SHIPMENT_NOT_FOUND', message: 'It was not found: deleted since it was selected?' },
  );
}

/**
 * Runs a bulk action over the selection in batches, one after the other (so labels print in the list's
 * order). A batch that fails as a whole (Shipdesk unreachable) marks its shipments failed and the
 * rest still go: one failure never stops the others (decisions §8).
 */
export function useBulkAction(orgId: string): BulkRun {
  const [state, setState] = useState<Omit<BulkRun, 'start' | 'reset'>>({ action: null, running: false, done: 0, total: 0, outcomes: [] });

  const start = useCallback(
    async (actionId: BulkActionId, selection: Selected[], options: BulkOptions = {}) => {
      const action = bulkActionById(actionId);
      setState({ action, running: true, done: 0, total: selection.length, outcomes: [] });
      const references = new Map(selection.map((shipment) => [shipment.id, shipment.reference]));
      const outcomes: BulkOutcome[] = [];
      for (let index = 0; index < selection.length; index += action.chunk) {
        const chunk = selection.slice(index, index + action.chunk);
        try {
          for (const result of await runChunk(orgId, actionId, chunk, options)) outcomes.push(outcomeOf(result, references));
        } catch (error) {
          const described = describeError(error);
          for (const shipment of chunk) {
            outcomes.push({
              shipmentId: shipment.id,
              reference: shipment.reference,
              status: 'failed',
              code: described.code,
              summary: described.summary,
              message: withoutIds([described.detail, ...described.fieldProblems].filter(Boolean).join(' '), { shipments: references }),
            });
          }
        }
        setState({ action, running: true, done: outcomes.length, total: selection.length, outcomes: [...outcomes] });
      }
      setState({ action, running: false, done: outcomes.length, total: selection.length, outcomes });
    },
    [orgId],
  );
  const reset = useCallback(() => setState({ action: null, running: false, done: 0, total: 0, outcomes: [] }), []);
  return { ...state, start, reset };
}
