import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src-shared/operations';
import { ipcChannelOf } from '../../src-shared/operation';
import { ipcLogoutChannel, type IpcCallInput, type IpcEnvelope } from '../../src-shared/ipc';
import { ApiError } from '../../src-shared/errors';
import { createClient, ipcTransport } from '../../src-shared/client';
import { type AppContext } from '../app/kernel/context';
import { createAppContext } from '../app/runtime/createApp';
import { createOrgWithOwner } from '../domain/orgs/orgs';
import { senderAddressBody } from '../testing/harness';
import { registerIpcHandlers, type IpcInvokeEventLike, type IpcMainLike, type IpcRegistration } from './register';

type Listener = (event: IpcInvokeEventLike, ...args: unknown[]) => unknown;

/** ipcMain as a Map of channel → handler; `invoke` plays the renderer of one webContents. */
function fakeIpcMain() {
  const handlers = new Map<string, Listener>();
  const ipcMain: IpcMainLike = {
    handle(channel, listener) {
      if (handlers.has(channel)) throw new Error(`Second handler for ${channel}`);
      handlers.set(channel, listener);
    },
  };
  const invoke = async (channel: string, sender: { id: number; url?: string }, input?: unknown) => {
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`No handler for ${channel}`);
    const event: IpcInvokeEventLike = { sender: { id: sender.id }, senderFrame: { url: sender.url ?? 'app://shipdesk/index.html' } };
    return handler(event, input) as Promise<IpcEnvelope>;
  };
  return { ipcMain, handlers, invoke };
}

const email = 'packer@example.com';
const password = 'correct horse battery staple';
let dir: string;
let app: AppContext;
let orgId: string;
let fake: ReturnType<typeof fakeIpcMain>;
let registration: IpcRegistration;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shipdesk-ipc-'));
  app = createAppContext({ dataDir: dir, checkResponses: true });
  ({ orgId } = await createOrgWithOwner(app, { orgName: 'IPC Warehouse', email, password }));
  fake = fakeIpcMain();
  registration = registerIpcHandlers(fake.ipcMain, app, {
    isTrustedSender: (event) => event.senderFrame?.url.startsWith('app://shipdesk/') ?? false,
  });
});
afterAll(() => {
  app.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = (senderId: number, operationId: string, input?: IpcCallInput | unknown, url?: string) =>
  fake.invoke(ipcChannelOf(operationId), { id: senderId, ...(url ? { url } : {}) }, input);

function failed(envelope: IpcEnvelope) {
  expect(envelope.ok).toBe(false);
  return (envelope as Extract<IpcEnvelope, { ok: false }>).error;
}

describe('IPC door', () => {
  it('registers one handler per operation, plus logout, and returns the channels', () => {
    const expected = [...operations.map((op) => ipcChannelOf(op.id)), ipcLogoutChannel];
    expect(registration.channels).toEqual(expected);
    expect([...fake.handlers.keys()].sort()).toEqual([...expected].sort());
  });

  it('answers public operations without a session', async () => {
    const envelope = await call(1, 'system.health');
    expect(envelope).toMatchObject({ ok: true, data: { status: 'ok' } });
  });

  it('refuses authenticated operations before login with UNAUTHORIZED', async () => {
    const error = failed(await call(2, 'senderAddresses.list', { params: { orgId } }));
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.error).toBe('Unauthorized');
  });

  it('remembers the login per webContents; other windows stay logged out', async () => {
    const login = await call(3, 'auth.login', { body: { email, password } });
    expect(login).toMatchObject({ ok: true, data: { tokenType: 'Bearer', orgs: [{ id: orgId, role: 'owner' }] } });

    const created = await call(3, 'senderAddresses.create', { params: { orgId }, body: senderAddressBody() });
    expect(created.ok).toBe(true);
    const list = await call(3, 'senderAddresses.list', { params: { orgId }, query: { limit: 5 } });
    expect(list).toMatchObject({ ok: true, data: { total: 1, limit: 5 } });

    expect(failed(await call(4, 'senderAddresses.list', { params: { orgId } })).code).toBe('UNAUTHORIZED');
  });

  it('logs out through the logout channel and through forget()', async () => {
    await call(5, 'auth.login', { body: { email, password } });
    expect((await call(5, 'orgs.get', { params: { id: orgId } })).ok).toBe(true);
    await fake.invoke(ipcLogoutChannel, { id: 5 });
    expect(failed(await call(5, 'orgs.get', { params: { id: orgId } })).code).toBe('UNAUTHORIZED');

    await call(6, 'auth.login', { body: { email, password } });
    registration.forget(6);
    expect(failed(await call(6, 'orgs.get', { params: { id: orgId } })).code).toBe('UNAUTHORIZED');
  });

  it('keeps no session after a failed login', async () => {
    const error = failed(await call(7, 'auth.login', { body: { email, password: 'wrong password' } }));
    expect(error.code).toBe('AUTH_INVALID_CREDENTIALS');
    expect(failed(await call(7, 'orgs.get', { params: { id: orgId } })).code).toBe('UNAUTHORIZED');
  });

  it('refuses a sender frame that is not the app page, even with a session', async () => {
    await call(8, 'auth.login', { body: { email, password } });
    const error = failed(await call(8, 'orgs.get', { params: { id: orgId } }, 'https://evil.example/'));
    expect(error.code).toBe('FORBIDDEN');
    expect(failed(await call(9, 'system.health', undefined, 'file:///etc/passwd')).code).toBe('FORBIDDEN');
  });

  it('validates input with the operation schemas: VALIDATION_FAILED with details', async () => {
    await call(10, 'auth.login', { body: { email, password } });
    const error = failed(await call(10, 'senderAddresses.create', { params: { orgId }, body: { ...senderAddressBody(), colour: 'red' } }));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details?.length).toBeGreaterThan(0);
    expect(failed(await call(10, 'senderAddresses.list', { params: { orgId }, query: { limit: 1000 } })).code).toBe('VALIDATION_FAILED');
  });

  it('refuses malformed envelopes: not an object, or unknown parts', async () => {
    expect(failed(await call(11, 'system.health', 'hello')).code).toBe('VALIDATION_FAILED');
    expect(failed(await call(11, 'system.health', [1])).code).toBe('VALIDATION_FAILED');
    const error = failed(await call(11, 'system.health', { headers: { authorization: 'Bearer x' } }));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details?.[0]?.path).toBe('headers');
  });

  it('passes a CSV body as a string (orders.import)', async () => {
    await call(14, 'auth.login', { body: { email, password } });
    const channel = await call(14, 'orderChannels.create', { params: { orgId }, body: { name: 'IPC CSV', type: 'csv' } });
    const channelId = ((channel as Extract<IpcEnvelope, { ok: true }>).data as { id: string }).id;
    const csv = `orderNumber,orderChannelId,lineName,lineQuantity\nIPC-1,${channelId},Mug,1\n`;
    expect(await call(14, 'orders.import', { params: { orgId }, body: csv })).toEqual({ ok: true, data: { created: 1, skipped: 0, errors: [] } });
    expect(failed(await call(14, 'orders.import', { params: { orgId }, body: { csv } })).code).toBe('VALIDATION_FAILED');
  });

  it('denies another organization with ORG_ACCESS_DENIED', async () => {
    await call(12, 'auth.login', { body: { email, password } });
    expect(failed(await call(12, 'orgs.get', { params: { id: 'org_someone_else' } })).code).toBe('ORG_ACCESS_DENIED');
  });

  it('carries the typed client end to end (ipcTransport over the registered handlers)', async () => {
    const client = createClient(ipcTransport((operationId, input) => call(13, operationId, input)));
    const session = await client.call('auth.login', { body: { email, password } });
    expect(session.orgs[0]?.id).toBe(orgId);
    const created = await client.call('senderAddresses.create', { params: { orgId }, body: senderAddressBody({ city: 'Vejle' }) });
    const read = await client.call('senderAddresses.get', { params: { orgId, addressId: created.id } });
    expect(read.city).toBe('Vejle');
    const error = await client.call('senderAddresses.get', { params: { orgId, addressId: 'adr_nope' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('ADDRESS_NOT_FOUND');
  });
});

describe('IPC door on first run', () => {
  it('signs the window in with the setup answer, as with a login (the setup screen goes straight to the app)', async () => {
    const firstRunDir = mkdtempSync(join(tmpdir(), 'shipdesk-ipc-setup-'));
    const firstRun = createAppContext({ dataDir: firstRunDir, checkResponses: true });
    try {
      const door = fakeIpcMain();
      registerIpcHandlers(door.ipcMain, firstRun, { isTrustedSender: () => true });
      const invoke = (operationId: string, input?: IpcCallInput) => door.invoke(ipcChannelOf(operationId), { id: 1 }, input);

      expect(await invoke('setup.status')).toEqual({ ok: true, data: { needsSetup: true } });
      const setup = await invoke('setup.create', {
        body: { orgName: 'First Run Warehouse', name: 'Owner', email: 'first@example.com', password: 'first run password' },
      });
      expect(setup.ok).toBe(true);
      const answer = (setup as Extract<IpcEnvelope, { ok: true }>).data as { orgs: { id: string }[] };
      const newOrgId = answer.orgs[0]?.id as string;

      // The very next call of the signed-in shell works without a separate login.
      expect(await invoke('orgs.get', { params: { id: newOrgId } })).toMatchObject({ ok: true, data: { id: newOrgId, name: 'First Run Warehouse' } });
      // Only this window: another one is still signed out.
      const other = await door.invoke(ipcChannelOf('orgs.get'), { id: 2 }, { params: { id: newOrgId } });
      expect(failed(other).code).toBe('UNAUTHORIZED');
    } finally {
      firstRun.close();
      rmSync(firstRunDir, { recursive: true, force: true });
    }
  });
});

describe('IPC door and password changes', () => {
  it('keeps the window signed in with the answer of its own password change; another window’s earlier login ends', async () => {
    const other = await createOrgWithOwner(app, { orgName: 'Password Warehouse', email: 'changer@example.com', password: 'the old password' });
    expect((await call(40, 'auth.login', { body: { email: 'changer@example.com', password: 'the old password' } })).ok).toBe(true);
    expect((await call(41, 'auth.login', { body: { email: 'changer@example.com', password: 'the old password' } })).ok).toBe(true);

    const changed = await call(40, 'auth.changePassword', { body: { currentPassword: 'the old password', newPassword: 'the new password' } });
    expect(changed).toMatchObject({ ok: true, data: { tokenType: 'Bearer', user: { id: other.userId } } });
    expect(await call(40, 'orgs.get', { params: { id: other.orgId } })).toMatchObject({ ok: true, data: { id: other.orgId } });
    expect(failed(await call(41, 'orgs.get', { params: { id: other.orgId } }))).toMatchObject({
      code: 'AUTH_TOKEN_INVALID',
      message: 'The password was changed after this login; log in again',
    });
  });
});
