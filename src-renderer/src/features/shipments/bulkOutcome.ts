import { ApiError, errorCodes, type ErrorCode } from '../../../../src-shared/errors';
import { withoutIds } from '../../lib/plainIds';
import { describeError } from '../../components/ErrorNotice';

/** One shipment's result of a bulk action, as the server answers it. */
export type ServerResult = { shipmentId: string; status: 'done' | 'failed'; code?: string | undefined; message?: string | undefined };

export interface BulkOutcome {
  shipmentId: string;
  reference: string;
  status: 'done' | 'failed';
  code?: string;
  /** Failed: what went wrong in plain words. Done: a note ("Already on hold; nothing changed"). */
  summary?: string;
  /** The server's reason, with the shipment named by its reference and no ids. */
  message?: string;
}

/** A server result as the user reads it: plain words first, then the reason with the shipment's reference for its id. */
export function outcomeOf(result: ServerResult, references: ReadonlyMap<string, string>): BulkOutcome {
  const reference = references.get(result.shipmentId) ?? result.shipmentId;
  const message = result.message === undefined ? undefined : withoutIds(result.message, { shipments: references });
  if (result.status === 'done') return { shipmentId: result.shipmentId, reference, status: 'done', ...(message ? { summary: message } : {}) };
  const code = result.code ?? 'UNKNOWN';
  const known = (errorCodes as string[]).includes(code) ? (code as ErrorCode) : null;
  const summary = known ? describeError(new ApiError(known, '')).summary : 'That did not work.';
  return { shipmentId: result.shipmentId, reference, status: 'failed', code, summary, message: message ?? '' };
}
