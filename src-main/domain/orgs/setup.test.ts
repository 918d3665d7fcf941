import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppContext } from '../../app/kernel/context';
import { createAppContext } from '../../app/runtime/createApp';
import { buildServer, listen } from '../../http/server';
import type { FastifyInstance } from 'fastify';

let dir: string;
let app: AppContext;
let server: FastifyInstance;
let url: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shipdesk-setup-'));
  app = createAppContext({ dataDir: dir, checkResponses: true });
  server = buildServer(app);
  url = await listen(server, '127.0.0.1', 0);
});
afterAll(async () => {
  await server.close();
  app.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (body: unknown) =>
  fetch(`${url}/setup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as any,
  }));

describe('first-run setup', () => {
  it('is needed on an empty installation, creates org and owner once, and logs in', async () => {
    expect(await (await fetch(`${url}/setup`)).json()).toEqual({ needsSetup: true });
    expect((await post({ orgName: 'Acme', name: 'Ann', email: 'ann@acme.example', password: 'short' })).status).toBe(400);
    const res = await post({ orgName: 'Acme', name: 'Ann', email: 'Ann@Acme.example', password: 'long enough' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ tokenType: 'Bearer', user: { name: 'Ann', email: 'ann@acme.example' }, orgs: [{ name: 'Acme', role: 'owner' }] });
    const org = await fetch(`${url}/orgs/${res.body.orgs[0].id}`, { headers: { authorization: `Bearer ${res.body.accessToken}` } });
    expect(org.status).toBe(200);
    expect(await (await fetch(`${url}/setup`)).json()).toEqual({ needsSetup: false });
  });

  it('refuses a second setup, so the public endpoint is no way in', async () => {
    const res = await post({ orgName: 'Evil', name: 'Eve', email: 'eve@evil.example', password: 'long enough' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CONFLICT');
    const users = app.db.$client.prepare('SELECT count(*) AS n FROM users').get() as { n: number };
    expect(users.n).toBe(1);
  });
});
