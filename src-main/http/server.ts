import type { Socket } from 'node:net';
import { setImmediate } from 'node:timers/promises';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ApiError, httpReason } from '../../src-shared/errors';
import { csvNotUtf8Message, decodeUtf8 } from '../../src-shared/utf8Text';
import { operations } from '../../src-shared/operations';
import { requestMediaType, type AnyOperation, type RequestKind } from '../../src-shared/operation';
import type { AppContext } from '../app/kernel/context';
import { execute } from '../app/dispatcher/execute';
import { JsonText } from '../app/kernel/jsonText';
import type { BinaryResult } from '../app/kernel/handler';
import { absoluteFormHost, allowedHostnames, hostHeaderCount, hostnameOf } from './hosts';
import { buildOpenApiDocument } from './openapi';
import { docsPage, docsPageHeaders } from './docsPage';
import { toApiError } from '../app/dispatcher/errors';
import { registerEventStream, type EventStreamOptions } from './eventStream';
import { hasCrowdedObject, MAX_OBJECT_FIELDS } from './crowdedJson';
import { readRendererFile, rendererHeaders, rendererIndex, rendererPageRedirect, resolveRendererFile } from './renderer';

export const BODY_LIMIT = 1024 * 1024;
/** A body above this size lets other requests in between its parsing and its handling. */
const LARGE_BODY_BYTES = 64 * 1024;

export interface ServerOptions {
  /** The configured bind host (SHIPDESK_HOST); 127.0.0.1 when unset. */
  host?: string;
  /** Folder of the built renderer to serve (headless mode). */
  rendererDir?: string;
  logger?: boolean;
  /** How long a request may take to arrive, headers and body (decisions §1: 30 s); tests shorten it. */
  requestTimeoutMs?: number;
  /** Heartbeat and buffer bounds of `GET /orgs/{orgId}/events` (tests shorten them). */
  eventStream?: EventStreamOptions;
}

/** decisions §1 "Bounded work": a request body must arrive within 30 s. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** A request's path without its query string, which may hold a credential or a customer's name. */
function requestPath(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? request.url;
}

/**
 * What `SHIPDESK_LOG=1` writes of each request (README: "never credentials"): the path without its
 * query string, as the fault line on stderr does. A client may put its token there
 * (`?access_token=shpd_…`, RFC 6750 §2.3); it is refused, but Fastify's own line kept it.
 */
function loggedRequest(request: FastifyRequest) {
  return { method: request.method, url: requestPath(request), host: request.host, remoteAddress: request.ip, remotePort: request.socket.remotePort };
}

/** `/orgs/{orgId}/x` → `/orgs/:orgId/x` */
export function fastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** The HTTP door: every operation of the table as a route, all through the one dispatcher. */
export function buildServer(app: AppContext, options: ServerOptions = {}): FastifyInstance {
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const server = Fastify({
    bodyLimit: BODY_LIMIT,
    logger: options.logger ? { serializers: { req: loggedRequest } } : false,
    // Errors, not stack traces, leave the process; the error handler below shapes them.
    // Requests that arrive while the server closes get the one error body (503, onRequest below)
    // instead of Fastify's own.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true },
    // Errors the router raises before any route or hook runs (bad URL encoding, over-long path
    // parameters) get the same error body as everything else.
    frameworkErrors: (error, request, reply) => void sendError(app, request, reply, error),
    // Malformed HTTP never reaches a route; it still gets the one error body.
    clientErrorHandler: writeClientError,
    // A request (headers and body) that has not arrived within 30 s is refused (decisions §1):
    // Fastify leaves Node's limit off by default, so a client that sent a byte a minute kept its
    // request open for ever. Node looks for late requests every connectionsCheckingInterval (30 s
    // by default, which would let one live a minute): here every second.
    requestTimeout,
    http: {
      requestTimeout,
      headersTimeout: requestTimeout,
      connectionsCheckingInterval: Math.min(1_000, requestTimeout),
      // A request without Host reaches the host check below (403 with the error body) instead of
      // Node's bare 400.
      requireHostHeader: false,
    },
  });
  const hosts = allowedHostnames(options.host);
  // The address to suggest to a refused client: the bound one, unless it is every interface.
  const addressHint = options.host && options.host !== '0.0.0.0' && options.host !== '::' ? options.host : '127.0.0.1';
  let closing = false;
  server.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  // A callback hook, not an async one: it runs on every request, and a promise per request shows.
  server.addHook('onRequest', (request, reply, done) => {
    if (closing) {
      reply.header('connection', 'close');
      done(new ApiError('SERVICE_UNAVAILABLE', 'Shipdesk is shutting down; retry in a moment'));
      return;
    }
    const host = request.headers.host;
    if (!host || !hosts.has(hostnameOf(host))) {
      done(new ApiError('FORBIDDEN', `Requests addressed to host "${host ?? ''}" are refused; use http://${addressHint}`));
      return;
    }
    // Node keeps the first of several Host headers, and a request line may name its host itself
    // (`GET http://evil.example/… HTTP/1.1`), which then counts instead (RFC 9112 §3.2): neither may
    // slip past the check above.
    if (hostHeaderCount(request.raw.rawHeaders) > 1) {
      done(new ApiError('BAD_REQUEST', 'A request has exactly one Host header'));
      return;
    }
    const target = absoluteFormHost(request.raw.url ?? '');
    if (target !== null && !hosts.has(hostnameOf(target))) {
      done(new ApiError('FORBIDDEN', `Requests addressed to host "${target}" are refused; use http://${addressHint}`));
      return;
    }
    done();
  });

  // An empty body with a JSON content type is "no body" (actions like create-return); the default
  // parser still guards against prototype poisoning for everything else.
  const defaultJson = server.getDefaultJsonParser('error', 'error');
  server.removeContentTypeParser('application/json');
  server.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    // Outside the table (no kind) the 404 answer says more than a complaint about the JSON would.
    if (requestKindOf(request) === undefined) return done(null, undefined);
    if (requestKindOf(request) === 'csv') return done(wrongMediaType(request), undefined);
    const textBody = utf8Text(body, 'JSON');
    if (textBody instanceof ApiError) return done(textBody, undefined);
    if (textBody.trim() === '') return done(null, undefined);
    if (hasCrowdedObject(textBody)) {
      const message = `An object has more than ${MAX_OBJECT_FIELDS} fields; no operation takes one`;
      return done(new ApiError('VALIDATION_FAILED', `Invalid body: ${message}`, { details: [{ path: 'body', message }] }), undefined);
    }
    // It answers through `done`; what it returns is nothing to wait for.
    void defaultJson(request, textBody, (error, value) => {
      if (error) return done(jsonBodyError(textBody), undefined);
      done(null, value);
    });
  });

  // Text bodies are for operations that declare one (CSV import); anywhere else they are refused
  // rather than handed to a JSON schema as a string.
  server.removeContentTypeParser('text/plain');
  server.addContentTypeParser(['text/csv', 'text/plain'], { parseAs: 'buffer' }, (request, body, done) => {
    // Outside the table (no kind) the 404 answer says more than a media-type refusal would.
    if (requestKindOf(request) === 'json') return done(wrongMediaType(request), undefined);
    const text = utf8Text(body, 'CSV');
    if (text instanceof ApiError) return done(text, undefined);
    done(null, text);
  });

  server.setErrorHandler((error: unknown, request, reply) => sendError(app, request, reply, error));
  // The first path segments of the API: a path under one of them is never a page of the app.
  const apiRoots = new Set([...operations.map((op) => op.path.split('/')[1] ?? ''), 'openapi.json', 'docs']);
  server.setNotFoundHandler((request, reply) => notFound(request, reply, options.rendererDir, apiRoots));

  for (const op of operations as readonly AnyOperation[]) {
    server.route({
      method: op.method,
      url: fastifyPath(op.path),
      config: { requestKind: op.requestKind },
      handler: async (request, reply) => {
        // Reading and parsing a large body (up to 1 MiB of JSON) took this turn of the thread: other
        // requests that arrived meanwhile go first, so no one body holds them up (decisions §1).
        if (Number(request.headers['content-length']) > LARGE_BODY_BYTES) await setImmediate();
        const result = await execute(
          app,
          op.id,
          { params: request.params, query: request.query, body: request.body },
          { authorization: request.headers.authorization, client: request.ip, idempotencyKey: request.headers['idempotency-key'] },
        );
        if (result.replayed) reply.header('idempotent-replayed', 'true');
        reply.code(result.status);
        if (op.responseKind === 'binary') {
          const binary = result.body as BinaryResult;
          reply.header('content-type', binary.contentType);
          if (binary.filename) reply.header('content-disposition', `inline; filename="${binary.filename}"`);
          return reply.send(binary.data);
        }
        // A read SQLite already wrote as JSON goes out as it is.
        if (result.body instanceof JsonText) return reply.type('application/json; charset=utf-8').send(result.body.text);
        return reply.send(result.body);
      },
    });
  }

  // Pushes for the browser: not an operation of the table (see eventStream.ts).
  registerEventStream(server, app, options.eventStream);

  // Built on the first request for it (once, memoized): about half a second of zod → JSON Schema that
  // start-up does not need (docs/benchmarks.md, start-up).
  server.get('/openapi.json', async () => buildOpenApiDocument());
  server.get('/docs', async (_request, reply) => reply.headers(docsPageHeaders).type('text/html; charset=utf-8').send(docsPage(buildOpenApiDocument())));
  return server;
}

/**
 * A body's bytes as text, refused when they are not UTF-8 (decisions §1: what a 2xx answers is what
 * is stored): decoding with replacement turned a Windows-1252 "ø" into "\ufffd" and stored that. A
 * CSV import is refused in the import's own words (a file error at `body`); JSON like malformed JSON.
 */
function utf8Text(body: Buffer | string, kind: 'JSON' | 'CSV'): string | ApiError {
  if (typeof body === 'string') return body;
  const decoded = decodeUtf8(body);
  if (decoded.ok) return decoded.text;
  if (kind === 'CSV') {
    const message = csvNotUtf8Message(decoded.line);
    return new ApiError('VALIDATION_FAILED', message, { details: [{ path: 'body', message }] });
  }
  return new ApiError('BAD_REQUEST', `The JSON body is not UTF-8 text (line ${decoded.line} has bytes that are not UTF-8); send JSON encoded as UTF-8`);
}

/**
 * Malformed JSON is 400 BAD_REQUEST. Valid JSON the parser refuses to build — a `__proto__` or
 * `constructor.prototype` key, prototype poisoning — is a field no operation knows: 400
 * VALIDATION_FAILED at that field (decisions §1). Plain JSON.parse only looks; the value is dropped.
 */
function jsonBodyError(text: string): ApiError {
  let path: string | null = null;
  try {
    path = forbiddenKeyPath(JSON.parse(text) as unknown, 'body');
  } catch {
    // Not JSON at all.
  }
  if (!path) return new ApiError('BAD_REQUEST', 'Malformed JSON body: the body is not valid JSON');
  const message = `Unknown field "${path.slice(path.lastIndexOf('.') + 1)}"`;
  return new ApiError('VALIDATION_FAILED', `Invalid ${path}: ${message}`, { details: [{ path, message }] });
}

function forbiddenKeyPath(value: unknown, path: string): string | null {
  if (!value || typeof value !== 'object') return null;
  if (Object.hasOwn(value, '__proto__')) return `${path}.__proto__`;
  const constructor: unknown = Object.hasOwn(value, 'constructor') ? (value as { constructor: unknown }).constructor : undefined;
  if (constructor && typeof constructor === 'object' && Object.hasOwn(constructor, 'prototype')) return `${path}.constructor.prototype`;
  for (const [key, item] of Object.entries(value)) {
    const found = forbiddenKeyPath(item, `${path}.${key}`);
    if (found) return found;
  }
  return null;
}

/** The request kind of the operation the route serves; undefined off the table (404, /docs). */
function requestKindOf(request: FastifyRequest): RequestKind | undefined {
  return (request.routeOptions.config as { requestKind?: RequestKind } | undefined)?.requestKind;
}

function wrongMediaType(request: FastifyRequest): ApiError {
  return new ApiError('UNSUPPORTED_MEDIA_TYPE', `Send the body as ${requestMediaType[requestKindOf(request) ?? 'json']}`);
}

function sendError(app: AppContext, request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  // A media type no parser takes: name the one this operation wants (text/csv for an import).
  const apiError = (error as { code?: string }).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? wrongMediaType(request) : fromHttpError(error);
  if (apiError.status === 500) {
    // The answer says the fault was logged: with Fastify's logger off (the default), stderr is the log.
    if (request.log.level === undefined) console.error(`${request.method} ${requestPath(request)} failed:`, error);
    else request.log.error({ err: error }, 'request failed');
  }
  if (apiError.code === 'RATE_LIMITED') reply.header('retry-after', String(app.failedAuth.retryAfterSeconds(request.ip)));
  if (apiError.status === 401) reply.header('www-authenticate', bearerChallenge(apiError.code));
  return reply.code(apiError.status).type('application/json; charset=utf-8').send(apiError.toBody());
}

/** Errors Node's HTTP parser raises (malformed request, oversized headers, timeouts), answered on the socket. */
function writeClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // All are 400 BAD_REQUEST: errors.ts has no codes of their own for 408 and 431.
  const message =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 'The request took too long to arrive'
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? 'The request headers are too large'
        : 'Malformed HTTP request';
  const apiError = new ApiError('BAD_REQUEST', message);
  const body = JSON.stringify(apiError.toBody());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${apiError.status} ${httpReason[apiError.status] ?? 'Error'}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/**
 * Fastify's own errors (body too large, bad media type, …) mapped onto our codes; everything else
 * as every door maps it (dispatcher/errors.ts).
 */
export function fromHttpError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const fastifyError = error as { code?: string; statusCode?: number; message?: string };
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('PAYLOAD_TOO_LARGE', `The body is larger than ${BODY_LIMIT} bytes (1 MiB)`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_BAD_URL':
      return new ApiError('BAD_REQUEST', fastifyError.message ?? 'Bad request');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError('BAD_REQUEST', 'A path parameter is too long');
  }
  // Other client errors Fastify raises (4xx FST_ codes) are the client's fault too.
  const status = fastifyError.statusCode;
  if (status !== undefined && (status === 400 || (fastifyError.code?.startsWith('FST_') && status > 400 && status < 500))) {
    return new ApiError('BAD_REQUEST', fastifyError.message ?? 'Bad request');
  }
  return toApiError(error);
}

function notFound(request: FastifyRequest, reply: FastifyReply, rendererDir: string | undefined, apiRoots: ReadonlySet<string>): FastifyReply {
  if (rendererDir && (request.method === 'GET' || request.method === 'HEAD')) {
    const file = resolveRendererFile(rendererDir, request.url);
    if (file) return reply.headers(rendererHeaders(file)).send(readRendererFile(file));
    const page = rendererIndex(rendererDir) && rendererPageRedirect(request.url, request.headers.accept, apiRoots);
    if (page) return reply.redirect(page, 302);
  }
  // Every /orgs/… path needs a credential (decisions §3), also one no operation serves. A CORS
  // preflight never carries one: it keeps the plain 404, a refusal to the browser all the same.
  if (request.url.startsWith('/orgs/') && request.headers.authorization === undefined && request.method !== 'OPTIONS') {
    const error = new ApiError('UNAUTHORIZED', "Missing credential: send 'Authorization: Bearer <token>'");
    return reply.code(401).header('www-authenticate', bearerChallenge(error.code)).send(error.toBody());
  }
  const error = new ApiError('NOT_FOUND', `No route ${request.method} ${requestPath(request)}`);
  return reply.code(404).send(error.toBody());
}

/** RFC 6750 §3: a 401 names the scheme it wants, and says when the token given was the trouble. */
function bearerChallenge(code: string): string {
  return code === 'AUTH_TOKEN_INVALID' || code === 'AUTH_TOKEN_EXPIRED' ? 'Bearer realm="Shipdesk", error="invalid_token"' : 'Bearer realm="Shipdesk"';
}

/** Starts listening; resolves with the base URL (port 0 picks a free port). */
export async function listen(server: FastifyInstance, host: string, port: number): Promise<string> {
  await server.listen({ host, port });
  const address = server.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return `http://${shownHost}:${actualPort}`;
}
