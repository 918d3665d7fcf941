import { spawnServe } from '../testing/serveProcess';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppContext } from '../app/kernel/context';
import { createAppContext } from '../app/runtime/createApp';
import { createOrgWithOwner } from '../domain/orgs/orgs';
import { buildServer, listen } from './server';

/**
 * Headless mode: the API and the built renderer from one server. The renderer folder here is a
 * stand-in (index.html and one asset) inside a parent that holds a secret, so a path that escapes
 * the folder would find it.
 */

const indexHtml = '<!doctype html><title>Shipdesk</title><script type="module" src="./assets/index-abc.js"></script>';
let dir: string;
let app: AppContext;
let server: FastifyInstance;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shipdesk-headless-'));
  const rendererDir = join(dir, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), indexHtml);
  writeFileSync(join(rendererDir, 'assets', 'index-abc.js'), 'console.log("app")');
  writeFileSync(join(dir, 'secret.txt'), 'not for the browser');
  app = createAppContext({ dataDir: join(dir, 'data'), checkResponses: true });
  await createOrgWithOwner(app, { orgName: 'Headless Warehouse', email: 'owner@headless.example', password: 'correct horse battery staple' });
  server = buildServer(app, { rendererDir });
  base = await listen(server, '127.0.0.1', 0);
});
afterAll(async () => {
  await server.close();
  app.close();
  rmSync(dir, { recursive: true, force: true });
});

const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => fetch(base + path, { method, headers, redirect: 'manual' });

async function expectJson404(response: Response) {
  expect(response.status).toBe(404);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message']);
  expect(body).toMatchObject({ code: 'NOT_FOUND', error: 'Not Found' });
}

describe('the built renderer', () => {
  it('is served at / and its assets by name, with their type, nosniff and no-cache', async () => {
    const page = await get('/', browser);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(await page.text()).toBe(indexHtml);

    const asset = await get('/assets/index-abc.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await asset.text()).toBe('console.log("app")');

    const head = await get('/', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('sends a browser asking for a page by its path to the same page by hash (the renderer routes by hash)', async () => {
    for (const [path, location] of [
      ['/shipments', '/#/shipments'],
      ['/shipments/shp_01abc', '/#/shipments/shp_01abc'],
      ['/settings/printers/', '/#/settings/printers/'],
      ['/orders?status=pending&page=2', '/#/orders?status=pending&page=2'],
    ]) {
      const response = await get(path as string, browser);
      expect(response.status, path).toBe(302);
      expect(response.headers.get('location'), path).toBe(location);
    }
  });

  it('keeps a JSON 404 for unknown API paths, missing files and requests that are not a page load', async () => {
    // Under the API's roots, whatever the client accepts.
    for (const path of ['/ORGS/org_x/shipments', '/auth/nope', '/health/x', '/docs/x', '/openapi.json/x', '/setup/x']) {
      await expectJson404(await get(path, browser));
    }
    // Under /orgs/ a credential comes first (decisions §3): JSON too, never the app.
    const orgs = await get('/orgs/org_x/nope', browser);
    expect([orgs.status, orgs.headers.get('content-type'), ((await orgs.json()) as { code: string }).code]).toEqual([
      401,
      'application/json; charset=utf-8',
      'UNAUTHORIZED',
    ]);
    await expectJson404(await get('/orgs/org_x/nope', { ...browser, authorization: 'Bearer shpd_unknown' }));
    // A missing asset, and a script asking for a page path.
    await expectJson404(await get('/assets/index-gone.js', browser));
    await expectJson404(await get('/favicon.ico', browser));
    await expectJson404(await get('/shipments', { accept: 'application/json' }));
    await expectJson404(await get('/shipments'));
    // Not a read.
    await expectJson404(await fetch(`${base}/shipments`, { method: 'POST', headers: browser }));
    // Not a path the app has: no open redirect, nothing odd in a Location.
    await expectJson404(await get('//evil.example/x', browser));
  });

  it('never serves a file outside the renderer folder', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/..%5csecret.txt', '/%2e%2e%2fsecret.txt']) {
      const response = await rawGet(path, browser);
      expect(response.body, path).not.toContain('not for the browser');
      expect(response.status, path).toBe(404);
    }
  });

  it('refuses another Host for the app page too (DNS rebinding)', async () => {
    const response = await rawGet('/', { ...browser, host: 'evil.example' });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'FORBIDDEN', error: 'Forbidden' });
  });

  it('answers a malformed JSON body on an unknown path with the 404, not a JSON complaint', async () => {
    await expectJson404(
      await fetch(`${base}/orgs/org_x/nope`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer shpd_unknown' },
        body: '{bad',
      }),
    );
  });

  it('sends no CORS headers and no cookies on any answer, preflights included', async () => {
    const origin = { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' };
    const answers = [
      await get('/', { ...browser, origin: 'https://evil.example' }),
      await get('/shipments', browser),
      await get('/health', { origin: 'https://evil.example' }),
      await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
        body: JSON.stringify({ email: 'owner@headless.example', password: 'correct horse battery staple' }),
      }),
      await get('/', origin, 'OPTIONS'),
      await get('/orgs/org_x/shipments', origin, 'OPTIONS'),
      await get('/auth/login', origin, 'OPTIONS'),
    ];
    expect(answers[3]?.status).toBe(200);
    for (const answer of answers) {
      const names = [...answer.headers.keys()];
      expect(names.filter((name) => name.startsWith('access-control-'))).toEqual([]);
      expect(names).not.toContain('set-cookie');
    }
    // A preflight is an unknown route: the one error body, which a browser treats as a refusal.
    expect(answers[5]?.status).toBe(404);
    expect(await answers[5]?.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});

/** fetch forbids setting Host and normalizes `..`; node:http sends the path and headers as they are. */
function rawGet(path: string, headers: Record<string, string>) {
  const { port } = new URL(base);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers }, setHost: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('src-main/serve.ts', () => {
  it('starts on a free port, serves /health without a credential and the built app (or says it is not built), and stops on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'shipdesk-serve-'));
    const serve = await spawnServe(['--port', '0'], { ...process.env, SHIPDESK_DATA_DIR: dataDir });
    const { url, child } = serve;
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(200);
      const body = (await health.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['status', 'timestamp', 'version']);
      expect(body.status).toBe('ok');
      expect(new Date(body.timestamp as string).toISOString()).toBe(body.timestamp);

      const page = await fetch(`${url}/`, { headers: browser });
      if (existsSync(join('out', 'renderer', 'index.html'))) {
        expect(page.status).toBe(200);
        expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(await page.text()).toContain('<div id="root">');
      } else {
        await page.body?.cancel();
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(serve.output()).toContain('npm run build');
      }
    } finally {
      const exited = new Promise<number | null>((resolve) => {
        if (child.exitCode !== null) resolve(child.exitCode);
        else child.once('exit', resolve);
      });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('SHIPDESK_LOG=1', () => {
  it('logs each request by its path, never a credential sent in its query string', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'shipdesk-log-'));
    const serve = await spawnServe(['--port', '0'], { ...process.env, SHIPDESK_DATA_DIR: dataDir, SHIPDESK_LOG: '1' });
    const secret = 'shpd_NotToBeLoggedNotToBeLoggedNotToBeLogg';
    try {
      for (const query of [`access_token=${secret}`, `limit=5&token=${secret}`]) {
        const response = await fetch(`${serve.url}/orgs/org_logged/shipments?${query}`, { headers: { authorization: `Bearer ${secret}` } });
        await response.body?.cancel();
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(serve.output()).toContain('"url":"/orgs/org_logged/shipments"');
      expect(serve.output()).not.toContain('NotToBeLogged');
    } finally {
      const exited = new Promise((resolve) => serve.child.once('exit', resolve));
      serve.child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
