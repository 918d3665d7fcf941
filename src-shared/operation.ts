import { z } from 'zod';
import { requiredScope, type HttpMethod, type Resource, type Scope } from './scopes';

/** Names of the `{placeholders}` in a path template. */
export type PathParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParamNames<Rest> : never;

/**
 * One operation of the API. HTTP routes, IPC handlers, the OpenAPI document and the typed client
 * are all produced from these entries (see operations.ts).
 */
export interface Operation<
  Id extends string = string,
  Path extends string = string,
  Query extends z.ZodType = z.ZodType,
  Body extends z.ZodType = z.ZodType,
  Response extends z.ZodType = z.ZodType,
> {
  id: Id;
  method: HttpMethod;
  path: Path;
  summary: string;
  /**
   * The resource whose scope guards the operation; `null` with `auth: 'credential'` means any valid
   * credential will do, `auth: 'public'` needs none.
   */
  resource: Resource | null;
  /**
   * Whether the operation only reads, so `read:<resource>` is enough (decisions §3): every GET, and
   * the POSTs that only ask a question (`shippingRules.match`).
   */
  onlyReads: boolean;
  auth: 'public' | 'credential';
  /** Derived from the path: each `{name}` is a non-empty string. */
  params: z.ZodType<Record<PathParamNames<Path>, string>>;
  query: Query;
  body: Body;
  response: Response;
  successStatus: 200 | 201;
  /** Binary responses (documents) are sent as they are, with their own content type. */
  responseKind: 'json' | 'binary';
  /** A `csv` body arrives as text (`text/csv` or `text/plain`) and is parsed as a string; the rest is JSON. */
  requestKind: RequestKind;
  /** Calls a carrier, so even a read can answer 422 CARRIER_ERROR / CARRIER_AUTH_FAILED (decisions §13). */
  asksCarrier: boolean;
}

export type RequestKind = 'json' | 'csv';

/** The media type a body of this kind is sent with. */
export const requestMediaType: Record<RequestKind, string> = { json: 'application/json', csv: 'text/csv' };

export type AnyOperation = Operation<string, string, z.ZodType, z.ZodType, z.ZodType>;

const emptyQuery = z.strictObject({});
const absentBody = z.undefined();

export function paramsSchemaFor<Path extends string>(path: Path) {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
  const shape = Object.fromEntries(names.map((name) => [name, z.string().min(1).max(64)]));
  return z.strictObject(shape) as unknown as z.ZodType<Record<PathParamNames<Path>, string>>;
}

/** Defines one operation; the defaults keep each table entry down to what is particular to it. */
export function defineOperation<
  const Id extends string,
  const Path extends string,
  Response extends z.ZodType,
  Query extends z.ZodType = typeof emptyQuery,
  Body extends z.ZodType = typeof absentBody,
>(def: {
  id: Id;
  method: HttpMethod;
  path: Path;
  summary: string;
  resource: Resource | null;
  /** Set on a POST that changes nothing; a GET only reads anyway. */
  onlyReads?: true;
  auth?: 'public' | 'credential';
  query?: Query;
  body?: Body;
  response: Response;
  successStatus?: 200 | 201;
  responseKind?: 'json' | 'binary';
  requestKind?: RequestKind;
  asksCarrier?: true;
}): Operation<Id, Path, Query, Body, Response> {
  return {
    id: def.id,
    method: def.method,
    path: def.path,
    summary: def.summary,
    resource: def.resource,
    onlyReads: def.onlyReads ?? def.method === 'GET',
    auth: def.auth ?? 'credential',
    params: paramsSchemaFor(def.path),
    query: (def.query ?? emptyQuery) as Query,
    body: (def.body ?? absentBody) as Body,
    response: def.response,
    successStatus: def.successStatus ?? (def.method === 'POST' ? 201 : 200),
    responseKind: def.responseKind ?? 'json',
    requestKind: def.requestKind ?? 'json',
    asksCarrier: def.asksCarrier ?? false,
  };
}

export function scopeOf(op: AnyOperation): Scope | null {
  return op.resource ? requiredScope(op.onlyReads ? 'read' : 'write', op.resource) : null;
}

/** The path parameter that names the organization the operation acts in, if any. */
export function orgParamOf(op: AnyOperation): 'orgId' | 'id' | null {
  if (op.path.startsWith('/orgs/{orgId}')) return 'orgId';
  if (op.path.startsWith('/orgs/{id}')) return 'id';
  return null;
}

// Lives in ipc.ts, which the sandboxed preload bundles without pulling zod in.
export { ipcChannelOf } from './ipc';

export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

export type ParamsOf<O> = O extends Operation<string, infer Path> ? Record<PathParamNames<Path>, string> : never;
export type QueryOf<O> = O extends Operation<string, string, infer Q> ? z.input<Q> : never;
export type BodyOf<O> = O extends Operation<string, string, z.ZodType, infer B> ? z.input<B> : never;
export type ResponseOf<O> = O extends Operation<string, string, z.ZodType, z.ZodType, infer R> ? z.output<R> : never;

/** What a caller passes: `params` when the path has placeholders, `query` and `body` when used. */
export type InputOf<O> = ([keyof ParamsOf<O>] extends [never] ? { params?: undefined } : { params: ParamsOf<O> }) & {
  query?: QueryOf<O>;
} & (undefined extends BodyOf<O> ? { body?: BodyOf<O> } : { body: BodyOf<O> });

/** What a handler receives: everything parsed by the operation's schemas. */
export interface ParsedInput<O extends AnyOperation> {
  params: z.output<O['params']>;
  query: z.output<O['query']>;
  body: z.output<O['body']>;
}

/**
 * Which operations honour an `Idempotency-Key` header (decisions §12): every POST that needs a
 * credential, since kept answers belong to a credential and a key. A POST answering a file (the CSV
 * export) only reads: asking again is harmless, and a file is not kept for a day.
 */
export function takesIdempotencyKey(op: AnyOperation): boolean {
  return op.method === 'POST' && op.auth === 'credential' && op.responseKind === 'json';
}
