import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiverParty, setupLocalCarrier, shipmentBody, startTestServer, type TestServer } from '../../testing/harness';

/**
 * Create-shipment answers with the full read of the new shipment and writes that text into the
 * `shipment.created` event (issue 23: no parse and re-serialisation on the create path). The text is
 * built from the rows just written (newShipmentJson.ts) instead of read back; it must be byte for
 * byte what a GET of the shipment sends, over every kind of body, and the event's payload that text.
 */
let t: TestServer;
let carrierId: string;
let senderAddressId: string;
let channelId: string;
beforeAll(async () => {
  t = await startTestServer();
  ({ carrierId, senderAddressId } = await setupLocalCarrier(t));
  channelId = (await t.request('POST', `/orgs/${t.org.orgId}/order-channels`, { body: { name: 'Phone orders', type: 'manual' } })).body.id;
});
afterAll(async () => t.close());

async function text(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(t.url + path, {
    method,
    headers: { authorization: `Bearer ${t.org.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, text: await response.text() };
}

const bodies = () => [
  shipmentBody(carrierId),
  shipmentBody(carrierId, {
    reference: 'ÅSE-ÆRØ-1',
    parties: [receiverParty({ name: 'Łukasz Wołodźko "Ł"', email: 'l@example.pl', countryCode: 'PL', attention: 'Bag døren' })],
    parcels: [
      {
        weight: 1,
        weightUnit: 'kg',
        dimensions: { length: 10.5, width: 1, height: 2 },
        orderLines: [{ sku: 'A', quantity: 1, description: 'Ét', unitPrice: 0.1, currency: 'EUR' }],
      },
      { weight: 0.125, weightUnit: 'g', dimensions: { length: 1, width: 1, height: 1 } },
    ],
    carrierSettings: { carrierId, productId: 'local_parcel', services: [], additionalParameters: { note: 'é\n"x"', n: 1.5 } },
  }),
];

let orders = 0;
async function createOrder(
  lines: unknown[] = [{ name: 'Mug', sku: 'MUG-01', quantity: 2, unitPrice: 50, currency: 'DKK', weight: 0.5, weightUnit: 'kg', hsCode: '6912' }],
) {
  const res = await t.request('POST', `/orgs/${t.org.orgId}/orders`, {
    body: {
      orderNumber: `#A${++orders}`,
      orderChannelId: channelId,
      customerName: 'Zoë Ærø',
      customerEmail: 'zoe@example.dk',
      totalAmount: 100,
      currency: 'DKK',
      shippingAddress: { name: 'Zoë Ærø', address1: 'Strøget 3\ttv.', city: 'Århus', postalCode: '8000', countryCode: 'DK', phone: '+45 1234' },
      orderLines: lines,
    },
  });
  if (res.status !== 201) throw new Error(`order: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/** Bodies over the optional members, numbers, text and JSON a create can carry. */
const variedBodies = async (): Promise<[string, unknown][]> => [
  [
    'customs lines and several parcels',
    shipmentBody(carrierId, {
      termOfTrade: 'DDP',
      parcels: [
        {
          weight: 12.75,
          weightUnit: 'lb',
          dimensions: { length: 0, width: 0.5, height: 99.99 },
          orderLines: [
            {
              sku: 'A-1',
              quantity: 1_000_000,
              description: 'Porcelæn',
              unitPrice: 1234.56,
              currency: 'USD',
              vatPercent: 25,
              location: 'B-12',
              countryOfOrigin: 'CN',
              tarrifNumber: '6912.00',
              weight: 0.3,
            },
            { sku: 'A-2', quantity: 1, weight: null, vatPercent: 12.5, unitPrice: 0, currency: '', countryOfOrigin: '' },
            { sku: 'A-3', quantity: 7, unitPrice: 0.07, weight: 1 },
          ],
        },
        { weight: 0, weightUnit: 'oz', dimensions: { length: 1, width: 2, height: 3 }, orderLines: [] },
        { weight: 250, weightUnit: 'kg', dimensions: { length: 120.5, width: 80, height: 0.0001 } },
      ],
    }),
  ],
  [
    'services, parameters, service point, pickup, status',
    shipmentBody(carrierId, {
      carrierSettings: {
        carrierId,
        productId: 'local_parcel',
        services: ['signature', 'saturday', 'ÆØÅ'],
        additionalParameters: { nested: { list: [1, 2.5, -3, 1e21, 1e-7, 0.1, 1 / 3, true, null, 'x'] }, '2': 'numeric key', empty: {}, quote: '"\\/\u2028' },
      },
      servicePointId: 'SP-42 "Kiosk"',
      pickupDetails: { date: '2026-12-01', from: '09:00', to: '17:30', instruction: 'Ring the bell\nat the back' },
      status: 'on_hold',
    }),
  ],
  [
    'pickup without instruction, empty service point',
    shipmentBody(carrierId, { pickupDetails: { date: '2026-12-02', from: '08:00', to: '08:30' }, servicePointId: '' }),
  ],
  ['inbound, with its own reference', shipmentBody(carrierId, { type: 'inbound', reference: 'RET-ÅÄÖ-1' })],
  [
    'a sender party and a receiver with attributes',
    shipmentBody(carrierId, {
      senderAddressId,
      parties: [
        {
          type: 'sender',
          name: 'Lager Süd',
          attention: '',
          address1: 'Hauptstraße 1',
          address2: 'Hof 2',
          postalCode: '10115',
          city: 'Berlin',
          countryCode: 'DE',
          phone: '',
          email: '',
          attributes: [{ name: 'eori', value: 'DE123' }],
        },
        receiverParty({
          name: '山田 太郎 😀',
          email: undefined,
          phone: undefined,
          attention: 'c/o \\ "B"',
          countryCode: 'JP',
          attributes: [
            { name: 'door', value: 'ß\u0001\u001f\u007f' },
            { name: 'empty', value: '' },
          ],
        }),
        { type: 'billing', name: 'Billing party', address1: 'x', postalCode: '1', city: 'y', countryCode: 'SE' },
      ],
    }),
  ],
  [
    'an order, its receiver and what is left of it',
    { orderId: await createOrder(), type: 'outbound', carrierSettings: { carrierId, productId: 'local_parcel' } },
  ],
  [
    'an order with the parcels given',
    shipmentBody(carrierId, {
      orderId: await createOrder([{ name: 'Tea', sku: 'TEA-02', quantity: 3, unitPrice: 30, currency: 'DKK', weight: 200, weightUnit: 'g' }]),
      parcels: [{ weight: 0.6, weightUnit: 'kg', dimensions: { length: 10, width: 10, height: 10 }, orderLines: [{ sku: 'TEA-02', quantity: 3 }] }],
    }),
  ],
  [
    'numbers JavaScript and SQLite write differently',
    shipmentBody(carrierId, {
      parcels: [
        {
          weight: 1 / 3,
          weightUnit: 'kg',
          dimensions: { length: 0.00001, width: 491.794771514833, height: 2 / 3 },
          orderLines: [{ sku: 'Z', quantity: 1, unitPrice: 0.1 + 0.2, vatPercent: 1e-5, weight: 0.30000000000000004 }],
        },
      ],
    }),
  ],
];

describe('create-shipment answer', () => {
  for (const i of [0, 1]) {
    it(`is byte for byte the GET of the shipment, and its event carries the same data (body ${i + 1})`, async () => {
      await expectAnswerIsGet(bodies()[i]);
    });
  }

  it('is byte for byte the GET of the shipment over varied bodies', async () => {
    for (const [what, body] of await variedBodies()) await expectAnswerIsGet(body, what);
  });

  it('of create-return (built from the rows written, then sent) is the GET of the return', async () => {
    const original = await text('POST', `/orgs/${t.org.orgId}/shipments`, (await variedBodies())[4]?.[1]);
    const id = (JSON.parse(original.text) as { id: string }).id;
    t.app.db.$client.prepare("UPDATE shipments SET status = 'dispatched' WHERE id = ?").run(id);
    const created = await text('POST', `/orgs/${t.org.orgId}/shipments/${id}/create-return`);
    // Answered after the return's send attempt, as create-return does.
    expect(created.status, created.text).toBe(200);
    const returnId = (JSON.parse(created.text) as { id: string }).id;
    const fetched = await text('GET', `/orgs/${t.org.orgId}/shipments/${returnId}`);
    expect(JSON.parse(created.text)).toEqual(JSON.parse(fetched.text));
  });
});

async function expectAnswerIsGet(body: unknown, what = ''): Promise<void> {
  const created = await text('POST', `/orgs/${t.org.orgId}/shipments`, body);
  expect(created.status, `${what}: ${created.text}`).toBe(201);
  const id = (JSON.parse(created.text) as { id: string }).id;
  const fetched = await text('GET', `/orgs/${t.org.orgId}/shipments/${id}`);
  expect(fetched.status).toBe(200);
  expect(created.text, what).toBe(fetched.text);

  const event = t.app.db.$client
    .prepare("SELECT id, type, org_id AS orgId, created_at AS createdAt, payload FROM outbox_events WHERE type = 'shipment.created' AND payload LIKE ?")
    .get(`%"id":"${id}"%`) as { id: string; type: string; orgId: string; createdAt: string; payload: string };
  expect(event.payload, what).toBe(
    `{"id":${JSON.stringify(event.id)},"type":"shipment.created","createdAt":${JSON.stringify(event.createdAt)},"orgId":${JSON.stringify(event.orgId)},"data":${fetched.text}}`,
  );
}
