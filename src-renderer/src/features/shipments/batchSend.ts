import { useCallback, useState } from 'react';
import { ApiError, errorCodes, type ErrorCode } from '../../../../src-shared/errors';
import { client } from '../../lib/api';
import { describeError } from '../../components/ErrorNotice';
import { sendBodyOf } from './printerChoice';
import { withoutIds } from '../../lib/plainIds';

/** Small chunks so the progress bar moves and one slow carrier call does not hide all the others. */
export const BATCH_CHUNK = 5;

export interface SendOutcome {
  shipmentId: string;
  reference: string;
  status: 'sent' | 'failed';
  code?: string;
  /** Plain words first, then the server's message. */
  summary?: string;
  message?: string;
}

export interface BatchSend {
  running: boolean;
  done: number;
  total: number;
  outcomes: SendOutcome[];
  /** `confirmRebook`: shipments the user checked with their carrier after an unknown outcome (decisions §13). */
  start(shipments: { id: string; reference: string }[], options?: { confirmRebook?: string[] }): Promise<void>;
  reset(): void;
}

function failure(shipmentId: string, reference: string, code: string | undefined, message: string | undefined): SendOutcome {
  const known = code && (errorCodes as string[]).includes(code) ? (code as ErrorCode) : null;
  const summary = known ? describeError(new ApiError(known, message ?? '')).summary : 'Not sent.';
  // The server names the shipment by its id; the list knows it by its reference.
  const words = withoutIds(message ?? '', { shipments: new Map([[shipmentId, reference]]) });
  return { shipmentId, reference, status: 'failed', code: code ?? 'UNKNOWN', summary, message: words };
}

/**
 * Sends shipments in chunks through shipments.batchSend. A failed chunk (the app unreachable) marks its
 * shipments failed and the rest still go: one failure never stops the others (decisions §8).
 */
export function useBatchSend(orgId: string): BatchSend {
  const [state, setState] = useState<{ running: boolean; done: number; total: number; outcomes: SendOutcome[] }>({
    running: false,
    done: 0,
    total: 0,
    outcomes: [],
  });

  const start = useCallback(
    async (shipments: { id: string; reference: string }[], options: { confirmRebook?: string[] } = {}) => {
      setState({ running: true, done: 0, total: shipments.length, outcomes: [] });
      const referenceOf = new Map(shipments.map((shipment) => [shipment.id, shipment.reference]));
      const outcomes: SendOutcome[] = [];
      for (let index = 0; index < shipments.length; index += BATCH_CHUNK) {
        const chunk = shipments.slice(index, index + BATCH_CHUNK).map((shipment) => shipment.id);
        const confirmRebook = options.confirmRebook?.filter((id) => chunk.includes(id)) ?? [];
        try {
          const answer = await client.call('shipments.batchSend', {
            params: { orgId },
            body: { shipmentIds: chunk, ...sendBodyOf(orgId), ...(confirmRebook.length ? { confirmRebook } : {}) },
          });
          for (const result of answer.results) {
            const reference = referenceOf.get(result.shipmentId) ?? result.shipmentId;
            outcomes.push(
              result.status === 'sent'
                ? { shipmentId: result.shipmentId, reference, status: 'sent' }
                : failure(result.shipmentId, reference, result.code, result.message),
            );
          }
        } catch (error) {
          const described = describeError(error);
          for (const id of chunk)
            outcomes.push({
              shipmentId: id,
              reference: referenceOf.get(id) ?? id,
              status: 'failed',
              code: described.code,
              summary: described.summary,
              message: described.detail,
            });
        }
        setState({ running: true, done: outcomes.length, total: shipments.length, outcomes: [...outcomes] });
      }
      setState({ running: false, done: outcomes.length, total: shipments.length, outcomes });
    },
    [orgId],
  );
  const reset = useCallback(() => setState({ running: false, done: 0, total: 0, outcomes: [] }), []);
  return { ...state, start, reset };
}
