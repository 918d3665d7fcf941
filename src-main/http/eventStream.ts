import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, validationError } from '../../src-shared/errors';
import { paramsSchemaFor } from '../../src-shared/operation';
import { changeEventNames } from '../../src-shared/ipc';
import { authenticate } from '../domain/auth/authenticate';
import { scopesIn } from '../domain/auth/principal';
import type { AppContext } from '../app/kernel/context';
import { authenticateDoor } from '../app/dispatcher/execute';
import { mayReceive, type Push, type PushBatch } from '../app/kernel/pushes';

/**
 * `GET /orgs/{orgId}/events`: the pushes of app/pushes.ts as a server-sent event stream, for the app
 * in a browser (headless mode) and for scripts. Not an operation of the table: a stream is no call
 * with one answer, it has no IPC door (the desktop window gets the same events as IPC pushes), and
 * the typed client, the IPC handlers and the OpenAPI paths are made from calls. It is documented in
 * docs/api.md and in the OpenAPI description.
 *
 * The credential travels only in `Authorization: Bearer` (read with fetch, not EventSource, which
 * cannot send headers): never a cookie, never `?access_token=` (URLs end up in logs and history).
 * Each event is sent only when the credential holds its scope (`pushScopes`); a credential with
 * neither scope is refused. Every HEARTBEAT_MS a comment line keeps proxies and the client's
 * watchdog content, and the credential is checked again, so a revoked or expired token, or a
 * member whose role was taken away, stops hearing within that time.
 */
export const EVENT_STREAM_PATH = '/orgs/{orgId}/events';

export interface EventStreamOptions {
  /** Between heartbeats (and re-checks of the credential). */
  heartbeatMs?: number;
  /** A client that does not read falls this far behind before its stream is ended (it reconnects and reloads). */
  maxBufferedBytes?: number;
}

const HEARTBEAT_MS = 15_000;
const MAX_BUFFERED_BYTES = 256 * 1024;
const paramsSchema = paramsSchemaFor(EVENT_STREAM_PATH);

interface OpenStream {
  end(): void;
}

/** Registers the route; open streams are ended when the server closes (they would hold `close()` up forever). */
export function registerEventStream(server: FastifyInstance, app: AppContext, options: EventStreamOptions = {}): void {
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const maxBuffered = options.maxBufferedBytes ?? MAX_BUFFERED_BYTES;
  const open = new Set<OpenStream>();
  server.addHook('preClose', (done) => {
    for (const stream of [...open]) stream.end();
    done();
  });

  server.get(EVENT_STREAM_PATH.replace('{orgId}', ':orgId'), async (request, reply) => {
    const tokenInUrl = queryKeys(request).includes('access_token');
    if (!request.headers.authorization && tokenInUrl) {
      throw new ApiError('UNAUTHORIZED', "A credential in the URL is refused (URLs are logged); send 'Authorization: Bearer <token>'");
    }
    const { principal, credential } = await authenticateDoor(app, { authorization: request.headers.authorization, client: request.ip });
    const params = paramsSchema.safeParse(request.params);
    if (!params.success) throw validationError('params', params.error.issues);
    const unknown = queryKeys(request);
    if (unknown.length) {
      throw new ApiError('VALIDATION_FAILED', `Invalid query: unknown field ${unknown.join(', ')}`, {
        details: unknown.map((key) => ({ path: `query.${key}`, message: `Unknown field "${key}"` })),
      });
    }
    const { orgId } = params.data;
    let scopes = allowedScopes(scopesIn(principal, orgId), orgId);
    const resumeFrom = parseLastEventId(request.headers['last-event-id']);

    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // The socket serves only this stream: ending it closes the connection, so a shutdown is not kept waiting.
      connection: 'close',
      'x-accel-buffering': 'no',
    });

    let ended = false;
    const stream: OpenStream = {
      end: () => {
        if (ended) return;
        ended = true;
        open.delete(stream);
        unsubscribe();
        clearInterval(heartbeat);
        if (!response.writableEnded) response.end();
      },
    };
    open.add(stream);

    const send = (pushes: readonly Push[], missed: boolean) => {
      if (ended) return;
      let text = '';
      for (const push of pushes) {
        if (!mayReceive(scopes, push.event)) continue;
        text += `id: ${app.pushes.runId}-${push.id}\nevent: ${push.event}\ndata: ${JSON.stringify(push.payload)}\n\n`;
      }
      // Events were dropped on the way (a slow reader, a bulk write, a Last-Event-ID too old): read everything again.
      if (missed) text += 'event: resync\ndata: {}\n\n';
      if (text) write(response, text);
      // A client that does not read is not given memory without end: it is cut off, reconnects and reloads.
      if (response.writableLength > maxBuffered) stream.end();
    };

    const unsubscribe = app.pushes.subscribe(orgId, (batch: PushBatch) => send(batch.pushes, batch.missed));
    const heartbeat = setInterval(() => {
      write(response, ': heartbeat\n\n');
      // Still allowed? A revoked token, an expired JWT or a lost role ends the stream.
      authenticate(app, credential).then(
        (again) => {
          try {
            scopes = allowedScopes(scopesIn(again, orgId), orgId);
          } catch {
            stream.end();
          }
        },
        () => stream.end(),
      );
    }, heartbeatMs);
    heartbeat.unref();
    response.on('close', () => stream.end());

    write(response, `retry: 2000\n: connected to the events of ${orgId}\n\n`);
    if (resumeFrom) {
      const missed = app.pushes.since(resumeFrom.runId, resumeFrom.seq, orgId);
      send(missed ?? [], missed === null);
    }
  });
}

/** The scopes to filter events by; 403 when there is no access, or nothing this stream could ever send. */
function allowedScopes(held: readonly string[] | null, orgId: string): readonly string[] {
  if (!held) throw new ApiError('ORG_ACCESS_DENIED', `This credential has no access to organization ${orgId}`);
  if (!changeEventNames.some((event) => mayReceive(held, event))) {
    throw new ApiError('FORBIDDEN', 'The event stream needs the scope read:shipments or read:printers');
  }
  return held;
}

function queryKeys(request: FastifyRequest): string[] {
  return Object.keys((request.query as Record<string, unknown> | undefined) ?? {});
}

/** `Last-Event-ID: <run>-<seq>`, as sent in `id:` lines; anything else is ignored (a fresh start). */
function parseLastEventId(header: string | string[] | undefined): { runId: string; seq: number } | null {
  const match = typeof header === 'string' ? /^([0-9a-f]{8})-(\d{1,15})$/.exec(header) : null;
  return match ? { runId: match[1] as string, seq: Number(match[2]) } : null;
}

function write(response: ServerResponse, text: string): void {
  if (!response.writableEnded && !response.destroyed) response.write(text);
}
