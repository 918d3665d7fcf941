import { ApiError, errorBodySchema, type ErrorCode } from './errors';
import { fillPath, requestMediaType, type AnyOperation, type InputOf, type ResponseOf } from './operation';
import { operationsById, type OperationById, type OperationId } from './operations';
import type { IpcCallInput, IpcEnvelope } from './ipc';

/**
 * The typed client: one `call(operationId, input)` for every operation of the table, over a
 * transport (HTTP for scripts and browser mode, IPC inside Electron). Failures are thrown as
 * `ApiError` with the same code whichever door answered.
 */

/** Carries one call; resolves with the response body or throws `ApiError`. */
export type Transport = (op: AnyOperation, input: IpcCallInput) => Promise<unknown>;

/** Operations whose input is all optional (health, lists without params) may be called without one. */
type InputArgs<Id extends OperationId> = object extends InputOf<OperationById<Id>> ? [input?: InputOf<OperationById<Id>>] : [input: InputOf<OperationById<Id>>];

/**
 * What `call` resolves with: the response schema's type, or the bytes for a document operation.
 * (Takes effect for operations whose `responseKind` is typed as the literal 'binary'.)
 */
export type ClientResponseOf<Id extends OperationId> = OperationById<Id> extends { responseKind: 'binary' } ? BinaryResponse : ResponseOf<OperationById<Id>>;

export interface ShipdeskClient {
  call<Id extends OperationId>(id: Id, ...input: InputArgs<Id>): Promise<ClientResponseOf<Id>>;
}

/**
 * A document answer (`responseKind: 'binary'`): the bytes and their type, whichever transport
 * carried them.
 */
export interface BinaryResponse {
  contentType: string;
  data: Uint8Array;
  filename?: string;
}

export function createClient(transport: Transport): ShipdeskClient {
  return {
    async call(id, ...[input]) {
      const op = operationsById.get(id);
      if (!op) throw new ApiError('NOT_FOUND', `Unknown operation ${id}`);
      return (await transport(op, (input ?? {}) as IpcCallInput)) as never;
    },
  };
}

export interface HttpTransportOptions {
  /** `http://127.0.0.1:4848`, or `''` in a page served by that same server (relative URLs). */
  baseUrl: string;
  /** The JWT or API token to send, read on every call so a new login takes effect at once. */
  getToken?: () => string | undefined;
  fetch?: typeof fetch;
}

export function httpTransport(options: HttpTransportOptions): Transport {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  return async (op, input) => {
    const url = baseUrl + fillPath(op.path, input.params ?? {}) + queryString(input.query);
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = options.getToken?.();
    if (token) headers.authorization = `Bearer ${token}`;
    const init: RequestInit = { method: op.method, headers };
    if (input.body !== undefined) {
      headers['content-type'] = requestMediaType[op.requestKind];
      init.body = op.requestKind === 'csv' ? String(input.body) : JSON.stringify(input.body);
    }
    const response = await doFetch(url, init);
    if (!response.ok) throw await errorFromResponse(response);
    if (op.responseKind === 'binary') return binaryFromResponse(response);
    return response.json();
  };
}

/** The preload's `invoke` (or a fake of it in tests). */
export type IpcInvoke = (operationId: OperationId, input: IpcCallInput) => Promise<IpcEnvelope>;

export function ipcTransport(invoke: IpcInvoke): Transport {
  return async (op, input) => {
    const envelope = await invoke(op.id as OperationId, input);
    if (!envelope.ok) throw ApiError.fromBody(envelope.error);
    return envelope.data;
  };
}

/** Arrays repeat their key (`?status=a&status=b`); undefined and null are left out. */
export function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      search.append(key, item instanceof Date ? item.toISOString() : String(item));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** When something other than Shipdesk answered (a proxy, a crash page), the status still picks a code. */
const codeForStatus: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

async function errorFromResponse(response: Response): Promise<ApiError> {
  const text = await response.text();
  try {
    const body = errorBodySchema.safeParse(JSON.parse(text));
    if (body.success) return ApiError.fromBody(body.data, response.status);
  } catch {
    // Not JSON: fall through to the status.
  }
  const code = codeForStatus[response.status] ?? 'INTERNAL_ERROR';
  return new ApiError(code, `HTTP ${response.status} ${response.statusText}`.trim());
}

async function binaryFromResponse(response: Response): Promise<BinaryResponse> {
  const result: BinaryResponse = {
    contentType: response.headers.get('content-type') ?? 'application/octet-stream',
    data: new Uint8Array(await response.arrayBuffer()),
  };
  const filename = /filename="([^"]*)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  if (filename) result.filename = filename;
  return result;
}
