import { setImmediate } from 'node:timers/promises';
import { ApiError, MAX_DETAILS, validationError } from '../../../src-shared/errors';
import { operationsById } from '../../../src-shared/operations';
import { orgParamOf, scopeOf, takesIdempotencyKey, type AnyOperation } from '../../../src-shared/operation';
import { grants } from '../../../src-shared/scopes';
import type { AppContext } from '../kernel/context';
import type { CallContext } from '../kernel/call';
import { authenticate, bearerCredential } from '../../domain/auth/authenticate';
import { machineOperator, scopesIn, type Principal } from '../../domain/auth/principal';
import { handlers } from '../../domain/handlers';
import { durable } from '../../db/tx';
import { inOperation } from '../../db/slowQueries';
import { JsonText } from '../kernel/jsonText';
import { idempotentRequest, underIdempotencyKey } from './idempotency';
import { boundedSafeParse } from '../../../src-shared/boundedParse';
import { notWellFormedText } from './wellFormedText';

/** Work on one input longer than this makes way for other requests before it goes on. */
const LONG_TURN_MS = 10;

/** What a door hands over: the raw, unparsed parts of a call. */
export interface RawInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

export interface Door {
  /** The Authorization header value as received, if any. */
  authorization: string | undefined;
  client: string;
  /** The `Idempotency-Key` header of an HTTP POST (decisions §12); other doors send none. */
  idempotencyKey?: string | string[];
  /**
   * The command line: run by whoever holds the machine and its data folder, with no credential to
   * present. Only code sets it; no request can.
   */
  operator?: true;
}

/** The door of the command line (cli/run.ts): the machine's operator, acting in every organization. */
export const operatorDoor: Door = { authorization: undefined, client: 'cli', operator: true };

export interface CallResult {
  op: AnyOperation;
  status: number;
  body: unknown;
  /** The kept answer of an earlier request with the same Idempotency-Key. */
  replayed?: boolean;
}

/**
 * Runs one operation for any door (HTTP, IPC, CLI): authenticate → organization access → scope →
 * validate every part with the operation's schemas → handler. Order matters: an unauthenticated
 * caller learns nothing about the input's validity.
 */
export async function execute(app: AppContext, operationId: string, raw: RawInput, door: Door): Promise<CallResult> {
  // An answer, even an error, may rest on writes of this turn not yet committed (group commit,
  // db/groupCommit.ts): it leaves only once they are on disk; a failed commit makes it a 500.
  let outcome: CallResult;
  try {
    outcome = await run(app, operationId, raw, door);
  } catch (error) {
    await durable(app.db);
    throw error;
  }
  await durable(app.db);
  return outcome;
}

async function run(app: AppContext, operationId: string, raw: RawInput, door: Door): Promise<CallResult> {
  // The read caches see other processes' commits as of the start of the request (db/readCache.ts).
  app.foreignCommits.look();
  const op = operationsById.get(operationId);
  if (!op) throw new ApiError('NOT_FOUND', `Unknown operation ${operationId}`);

  let principal: Principal | null = null;
  let credential: string | undefined;
  if (op.auth === 'credential') {
    if (door.operator) principal = machineOperator;
    else ({ principal, credential } = await authenticateDoor(app, door));
    authorize(op, principal, raw.params);
  } else {
    credential = optionalCredential(door);
  }

  // After authentication and scope, so a revoked or narrowed credential never gets a kept answer.
  const idempotent = takesIdempotencyKey(op) && credential !== undefined ? idempotentRequest(door.idempotencyKey, credential, op.id, raw) : null;
  const call: CallContext = { app, principal, credential, client: door.client };
  if (!idempotent) return validateAndHandle(app, op, raw, call);
  const result = await underIdempotencyKey(
    app,
    idempotent,
    () => validateAndHandle(app, op, raw, call),
    (error) => (error instanceof ApiError ? { status: error.status, body: error.toBody() } : { status: 500, body: null }),
    op.responseKind === 'json',
  );
  return 'replayed' in result ? { op, ...result } : result;
}

async function validateAndHandle(app: AppContext, op: AnyOperation, raw: RawInput, call: CallContext): Promise<CallResult> {
  let started = performance.now();
  const params = parsePart(op.params, raw.params ?? {}, 'params');
  const query = parsePart(op.query, raw.query ?? {}, 'query');
  const body = parsePart(op.body, raw.body, 'body', op.requestKind);
  // A big input has held the one thread for a while: requests waiting behind it (a packer's
  // /health, a scan) go first before it is read again (decisions §1 "Bounded work").
  if (performance.now() - started > LONG_TURN_MS) await setImmediate();
  // After the schemas, so a body they refuse (80 000 unknown keys) is not walked a second time.
  started = performance.now();
  refuseNotWellFormedText(raw);
  if (performance.now() - started > LONG_TURN_MS) await setImmediate();

  const handler = handlers[op.id as keyof typeof handlers] as unknown as (
    call: CallContext,
    input: { params: unknown; query: unknown; body: unknown },
  ) => unknown;
  // Slow statements of the handler are logged with the operation's id (db/slowQueries.ts).
  const result = await inOperation(op.id, () => handler(call, { params, query, body }));

  if (app.checkResponses && op.responseKind === 'json') {
    const checked = op.response.safeParse(result instanceof JsonText ? result.parse() : result);
    if (!checked.success) {
      throw new Error(`Response of ${op.id} does not match its schema: ${JSON.stringify(checked.error.issues.slice(0, 5))}`);
    }
  }
  return { op, status: op.successStatus, body: result };
}

function parsePart(
  schema: AnyOperation['body'],
  value: unknown,
  where: 'params' | 'query' | 'body',
  requestKind: AnyOperation['requestKind'] = 'json',
): unknown {
  // Bounded: a body with 60 000 problems costs about what a valid one does (decisions §1).
  const parsed = boundedSafeParse(schema, value);
  if (!parsed.success) {
    if (where === 'body' && value === undefined) {
      const kind = requestKind === 'csv' ? 'CSV' : 'JSON';
      throw new ApiError('VALIDATION_FAILED', `A ${kind} body is required`, { details: [{ path: 'body', message: 'Required' }] });
    }
    throw validationError(where, parsed.issues);
  }
  return parsed.data;
}

/**
 * Text SQLite would store altered (an unpaired surrogate, in a value or a key) is refused here, in
 * every part and for every door, before any handler runs, so no schema or handler needs to think of it.
 */
function refuseNotWellFormedText(raw: RawInput): void {
  const details = [...notWellFormedText('params', raw.params), ...notWellFormedText('query', raw.query), ...notWellFormedText('body', raw.body)].slice(
    0,
    MAX_DETAILS,
  );
  const first = details[0];
  if (first) throw new ApiError('VALIDATION_FAILED', `Invalid ${first.path}: ${first.message}`, { details });
}

function optionalCredential(door: Door): string | undefined {
  try {
    return bearerCredential(door.authorization);
  } catch {
    return undefined;
  }
}

/** Failed attempts count towards the per-client limit; a missing credential is not an attempt. */
export async function authenticateDoor(app: AppContext, door: Door): Promise<{ principal: Principal; credential: string }> {
  if (door.authorization === undefined || door.authorization === '') {
    throw new ApiError('UNAUTHORIZED', "Missing credential: send 'Authorization: Bearer <token>'");
  }
  try {
    const credential = bearerCredential(door.authorization) as string;
    return { principal: await authenticate(app, credential), credential };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw app.failedAuth.failure(door.client, error);
    throw error;
  }
}

function authorize(op: AnyOperation, principal: Principal, rawParams: unknown): void {
  const orgParam = orgParamOf(op);
  const needed = scopeOf(op);
  if (!orgParam) return;
  const orgId = String((rawParams as Record<string, unknown> | undefined)?.[orgParam] ?? '');
  const held = scopesIn(principal, orgId);
  if (!held) throw new ApiError('ORG_ACCESS_DENIED', `This credential has no access to organization ${orgId}`);
  if (needed && !grants(held, needed)) {
    throw new ApiError('FORBIDDEN', `This operation needs the scope ${needed}`);
  }
}
