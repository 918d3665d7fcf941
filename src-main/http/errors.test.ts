import { hostname } from 'node:os';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestOrg, type TestServer } from '../testing/harness';
import { BODY_LIMIT } from './server';
import { toApiError } from '../app/dispatcher/errors';
import { allowedHostnames, hostnameOf, stationUrls } from './hosts';

let t: TestServer;
let port: number;
beforeAll(async () => {
  t = await startTestServer();
  port = Number(new URL(t.url).port);
});
afterAll(async () => t.close());

/** fetch forbids setting Host; node:http does not. */
function rawRequest(options: { method?: string; path: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any }>((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: options.headers ?? {}, setHost: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** Writes raw bytes on a socket and collects everything the server answers until it closes. */
function rawSocket(data: string) {
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(data));
    let out = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (out += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = out.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), body: body ? JSON.parse(body) : undefined });
    });
  });
}

const errorKeys = ['code', 'error', 'message'];
function expectErrorBody(body: any, code: string, status: number, reason: string) {
  const keys = Object.keys(body).sort();
  if (code === 'VALIDATION_FAILED') expect(keys).toEqual([...errorKeys, 'details'].sort());
  else expect(keys).toEqual(errorKeys);
  expect(body.code).toBe(code);
  expect(body.error).toBe(reason);
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  expect(status).toBeGreaterThanOrEqual(400);
}

describe('error bodies', () => {
  it('have exactly {code, error, message}, plus details for validation errors', async () => {
    const org = `/orgs/${t.org.orgId}`;
    const cases: [Promise<{ status: number; body: any; headers: Headers }>, number, string, string][] = [
      [t.request('GET', org, { token: null }), 401, 'UNAUTHORIZED', 'Unauthorized'],
      [t.request('GET', org, { token: 'shpd_unknown' }), 401, 'AUTH_TOKEN_INVALID', 'Unauthorized'],
      [t.request('GET', '/orgs/org_someone_else'), 403, 'ORG_ACCESS_DENIED', 'Forbidden'],
      [t.request('GET', `${org}/sender-addresses/adr_unknown`), 404, 'ADDRESS_NOT_FOUND', 'Not Found'],
      [t.request('GET', `${org}/api-tokens/tok_unknown`), 404, 'TOKEN_NOT_FOUND', 'Not Found'],
      [t.request('GET', '/no/such/route'), 404, 'NOT_FOUND', 'Not Found'],
      [t.request('PUT', org, { body: { slug: 'Bad Slug' } }), 400, 'VALIDATION_FAILED', 'Bad Request'],
      [t.request('PUT', org, { rawBody: '{"name": ' }), 400, 'BAD_REQUEST', 'Bad Request'],
      [t.request('PUT', org, { rawBody: 'x'.repeat(BODY_LIMIT + 1) }), 413, 'PAYLOAD_TOO_LARGE', 'Payload Too Large'],
      [
        t.request('PUT', org, { rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'Unsupported Media Type',
      ],
    ];
    for (const [pending, status, code, reason] of cases) {
      const res = await pending;
      expect(res.status, code).toBe(status);
      expect(res.headers.get('content-type'), code).toMatch(/^application\/json/);
      expectErrorBody(res.body, code, res.status, reason);
    }
    const validation = await t.request('PUT', org, { body: { slug: 'Bad Slug' } });
    expect(validation.body.details).toEqual([{ path: 'body.slug', message: expect.any(String) }]);
  });

  it('malformed JSON is 400 BAD_REQUEST, on every operation with a body', async () => {
    for (const rawBody of ['{', '{"a":1,}', "{'a':1}", 'undefined', '[1, 2']) {
      const res = await t.request('POST', `/orgs/${t.org.orgId}/api-tokens`, { rawBody });
      expect(res.status, rawBody).toBe(400);
      expect(res.body.code, rawBody).toBe('BAD_REQUEST');
    }
    // Valid JSON whose key the parser will not build is an unknown field, like any other (decisions §1).
    for (const [rawBody, path] of [
      ['{"name":"x","scopes":["read:all"],"__proto__": {"x": 1}}', 'body.__proto__'],
      ['{"name":"x","constructor":{"prototype":{"x":1}}}', 'body.constructor.prototype'],
    ] as const) {
      const res = await t.request('POST', `/orgs/${t.org.orgId}/api-tokens`, { rawBody });
      expect([res.status, res.body.code], rawBody).toEqual([400, 'VALIDATION_FAILED']);
      expect(res.body.details, rawBody).toEqual([{ path, message: expect.stringContaining('Unknown field') }]);
    }
    const login = await t.request('POST', '/auth/login', { token: null, rawBody: '{"email":' });
    expect(login.status).toBe(400);
    expect(login.body.code).toBe('BAD_REQUEST');
  });

  it('accepts application/json with a charset', async () => {
    const res = await t.request('PUT', `/orgs/${t.org.orgId}`, {
      body: { description: 'charset' },
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(200);
    expect(res.body.description).toBe('charset');
  });

  it('a body over 1 MiB is 413 PAYLOAD_TOO_LARGE, also when sent without a Content-Length', async () => {
    const big = JSON.stringify({ description: 'x'.repeat(BODY_LIMIT) });
    const res = await t.request('PUT', `/orgs/${t.org.orgId}`, { rawBody: big });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
    const chunked = await rawRequest({
      method: 'PUT',
      path: `/orgs/${t.org.orgId}`,
      headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${t.org.token}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: big,
    });
    expect(chunked.status).toBe(413);
    expect(chunked.body.code).toBe('PAYLOAD_TOO_LARGE');
    // Just under the limit is read (and then judged by the schema: the text is too long).
    const under = await t.request('PUT', `/orgs/${t.org.orgId}`, { rawBody: JSON.stringify({ description: 'x'.repeat(BODY_LIMIT - 100) }) });
    expect(under.status).toBe(400);
    expect(under.body.code).toBe('VALIDATION_FAILED');
  });

  it('an unknown route is a JSON 404 NOT_FOUND, whatever the method; under /orgs/ without a credential it is 401', async () => {
    for (const method of ['GET', 'POST', 'DELETE', 'PATCH']) {
      const res = await t.request(method, '/orgs/x/nothing-here');
      expect(res.status, method).toBe(404);
      expect(res.body).toEqual({ code: 'NOT_FOUND', error: 'Not Found', message: expect.stringContaining('/orgs/x/nothing-here') });
      const anonymous = await t.request(method, '/orgs/x/nothing-here', { token: null });
      expect(anonymous.status, method).toBe(401);
      expect(anonymous.body).toEqual({ code: 'UNAUTHORIZED', error: 'Unauthorized', message: "Missing credential: send 'Authorization: Bearer <token>'" });
      expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="Shipdesk"');
      expect((await t.request(method, '/nothing-here', { token: null })).status).toBe(404);
    }
    // The wrong method on a known path is not found too.
    const wrongMethod = await t.request('DELETE', `/orgs/${t.org.orgId}`);
    expect(wrongMethod.status).toBe(404);
    expect(wrongMethod.body.code).toBe('NOT_FOUND');
  });

  it('a bad URL encoding or an over-long path parameter is 400 BAD_REQUEST with the error body', async () => {
    const headers = { host: `127.0.0.1:${port}`, authorization: `Bearer ${t.org.token}` };
    for (const path of ['/orgs/%E0%A4%A', `/orgs/${t.org.orgId}/api-tokens/%zz`, `/orgs/${'x'.repeat(200)}`]) {
      const res = await rawRequest({ path, headers });
      expect(res.status, path).toBe(400);
      expect(res.headers['content-type'], path).toMatch(/^application\/json/);
      expectErrorBody(res.body, 'BAD_REQUEST', res.status, 'Bad Request');
    }
    // A path parameter longer than an id can be is a validation error.
    const long = await t.request('GET', `/orgs/${t.org.orgId}/api-tokens/${'x'.repeat(65)}`);
    expect(long.status).toBe(400);
    expect(long.body.code).toBe('VALIDATION_FAILED');
  });

  it('malformed HTTP, oversized headers and a missing Host get the error body too', async () => {
    const garbage = await rawSocket('GARBAGE\r\n\r\n');
    expect(garbage.status).toBe(400);
    expectErrorBody(garbage.body, 'BAD_REQUEST', 400, 'Bad Request');
    const big = await rawSocket(`GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(big.status).toBe(400);
    expectErrorBody(big.body, 'BAD_REQUEST', 400, 'Bad Request');
    const noHost = await rawSocket('GET /health HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(noHost.status).toBe(403);
    expectErrorBody(noHost.body, 'FORBIDDEN', 403, 'Forbidden');
  });

  it('an unexpected failure becomes INTERNAL_ERROR without its message, stack or SQL', () => {
    const error = new Error('SQLITE_CONSTRAINT: UNIQUE constraint failed: orgs.slug');
    const mapped = toApiError(error);
    expect(mapped.status).toBe(500);
    expect(mapped.toBody()).toEqual({ code: 'INTERNAL_ERROR', error: 'Internal Server Error', message: expect.any(String) });
    expect(JSON.stringify(mapped.toBody())).not.toMatch(/SQLITE|constraint|at /);
  });
});

describe('localhost hardening', () => {
  const get = (host: string) => rawRequest({ path: '/health', headers: { host } });

  it('refuses requests addressed to another host name (DNS rebinding) with 403', async () => {
    for (const host of ['evil.example', `evil.example:${port}`, 'localhost.evil.example', `127.0.0.1.nip.io:${port}`, 'evil.example:80@127.0.0.1', '']) {
      const res = await get(host);
      expect(res.status, host).toBe(403);
      expect(res.body.code, host).toBe('FORBIDDEN');
      expect(Object.keys(res.body).sort()).toEqual(errorKeys);
    }
    // Refused before anything else happens, also on unknown routes and with a valid credential.
    const unknown = await rawRequest({ path: '/nothing', headers: { host: 'evil.example' } });
    expect(unknown.status).toBe(403);
    const withToken = await rawRequest({ path: `/orgs/${t.org.orgId}`, headers: { host: 'evil.example', authorization: `Bearer ${t.org.token}` } });
    expect(withToken.status).toBe(403);
  });

  it('refuses a second Host header and a request line naming another host, whichever comes first', async () => {
    const orgPath = `/orgs/${t.org.orgId}`;
    const auth = `Authorization: Bearer ${t.org.token}\r\n`;
    for (const hosts of [
      [`127.0.0.1:${port}`, 'evil.example'],
      ['evil.example', `127.0.0.1:${port}`],
      [`127.0.0.1:${port}`, `127.0.0.1:${port}`],
    ]) {
      const res = await rawSocket(`GET ${orgPath} HTTP/1.1\r\n${hosts.map((host) => `Host: ${host}\r\n`).join('')}${auth}Connection: close\r\n\r\n`);
      expect(res.status, hosts.join(' + ')).toBeGreaterThanOrEqual(400);
      expect(res.body.code, hosts.join(' + ')).toMatch(/^(BAD_REQUEST|FORBIDDEN)$/);
      expect(JSON.stringify(res.body)).not.toContain(t.org.orgId.slice(4));
    }
    for (const target of [`http://evil.example${orgPath}`, `http://evil.example:${port}${orgPath}`, `HTTP://user@evil.example${orgPath}`]) {
      const res = await rawSocket(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${auth}Connection: close\r\n\r\n`);
      expect([res.status, res.body.code], target).toEqual([403, 'FORBIDDEN']);
    }
    // The absolute form naming this server itself is fine (a proxy-style client).
    const own = await rawSocket(`GET http://127.0.0.1:${port}${orgPath} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${auth}Connection: close\r\n\r\n`);
    expect(own.status).toBe(200);
  });

  it('accepts localhost, 127.0.0.1 and [::1], with or without the port, in any case', async () => {
    for (const host of ['localhost', `localhost:${port}`, '127.0.0.1', `127.0.0.1:${port}`, '[::1]', `[::1]:${port}`, `LOCALHOST:${port}`]) {
      const res = await get(host);
      expect(res.status, host).toBe(200);
      expect(res.body.status).toBe('ok');
    }
  });

  it('allows the configured host too', () => {
    expect(allowedHostnames('192.168.1.20').has('192.168.1.20')).toBe(true);
    expect(allowedHostnames('Hub.Local').has(hostnameOf('hub.local:4848'))).toBe(true);
    expect(allowedHostnames('fe80::1').has(hostnameOf('[FE80::1]:4848'))).toBe(true);
    expect(allowedHostnames('FE80::1').has(hostnameOf('[fe80::1]:4848'))).toBe(true);
    expect(allowedHostnames('[FE80::2]').has(hostnameOf('[fe80::2]'))).toBe(true);
    expect(allowedHostnames(undefined).has(hostnameOf('evil.example'))).toBe(false);
  });

  it('bound to every interface, allows its own addresses, host name and mDNS name, and nothing else', () => {
    const name = hostname().toLowerCase();
    for (const bound of ['0.0.0.0', '::']) {
      const allowed = allowedHostnames(bound);
      expect(allowed.has(hostnameOf(`${name}:4848`))).toBe(true);
      if (!name.includes('.')) expect(allowed.has(hostnameOf(`${name.toUpperCase()}.LOCAL:4848`))).toBe(true);
      expect(allowed.has('127.0.0.1')).toBe(true);
      expect(allowed.has(hostnameOf('evil.example'))).toBe(false);
      expect(allowed.has(hostnameOf(`${name}.evil.example`))).toBe(false);
    }
    expect(allowedHostnames('127.0.0.1').has(`${name}.local`)).toBe(false);
  });

  it('names the addresses stations can type when bound to every interface, and every one passes the Host check', () => {
    expect(stationUrls('127.0.0.1', 4848)).toEqual([]);
    const urls = stationUrls('0.0.0.0', 4848);
    expect(urls.length).toBeGreaterThan(0);
    const allowed = allowedHostnames('0.0.0.0');
    for (const url of urls) {
      expect(url).not.toContain('0.0.0.0');
      expect(url).toMatch(/:4848$/);
      expect(allowed.has(hostnameOf(new URL(url).host)), url).toBe(true);
    }
  });

  it('sends no CORS headers, even to a request with an Origin', async () => {
    const origin = { origin: 'https://evil.example' };
    const res = await t.request('GET', `/orgs/${t.org.orgId}`, { headers: origin });
    expect(res.status).toBe(200);
    for (const [name] of res.headers) expect(name).not.toMatch(/^access-control-/);
    const preflight = await t.request('OPTIONS', `/orgs/${t.org.orgId}`, {
      token: null,
      headers: { ...origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization' },
    });
    for (const [name] of preflight.headers) expect(name).not.toMatch(/^access-control-/);
    expect(preflight.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('set-cookie')).toBeNull();
  });
});

describe('GET /health', () => {
  it('needs no credential and answers {status, version, timestamp}', async () => {
    const res = await t.request('GET', '/health', { token: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version: expect.stringMatching(/^\d+\.\d+\.\d+/), timestamp: expect.any(String) });
    expect(res.body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // A bad credential does not spoil a public read.
    expect((await t.request('GET', '/health', { token: 'shpd_bad' })).status).toBe(200);
  });
});

describe('pagination', () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await t.createOrg();
  });
  const list = (query: string, path = 'api-tokens') => t.request('GET', `/orgs/${org.orgId}/${path}${query}`, { token: org.token });

  it('rejects out-of-range and non-integer page and limit with 400, never clamping', async () => {
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=abc',
      'limit=1.5',
      'limit=-1',
      'limit=',
      'page=0',
      'page=-1',
      'page=1.5',
      'page=abc',
      'page=9007199254740992',
      'page=1e400',
      'limit=Infinity',
      'foo=1',
    ]) {
      const res = await list(`?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code, query).toBe('VALIDATION_FAILED');
      expect(res.body.details[0].path, query).toMatch(/^query/);
      // Each problem once, even when two checks word it alike.
      expect(new Set(res.body.details.map((detail: unknown) => JSON.stringify(detail))).size, query).toBe(res.body.details.length);
    }
  });

  it('says what a page or limit must be, also when the key is given twice', async () => {
    for (const [query, path, message] of [
      ['page=abc', 'query.page', 'Must be a whole number from 1 to 9007199254740991'],
      ['page=1&page=2', 'query.page', 'Must be a whole number from 1 to 9007199254740991'],
      ['limit=', 'query.limit', 'Must be a whole number from 1 to 100'],
      ['limit=101', 'query.limit', 'Must be at most 100'],
    ]) {
      const res = await list(`?${query}`);
      expect(res.body.details, query).toEqual([{ path, message }]);
    }
  });

  it('accepts the bounds and defaults to page 1, limit 20', async () => {
    expect((await list('')).body).toMatchObject({ page: 1, limit: 20, total: 1, totalPages: 1 });
    expect((await list('?limit=1')).body).toMatchObject({ limit: 1 });
    expect((await list('?limit=100')).body).toMatchObject({ limit: 100 });
  });

  it('a page past the end returns data [] with the true total, even for the largest page number', async () => {
    const res = await list('?page=9007199254740991');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], total: 1, page: 9007199254740991, limit: 20, totalPages: 1 });
    const page2 = await list('?page=2&limit=1');
    expect(page2.body).toEqual({ data: [], total: 1, page: 2, limit: 1, totalPages: 1 });
  });

  it('totalPages is 0 when there is nothing', async () => {
    const res = await list('', 'sender-addresses');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], total: 0, page: 1, limit: 20, totalPages: 0 });
  });
});

describe('host check when bound to every interface', () => {
  it('accepts the machine’s own addresses and host name, and nothing else', async () => {
    const { allowedHostnames } = await import('./hosts');
    const { hostname, networkInterfaces } = await import('node:os');
    const names = allowedHostnames('0.0.0.0');
    const own = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .find((a) => a.family === 'IPv4');
    if (own) expect(names.has(own.address)).toBe(true);
    expect(names.has(hostname().toLowerCase())).toBe(true);
    expect(names.has('evil.example')).toBe(false);
  });
});

describe('while the server closes', () => {
  it('a request that completes after close() began gets 503 SERVICE_UNAVAILABLE in the one error body', async () => {
    const own = await startTestServer();
    const { port } = new URL(own.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const ended = new Promise((resolve) => socket.once('close', resolve));
    // Half a request: the connection is busy, so closing waits for it instead of dropping it.
    socket.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = own.server.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.write('\r\n');
    await ended;
    await closed;
    own.app.close();
    expect(answer).toMatch(/^HTTP\/1\.1 503 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown;
    expect(body).toEqual({ code: 'SERVICE_UNAVAILABLE', error: 'Service Unavailable', message: expect.stringContaining('shutting down') });
  });
});
