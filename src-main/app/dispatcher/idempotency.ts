/**
 * `Idempotency-Key` on POST (decisions §12): a script that retries after a timeout gets the first
 * answer again instead of a second shipment. The first response is kept 24 h per credential and
 * key; the same key with another request is 409 IDEMPOTENCY_CONFLICT. Server faults (5xx) are not
 * kept, so a retry can succeed once the fault is gone.
 *
 * The dispatcher runs this only after the credential is authenticated and allowed the operation,
 * so a revoked token or a narrowed scope never gets a kept answer back. Kept answers are encrypted
 * with a key derived from the credential itself, which is never stored: an answer that carries a
 * secret (a new API token, a webhook secret) is not readable from the database file or a backup.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import { idempotencyKeys } from '../../db/schema';
import { inWriteTransaction } from '../../db/tx';
import type { AppContext } from '../kernel/context';
import { canonicalJson } from '../kernel/canonicalJson';

const KEEP_MS = 24 * 60 * 60 * 1000;
/** The longest key taken (the OpenAPI document states it too). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export interface StoredAnswer {
  status: number;
  body: unknown;
}

export interface IdempotentRequest {
  key: string;
  /** SHA-256 of the credential: finds the kept answer, cannot decrypt it. */
  credentialId: string;
  requestHash: string;
  /** AES-256-GCM key for this credential and key; only ever in memory. */
  sealKey: Buffer;
}

/** Keys of requests still being answered, so a concurrent repeat cannot run twice. */
const inFlight = new Set<string>();

/** The request's idempotency identity, or null when it sends no key. */
export function idempotentRequest(keyHeader: string | string[] | undefined, credential: string, operationId: string, input: unknown): IdempotentRequest | null {
  if (keyHeader === undefined) return null;
  const key = Array.isArray(keyHeader) ? (keyHeader[0] ?? '') : keyHeader;
  if (key.length < 1 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw new ApiError('VALIDATION_FAILED', `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`, {
      details: [{ path: 'headers.idempotency-key', message: `Must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters` }],
    });
  }
  let fingerprint: string;
  try {
    // Keys sorted: a retry by a client that builds its JSON anew may order the fields differently,
    // and is still "the same body" (decisions §12).
    fingerprint = canonicalJson(input);
  } catch {
    // Nested past what JSON.stringify can walk: no schema takes such a body anyway.
    throw new ApiError('VALIDATION_FAILED', 'The body is nested too deeply', { details: [{ path: 'body', message: 'Nested too deeply' }] });
  }
  return {
    key,
    credentialId: sha256(credential),
    // Keyed by the credential too: a body may hold a password, and a plain hash of it could be guessed.
    requestHash: createHmac('sha256', credential).update(`shipdesk request\n${operationId}\n${fingerprint}`).digest('hex'),
    sealKey: createHmac('sha256', credential).update(`shipdesk idempotency\n${key}`).digest(),
  };
}

/**
 * Runs `perform` once per credential and key: a repeat within 24 h gets the kept answer (errors
 * included, `replayed` set) instead of running again.
 */
export async function underIdempotencyKey<T extends StoredAnswer>(
  app: AppContext,
  request: IdempotentRequest,
  perform: () => Promise<T>,
  toAnswer: (error: unknown) => StoredAnswer,
  /** False for answers that are not JSON (a PDF): those run again on a repeat. */
  keepResult: boolean,
): Promise<T | (StoredAnswer & { replayed: true })> {
  const kept = replayOrReserve(app, request);
  if (kept) return { ...kept, replayed: true };
  let result: T;
  try {
    result = await perform();
  } catch (error) {
    settle(app, request, toAnswer(error));
    throw error;
  }
  settle(app, request, keepResult ? result : null);
  return result;
}

/** The kept answer for a repeat, null for a first request (which is then marked in flight). */
function replayOrReserve(app: AppContext, request: IdempotentRequest): StoredAnswer | null {
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
    return { status: row.statusCode, body: JSON.parse(unseal(request.sealKey, row.responseBody)) as unknown };
  }
  const flightKey = `${request.credentialId}:${request.key}`;
  if (inFlight.has(flightKey)) {
    throw new ApiError('IDEMPOTENCY_CONFLICT', `A request with Idempotency-Key "${request.key}" is still being answered; retry in a moment`);
  }
  inFlight.add(flightKey);
  return null;
}

/** Keeps the first answer (not a server fault) and forgets expired ones. */
function settle(app: AppContext, request: IdempotentRequest, answer: StoredAnswer | null): void {
  inFlight.delete(`${request.credentialId}:${request.key}`);
  if (!answer || answer.status >= 500) return;
  const now = app.now();
  const kept = {
    requestHash: request.requestHash,
    statusCode: answer.status,
    responseBody: seal(request.sealKey, JSON.stringify(answer.body ?? null)),
    createdAt: now.toISOString(),
  };
  inWriteTransaction(app.db, (tx) => {
    tx.delete(idempotencyKeys)
      .where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - KEEP_MS).toISOString()))
      .run();
    tx.insert(idempotencyKeys)
      .values({ credentialId: request.credentialId, key: request.key, ...kept })
      .onConflictDoUpdate({ target: [idempotencyKeys.credentialId, idempotencyKeys.key], set: kept })
      .run();
  });
}

const SEALED = 'aes256gcm:';

function seal(key: Buffer, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return SEALED + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

function unseal(key: Buffer, stored: string): string {
  // Answers kept before they were encrypted (at most 24 h old) are plain JSON.
  if (!stored.startsWith(SEALED)) return stored;
  const bytes = Buffer.from(stored.slice(SEALED.length), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}
