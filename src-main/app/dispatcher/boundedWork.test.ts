import { connect } from 'node:net';
import { setImmediate } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ipcChannelOf } from '../../../src-shared/operation';
import type { IpcEnvelope } from '../../../src-shared/ipc';
import { MAX_DETAILS, type ErrorBody } from '../../../src-shared/errors';
import { setupLocalCarrier, shipmentBody, startTestServer, type TestServer } from '../../testing/harness';
import { buildServer, listen, REQUEST_TIMEOUT_MS } from '../../http/server';
import { registerIpcHandlers, type IpcInvokeEventLike, type IpcMainLike } from '../../ipc/register';
import { execute, operatorDoor } from './execute';
import { toApiError } from './errors';

/**
 * decisions §1 "Bounded work" (issue 17): a body with many problems is answered in time in
 * proportion to its size, with at most 100 problems, at every door, while /health keeps answering.
 * Before the fix the 80 000-key login took ≈ 26 s here and answered 4.7 MB; the shipment of
 * 30 parcels × 1 000 empty order lines took ≈ 10 s and answered 4.1 MB.
 */

/** 80 000 unknown keys (1 MB), the body of the issue's login. */
function manyUnknownKeys(): Record<string, string> {
  const body: Record<string, string> = {};
  for (let index = 0; index < 80_000; index++) body[`k${index}`] = 'x';
  return body;
}

/** 30 parcels × 1 000 empty order lines (≈ 123 KB with the rest of a shipment): 60 000 problems. */
function manyEmptyOrderLines(carrierId: string) {
  const parcels = Array.from({ length: 30 }, () => ({
    weight: 1,
    weightUnit: 'kg',
    dimensions: { length: 10, width: 10, height: 10 },
    orderLines: Array.from({ length: 1000 }, () => ({})),
  }));
  return shipmentBody(carrierId, { parcels });
}

/** ipcMain as a Map of channel → handler (as in ipc/register.test.ts). */
function fakeIpcDoor(t: TestServer) {
  const handlers = new Map<string, (event: IpcInvokeEventLike, input: unknown) => unknown>();
  const ipcMain: IpcMainLike = {
    handle(channel, listener) {
      handlers.set(channel, listener);
    },
  };
  registerIpcHandlers(ipcMain, t.app, { isTrustedSender: () => true });
  return (senderId: number, operationId: string, input: unknown) =>
    handlers.get(ipcChannelOf(operationId))?.({ sender: { id: senderId }, senderFrame: { url: 'app://shipdesk/index.html' } }, input) as Promise<IpcEnvelope>;
}

/**
 * /health asked every 25 ms (not waiting for the answer before the next, so a slow answer cannot
 * thin out the samples) from a thread of its own while `fire` runs; each answer's time in ms. The
 * server, the IPC door and the dispatcher share this test's thread, as they share Electron's main
 * process; a poller on that thread would time its own waits, not the server's. The poller's first
 * answer (its own start-up) comes before the firing and is not counted.
 */
async function healthLatenciesWhile(url: string, fire: () => Promise<void>): Promise<number[]> {
  const poller = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    const latencies = [];
    const inFlight = new Set();
    const ask = () => {
      const started = performance.now();
      const answer = fetch(workerData.url + '/health')
        .then(async (response) => {
          await response.arrayBuffer();
          if (response.status !== 200) throw new Error('/health answered ' + response.status);
          latencies.push(performance.now() - started);
        })
        .finally(() => inFlight.delete(answer));
      inFlight.add(answer);
      return answer;
    };
    ask().then(() => {
      latencies.length = 0;
      parentPort.postMessage('ready');
      const timer = setInterval(ask, 25);
      parentPort.once('message', async () => {
        clearInterval(timer);
        await Promise.all(inFlight);
        parentPort.postMessage(latencies);
      });
    });`,
    { eval: true, workerData: { url } },
  );
  const messages: unknown[] = [];
  const waiting: ((message: unknown) => void)[] = [];
  poller.on('message', (message) => {
    const taker = waiting.shift();
    if (taker) taker(message);
    else messages.push(message);
  });
  const failed = new Promise<never>((_, reject) => poller.once('error', reject));
  const next = () => Promise.race([failed, messages.length ? Promise.resolve(messages.shift()) : new Promise((resolve) => waiting.push(resolve))]);
  try {
    await next(); // ready
    await fire();
  } finally {
    poller.postMessage('stop');
  }
  const latencies = (await next()) as number[];
  await poller.terminate();
  return latencies;
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * share) - 1)] ?? 0;
}

/** An error answer from any door: at most 100 problems, and small (not the 4 MB of before). */
function expectBoundedAnswer(body: ErrorBody, size: number) {
  expect(body.code).toBe('VALIDATION_FAILED');
  expect(body.details?.length).toBeGreaterThan(0);
  expect(body.details?.length).toBeLessThanOrEqual(MAX_DETAILS);
  expect(size).toBeLessThan(16 * 1024);
}

let t: TestServer;
let carrierId: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ carrierId } = await setupLocalCarrier(t));
});
afterAll(async () => {
  await t.close();
});

describe('a body with many problems', () => {
  it('is answered with at most 100 problems at every door while /health keeps answering', async () => {
    const ipc = fakeIpcDoor(t);
    const signedIn = await ipc(1, 'auth.login', { body: { email: t.org.email, password: t.org.password } });
    expect(signedIn.ok).toBe(true);
    const shipmentsPath = `/orgs/${t.org.orgId}/shipments`;
    // Built once, before the clock starts: making them holds this thread too, and copies of them
    // kept alive would make every garbage collection of the server's heap slower than in real use.
    // (Nothing changes an input: zod builds new objects.)
    const loginText = Buffer.from(JSON.stringify(manyUnknownKeys()));
    const shipmentText = Buffer.from(JSON.stringify(manyEmptyOrderLines(carrierId)));
    const loginObject = manyUnknownKeys();
    const shipmentObject = manyEmptyOrderLines(carrierId);
    const answers: { door: string; status: number; body: ErrorBody; size: number; ms: number }[] = [];

    const post = async (door: string, path: string, text: Buffer, token: string | null) => {
      const started = performance.now();
      const response = await fetch(t.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: text,
      });
      const answer = await response.text();
      answers.push({ door, status: response.status, body: JSON.parse(answer) as ErrorBody, size: Buffer.byteLength(answer), ms: performance.now() - started });
    };
    const inProcess = async (door: string, call: () => Promise<ErrorBody>) => {
      // Each call arrives as an event of its own, as an IPC message from the window does; chained
      // on this thread's promises, one call would start the next before /health had a turn.
      await setImmediate();
      const started = performance.now();
      const body = await call();
      answers.push({ door, status: 400, body, size: JSON.stringify(body).length, ms: performance.now() - started });
    };
    const ipcError = async (senderId: number, operationId: string, input: unknown) => {
      const envelope = await ipc(senderId, operationId, input);
      if (envelope.ok) throw new Error(`${operationId} over IPC succeeded`);
      return envelope.error;
    };
    // The dispatcher as the CLI calls it: no HTTP, the operator's door.
    const cliError = async (operationId: string, raw: { params?: unknown; body: unknown }) => {
      try {
        await execute(t.app, operationId, raw, operatorDoor);
      } catch (error) {
        return toApiError(error).toBody();
      }
      throw new Error(`${operationId} through the dispatcher succeeded`);
    };

    const fireAtEveryDoor = async () => {
      await post('http shipment, token', shipmentsPath, shipmentText, t.org.token);
      await inProcess('ipc login, not signed in', () => ipcError(2, 'auth.login', { body: loginObject }));
      await inProcess('ipc shipment, signed in', () => ipcError(1, 'shipments.create', { params: { orgId: t.org.orgId }, body: shipmentObject }));
      await inProcess('dispatcher login', () => cliError('auth.login', { body: loginObject }));
      await inProcess('dispatcher shipment', () => cliError('shipments.create', { params: { orgId: t.org.orgId }, body: shipmentObject }));
    };
    const fireLogin = () => post('http login, no credential', '/auth/login', loginText, null);
    // A first round outside the timing: zod compiles each schema on its first use.
    await fireAtEveryDoor();
    await fireLogin();
    // The figures (p99 against the issue's 100 ms) are printed below; the assertion allows ten
    // times that, so a busy CI machine cannot fail it, while without the fix /health waited whole
    // seconds (12 s for the 1 MB login, 4–10 s for the shipment).
    const HEALTH_P99_BOUND_MS = 1_000;
    // Enough rounds that /health is asked more than 50 times even on a busy machine (45 in 20 rounds
    // once, while another job took a core).
    const doorLatencies = await healthLatenciesWhile(t.url, async () => {
      for (let round = 0; round < 40; round++) await fireAtEveryDoor();
    });
    const loginLatencies = await healthLatenciesWhile(t.url, async () => {
      for (let round = 0; round < 300; round++) await fireLogin();
    });
    // Without a credential, an operation that needs one is refused before its body is looked at.
    const refused = await t.request('POST', shipmentsPath, { token: null, rawBody: shipmentText.toString('utf8') });
    expect(refused.status).toBe(401);

    for (const answer of answers) {
      expect(answer.status, answer.door).toBe(400);
      expectBoundedAnswer(answer.body, answer.size);
    }
    // Over HTTP an object of 80 000 fields is refused before it is built (http/crowdedJson.ts)...
    const login = answers.find((answer) => answer.door === 'http login, no credential');
    expect(login?.body.details).toEqual([{ path: 'body', message: 'An object has more than 1000 fields; no operation takes one' }]);
    // ...while a door that is handed the object lists the missing credentials, then unknown fields
    // one by one at their own paths, up to 100 in all.
    const ipcLogin = answers.find((answer) => answer.door === 'ipc login, not signed in');
    expect(ipcLogin?.body.details?.slice(0, 3)).toEqual([
      { path: 'body.email', message: 'Required' },
      { path: 'body.password', message: 'Required' },
      { path: 'body.k0', message: 'Unknown field "k0"' },
    ]);
    expect(ipcLogin?.body.message).toContain('there are more');
    const shipment = answers.find((answer) => answer.door === 'http shipment, token');
    expect(shipment?.body.details?.slice(0, 2)).toEqual([
      { path: 'body.parcels.0.orderLines.0.sku', message: 'Required' },
      { path: 'body.parcels.0.orderLines.0.quantity', message: 'Required' },
    ]);

    const figures = (latencies: number[]) =>
      `${latencies.length} answers, p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms`;
    const slowest = new Map<string, number>();
    for (const answer of answers) slowest.set(answer.door, Math.max(slowest.get(answer.door) ?? 0, answer.ms));
    console.log(
      `bounded work, slowest answer per door: ${[...slowest].map(([door, ms]) => `${door} ${ms.toFixed(0)} ms`).join('; ')}\n` +
        `/health while the doors are fired: ${figures(doorLatencies)}\n` +
        `/health while the 1 MB login is fired: ${figures(loginLatencies)} (target p99 < 100 ms)`,
    );
    expect(doorLatencies.length).toBeGreaterThan(50);
    expect(loginLatencies.length).toBeGreaterThan(50);
    expect(percentile(doorLatencies, 0.99)).toBeLessThan(HEALTH_P99_BOUND_MS);
    expect(percentile(loginLatencies, 0.99)).toBeLessThan(HEALTH_P99_BOUND_MS);
  }, 120_000);

  it('keeps a body with a few problems answered in full', async () => {
    const body = shipmentBody(carrierId, { reference: '', type: 'sideways', colour: 'red' });
    const response = await t.request('POST', `/orgs/${t.org.orgId}/shipments`, { body });
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([
      { path: 'body.reference', message: 'Required' },
      { path: 'body.type', message: 'Must be one of: outbound, inbound' },
      { path: 'body.colour', message: 'Unknown field "colour"' },
    ]);
  });
});

describe('a request body that does not arrive', () => {
  it('is refused after 30 s: Node’s request and header limits are set, and looked at every second', () => {
    const http = t.server.server;
    expect(REQUEST_TIMEOUT_MS).toBe(30_000);
    expect(http.requestTimeout).toBe(30_000);
    expect(http.headersTimeout).toBeLessThanOrEqual(30_000);
  });

  it('is answered 400 in the one error body once the limit passes, while /health answers', async () => {
    // The same server with a 1 s limit, so the test does not wait 30 s.
    const server = buildServer(t.app, { requestTimeoutMs: 1_000 });
    const url = await listen(server, '127.0.0.1', 0);
    try {
      const { port } = new URL(url);
      const socket = connect(Number(port), '127.0.0.1');
      const started = performance.now();
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.write(`POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":`);
      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(200);
      await closed;
      const waited = performance.now() - started;
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toContain('"message":"The request took too long to arrive"');
      expect(waited).toBeGreaterThanOrEqual(900);
      expect(waited).toBeLessThan(3_500);
    } finally {
      await server.close();
    }
  });
});
