/**
 * `Idempotency-Key` on POST (decisions §12): a script that retries after a timeout gets the first
 * answer again instead of a second shipment. The first response is kept 24 h per credential and
 * key; the same key with another request is 409 IDEMPOTENCY_CONFLICT. Server faults (5xx) are not
 * kept, so a retry can succeed once the fault is gone.
 */
import { createHash } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import { ApiError } from '../../src-shared/errors';
import { idempotencyKeys } from '../db/schema';
import { inWriteTransaction } from '../db/tx';
import type { AppContext } from '../app/context';

const KEEP_MS = 24 * 60 * 60 * 1000;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export interface StoredAnswer {
  status: number;
  body: unknown;
}

export interface IdempotentRequest {
  key: string;
  credentialId: string;
  requestHash: string;
}

/** Keys of requests still being answered, so a concurrent repeat cannot run twice. */
const inFlight = new Set<string>();

export function idempotentRequest(
  keyHeader: string | string[] | undefined,
  authorization: string | undefined,
  client: string,
  method: string,
  url: string,
  body: unknown,
): IdempotentRequest | null {
  if (keyHeader === undefined) return null;
  const key = Array.isArray(keyHeader) ? keyHeader[0] ?? '' : keyHeader;
  if (key.length < 1 || key.length > 255) {
    throw new ApiError('VALIDATION_FAILED', 'Idempotency-Key must be 1 to 255 characters', {
      details: [{ path: 'headers.idempotency-key', message: 'Must be 1 to 255 characters' }],
    });
  }
  return {
    key,
    // Per credential: the hash of the credential itself (never stored), or the client without one.
    credentialId: sha256(authorization ?? `anonymous:${client}`),
    requestHash: sha256(`${method} ${url}\n${JSON.stringify(body ?? null)}`),
  };
}

/** The kept answer for a repeat, null for a first request (which is then marked in flight). */
export function replayOrReserve(app: AppContext, request: IdempotentRequest): StoredAnswer | null {
  const since = new Date(app.now().getTime() - KEEP_MS).toISOString();
  const row = app.db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.credentialId, request.credentialId), eq(idempotencyKeys.key, request.key), gt(idempotencyKeys.createdAt, since)))
    .get();
  if (row) {
    if (row.requestHash !== request.requestHash) {
      throw new ApiError('IDEMPOTENCY_CONFLICT', `Idempotency-Key "${request.key}" was used for a different request; use a new key`);
    }
    return { status: row.statusCode, body: JSON.parse(row.responseBody) as unknown };
  }
  const flightKey = `${request.credentialId}:${request.key}`;
  if (inFlight.has(flightKey)) {
    throw new ApiError('IDEMPOTENCY_CONFLICT', `A request with Idempotency-Key "${request.key}" is still being answered; retry in a moment`);
  }
  inFlight.add(flightKey);
  return null;
}

/** Keeps the first answer (not a server fault) and forgets expired ones. */
export function settle(app: AppContext, request: IdempotentRequest, answer: StoredAnswer | null): void {
  inFlight.delete(`${request.credentialId}:${request.key}`);
  if (!answer || answer.status >= 500) return;
  const now = app.now();
  inWriteTransaction(app.db, (tx) => {
    tx.delete(idempotencyKeys)
      .where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - KEEP_MS).toISOString()))
      .run();
    tx.insert(idempotencyKeys)
      .values({
        credentialId: request.credentialId,
        key: request.key,
        requestHash: request.requestHash,
        statusCode: answer.status,
        responseBody: JSON.stringify(answer.body ?? null),
        createdAt: now.toISOString(),
      })
      .onConflictDoUpdate({
        target: [idempotencyKeys.credentialId, idempotencyKeys.key],
        set: { requestHash: request.requestHash, statusCode: answer.status, responseBody: JSON.stringify(answer.body ?? null), createdAt: now.toISOString() },
      })
      .run();
  });
}
