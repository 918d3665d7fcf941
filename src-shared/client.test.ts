import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from './errors';
import { createClient, httpTransport, ipcTransport, queryString, type ShipdeskClient } from './client';
import { senderAddressBody, startTestServer, type TestServer } from '../src-main/testing/harness';

let server: TestServer;
let client: ShipdeskClient;

beforeAll(async () => {
  server = await startTestServer();
  client = createClient(httpTransport({ baseUrl: server.url, getToken: () => server.org.token }));
});
afterAll(() => server.close());

async function apiErrorOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('typed client over HTTP', () => {
  it('calls an operation without input', async () => {
    const health = await client.call('system.health');
    expect(health.status).toBe('ok');
  });

  it('creates a sender address, then reads it back by id', async () => {
    const orgId = server.org.orgId;
    const created = await client.call('senderAddresses.create', { params: { orgId }, body: senderAddressBody({ city: 'Odense' }) });
    expect(created.id).toMatch(/^adr_/);
    const read = await client.call('senderAddresses.get', { params: { orgId, addressId: created.id } });
    expect(read).toEqual(created);
  });

  it('sends the query string (list page size)', async () => {
    const orgId = server.org.orgId;
    await client.call('senderAddresses.create', { params: { orgId }, body: senderAddressBody() });
    const page = await client.call('senderAddresses.list', { params: { orgId }, query: { limit: 1 } });
    expect(page.limit).toBe(1);
    expect(page.data).toHaveLength(1);
    expect(page.total).toBeGreaterThanOrEqual(2);
  });

  it('sends a CSV body as text/csv (orders.import)', async () => {
    const orgId = server.org.orgId;
    const channel = await client.call('orderChannels.create', { params: { orgId }, body: { name: 'Client CSV', type: 'csv' } });
    const csv = `orderNumber,orderChannelId,lineName,lineQuantity\nCL-1,${channel.id},Mug,2\n`;
    expect(await client.call('orders.import', { params: { orgId }, body: csv })).toEqual({ created: 1, skipped: 0, errors: [] });
    expect(await client.call('orders.import', { params: { orgId }, body: csv })).toEqual({ created: 0, skipped: 1, errors: [] });
  });

  it('throws ApiError with the code of the error body', async () => {
    const orgId = server.org.orgId;
    const notFound = await apiErrorOf(client.call('senderAddresses.get', { params: { orgId, addressId: 'adr_missing' } }));
    expect(notFound.code).toBe('ADDRESS_NOT_FOUND');
    expect(notFound.status).toBe(404);

    const invalid = await apiErrorOf(client.call('senderAddresses.create', { params: { orgId }, body: { ...senderAddressBody(), countryCode: 'XX' } }));
    expect(invalid.code).toBe('VALIDATION_FAILED');
    expect(invalid.details?.[0]?.path).toBe('body.countryCode');
  });

  it('reads the token on every call, and none means UNAUTHORIZED', async () => {
    let token: string | undefined = undefined;
    const anonymous = createClient(httpTransport({ baseUrl: `${server.url}/`, getToken: () => token }));
    const params = { orgId: server.org.orgId };
    expect((await apiErrorOf(anonymous.call('senderAddresses.list', { params }))).code).toBe('UNAUTHORIZED');
    token = server.org.jwt;
    await expect(anonymous.call('senderAddresses.list', { params })).resolves.toMatchObject({ page: 1 });
  });

  it('logs in and uses the returned JWT', async () => {
    let jwt: string | undefined = undefined;
    const desk = createClient(httpTransport({ baseUrl: server.url, getToken: () => jwt }));
    const session = await desk.call('auth.login', { body: { email: server.org.email, password: server.org.password } });
    expect(session.orgs.map((org) => org.id)).toContain(server.org.orgId);
    jwt = session.accessToken;
    const org = await desk.call('orgs.get', { params: { id: server.org.orgId } });
    expect(org.name).toBe('Acme Warehouse');
  });

  it('maps a non-Shipdesk error page onto a code from its status', async () => {
    const proxy = createClient(httpTransport({ baseUrl: 'http://proxy.invalid', fetch: async () => new Response('<h1>Bad gateway</h1>', { status: 502 }) }));
    const error = await apiErrorOf(proxy.call('system.health'));
    expect(error.code).toBe('INTERNAL_ERROR');
    const gone = createClient(httpTransport({ baseUrl: 'http://proxy.invalid', fetch: async () => new Response('nope', { status: 404 }) }));
    expect((await apiErrorOf(gone.call('system.health'))).code).toBe('NOT_FOUND');
  });
});

describe('typed client over IPC', () => {
  it('unwraps ok envelopes and throws the error body of failed ones', async () => {
    const seen: unknown[] = [];
    const ipcClient = createClient(
      ipcTransport(async (operationId, input) => {
        seen.push([operationId, input]);
        if (operationId === 'system.health') return { ok: true, data: { status: 'ok', version: '0', timestamp: 'now' } };
        return { ok: false, error: { code: 'ORG_ACCESS_DENIED', error: 'Forbidden', message: 'No access' } };
      }),
    );
    expect((await ipcClient.call('system.health')).status).toBe('ok');
    const error = await apiErrorOf(ipcClient.call('orgs.get', { params: { id: 'org_x' } }));
    expect(error.code).toBe('ORG_ACCESS_DENIED');
    expect(error.status).toBe(403);
    expect(seen).toEqual([
      ['system.health', {}],
      ['orgs.get', { params: { id: 'org_x' } }],
    ]);
  });
});

describe('queryString', () => {
  it('repeats arrays, leaves out empty values', () => {
    expect(queryString({ status: ['sent', 'draft'], page: 2, q: undefined, carrier: null })).toBe('?status=sent&status=draft&page=2');
    expect(queryString({})).toBe('');
    expect(queryString(undefined)).toBe('');
  });
});
