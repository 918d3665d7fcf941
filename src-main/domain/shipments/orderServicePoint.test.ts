import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ShipdeskClient } from '../../../src-shared/client';
import type { PartyInput } from '../../../src-shared/schemas/shipment';
import { carrierRefused } from '../../carriers/errors';
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

const API_KEY = 'sk_points_secret_77';
let t: TestServer;
let client: ShipdeskClient;
let localId: string;
let courierId: string;
let channelId: string;
let orderCounter = 0;

beforeAll(async () => {
  t = await startTestServer();
  client = t.client();
  ({ carrierId: localId } = await setupLocalCarrier(t));
  const orgId = t.org.orgId;
  const address = await client.call('senderAddresses.create', { params: { orgId }, body: senderAddressBody() });
  courierId = (
    await client.call('carriers.create', {
      params: { orgId },
      body: { name: 'Point courier', carrierSlug: POINT_COURIER_SLUG, config: { apiKey: API_KEY }, senderAddressId: address.id },
    })
  ).id;
  channelId = (await client.call('orderChannels.create', { params: { orgId }, body: { name: 'Webshop', type: 'manual' } })).id;
});
afterAll(async () => t.close());
beforeEach(() => resetServicePointCourier());

async function newOrder(servicePointId?: string | null) {
  return client.call('orders.create', {
    params: { orgId: t.org.orgId },
    body: {
      orderNumber: `SP-${++orderCounter}`,
      orderChannelId: channelId,
      orderLines: [{ name: 'Mug', sku: 'MUG-01', quantity: 1, weight: 0.4, weightUnit: 'kg' }],
      shippingAddress: { name: 'Jens Hansen', address1: 'Nørregade 1', city: 'København K', postalCode: '1165', countryCode: 'DK' },
      ...(servicePointId !== undefined ? { servicePointId } : {}),
    },
  });
}

const shipOrder = (orderId: string, body: Record<string, unknown>) => client.call('orders.createShipment', { params: { orgId: t.org.orgId, orderId }, body });

describe('orders carry the service point chosen at checkout', () => {
  it('is stored on create, shown on read, changed and cleared by PATCH', async () => {
    const order = await newOrder('PN-4711');
    expect(order.servicePointId).toBe('PN-4711');
    const params = { orgId: t.org.orgId, orderId: order.id };
    expect((await client.call('orders.get', { params })).servicePointId).toBe('PN-4711');
    expect((await client.call('orders.update', { params, body: { servicePointId: 'PN-9' } })).servicePointId).toBe('PN-9');
    expect((await client.call('orders.update', { params, body: { servicePointId: null } })).servicePointId).toBeNull();
    expect((await newOrder()).servicePointId).toBeNull();
  });

  it('comes in through the CSV import column servicePointId', async () => {
    const csv = `orderNumber,orderChannelId,lineName,lineQuantity,servicePointId\nCSV-SP-1,${channelId},Mug,1,GLS-2080\nCSV-SP-2,${channelId},Mug,1,\n`;
    const res = await t.request('POST', `/orgs/${t.org.orgId}/orders/import`, { rawBody: csv, headers: { 'content-type': 'text/csv' } });
    expect(res.body).toEqual({ created: 2, skipped: 0, errors: [] });
    const orders = await client.call('orders.list', { params: { orgId: t.org.orgId }, query: { search: 'CSV-SP' } as never });
    const byNumber = new Map<string, string | null>();
    for (const summary of orders.data) {
      byNumber.set(summary.orderNumber, (await client.call('orders.get', { params: { orgId: t.org.orgId, orderId: summary.id } })).servicePointId);
    }
    expect(Object.fromEntries(byNumber)).toEqual({ 'CSV-SP-1': 'GLS-2080', 'CSV-SP-2': null });
  });
});

describe('order-based create and the service point', () => {
  it("copies the order's service point onto the shipment; the request's own choice wins", async () => {
    const order = await newOrder('PN-4711');
    const shipment = await shipOrder(order.id, { carrierId: localId, productId: 'local_parcel' });
    expect(shipment.servicePointId).toBe('PN-4711');
    // The local carrier has no service points: nobody was asked.
    expect(servicePointCourier.queries).toEqual([]);

    const other = await newOrder('PN-4711');
    const chosen = await shipOrder(other.id, { carrierId: localId, productId: 'local_parcel', servicePointId: 'PN-1' });
    expect(chosen.servicePointId).toBe('PN-1');
  });

  it("POST /shipments with an order copies the order's service point unless the body names one", async () => {
    const order = await newOrder('PN-55');
    const base = { type: 'outbound' as const, carrierSettings: { carrierId: localId, productId: 'local_parcel' }, orderId: order.id };
    const copied = await client.call('shipments.create', { params: { orgId: t.org.orgId }, body: base });
    expect(copied.servicePointId).toBe('PN-55');
    await client.call('shipments.delete', { params: { orgId: t.org.orgId, shipmentId: copied.id } });
    const cleared = await client.call('shipments.create', { params: { orgId: t.org.orgId }, body: { ...base, servicePointId: null } });
    expect(cleared.servicePointId).toBeNull();
  });

  it("fills the service_point party of a named point from the carrier's lookup", async () => {
    resetServicePointCourier([servicePoint('PN-1', 200), servicePoint('PN-4711', 650, { name: 'Netto Nørreport', address1: 'Frederiksborggade 5' })]);
    const order = await newOrder('PN-4711');
    const shipment = await shipOrder(order.id, { carrierId: courierId, productId: 'pt_home' });
    expect(shipment.servicePointId).toBe('PN-4711');
    expect(shipment.parties.find((party) => party.type === 'service_point')).toMatchObject({
      name: 'Netto Nørreport',
      address1: 'Frederiksborggade 5',
      postalCode: '1165',
      city: 'København K',
      countryCode: 'DK',
      attributes: [{ name: 'servicePointId', value: 'PN-4711' }],
    });
    expect(shipment.errors).toEqual([]);
  });

  it('picks the nearest service point to the receiver when the product requires one and the order names none', async () => {
    resetServicePointCourier([servicePoint('far', 900), servicePoint('near', 150, { name: 'Kiosk Nørregade', address1: 'Nørregade 20' })]);
    const order = await newOrder();
    const shipment = await shipOrder(order.id, { carrierId: courierId, productId: 'pt_collect' });
    expect(shipment.servicePointId).toBe('near');
    expect(shipment.parties.map((party) => party.type)).toEqual(['sender', 'receiver', 'service_point']);
    expect(shipment.parties[2]).toMatchObject({ name: 'Kiosk Nørregade', address1: 'Nørregade 20', attributes: [{ name: 'servicePointId', value: 'near' }] });
    expect(servicePointCourier.queries).toEqual([{ countryCode: 'DK', postalCode: '1165', address1: 'Nørregade 1', city: 'København K', limit: 10 }]);
    expect(shipment.activities.map((activity) => activity.description)).toContain(
      'Nearest service point chosen: Kiosk Nørregade, Nørregade 20, 1165 København K',
    );
    expect(shipment.errors).toEqual([]);
    // The lookup is a carrier call for this shipment: in its logs, the key masked.
    expect(shipment.logs).toEqual([
      expect.objectContaining({ direction: 'carrier', statusCode: 200, request: expect.objectContaining({ operation: 'servicePoints' }) }),
    ]);
    expect(JSON.stringify(shipment.logs)).not.toContain(API_KEY);

    // The send books with it: the id and the party reach the carrier.
    const sent = await client.call('shipments.send', { params: { orgId: t.org.orgId, shipmentId: shipment.id } });
    expect(sent.status).toBe('dispatched');
    const [booking] = servicePointCourier.bookings;
    expect(booking?.servicePointId).toBe('near');
    expect(booking?.otherParties).toEqual([
      expect.objectContaining({ type: 'service_point', name: 'Kiosk Nørregade', address1: 'Nørregade 20', postalCode: '1165' }),
    ]);
  });

  it('asks nobody for a product that takes no service point, or one that only allows it when none is named', async () => {
    resetServicePointCourier([servicePoint('near', 150)]);
    const pallet = await shipOrder((await newOrder()).id, { carrierId: courierId, productId: 'pt_pallet' });
    const home = await shipOrder((await newOrder()).id, { carrierId: courierId, productId: 'pt_home' });
    expect([pallet.servicePointId, home.servicePointId]).toEqual([null, null]);
    expect(servicePointCourier.queries).toEqual([]);
  });

  it('creates the shipment without a service point, and says why, when the lookup fails', async () => {
    servicePointCourier.failure = carrierRefused([{ code: 'SERVICE_UNAVAILABLE', message: 'Service point search is down for maintenance' }]);
    const order = await newOrder();
    const res = await t.request('POST', `/orgs/${t.org.orgId}/orders/${order.id}/shipments`, { body: { carrierId: courierId, productId: 'pt_collect' } });
    expect(res.status).toBe(201);
    expect(res.body.servicePointId).toBeNull();
    expect(res.body.parties.map((party: { type: string }) => party.type)).toEqual(['sender', 'receiver']);
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        code: 'SERVICE_POINT_LOOKUP_FAILED',
        message: expect.stringContaining(
          'Point Collect needs a service point, but Point courier could not be asked for the nearest (Service point search is down for maintenance)',
        ),
      }),
    ]);
    expect(res.body.logs).toEqual([expect.objectContaining({ statusCode: 503, error: 'Service point search is down for maintenance' })]);
    // The order-based create event carries the error too.
    const event = t.app.db.$client.prepare("SELECT payload FROM outbox_events WHERE type = 'shipment.created' AND payload LIKE ?").get(`%${res.body.id}%`) as {
      payload: string;
    };
    expect(JSON.parse(event.payload).data.errors).toHaveLength(1);
  });

  it('says so when the carrier has no service point near the receiver', async () => {
    const shipment = await shipOrder((await newOrder()).id, { carrierId: courierId, productId: 'pt_collect' });
    expect(shipment.servicePointId).toBeNull();
    expect(shipment.errors).toEqual([expect.objectContaining({ code: 'SERVICE_POINT_NOT_FOUND' })]);
  });

  it('keeps a named point when the lookup for its party fails, and adds no error', async () => {
    servicePointCourier.failure = carrierRefused([{ code: 'DOWN', message: 'down' }]);
    const shipment = await shipOrder((await newOrder('PN-4711')).id, { carrierId: courierId, productId: 'pt_collect' });
    expect(shipment.servicePointId).toBe('PN-4711');
    expect(shipment.parties.map((party) => party.type)).toEqual(['sender', 'receiver']);
    expect(shipment.errors).toEqual([]);
  });

  it("drops the old point's party when PATCH names another point by its id alone, and keeps a party typed by hand", async () => {
    resetServicePointCourier([servicePoint('near', 150)]);
    const shipment = await shipOrder((await newOrder()).id, { carrierId: courierId, productId: 'pt_collect' });
    const params = { orgId: t.org.orgId, shipmentId: shipment.id };
    const sender = shipment.parties.find((party) => party.type === 'sender');
    const moved = await client.call('shipments.update', { params, body: { servicePointId: 'PN-77' } });
    expect(moved.servicePointId).toBe('PN-77');
    expect(moved.parties.map((party) => party.type)).toEqual(['sender', 'receiver']);
    expect(moved.parties[0]).toEqual(sender);

    const typed = {
      type: 'service_point' as const,
      name: 'Kiosk typed in',
      address1: 'Vestergade 1',
      postalCode: '1456',
      city: 'København K',
      countryCode: 'DK',
    };
    const withTyped = await client.call('shipments.update', {
      params,
      body: { parties: [...moved.parties.map((party) => ({ ...party, type: party.type as PartyInput['type'] })), typed] },
    });
    expect(withTyped.parties.map((party) => party.type)).toEqual(['sender', 'receiver', 'service_point']);
    const again = await client.call('shipments.update', { params, body: { servicePointId: 'PN-78' } });
    expect(again.parties.map((party) => party.name)).toContain('Kiosk typed in');
  });
});
