import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Scope } from '../../src-shared/scopes';
import { createClient, httpTransport, type ShipdeskClient } from '../../src-shared/client';
import { type AppContext } from '../app/kernel/context';
import { createAppContext } from '../app/runtime/createApp';
import { buildServer, listen, type ServerOptions } from '../http/server';
import { createOrgWithOwner } from '../domain/orgs/orgs';
import { createApiToken } from '../domain/apiTokens/apiTokens';
import { authenticate } from '../domain/auth/authenticate';
import { login } from '../domain/auth/login';

export interface TestOrg {
  orgId: string;
  userId: string;
  email: string;
  password: string;
  /** An API token with write:all. */
  token: string;
  /** A JWT for the owner. */
  jwt: string;
}

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  /** A raw body string, sent as it is (malformed JSON tests). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestServer {
  url: string;
  app: AppContext;
  server: FastifyInstance;
  dir: string;
  org: TestOrg;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  /**
   * The typed client over HTTP, as scripts and the app use it: operations by id, inputs and answers
   * typed from the table, failures thrown as ApiError. With the org's write:all token unless given.
   * New tests call through it rather than writing URLs by hand.
   */
  client(token?: string): ShipdeskClient;
  /** Another organization with its own owner and token, for isolation tests. */
  createOrg(name?: string): Promise<TestOrg>;
  /** An API token of `org` with just these scopes. */
  tokenWithScopes(org: TestOrg, scopes: Scope[]): Promise<string>;
  close(): Promise<void>;
}

let orgCounter = 0;

/** A real server on a random port over a fresh SQLite file; responses are checked against their schemas. */
export async function startTestServer(
  options: {
    now?: () => Date;
    server?: ServerOptions;
    carrierHttp?: AppContext['carrierHttp'];
    /** Reopens this data folder (a restart) instead of a fresh one; close() then leaves it in place. */
    dataDir?: string;
  } = {},
): Promise<TestServer> {
  const dir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'shipdesk-test-'));
  const app = createAppContext({
    dataDir: dir,
    checkResponses: true,
    ...(options.now ? { now: options.now } : {}),
    ...(options.carrierHttp ? { carrierHttp: options.carrierHttp } : {}),
  });
  const server = buildServer(app, options.server);
  const url = await listen(server, '127.0.0.1', 0);

  const createOrg = async (name = `Test Org ${++orgCounter}`): Promise<TestOrg> => {
    const email = `owner${++orgCounter}-${Date.now()}@example.com`;
    const password = 'correct horse battery staple';
    const { orgId, userId } = await createOrgWithOwner(app, { orgName: name, email, password });
    const jwt = (await login(app, 'setup', email, password)).accessToken;
    const owner = await authenticate(app, jwt);
    const token = createApiToken(app, owner, orgId, { name: 'test', scopes: ['write:all'] }).token;
    return { orgId, userId, email, password, token, jwt };
  };

  const org = await createOrg('Acme Warehouse');

  const request = async <T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse<T>> => {
    const headers: Record<string, string> = { ...opts.headers };
    const token = opts.token === undefined ? org.token : opts.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    const response = await fetch(url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
    const type = response.headers.get('content-type') ?? '';
    const parsed = type.includes('json') ? await response.json() : Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: response.headers, body: parsed as T };
  };

  const tokenWithScopes = async (target: TestOrg, scopes: Scope[]) => {
    const owner = await authenticate(app, target.jwt);
    return createApiToken(app, owner, target.orgId, { name: `scoped ${scopes.join(' ')}`, scopes }).token;
  };

  const client = (token = org.token) => createClient(httpTransport({ baseUrl: url, getToken: () => token }));

  return {
    url,
    app,
    server,
    dir,
    org,
    request,
    client,
    createOrg,
    tokenWithScopes,
    close: async () => {
      await server.close();
      app.close();
      if (!options.dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A valid sender address body. */
export function senderAddressBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Main warehouse',
    attContact: 'Dispatch desk',
    address1: 'Industrivej 12',
    zipcode: '8000',
    city: 'Aarhus',
    phone: '+4512345678',
    countryCode: 'DK',
    email: 'dispatch@acme.example',
    ...overrides,
  };
}

/** A sender address and a `local` carrier sending from it, created through the API. */
export async function setupLocalCarrier(t: TestServer, org: TestOrg = t.org, config: Record<string, unknown> = {}) {
  const address = await t.request('POST', `/orgs/${org.orgId}/sender-addresses`, { token: org.token, body: senderAddressBody() });
  if (address.status !== 201) throw new Error(`sender address: ${JSON.stringify(address.body)}`);
  const carrier = await t.request('POST', `/orgs/${org.orgId}/carriers`, {
    token: org.token,
    body: { name: 'Own trucks', carrierSlug: 'local', config, senderAddressId: address.body.id },
  });
  if (carrier.status !== 201) throw new Error(`carrier: ${JSON.stringify(carrier.body)}`);
  return { senderAddressId: address.body.id as string, carrierId: carrier.body.id as string };
}

export function receiverParty(overrides: Record<string, unknown> = {}) {
  return {
    type: 'receiver',
    name: 'Jens Hansen',
    address1: 'Nørregade 1',
    postalCode: '1165',
    city: 'København K',
    countryCode: 'DK',
    email: 'jens@example.dk',
    phone: '+4520202020',
    ...overrides,
  };
}

/** A shipping rule body for the `local` carrier: parcels to Denmark, one weight condition (0–5 kg at 49 DKK). */
export function shippingRuleBody(carrierId: string, senderAddressId: string, overrides: Record<string, unknown> = {}) {
  return {
    name: 'Denmark parcels',
    carrierId,
    productId: 'local_parcel',
    services: [],
    senderAddressId,
    receivingCountries: ['DK'],
    conditions: [{ type: 'weight', min: 0, max: 5, shippingPrice: 49, currency: 'DKK' }],
    ...overrides,
  };
}

/** A shipment body with one parcel of two order lines. */
export function shipmentBody(carrierId: string, overrides: Record<string, unknown> = {}) {
  return {
    type: 'outbound',
    carrierSettings: { carrierId, productId: 'local_parcel' },
    parties: [receiverParty()],
    parcels: [
      {
        weight: 2.5,
        weightUnit: 'kg',
        dimensions: { length: 30, width: 20, height: 10 },
        orderLines: [
          { sku: 'MUG-01', quantity: 2, description: 'Mug', unitPrice: 50, currency: 'DKK' },
          { sku: 'TEA-02', quantity: 3, description: 'Tea', unitPrice: 30, currency: 'DKK', tarrifNumber: '0902' },
        ],
      },
    ],
    ...overrides,
  };
}
