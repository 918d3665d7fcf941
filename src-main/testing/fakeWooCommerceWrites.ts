/**
 * A fake WooCommerce shop for the write-back tests (issue 22), from the REST API v3 reference: the
 * order (`GET`/`PUT /wp-json/wc/v3/orders/{id}`) and its notes (`GET`/`POST …/orders/{id}/notes`),
 * HTTP Basic with the consumer key and secret, a key's permission (read or read_write), WooCommerce's
 * error bodies `{code, message, data: {status}}` for a missing parameter, a wrong type or enum value
 * and an unknown order, and faults queued by the test: an error status (429 with Retry-After, 500) or
 * a slow answer (the write is made, the answer is held until `release()`: a call that timed out).
 *
 * Its own server beside the read fake (fakeStorefronts.ts), so the two are built independently.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fakeWoo } from './fakeStorefronts';

/** WooCommerce's order statuses (REST v3 `status` enum). */
export const wooOrderStatuses = ['pending', 'processing', 'on-hold', 'completed', 'cancelled', 'refunded', 'failed', 'trash', 'checkout-draft'] as const;

export interface WooNote {
  id: number;
  author: string;
  date_created_gmt: string;
  note: string;
  customer_note: boolean;
}

export interface WooFakeOrder {
  id: number;
  status: string;
  notes: WooNote[];
}

export type WooFault = { status: number; body?: unknown; headers?: Record<string, string> } | 'slow';

export interface FakeWooWrites {
  origin: string;
  orders: Map<number, WooFakeOrder>;
  /** read: the key may only read (writes answer 401 as WooCommerce does); read_write: the write-back's key. */
  permission: 'read' | 'read_write';
  /** Answered to the next requests, in order, instead of their normal answer; null: that one is answered normally. */
  faults: (WooFault | null)[];
  requests: { method: string; path: string; body: unknown }[];
  /** Answers the held slow requests. */
  release(): void;
  addOrder(id: number, status?: string): WooFakeOrder;
  close(): Promise<void>;
}

const wooError = (status: number, code: string, message: string, extra: Record<string, unknown> = {}) => ({
  status,
  body: { code, message, data: { status, ...extra } },
});

function invalidParam(name: string, problem: string) {
  return wooError(400, 'rest_invalid_param', `Invalid parameter(s): ${name}`, { params: { [name]: problem }, details: {} });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeWooWrites(): Promise<FakeWooWrites> {
  let nextNoteId = 900;
  let held: (() => void)[] = [];
  const shop: FakeWooWrites = {
    origin: '',
    orders: new Map(),
    permission: 'read_write',
    faults: [],
    requests: [],
    release() {
      const answers = held;
      held = [];
      for (const answer of answers) answer();
    },
    addOrder(id, status = 'processing') {
      const order = { id, status, notes: [] };
      shop.orders.set(id, order);
      return order;
    },
    close: () =>
      new Promise((resolve) => {
        shop.release();
        server.close(() => resolve());
      }),
  };

  const handle = (
    method: string,
    url: URL,
    authorization: string | undefined,
    raw: string,
  ): { status: number; body: unknown; headers?: Record<string, string> } => {
    const expected = `Basic ${Buffer.from(`${fakeWoo.consumerKey}:${fakeWoo.consumerSecret}`).toString('base64')}`;
    if (authorization !== expected) return wooError(401, 'woocommerce_rest_authentication_error', 'Consumer key is invalid.');
    const match = /^\/wp-json\/wc\/v3\/orders\/(\d+)(\/notes)?$/.exec(url.pathname);
    if (!match) return wooError(404, 'rest_no_route', 'No route was found matching the URL and request method.');
    const order = shop.orders.get(Number(match[1]));
    const notes = Boolean(match[2]);
    const writes = method !== 'GET';
    if (writes && shop.permission !== 'read_write') {
      return wooError(401, notes ? 'woocommerce_rest_cannot_create' : 'woocommerce_rest_cannot_edit', 'Sorry, you are not allowed to do that.');
    }
    if (!order) return wooError(404, notes ? 'woocommerce_rest_order_invalid_id' : 'woocommerce_rest_shop_order_invalid_id', 'Invalid ID.');
    let body: Record<string, unknown> = {};
    if (writes) {
      try {
        const parsed: unknown = raw ? JSON.parse(raw) : {};
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return wooError(400, 'rest_invalid_json', 'Invalid JSON body passed.');
        body = parsed as Record<string, unknown>;
      } catch {
        return wooError(400, 'rest_invalid_json', 'Invalid JSON body passed.');
      }
    }
    if (!notes && method === 'GET') return { status: 200, body: { id: order.id, status: order.status } };
    if (!notes && method === 'PUT') {
      if ('status' in body && (typeof body.status !== 'string' || !(wooOrderStatuses as readonly string[]).includes(body.status))) {
        return invalidParam('status', `status is not one of ${wooOrderStatuses.join(', ')}.`);
      }
      if (typeof body.status === 'string') order.status = body.status;
      return { status: 200, body: { id: order.id, status: order.status } };
    }
    if (notes && method === 'GET') {
      const type = url.searchParams.get('type') ?? 'any';
      if (!['any', 'customer', 'internal'].includes(type)) return invalidParam('type', 'type is not one of any, customer, and internal.');
      const list = order.notes.filter((note) => type === 'any' || (type === 'customer') === note.customer_note);
      // Newest first, as WooCommerce lists them.
      return { status: 200, body: [...list].reverse() };
    }
    if (notes && method === 'POST') {
      if (!('note' in body)) return wooError(400, 'rest_missing_callback_param', 'Missing parameter(s): note', { params: ['note'] });
      if (typeof body.note !== 'string') return invalidParam('note', 'note is not of type string.');
      if ('customer_note' in body && typeof body.customer_note !== 'boolean') return invalidParam('customer_note', 'customer_note is not of type boolean.');
      if (!body.note.trim()) return wooError(400, 'woocommerce_rest_invalid_order_note', 'Cannot create order note, please try again.');
      const note: WooNote = {
        id: nextNoteId++,
        author: 'system',
        date_created_gmt: new Date().toISOString().slice(0, 19),
        note: body.note,
        customer_note: body.customer_note === true,
      };
      order.notes.push(note);
      return { status: 201, body: note };
    }
    return wooError(404, 'rest_no_route', 'No route was found matching the URL and request method.');
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void readBody(req).then((raw) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const method = req.method ?? 'GET';
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        // kept as text
      }
      shop.requests.push({ method, path: url.pathname + url.search, body });
      const fault = shop.faults.shift();
      const send = (answer: { status: number; body: unknown; headers?: Record<string, string> }) => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'content-type': 'application/json; charset=UTF-8', ...answer.headers });
        res.end(JSON.stringify(answer.body));
      };
      if (fault === 'slow') {
        // The shop does the work, but its answer comes too late for the caller.
        const answer = handle(method, url, req.headers.authorization, raw);
        held.push(() => send(answer));
        return;
      }
      if (fault) {
        send({ status: fault.status, body: fault.body ?? wooError(fault.status, 'fake_fault', 'Failing on purpose.').body, headers: fault.headers });
        return;
      }
      send(handle(method, url, req.headers.authorization, raw));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  shop.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return shop;
}
