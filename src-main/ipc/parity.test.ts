import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationsById } from '../../src-shared/operations';
import { fillPath, ipcChannelOf, type AnyOperation } from '../../src-shared/operation';
import type { IpcCallInput, IpcEnvelope } from '../../src-shared/ipc';
import { senderAddressBody, setupLocalCarrier, shipmentBody, shippingRuleBody, startTestServer, type TestServer } from '../testing/harness';
import { registerIpcHandlers, type IpcInvokeEventLike } from './register';

/**
 * The two doors side by side on one database: the same call through HTTP (real server, random
 * port) and through IPC (the handlers registered on a fake ipcMain) gives the same answer — the
 * same error body, or the same value.
 */

type Listener = (event: IpcInvokeEventLike, ...args: unknown[]) => unknown;
type Role = 'owner' | 'packer' | 'viewer';

const password = 'correct horse battery staple';
let t: TestServer;
const handlers = new Map<string, Listener>();
/** One window per role, signed in over IPC; the HTTP side uses the same users' JWTs. */
const windows: Record<Role, number> = { owner: 1, packer: 2, viewer: 3 };
const jwts = {} as Record<Role, string>;
let orgId: string;
let carrierId: string;
let senderAddressId: string;
let shipmentId: string;

async function viaIpc(role: Role | null, operationId: string, input: IpcCallInput = {}): Promise<IpcEnvelope> {
  const handler = handlers.get(ipcChannelOf(operationId));
  if (!handler) throw new Error(`No IPC handler for ${operationId}`);
  const event: IpcInvokeEventLike = { sender: { id: role ? windows[role] : 99 }, senderFrame: { url: 'app://shipdesk/index.html' } };
  return (await handler(event, input)) as IpcEnvelope;
}

async function viaHttp(role: Role | null, operationId: string, input: IpcCallInput = {}): Promise<{ status: number; body: unknown }> {
  const op = operationsById.get(operationId) as AnyOperation;
  const query = new URLSearchParams(Object.entries(input.query ?? {}).map(([key, value]): [string, string] => [key, String(value)])).toString();
  const path = fillPath(op.path, input.params ?? {}) + (query ? `?${query}` : '');
  const response = await t.request(op.method, path, { token: role ? jwts[role] : null, ...(input.body !== undefined ? { body: input.body } : {}) });
  return { status: response.status, body: response.body };
}

/** Both doors, and what each answered; the HTTP status decides which IPC envelope is expected. */
async function bothDoors(role: Role | null, operationId: string, input: IpcCallInput = {}) {
  const http = await viaHttp(role, operationId, input);
  const ipc = await viaIpc(role, operationId, input);
  if (http.status >= 400) expect(ipc).toEqual({ ok: false, error: http.body });
  else expect(ipc.ok).toBe(true);
  return { http, ipc };
}

beforeAll(async () => {
  t = await startTestServer();
  orgId = t.org.orgId;
  registerIpcHandlers(
    {
      handle(channel, listener) {
        handlers.set(channel, listener);
      },
    },
    t.app,
    { isTrustedSender: () => true },
  );
  for (const role of ['packer', 'viewer'] as const) {
    const created = await t.request('POST', `/orgs/${orgId}/members`, { body: { email: `${role}@parity.example`, role, name: role, password } });
    expect(created.status).toBe(201);
  }
  const emails: Record<Role, string> = { owner: t.org.email, packer: 'packer@parity.example', viewer: 'viewer@parity.example' };
  for (const role of ['owner', 'packer', 'viewer'] as const) {
    const body = { email: emails[role], password: role === 'owner' ? t.org.password : password };
    jwts[role] = (await t.request('POST', '/auth/login', { token: null, body })).body.accessToken;
    expect(await viaIpc(role, 'auth.login', { body })).toMatchObject({ ok: true, data: { orgs: [{ id: orgId, role }] } });
  }
  ({ carrierId, senderAddressId } = await setupLocalCarrier(t));
  const shipment = await t.request('POST', `/orgs/${orgId}/shipments`, { body: shipmentBody(carrierId) });
  expect(shipment.status).toBe(201);
  shipmentId = shipment.body.id;
});
afterAll(async () => t.close());

describe('HTTP and IPC answer alike', () => {
  it('reads: the same value', async () => {
    for (const [operationId, input] of [
      ['shipments.get', { params: { orgId, shipmentId } }],
      ['shipments.list', { params: { orgId }, query: { limit: 5 } }],
      ['carriers.get', { params: { orgId, carrierId } }],
      ['billing.usage', { params: { orgId } }],
      ['orgs.get', { params: { id: orgId } }],
    ] as const) {
      for (const role of ['owner', 'packer', 'viewer'] as const) {
        const { http, ipc } = await bothDoors(role, operationId, input);
        expect(http.status, `${operationId} as ${role}`).toBe(200);
        expect(ipc, `${operationId} as ${role}`).toEqual({ ok: true, data: http.body });
      }
    }
  });

  it('an unknown body field, a query out of range, an unknown query field, a missing body: the same VALIDATION_FAILED body with details', async () => {
    const cases: [string, IpcCallInput][] = [
      ['senderAddresses.create', { params: { orgId }, body: { ...senderAddressBody(), colour: 'red' } }],
      ['shipments.update', { params: { orgId, shipmentId }, body: { carrierSettings: { carrierId, productId: 'local_parcel' } } }],
      ['shipments.list', { params: { orgId }, query: { limit: 101 } }],
      ['shipments.list', { params: { orgId }, query: { page: 0 } }],
      ['orders.list', { params: { orgId }, query: { sort: 'name' } }],
      ['shippingRules.create', { params: { orgId } }],
      ['shipments.get', { params: { orgId, shipmentId: 'x'.repeat(65) } }],
    ];
    for (const [operationId, input] of cases) {
      const { http } = await bothDoors('owner', operationId, input);
      expect(http.status, operationId).toBe(400);
      expect(http.body, operationId).toMatchObject({ code: 'VALIDATION_FAILED', error: 'Bad Request' });
      expect((http.body as { details: unknown[] }).details.length, operationId).toBeGreaterThan(0);
    }
  });

  it('scopes of the roles: a viewer only reads, a packer ships but does not configure', async () => {
    const forbidden: [Role, string, IpcCallInput][] = [
      ['viewer', 'shipments.create', { params: { orgId }, body: shipmentBody(carrierId) }],
      ['viewer', 'shipments.update', { params: { orgId, shipmentId }, body: { reference: 'NOPE' } }],
      ['viewer', 'senderAddresses.create', { params: { orgId }, body: senderAddressBody() }],
      ['packer', 'shippingRules.create', { params: { orgId }, body: shippingRuleBody(carrierId, senderAddressId) }],
      ['packer', 'carriers.delete', { params: { orgId, carrierId } }],
      ['packer', 'apiTokens.create', { params: { orgId }, body: { name: 'mine', scopes: ['read:all'] } }],
    ];
    for (const [role, operationId, input] of forbidden) {
      const { http } = await bothDoors(role, operationId, input);
      expect(http.status, `${operationId} as ${role}`).toBe(403);
      expect(http.body, `${operationId} as ${role}`).toMatchObject({ code: 'FORBIDDEN' });
    }
    // Refused before the body is looked at: a viewer learns nothing about the input's validity.
    expect((await bothDoors('viewer', 'senderAddresses.create', { params: { orgId }, body: { colour: 'red' } })).http.body).toMatchObject({
      code: 'FORBIDDEN',
    });

    // Allowed to the packer through both doors, with the same result.
    const created = await viaIpc('packer', 'shipments.create', { params: { orgId }, body: shipmentBody(carrierId, { reference: 'PACKER-IPC' }) });
    expect(created).toMatchObject({ ok: true, data: { reference: 'PACKER-IPC', status: 'pending' } });
    const viaHttpCreated = await viaHttp('packer', 'shipments.create', { params: { orgId }, body: shipmentBody(carrierId, { reference: 'PACKER-HTTP' }) });
    expect(viaHttpCreated).toMatchObject({ status: 201, body: { reference: 'PACKER-HTTP', status: 'pending' } });
    const ipcShipment = (created as Extract<IpcEnvelope, { ok: true }>).data as Record<string, unknown>;
    expect(Object.keys(ipcShipment).sort()).toEqual(Object.keys(viaHttpCreated.body as object).sort());
  });

  it('unknown ids, other organizations, wrong states and missing credentials: the same error body', async () => {
    const other = await t.createOrg('Parity Other');
    const cases: [Role | null, string, IpcCallInput, number, string][] = [
      ['owner', 'shipments.get', { params: { orgId, shipmentId: 'shp_nope' } }, 404, 'SHIPMENT_NOT_FOUND'],
      ['owner', 'orders.get', { params: { orgId, orderId: 'ord_nope' } }, 404, 'ORDER_NOT_FOUND'],
      ['packer', 'shipments.list', { params: { orgId: other.orgId } }, 403, 'ORG_ACCESS_DENIED'],
      ['owner', 'orgs.update', { params: { id: other.orgId }, body: { name: 'Mine now' } }, 403, 'ORG_ACCESS_DENIED'],
      ['owner', 'shipments.createReturn', { params: { orgId, shipmentId } }, 409, 'SHIPMENT_INVALID_STATE'],
      [null, 'shipments.list', { params: { orgId } }, 401, 'UNAUTHORIZED'],
    ];
    for (const [role, operationId, input, status, code] of cases) {
      const { http } = await bothDoors(role, operationId, input);
      expect(http, operationId).toMatchObject({ status, body: { code } });
    }
  });
});
