import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as registry from '../../carriers/registry';
import type { CarrierAdapter, CarrierCallContext } from '../../carriers/adapter';
import { carrierAuthFailed, carrierRefused } from '../../carriers/errors';
import { ApiError } from '../../../src-shared/errors';
import { senderAddressBody, shipmentBody, startTestServer, type TestServer } from '../../testing/harness';

/**
 * The real gateway adapters are written elsewhere; this stand-in speaks a tiny gateway over real
 * HTTP through `context.http`, with the three setup calls (test, field options, products), and it
 * echoes its API key in every answer so the masking of secrets is tested on the way out.
 */
vi.mock('../../carriers/registry', async (importOriginal) => {
  const original = await importOriginal<typeof registry>();
  const local = original.carrierAdapters[0] as CarrierAdapter;
  const field = { description: '', options: [] };
  const call = async (context: CarrierCallContext, operation: string, path: string) => {
    const apiKey = String(context.config.apiKey);
    const response = await context.http.request({
      operation,
      method: 'GET',
      url: `${String(context.config.apiBaseUrl)}${path}`,
      headers: { authorization: `Token ${apiKey}` },
      idempotent: true,
    });
    if (response.status === 401) throw carrierAuthFailed(`Token ${apiKey} is not valid`, [{ code: 'invalid_token', message: `Token ${apiKey} is not valid` }]);
    if (response.status >= 400) throw carrierRefused((response.json as { errors: { code: string; message: string }[] }).errors);
    return response.json as Record<string, unknown>;
  };
  const gateway: CarrierAdapter = {
    ...local,
    slug: 'test-gateway',
    checkConfig: undefined,
    remote: { origins: { production: 'https://gateway.invalid', sandbox: 'https://sandbox.gateway.invalid' }, apiBaseUrlRequired: true },
    describe: {
      ...local.describe,
      name: 'Test gateway',
      fields: [
        { ...field, name: 'API key', key: 'apiKey', type: 'password', required: true },
        // Its choices are read from the gateway (fieldOptions), so the catalogue lists none.
        { ...field, name: 'Connection', key: 'connection', type: 'select', required: true },
        {
          ...field,
          name: 'Label format',
          key: 'labelFormat',
          type: 'select',
          required: false,
          options: [
            { name: 'PDF', key: 'pdf', value: 'pdf' },
            { name: 'ZPL', key: 'zpl', value: 'zpl' },
          ],
        },
      ],
    },
    products: (_config, stored) => stored ?? [],
    testConnection: async (context) => {
      const me = await call(context, 'test', '/me');
      return `Connected to ${String(me.name)} with key ${String(context.config.apiKey)}`;
    },
    fieldOptions: async (context, key) => {
      if (key !== 'connection') return [];
      const list = (await call(context, 'connections', '/connections')).results as { id: string; carrier: string }[];
      return list.map((connection) => ({ name: connection.carrier, value: connection.id }));
    },
    refreshProducts: async (context) => {
      const list = (await call(context, 'services', `/connections/${String(context.config.connection)}/services`)).services as { code: string; name: string }[];
      return list.map((service) => ({
        productId: service.code,
        name: service.name,
        type: 'outbound' as const,
        description: `Read from the gateway for ${String(context.config.connection)}`,
        services: [],
        labelSizes: ['100X150' as const],
        servicePoint: 'none' as const,
      }));
    },
  };
  return { carrierAdapters: [...original.carrierAdapters, gateway] };
});

const API_KEY = 'sk_gateway_9f8e7d6c5b4a';
const OTHER_KEY = 'sk_gateway_000000000000';

/** The gateway: answers per its state, counts calls, and can refuse everything with a 400. */
const gatewayState = { services: [{ code: 'pn_home', name: 'MyPack Home' }], refuseAll: false, calls: 0 };
let gateway: Server;
let gatewayUrl: string;
/** An address where nothing listens: the carrier cannot be reached. */
let deadUrl: string;

function startGateway(): Promise<Server> {
  const server = createServer((req, res) => {
    gatewayState.calls++;
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Token ${API_KEY}`) return answer(401, { detail: `Token ${String(req.headers.authorization)} rejected` });
    if (gatewayState.refuseAll) return answer(400, { errors: [{ code: 'account_blocked', message: 'Account is blocked: unknown postal code 0000' }] });
    if (req.url === '/me') return answer(200, { name: 'Acme gateway' });
    if (req.url === '/connections') {
      return answer(200, {
        results: [
          { id: 'conn_pn', carrier: 'PostNord (test)' },
          { id: 'conn_gls', carrier: 'GLS' },
        ],
      });
    }
    if (req.url === '/connections/conn_pn/services') return answer(200, { services: gatewayState.services });
    return answer(404, { errors: [{ code: 'not_found', message: `No such path ${req.url}` }] });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

let t: TestServer;
let addressId: string;

beforeAll(async () => {
  gateway = await startGateway();
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  const dead = await startGateway();
  deadUrl = `http://127.0.0.1:${(dead.address() as AddressInfo).port}`;
  await new Promise((resolve) => dead.close(resolve));
  t = await startTestServer({ carrierHttp: { backoffMs: 5, timeoutMs: 3000 } });
  t.app.db.$client.prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(t.org.orgId);
  addressId = (await t.request('POST', `/orgs/${t.org.orgId}/sender-addresses`, { body: senderAddressBody() })).body.id;
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => gateway.close(resolve));
});
beforeEach(() => {
  gatewayState.refuseAll = false;
  gatewayState.services = [{ code: 'pn_home', name: 'MyPack Home' }];
});

const orgPath = () => `/orgs/${t.org.orgId}`;
const gatewayConfig = (overrides: Record<string, unknown> = {}) => ({ apiKey: API_KEY, connection: 'conn_pn', apiBaseUrl: gatewayUrl, ...overrides });
const storedProducts = (carrierId: string) => {
  const row = t.app.db.$client.prepare('SELECT products FROM carriers WHERE id = ?').get(carrierId) as { products: string | null };
  return row.products === null ? null : (JSON.parse(row.products) as { productId: string }[]);
};
const carrierCount = () => (t.app.db.$client.prepare('SELECT count(*) AS n FROM carriers WHERE org_id = ?').get(t.org.orgId) as { n: number }).n;

async function createGateway(config = gatewayConfig()) {
  return t.client().call('carriers.create', {
    params: { orgId: t.org.orgId },
    body: { name: 'Gateway', carrierSlug: 'test-gateway', config, senderAddressId: addressId },
  });
}

/** Every answer of these operations, as text: no secret may be in any of them. */
function expectNoSecret(body: unknown) {
  const text = JSON.stringify(body);
  expect(text).not.toContain(API_KEY);
  expect(text).not.toContain(OTHER_KEY);
}

describe('testing a saved carrier', () => {
  it('answers ok with the carrier’s sentence, secrets masked, and how long it took', async () => {
    const carrier = await createGateway();
    const res = await t.request('POST', `${orgPath()}/carriers/${carrier.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, message: 'Connected to Acme gateway with key ••••', durationMs: expect.any(Number) });
    expectNoSecret(res.body);
  });

  it('a carrier that books offline needs no check', async () => {
    const local = await t.client().call('carriers.create', {
      params: { orgId: t.org.orgId },
      body: { name: 'Own vans', carrierSlug: 'local', config: {}, senderAddressId: addressId },
    });
    const result = await t.client().call('carriers.test', { params: { orgId: t.org.orgId, carrierId: local.id } });
    expect(result).toMatchObject({ ok: true, message: expect.stringContaining('nothing to check') });
  });

  it('refused credentials are ok:false with the carrier’s words and a plain sentence, never a 5xx', async () => {
    const carrier = await createGateway();
    // The key as typed in the edit form, not saved yet.
    const res = await t.request('POST', `${orgPath()}/carriers/${carrier.id}/test`, { body: { config: gatewayConfig({ apiKey: OTHER_KEY }) } });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(false);
    expect(res.body.message).toContain('Gateway refused the credentials (Token •••• is not valid)');
    expect(res.body.message).toContain('Check the API key or password');
    expectNoSecret(res.body);
  });

  it('a carrier that cannot be reached is ok:false saying so', async () => {
    const carrier = await createGateway();
    const res = await t.request('POST', `${orgPath()}/carriers/${carrier.id}/test`, { body: { config: gatewayConfig({ apiBaseUrl: deadUrl }) } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Gateway could not be reached \(The carrier could not be reached \(ECONNREFUSED\)\)/),
    });
  });

  it('a refusal in the carrier’s words gets the plain sentence for it', async () => {
    const carrier = await createGateway();
    gatewayState.refuseAll = true;
    const result = await t.client().call('carriers.test', { params: { orgId: t.org.orgId, carrierId: carrier.id } });
    expect(result.ok).toBe(false);
    expect(result.message).toContain('Gateway answered: Account is blocked: unknown postal code 0000.');
    expect(result.message).toContain('does not know the receiver');
  });

  it('takes a secret sent masked, as a read shows it, as the stored one', async () => {
    const carrier = await createGateway();
    expect(carrier.config.apiKey).toMatch(/^••••/);
    const result = await t.client().call('carriers.test', {
      params: { orgId: t.org.orgId, carrierId: carrier.id },
      body: { config: { ...carrier.config } as Record<string, string> },
    });
    expect(result.ok).toBe(true);
  });

  it('refuses a masked secret that is not the stored one', async () => {
    const carrier = await createGateway();
    const res = await t.request('POST', `${orgPath()}/carriers/${carrier.id}/test`, { body: { config: gatewayConfig({ apiKey: '••••0000' }) } });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ path: 'body.config.apiKey', message: expect.stringContaining('Masked value') }]);
  });

  it('needs write:carriers', async () => {
    const carrier = await createGateway();
    const reader = await t.tokenWithScopes(t.org, ['read:carriers']);
    expect((await t.request('POST', `${orgPath()}/carriers/${carrier.id}/test`, { token: reader })).status).toBe(403);
    expect((await t.request('POST', `${orgPath()}/available-carriers/test-gateway/test`, { token: reader, body: { config: gatewayConfig() } })).status).toBe(
      403,
    );
  });
});

describe('testing a config not saved yet', () => {
  it('answers ok, refused and unreachable like a saved one', async () => {
    const test = (config: Record<string, unknown>) => t.request('POST', `${orgPath()}/available-carriers/test-gateway/test`, { body: { config } });
    const ok = await test(gatewayConfig());
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, message: 'Connected to Acme gateway with key ••••' });
    const refused = await test(gatewayConfig({ apiKey: OTHER_KEY }));
    expect(refused.body).toMatchObject({ ok: false, message: expect.stringContaining('Test gateway refused the credentials') });
    const unreachable = await test(gatewayConfig({ apiBaseUrl: deadUrl }));
    expect(unreachable.body).toMatchObject({ ok: false, message: expect.stringContaining('Test gateway could not be reached') });
    for (const res of [ok, refused, unreachable]) expectNoSecret(res.body);
  });

  it('refuses a masked secret: nothing saved stands behind it', async () => {
    const res = await t.request('POST', `${orgPath()}/available-carriers/test-gateway/test`, { body: { config: gatewayConfig({ apiKey: '••••7d6c' }) } });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ path: 'body.config.apiKey', message: expect.stringContaining('Masked value') }]);
  });

  it('checks the config like a create, and knows only catalogue carriers', async () => {
    const missing = await t.request('POST', `${orgPath()}/available-carriers/test-gateway/test`, { body: { config: { apiKey: API_KEY } } });
    expect(missing.status).toBe(400);
    expect(missing.body.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['body.config.apiBaseUrl', 'body.config.connection']);
    const unknown = await t.request('POST', `${orgPath()}/available-carriers/no-such/test`, { body: { config: {} } });
    expect(unknown.status).toBe(404);
  });

  it('local needs no check', async () => {
    const result = await t.client().call('availableCarriers.test', { params: { orgId: t.org.orgId, slug: 'local' }, body: { config: {} } });
    expect(result).toMatchObject({ ok: true, message: expect.stringContaining('Local delivery books here in Shipdesk') });
  });
});

describe('field options', () => {
  it('lists the gateway’s connections with the typed URL and key, before the connection is chosen', async () => {
    const result = await t.client().call('availableCarriers.fieldOptions', {
      params: { orgId: t.org.orgId, slug: 'test-gateway' },
      body: { config: { apiKey: API_KEY, apiBaseUrl: gatewayUrl }, field: 'connection' },
    });
    expect(result).toEqual({
      options: [
        { name: 'PostNord (test)', value: 'conn_pn' },
        { name: 'GLS', value: 'conn_gls' },
      ],
    });
  });

  it('a refused key is 422 CARRIER_AUTH_FAILED with the carrier’s words, masked', async () => {
    const res = await t.request('POST', `${orgPath()}/available-carriers/test-gateway/field-options`, {
      body: { config: { apiKey: OTHER_KEY, apiBaseUrl: gatewayUrl }, field: 'connection' },
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'CARRIER_AUTH_FAILED', errors: [{ code: 'invalid_token', message: 'Token •••• is not valid' }] });
    expectNoSecret(res.body);
  });

  it('a carrier that cannot be reached is 422 CARRIER_ERROR', async () => {
    const res = await t.request('POST', `${orgPath()}/available-carriers/test-gateway/field-options`, {
      body: { config: { apiKey: API_KEY, apiBaseUrl: deadUrl }, field: 'connection' },
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'CARRIER_ERROR', message: expect.stringContaining('could not be reached') });
  });

  it('refuses a field that is not a select, and checks the values given', async () => {
    const notSelect = await t.request('POST', `${orgPath()}/available-carriers/test-gateway/field-options`, {
      body: { config: { apiKey: API_KEY, apiBaseUrl: gatewayUrl }, field: 'apiKey' },
    });
    expect(notSelect.status).toBe(400);
    expect(notSelect.body.details).toEqual([{ path: 'body.field', message: expect.stringContaining('connection') }]);
    const badUrl = await t.request('POST', `${orgPath()}/available-carriers/test-gateway/field-options`, {
      body: { config: { apiKey: API_KEY, apiBaseUrl: 42 }, field: 'connection' },
    });
    expect(badUrl.status).toBe(400);
  });

  it('a select the catalogue lists choices for answers those, without asking the carrier', async () => {
    const calls = gatewayState.calls;
    const result = await t.client().call('availableCarriers.fieldOptions', {
      params: { orgId: t.org.orgId, slug: 'test-gateway' },
      body: { config: { apiKey: API_KEY, apiBaseUrl: gatewayUrl }, field: 'labelFormat' },
    });
    expect(result.options.map((option) => option.value)).toEqual(['pdf', 'zpl']);
    expect(gatewayState.calls).toBe(calls);
  });

  it('a static select answers its own options', async () => {
    const result = await t
      .client()
      .call('availableCarriers.fieldOptions', { params: { orgId: t.org.orgId, slug: 'local' }, body: { config: {}, field: 'labelSize' } });
    expect(result.options.map((option) => option.value)).toEqual(['A4', 'A6', '100X150', '100X192']);
  });

  it('for a saved carrier, a masked key is the stored one', async () => {
    const carrier = await createGateway();
    const result = await t.client().call('carriers.fieldOptions', {
      params: { orgId: t.org.orgId, carrierId: carrier.id },
      body: { config: { apiKey: String(carrier.config.apiKey), apiBaseUrl: gatewayUrl }, field: 'connection' },
    });
    expect(result.options).toHaveLength(2);
    const unsaved = await t.request('POST', `${orgPath()}/available-carriers/test-gateway/field-options`, {
      body: { config: { apiKey: String(carrier.config.apiKey), apiBaseUrl: gatewayUrl }, field: 'connection' },
    });
    expect(unsaved.status).toBe(400);
  });
});

describe('products kept with the carrier', () => {
  it('are read on create and offered by GET products', async () => {
    const carrier = await createGateway();
    expect(storedProducts(carrier.id)?.map((product) => product.productId)).toEqual(['pn_home']);
    const products = await t.client().call('carriers.products', { params: { orgId: t.org.orgId, carrierId: carrier.id } });
    expect(products).toEqual([expect.objectContaining({ productId: 'pn_home', name: 'MyPack Home', servicePoint: 'none' })]);
    expectNoSecret(carrier);
  });

  it('a create the carrier refuses saves nothing: 422 CARRIER_AUTH_FAILED or CARRIER_ERROR', async () => {
    const before = carrierCount();
    const refused = await t.request('POST', `${orgPath()}/carriers`, {
      body: { name: 'Gateway', carrierSlug: 'test-gateway', config: gatewayConfig({ apiKey: OTHER_KEY }), senderAddressId: addressId },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('CARRIER_AUTH_FAILED');
    expectNoSecret(refused.body);
    const unreachable = await t.request('POST', `${orgPath()}/carriers`, {
      body: { name: 'Gateway', carrierSlug: 'test-gateway', config: gatewayConfig({ apiBaseUrl: deadUrl }), senderAddressId: addressId },
    });
    expect(unreachable.status).toBe(422);
    expect(unreachable.body.code).toBe('CARRIER_ERROR');
    expect(carrierCount()).toBe(before);
  });

  it('a wrong sender address is refused before the carrier is called', async () => {
    const calls = gatewayState.calls;
    const res = await t.request('POST', `${orgPath()}/carriers`, {
      body: { name: 'Gateway', carrierSlug: 'test-gateway', config: gatewayConfig(), senderAddressId: 'addr_missing' },
    });
    expect(res.status).toBe(404);
    expect(gatewayState.calls).toBe(calls);
  });

  it('are read again on refresh and on a config update, not on a rename', async () => {
    const carrier = await createGateway();
    gatewayState.services = [
      { code: 'pn_home', name: 'MyPack Home' },
      { code: 'pn_collect', name: 'MyPack Collect' },
    ];
    const refreshed = await t.client().call('carriers.refreshProducts', { params: { orgId: t.org.orgId, carrierId: carrier.id } });
    expect(refreshed.map((product) => product.productId)).toEqual(['pn_home', 'pn_collect']);
    expect(storedProducts(carrier.id)).toHaveLength(2);

    gatewayState.services = [{ code: 'pn_parcel', name: 'Parcel' }];
    const calls = gatewayState.calls;
    await t.client().call('carriers.patch', { params: { orgId: t.org.orgId, carrierId: carrier.id }, body: { name: 'Renamed' } });
    expect(gatewayState.calls).toBe(calls);
    expect(storedProducts(carrier.id)).toHaveLength(2);
    // The key sent back masked, as the form does when it is left alone.
    await t.client().call('carriers.update', {
      params: { orgId: t.org.orgId, carrierId: carrier.id },
      body: { config: { ...gatewayConfig(), apiKey: String(carrier.config.apiKey) } },
    });
    expect(storedProducts(carrier.id)?.map((product) => product.productId)).toEqual(['pn_parcel']);
  });

  it('an update the carrier refuses changes nothing', async () => {
    const carrier = await createGateway();
    const res = await t.request('PUT', `${orgPath()}/carriers/${carrier.id}`, { body: { config: gatewayConfig({ apiKey: OTHER_KEY }) } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CARRIER_AUTH_FAILED');
    expectNoSecret(res.body);
    const test = await t.client().call('carriers.test', { params: { orgId: t.org.orgId, carrierId: carrier.id } });
    expect(test.ok).toBe(true);
  });

  it('stay when the carrier cannot be reached later: refresh fails, shipments still check and send against them', async () => {
    const carrier = await createGateway();
    // The carrier moves out of reach: its stored address now points where nothing listens.
    const sealed = t.app.db.$client.prepare('SELECT config FROM carriers WHERE id = ?').get(carrier.id) as { config: string };
    const config = { ...JSON.parse(sealed.config), apiBaseUrl: deadUrl };
    t.app.db.$client.prepare('UPDATE carriers SET config = ? WHERE id = ?').run(JSON.stringify(config), carrier.id);

    const refresh = await t.request('POST', `${orgPath()}/carriers/${carrier.id}/products/refresh`);
    expect(refresh.status).toBe(422);
    expect(refresh.body.code).toBe('CARRIER_ERROR');
    expect(storedProducts(carrier.id)?.map((product) => product.productId)).toEqual(['pn_home']);

    // The send checks the product against what was kept, without asking the carrier.
    const wrong = await t.request('POST', `${orgPath()}/shipments`, {
      body: shipmentBody(carrier.id, { carrierSettings: { carrierId: carrier.id, productId: 'pn_collect' } }),
    });
    const refused = await t.request('POST', `${orgPath()}/shipments/${wrong.body.id}/send`);
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain('pn_collect is not one of pn_home');
    const created = await t.request('POST', `${orgPath()}/shipments`, {
      body: shipmentBody(carrier.id, { carrierSettings: { carrierId: carrier.id, productId: 'pn_home' } }),
    });
    expect(created.status).toBe(201);
    // The stand-in books offline like `local`.
    const sent = await t.request('POST', `${orgPath()}/shipments/${created.body.id}/send`);
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe('dispatched');
  });

  it('a carrier without refreshProducts answers its own list on refresh', async () => {
    const local = await t.client().call('carriers.create', {
      params: { orgId: t.org.orgId },
      body: { name: 'Vans', carrierSlug: 'local', config: {}, senderAddressId: addressId },
    });
    const products = await t.client().call('carriers.refreshProducts', { params: { orgId: t.org.orgId, carrierId: local.id } });
    expect(products.length).toBeGreaterThan(0);
    expect(storedProducts(local.id)).toBeNull();
  });

  it('the typed client rethrows a refusal as ApiError', async () => {
    await expect(createGateway(gatewayConfig({ apiKey: OTHER_KEY }))).rejects.toBeInstanceOf(ApiError);
  });
});
