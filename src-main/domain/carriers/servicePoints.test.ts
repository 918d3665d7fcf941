import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ShipdeskClient } from '../../../src-shared/client';
import { carrierAuthFailed, carrierRefused, CarrierFailure } from '../../carriers/errors';
import type * as registry from '../../carriers/registry';
import type { CarrierAdapter } from '../../carriers/adapter';
import { senderAddressBody, setupLocalCarrier, startTestServer, type TestServer } from '../../testing/harness';
import { POINT_COURIER_SLUG, resetServicePointCourier, servicePoint, servicePointCourier } from '../../testing/servicePointCourier';

// The registry plus a carrier with a service point lookup (testing/servicePointCourier.ts).
vi.mock('../../carriers/registry', async (importOriginal) => {
  const original = await importOriginal<typeof registry>();
  const { servicePointCourierAdapter } = await import('../../testing/servicePointCourier');
  return { carrierAdapters: [...original.carrierAdapters, servicePointCourierAdapter(original.carrierAdapters[0] as CarrierAdapter)] };
});

let t: TestServer;
let client: ShipdeskClient;
let localId: string;
let courierId: string;

beforeAll(async () => {
  t = await startTestServer();
  client = t.client();
  ({ carrierId: localId } = await setupLocalCarrier(t));
  const address = await client.call('senderAddresses.create', { params: { orgId: t.org.orgId }, body: senderAddressBody() });
  const courier = await client.call('carriers.create', {
    params: { orgId: t.org.orgId },
    body: { name: 'Point courier', carrierSlug: POINT_COURIER_SLUG, config: { apiKey: 'sk_points_secret' }, senderAddressId: address.id },
  });
  courierId = courier.id;
});
afterAll(async () => t.close());
beforeEach(() => resetServicePointCourier());

const near = (carrierId: string, query: Record<string, string | number>) =>
  client.call('carriers.servicePoints', { params: { orgId: t.org.orgId, carrierId }, query: query as never });
const path = (carrierId: string, query: string) => `/orgs/${t.org.orgId}/carriers/${carrierId}/service-points?${query}`;

describe('GET /carriers/{carrierId}/service-points', () => {
  it("answers the carrier's points nearest first, with the address it was asked about", async () => {
    resetServicePointCourier([servicePoint('500', 500), servicePoint('far-unknown', null), servicePoint('120', 120), servicePoint('300', 300)]);
    const found = await near(courierId, { countryCode: 'DK', postalCode: '1165', address1: 'Nørregade 1', city: 'København K' });
    expect(found.data.map((point) => point.id)).toEqual(['120', '300', '500', 'far-unknown']);
    expect(found.data[0]).toEqual(servicePoint('120', 120));
    expect(servicePointCourier.queries).toEqual([{ countryCode: 'DK', postalCode: '1165', address1: 'Nørregade 1', city: 'København K', limit: 10 }]);
  });

  it('gives at most `limit` points, and asks without the address parts not given', async () => {
    resetServicePointCourier([servicePoint('3', 300), servicePoint('1', 100), servicePoint('2', 200)]);
    const res = await t.request('GET', path(courierId, 'countryCode=SE&postalCode=%2011122%20&limit=2'));
    expect(res.status).toBe(200);
    expect(res.body.data.map((point: { id: string }) => point.id)).toEqual(['1', '2']);
    expect(servicePointCourier.queries).toEqual([{ countryCode: 'SE', postalCode: '11122', address1: null, city: null, limit: 2 }]);
  });

  it('answers [] for the local carrier, which has no service points', async () => {
    expect(await near(localId, { countryCode: 'DK', postalCode: '8000' })).toEqual({ data: [] });
  });

  it('refuses a query without country or postal code, or with a limit outside 1..50', async () => {
    const cases = [
      ['postalCode=8000', 'query.countryCode'],
      ['countryCode=DK', 'query.postalCode'],
      ['countryCode=dk&postalCode=8000', 'query.countryCode'],
      ['countryCode=DK&postalCode=%20', 'query.postalCode'],
      ['countryCode=DK&postalCode=8000&limit=0', 'query.limit'],
      ['countryCode=DK&postalCode=8000&limit=51', 'query.limit'],
      ['countryCode=DK&postalCode=8000&limit=ten', 'query.limit'],
      ['countryCode=DK&postalCode=8000&radius=5', 'query'],
    ] as const;
    for (const [query, field] of cases) {
      const res = await t.request('GET', path(courierId, query));
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.details.map((detail: { path: string }) => detail.path).join(' '), query).toContain(field);
    }
    expect(servicePointCourier.queries).toEqual([]);
  });

  it("turns a carrier's refusal into 422 CARRIER_ERROR with the carrier's words", async () => {
    servicePointCourier.failure = carrierRefused([{ code: 'INVALID_POSTCODE', message: 'Postal code 0000 does not exist' }]);
    const res = await t.request('GET', path(courierId, 'countryCode=DK&postalCode=0000'));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'CARRIER_ERROR', errors: [{ code: 'INVALID_POSTCODE', message: 'Postal code 0000 does not exist' }] });
    expect(res.body.message).toContain('Point courier could not look up service points');
    expect(res.body.message).toContain("does not know the receiver's postal code");
  });

  it('answers CARRIER_AUTH_FAILED when the carrier refuses the credentials, and CARRIER_ERROR when it cannot be reached', async () => {
    servicePointCourier.failure = carrierAuthFailed('API key rejected');
    const refused = await t.request('GET', path(courierId, 'countryCode=DK&postalCode=8000'));
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'CARRIER_AUTH_FAILED', errors: [{ code: 'CARRIER_AUTH_FAILED', message: 'API key rejected' }] });
    expect(refused.body.message).toContain('Test connection');
    expect(JSON.stringify(refused.body)).not.toContain('sk_points_secret');

    servicePointCourier.failure = new CarrierFailure('unavailable', 'The carrier answered HTTP 503');
    const down = await t.request('GET', path(courierId, 'countryCode=DK&postalCode=8000'));
    expect(down.status).toBe(422);
    expect(down.body).toMatchObject({ code: 'CARRIER_ERROR', errors: [{ code: 'CARRIER_UNAVAILABLE', message: 'The carrier answered HTTP 503' }] });
  });

  it("is a read of carriers: read:carriers is enough, another scope is 403, another org's carrier is 404", async () => {
    const reader = await t.tokenWithScopes(t.org, ['read:carriers']);
    expect((await t.request('GET', path(localId, 'countryCode=DK&postalCode=8000'), { token: reader })).status).toBe(200);
    const shipper = await t.tokenWithScopes(t.org, ['read:shipments']);
    expect((await t.request('GET', path(localId, 'countryCode=DK&postalCode=8000'), { token: shipper })).body.code).toBe('FORBIDDEN');
    const other = await t.createOrg();
    const res = await t.request('GET', `/orgs/${other.orgId}/carriers/${courierId}/service-points?countryCode=DK&postalCode=8000`, { token: other.token });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('CARRIER_NOT_FOUND');
  });

  it('is in the OpenAPI document with its query and a 422 for carrier failures', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    const operation = doc.paths['/orgs/{orgId}/carriers/{carrierId}/service-points'].get;
    expect(operation.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(
      expect.arrayContaining(['countryCode', 'postalCode', 'address1', 'city', 'limit']),
    );
    expect(Object.keys(operation.responses)).toContain('422');
  });
});
