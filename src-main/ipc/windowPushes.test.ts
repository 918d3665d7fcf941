import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ipcChannelOf } from '../../src-shared/operation';
import { ipcEventChannelOf, ipcLogoutChannel, type IpcEnvelope } from '../../src-shared/ipc';
import type { AppContext } from '../app/kernel/context';
import { createAppContext } from '../app/runtime/createApp';
import { createOrgWithOwner } from '../domain/orgs/orgs';
import { senderAddressBody } from '../testing/harness';
import { registerIpcHandlers, type IpcInvokeEventLike, type IpcRegistration } from './register';
import { forwardPushesToWindow } from './windowPushes';

type Listener = (event: IpcInvokeEventLike, ...args: unknown[]) => unknown;

const password = 'correct horse battery staple';
let dir: string;
let app: AppContext;
let registration: IpcRegistration;
const handlers = new Map<string, Listener>();
let acme: { orgId: string };
let other: { orgId: string };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shipdesk-window-pushes-'));
  app = createAppContext({ dataDir: dir, checkResponses: true });
  acme = await createOrgWithOwner(app, { orgName: 'Acme', email: 'acme@example.com', password });
  other = await createOrgWithOwner(app, { orgName: 'Other', email: 'other@example.com', password });
  registration = registerIpcHandlers({ handle: (channel, listener) => handlers.set(channel, listener) }, app, { isTrustedSender: () => true });
});
afterAll(() => {
  app.close();
  rmSync(dir, { recursive: true, force: true });
});

const invoke = (senderId: number, channel: string, input?: unknown) =>
  (handlers.get(channel) as Listener)({ sender: { id: senderId }, senderFrame: { url: 'app://shipdesk/index.html' } }, input) as Promise<IpcEnvelope>;
const call = async (senderId: number, operationId: string, input?: unknown) => {
  const envelope = await invoke(senderId, ipcChannelOf(operationId), input);
  if (!envelope.ok) throw new Error(JSON.stringify(envelope.error));
  return envelope.data as Record<string, any>;
};

/** A window's webContents as far as pushes go: what was sent to it, on which channel. */
function fakeWindow() {
  const sent: { channel: string; payload: Record<string, unknown> }[] = [];
  let destroyed = false;
  return {
    sent,
    destroy: () => (destroyed = true),
    window: { send: (channel: string, payload: unknown) => sent.push({ channel, payload: payload as Record<string, unknown> }), isDestroyed: () => destroyed },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

async function newShipment(senderId: number, orgId: string) {
  const address = await call(senderId, 'senderAddresses.create', { params: { orgId }, body: senderAddressBody() });
  const carrier = await call(senderId, 'carriers.create', {
    params: { orgId },
    body: { name: 'Own trucks', carrierSlug: 'local', config: {}, senderAddressId: address.id },
  });
  const shipment = await call(senderId, 'shipments.create', {
    params: { orgId },
    body: {
      type: 'outbound',
      carrierSettings: { carrierId: carrier.id, productId: 'local_parcel' },
      parties: [{ type: 'receiver', name: 'Jens Hansen', address1: 'Nørregade 1', postalCode: '1165', city: 'København K', countryCode: 'DK' }],
      parcels: [{ weight: 1, weightUnit: 'kg', dimensions: { length: 10, width: 10, height: 10 } }],
    },
  });
  return shipment.id as string;
}

describe('pushes to a desktop window', () => {
  it("forwards committed changes of the window's organizations only, and nothing once it signed out", async () => {
    await call(1, 'auth.login', { body: { email: 'acme@example.com', password } });
    await call(2, 'auth.login', { body: { email: 'other@example.com', password } });
    const acmeWindow = fakeWindow();
    const otherWindow = fakeWindow();
    const anonymous = fakeWindow();
    const stops = [
      forwardPushesToWindow(app, acmeWindow.window, () => registration.sessionOf(1)),
      forwardPushesToWindow(app, otherWindow.window, () => registration.sessionOf(2)),
      forwardPushesToWindow(app, anonymous.window, () => registration.sessionOf(3)),
    ];

    const shipmentId = await newShipment(1, acme.orgId);
    await call(1, 'shipments.send', { params: { orgId: acme.orgId, shipmentId } });
    await settle();
    const channel = ipcEventChannelOf('shipment.statusChanged');
    expect(acmeWindow.sent.filter((item) => item.channel === channel && item.payload.shipmentId === shipmentId).map((item) => item.payload.status)).toContain(
      'dispatched',
    );
    expect(acmeWindow.sent.every((item) => item.payload.orgId === acme.orgId)).toBe(true);
    expect(otherWindow.sent).toEqual([]);
    expect(anonymous.sent).toEqual([]);

    const theirs = await newShipment(2, other.orgId);
    await settle();
    expect(otherWindow.sent).toEqual([{ channel, payload: { orgId: other.orgId, shipmentId: theirs, status: 'pending', previousStatus: null } }]);
    expect(acmeWindow.sent.some((item) => item.payload.shipmentId === theirs)).toBe(false);

    // Signed out: the window hears nothing more; a closed window is not written to.
    await invoke(1, ipcLogoutChannel);
    otherWindow.destroy();
    const before = [acmeWindow.sent.length, otherWindow.sent.length];
    await call(2, 'shipments.update', { params: { orgId: other.orgId, shipmentId: theirs }, body: { status: 'on_hold' } });
    await settle();
    expect([acmeWindow.sent.length, otherWindow.sent.length]).toEqual(before);
    for (const stop of stops) stop();
    expect(app.pushes.listenerCount).toBe(0);
  });

  it('tells a window to read everything again when its events were dropped', async () => {
    await call(4, 'auth.login', { body: { email: 'acme@example.com', password } });
    const window = fakeWindow();
    const stop = forwardPushesToWindow(app, window.window, () => registration.sessionOf(4));
    app.pushes.publish([], true);
    await settle();
    expect(window.sent).toEqual([{ channel: ipcEventChannelOf('resync'), payload: {} }]);
    stop();
  });
});
