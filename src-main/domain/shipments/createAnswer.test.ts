import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiverParty, setupLocalCarrier, shipmentBody, startTestServer, type TestServer } from '../../testing/harness';

/**
 * Create-shipment answers with the full read as SQLite built it and writes that text into the
 * `shipment.created` event (issue 23: no parse and re-serialisation on the create path). The answer
 * must be byte for byte what a GET of the shipment sends, and the event's payload what
 * JSON.stringify of the parsed read gave before.
 */
let t: TestServer;
let carrierId: string;
beforeAll(async () => {
  t = await startTestServer();
  ({ carrierId } = await setupLocalCarrier(t));
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

describe('create-shipment answer', () => {
  for (const i of [0, 1]) {
    it(`is byte for byte the GET of the shipment, and its event carries the same data (body ${i + 1})`, async () => {
      const created = await text('POST', `/orgs/${t.org.orgId}/shipments`, bodies()[i]);
      expect(created.status, created.text).toBe(201);
      const id = (JSON.parse(created.text) as { id: string }).id;
      const fetched = await text('GET', `/orgs/${t.org.orgId}/shipments/${id}`);
      expect(fetched.status).toBe(200);
      expect(created.text).toBe(fetched.text);
      // What the answer was before: the read parsed and serialised again.
      expect(created.text).toBe(JSON.stringify(JSON.parse(created.text)));

      const event = t.app.db.$client
        .prepare("SELECT id, type, org_id AS orgId, created_at AS createdAt, payload FROM outbox_events WHERE type = 'shipment.created' AND payload LIKE ?")
        .get(`%"id":"${id}"%`) as { id: string; type: string; orgId: string; createdAt: string; payload: string };
      expect(event.payload).toBe(
        JSON.stringify({ id: event.id, type: event.type, createdAt: event.createdAt, orgId: event.orgId, data: JSON.parse(fetched.text) as unknown }),
      );
    });
  }
});
