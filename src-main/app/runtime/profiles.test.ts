import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient, httpTransport } from '../../../src-shared/client';
import { spawnServe, type ServeProcess } from '../../testing/serveProcess';
import { senderAddressBody } from '../../testing/harness';

/**
 * Demo mode through the real headless server (the process `npm run serve` runs): the sample
 * warehouse goes into a second file in the data folder, the real file is not changed by a byte
 * while the demo is open, and leaving it serves the real data again on the same port.
 */
let dir: string;
let serve: ServeProcess;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shipdesk-demo-'));
  const env: NodeJS.ProcessEnv = { ...process.env, SHIPDESK_DATA_DIR: dir };
  delete env.SHIPDESK_PROFILE;
  serve = await spawnServe(['--port', '0'], env);
}, 60_000);
afterAll(async () => {
  if (serve.child.exitCode === null) {
    const exited = new Promise((resolve) => serve.child.once('exit', resolve));
    serve.child.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

const clientWith = (token: string | undefined) => createClient(httpTransport({ baseUrl: serve.url, getToken: () => token }));
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The switch answers first and then reopens the doors; ask until the other profile answers. */
async function waitForProfile(demo: boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const answer = await clientWith(undefined)
      .call('profile.get', {})
      .catch(() => null);
    if (answer?.demo === demo) return;
    if (Date.now() > deadline) throw new Error(`The server did not switch to demo=${demo}:\n${serve.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it('demo mode fills a second file with a sample warehouse, leaves the real file untouched, and goes back', async () => {
  const realFile = join(dir, 'shipdesk.sqlite');
  const demoFile = join(dir, 'shipdesk-demo.sqlite');
  const anonymous = clientWith(undefined);
  expect(await anonymous.call('profile.get', {})).toEqual({ demo: false });
  const owner = await anonymous.call('setup.create', {
    body: { orgName: 'Real Warehouse', name: 'Rita Real', email: 'rita@real.example', password: 'a long password' },
  });
  const realOrgId = owner.orgs[0]?.id as string;
  const real = clientWith(owner.accessToken);
  await real.call('senderAddresses.create', { params: { orgId: realOrgId }, body: senderAddressBody({ name: 'The real dock' }) });

  // An API token may not switch: the answer is a login.
  const token = await real.call('apiTokens.create', { params: { orgId: realOrgId }, body: { name: 'script', scopes: ['write:all'] } });
  await expect(clientWith(token.token).call('profile.startDemo', { params: { orgId: realOrgId } })).rejects.toMatchObject({ code: 'FORBIDDEN' });

  const demoLogin = await real.call('profile.startDemo', { params: { orgId: realOrgId } });
  expect(demoLogin.user).toEqual(owner.user);
  expect(demoLogin.orgs).toEqual([{ id: expect.stringMatching(/^org_/), name: 'Nordlys Demo Warehouse', role: 'owner' }]);
  await waitForProfile(true);
  expect(existsSync(demoFile)).toBe(true);
  const realBytes = sha256(realFile);

  const demo = clientWith(demoLogin.accessToken);
  const demoOrgId = demoLogin.orgs[0]?.id as string;
  const params = { orgId: demoOrgId };
  const orders = await demo.call('orders.list', { params, query: { limit: 100 } });
  expect(orders.total).toBe(36);
  expect(new Set(orders.data.map((order) => order.status))).toEqual(new Set(['pending', 'processing', 'fulfilled', 'cancelled']));
  expect((await demo.call('shipments.list', { params, query: { status: 'dispatched' } })).total).toBe(8);
  expect((await demo.call('shipments.list', { params, query: { status: 'on_hold' } })).total).toBe(2);
  expect((await demo.call('carriers.list', { params })).data.map((carrier) => carrier.carrierSlug)).toEqual(['local']);
  expect((await demo.call('shippingRules.list', { params })).total).toBe(3);
  expect((await demo.call('senderAddresses.list', { params })).data.map((address) => address.name)).toEqual(['Nordlys warehouse']);
  // The same person signs in there with the same password; the real organization is not in the demo.
  const again = await anonymous.call('auth.login', { body: { email: 'rita@real.example', password: 'a long password' } });
  expect(again.orgs.map((org) => org.id)).toEqual([demoOrgId]);
  await expect(demo.call('senderAddresses.list', { params: { orgId: realOrgId } })).rejects.toMatchObject({ code: 'ORG_ACCESS_DENIED' });
  // Work done in the demo stays there.
  await demo.call('senderAddresses.create', { params, body: senderAddressBody({ name: 'A demo dock' }) });
  await expect(demo.call('profile.startDemo', { params })).rejects.toMatchObject({ code: 'CONFLICT' });

  const back = await demo.call('profile.leaveDemo', { params });
  expect(back.orgs).toEqual([{ id: realOrgId, name: 'Real Warehouse', role: 'owner' }]);
  await waitForProfile(false);
  // Untouched by the demo: the same bytes as when the demo opened (the real file was closed then).
  expect(sha256(realFile)).toBe(realBytes);
  const realAgain = clientWith(back.accessToken);
  expect((await realAgain.call('senderAddresses.list', { params: { orgId: realOrgId } })).data.map((address) => address.name)).toEqual(['The real dock']);
  expect((await realAgain.call('orders.list', { params: { orgId: realOrgId } })).total).toBe(0);
  await expect(realAgain.call('profile.leaveDemo', { params: { orgId: realOrgId } })).rejects.toMatchObject({ code: 'CONFLICT' });
  // The demo file is still beside it, holding only the demo.
  const demoDb = new Database(demoFile, { readonly: true });
  try {
    expect(demoDb.prepare('SELECT name FROM orgs').all()).toEqual([{ name: 'Nordlys Demo Warehouse' }]);
  } finally {
    demoDb.close();
  }
}, 90_000);
