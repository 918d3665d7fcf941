import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../../testing/shippingPapers';
import { setupLocalCarrier, shippingRuleBody, startTestServer, type TestServer } from '../../testing/harness';

let t: TestServer;
let carrierId: string;
let senderAddressId: string;
let channelId: string;
let orderCounter = 0;
beforeAll(async () => {
  t = await startTestServer();
  ({ carrierId, senderAddressId } = await setupLocalCarrier(t));
  channelId = (await t.request('POST', `/orgs/${t.org.orgId}/order-channels`, { body: { name: 'Manual', type: 'manual' } })).body.id;
});
afterAll(async () => t.close());

const org = () => `/orgs/${t.org.orgId}`;

async function createOrder(overrides: Record<string, unknown> = {}) {
  const res = await t.request('POST', `${org()}/orders`, {
    body: {
      orderNumber: `#${++orderCounter}`,
      orderChannelId: channelId,
      customerEmail: 'kim@example.dk',
      totalAmount: 300,
      currency: 'DKK',
      shippingAddress: { name: 'Kim Larsen', address1: 'Vestergade 3', city: 'Odense', postalCode: '5000', countryCode: 'DK', company: 'Larsen ApS' },
      orderLines: [
        { name: 'Mug', sku: 'MUG-01', quantity: 2, weight: 400, weightUnit: 'g', unitPrice: 50, hsCode: '6912', countryOfOrigin: 'DK' },
        { name: 'Tea', sku: 'TEA-02', quantity: 3, weight: 0.2, weightUnit: 'kg', unitPrice: 30 },
        { name: 'Gift card', quantity: 1, requiresShipping: false, giftCard: true },
      ],
      ...overrides,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('POST /orders/{orderId}/shipments', () => {
  it('uses an explicit carrier: receiver from the shipping address, shippable lines, weight from the lines', async () => {
    const order = await createOrder();
    const res = await t.request('POST', `${org()}/orders/${order.id}/shipments`, { body: { carrierId, productId: 'local_parcel', reference: 'FROM-ORDER' } });
    expect(res.status).toBe(201);
    const s = res.body;
    expect(s).toMatchObject({ orderId: order.id, reference: 'FROM-ORDER', status: 'pending', type: 'outbound', senderAddressId, shippingRuleId: null });
    const receiver = s.parties.find((p: { type: string }) => p.type === 'receiver');
    expect(receiver).toMatchObject({ name: 'Kim Larsen', attention: 'Larsen ApS', postalCode: '5000', city: 'Odense', email: 'kim@example.dk' });
    expect(s.parcels).toHaveLength(1);
    expect(s.parcels[0].weight).toBeCloseTo(2 * 0.4 + 3 * 0.2, 6);
    expect(s.parcels[0].orderLines.map((l: { sku: string; quantity: number }) => [l.sku, l.quantity])).toEqual([
      ['MUG-01', 2],
      ['TEA-02', 3],
    ]);
    expect(s.parcels[0].orderLines[0]).toMatchObject({ description: 'Mug', tarrifNumber: '6912', countryOfOrigin: 'DK', unitPrice: 50 });
    const detail = (await t.request('GET', `${org()}/orders/${order.id}`)).body;
    expect(detail).toMatchObject({ status: 'processing', shipmentCount: 1 });
  });

  it('keeps the company of an address that also has a contact, and prints it on the label', async () => {
    const order = await createOrder({
      shippingAddress: {
        name: 'Kim Larsen',
        attention: 'Goods receiving',
        company: 'Larsen ApS',
        address1: 'Vestergade 3',
        city: 'Odense',
        postalCode: '5000',
        countryCode: 'DK',
      },
    });
    const created = (await t.request('POST', `${org()}/orders/${order.id}/shipments`, { body: { carrierId, productId: 'local_parcel' } })).body;
    const receiver = created.parties.find((p: { type: string }) => p.type === 'receiver');
    expect(receiver).toMatchObject({ name: 'Kim Larsen', attention: 'Goods receiving', attributes: [{ name: 'company', value: 'Larsen ApS' }] });

    const sent = await t.request('POST', `${org()}/shipments/${created.id}/send`);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const lines = pdfText(Buffer.from(sent.body.documents[0].content, 'base64'))
      .split('\n')
      .map((line) => line.trim());
    const name = lines.indexOf('Kim Larsen');
    expect(lines.slice(name, name + 3)).toEqual(['Kim Larsen', 'Larsen ApS', 'Att. Goods receiving']);
  });

  it('places only what is left, and answers 409 when nothing is', async () => {
    const order = await createOrder();
    const first = (await t.request('POST', `${org()}/orders/${order.id}/shipments`, { body: { carrierId, productId: 'local_parcel' } })).body;
    // Move one mug out of the first shipment, as a packer would when it does not fit.
    t.app.db.$client.prepare("UPDATE parcel_order_lines SET quantity = 1 WHERE sku = 'MUG-01' AND parcel_id = ?").run(first.parcels[0].id);
    const second = await t.request('POST', `${org()}/orders/${order.id}/shipments`, { body: { carrierId, productId: 'local_parcel' } });
    expect(second.status).toBe(201);
    expect(second.body.parcels[0].orderLines.map((l: { sku: string; quantity: number }) => [l.sku, l.quantity])).toEqual([['MUG-01', 1]]);
    const third = await t.request('POST', `${org()}/orders/${order.id}/shipments`, { body: { carrierId, productId: 'local_parcel' } });
    expect(third.status).toBe(409);
    expect(third.body.code).toBe('ORDER_INVALID_STATE');
    // A cancelled shipment gives its units back.
    await t.request('POST', `${org()}/shipments/${second.body.id}/cancel`);
    expect((await t.request('POST', `${org()}/orders/${order.id}/shipments`, { body: { carrierId, productId: 'local_parcel' } })).status).toBe(201);
  });

  it('falls back to the order’s rule, then to rule matching, and never overrides an explicit choice', async () => {
    const pallet = (
      await t.request('POST', `${org()}/shipping-rules`, {
        body: shippingRuleBody(carrierId, senderAddressId, { name: 'Pallets', productId: 'local_pallet', receivingCountries: ['SE'], conditions: [] }),
      })
    ).body;
    const ordered = await createOrder({ shippingRuleId: pallet.id });
    const byOrderRule = (await t.request('POST', `${org()}/orders/${ordered.id}/shipments`, { body: {} })).body;
    expect(byOrderRule).toMatchObject({ shippingRuleId: pallet.id, carrierSettings: { productId: 'local_pallet' } });
    expect(byOrderRule.activities.map((a: { action: string }) => a.action)).toEqual(['created', 'shipping_rule_applied']);

    const cheap = (
      await t.request('POST', `${org()}/shipping-rules`, {
        body: shippingRuleBody(carrierId, senderAddressId, {
          name: 'Cheap DK',
          conditions: [{ type: 'weight', min: 0, max: 5, shippingPrice: 1, currency: 'DKK' }],
        }),
      })
    ).body;
    const matched = (await t.request('POST', `${org()}/orders/${(await createOrder()).id}/shipments`)).body;
    expect(matched.shippingRuleId).toBe(cheap.id);

    const explicit = (await t.request('POST', `${org()}/orders/${(await createOrder()).id}/shipments`, { body: { carrierId, productId: 'local_pickup' } }))
      .body;
    expect(explicit).toMatchObject({ shippingRuleId: null, carrierSettings: { productId: 'local_pickup' } });

    // The order's rule deleted since: rule matching chooses, and the activity says why.
    const retiring = (
      await t.request('POST', `${org()}/shipping-rules`, {
        body: shippingRuleBody(carrierId, senderAddressId, { name: 'Retired', productId: 'local_pallet', receivingCountries: ['SE'], conditions: [] }),
      })
    ).body;
    const orphan = await createOrder({ shippingRuleId: retiring.id });
    expect((await t.request('DELETE', `${org()}/shipping-rules/${retiring.id}`)).status).toBe(200);
    const res = await t.request('POST', `${org()}/orders/${orphan.id}/shipments`);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.shippingRuleId).toBe(cheap.id);
    expect(res.body.activities.find((a: { action: string }) => a.action === 'shipping_rule_applied').description).toBe(
      `Shipping rule Cheap DK applied (the order's rule ${retiring.id} was deleted)`,
    );
  });

  it('answers 422 NO_MATCHING_SHIPPING_RULE when nothing matches, and rejects half a carrier choice', async () => {
    const order = await createOrder({
      shippingAddress: { name: 'Ola', address1: 'Karl Johans gate 1', city: 'Oslo', postalCode: '0154', countryCode: 'NO' },
    });
    const res = await t.request('POST', `${org()}/orders/${order.id}/shipments`, { body: {} });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('NO_MATCHING_SHIPPING_RULE');
    const half = await t.request('POST', `${org()}/orders/${order.id}/shipments`, { body: { carrierId } });
    expect(half.status).toBe(400);
    expect(half.body.details[0].path).toBe('body.productId');
  });

  it('refuses cancelled and unknown orders', async () => {
    const order = await createOrder();
    await t.request('PATCH', `${org()}/orders/${order.id}`, { body: { status: 'cancelled' } });
    const res = await t.request('POST', `${org()}/orders/${order.id}/shipments`, { body: { carrierId, productId: 'local_parcel' } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('ORDER_INVALID_STATE');
    expect((await t.request('POST', `${org()}/orders/ord_unknown/shipments`, { body: { carrierId, productId: 'local_parcel' } })).body.code).toBe(
      'ORDER_NOT_FOUND',
    );
  });

  it('prices lines without a currency of their own in the order’s currency', async () => {
    const order = await createOrder({
      currency: 'EUR',
      orderLines: [
        { name: 'Mug', sku: 'MUG-01', quantity: 1, unitPrice: 12.5 },
        { name: 'Tea', sku: 'TEA-02', quantity: 1, unitPrice: 30, currency: 'DKK' },
      ],
    });
    const res = await t.request('POST', `${org()}/orders/${order.id}/shipments`, { body: { carrierId, productId: 'local_parcel' } });
    expect(res.status).toBe(201);
    expect(res.body.parcels[0].orderLines.map((l: { sku: string; currency: string }) => [l.sku, l.currency])).toEqual([
      ['MUG-01', 'EUR'],
      ['TEA-02', 'DKK'],
    ]);
  });

  it('ships an order without a shipping address to the receiver the request gives, matching rules on that receiver’s country', async () => {
    const order = await createOrder({ shippingAddress: null });
    const refused = await t.request('POST', `${org()}/orders/${order.id}/shipments`, { body: { carrierId, productId: 'local_parcel' } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'ORDER_INVALID_STATE',
      message: `Order ${order.orderNumber} has no shipping address; give the receiver in parties`,
    });

    const receiver = { type: 'receiver', name: 'Ola Nordmann', address1: 'Karl Johans gate 1', postalCode: '0154', city: 'Oslo', countryCode: 'NO' };
    // No rule ships to Norway here: matching looked at the given receiver, not at an address the order lacks.
    const unmatched = await t.request('POST', `${org()}/orders/${order.id}/shipments`, { body: { parties: [receiver] } });
    expect(unmatched.status).toBe(422);
    expect(unmatched.body.message).toContain('(NO,');

    const res = await t.request('POST', `${org()}/orders/${order.id}/shipments`, { body: { carrierId, productId: 'local_parcel', parties: [receiver] } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.parties.find((p: { type: string }) => p.type === 'receiver')).toMatchObject({ name: 'Ola Nordmann', countryCode: 'NO' });
    expect(res.body.parties.map((p: { type: string }) => p.type).sort()).toEqual(['receiver', 'sender']);
  });

  it('says so when an order has no line that needs shipping', async () => {
    const order = await createOrder({ orderLines: [{ name: 'Gift card', quantity: 1, requiresShipping: false }] });
    const res = await t.request('POST', `${org()}/orders/${order.id}/shipments`, { body: { carrierId, productId: 'local_parcel' } });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(`Order ${order.orderNumber} has no line that needs shipping (every line has requiresShipping false)`);
  });

  it('writes the shipment’s events before the order.updated they cause, on create and on send', async () => {
    const order = await createOrder();
    const created = await t.request('POST', `${org()}/orders/${order.id}/shipments`, { body: { carrierId, productId: 'local_parcel' } });
    expect((await t.request('POST', `${org()}/shipments/${created.body.id}/send`)).status).toBe(200);
    const events = t.app.db.$client
      .prepare("SELECT type FROM outbox_events WHERE json_extract(payload, '$.data.id') IN (?, ?) ORDER BY id")
      .all(order.id, created.body.id) as { type: string }[];
    expect(events.map((event) => event.type)).toEqual(['order.created', 'shipment.created', 'order.updated', 'shipment.dispatched', 'order.updated']);
  });

  it('refuses to make one parcel heavier than a parcel may be (100 000 kg), from either door; parcels given by hand still work', async () => {
    const order = await createOrder({ orderLines: [{ name: 'Steel coil', sku: 'COIL', quantity: 3, weight: 50_000, weightUnit: 'kg' }] });
    const before = (await t.request('GET', `${org()}/shipments?limit=1`)).body.total as number;
    for (const [path, body] of [
      [`${org()}/orders/${order.id}/shipments`, { carrierId, productId: 'local_pallet' }],
      [`${org()}/shipments`, { type: 'outbound', orderId: order.id, carrierSettings: { carrierId, productId: 'local_pallet' } }],
    ] as const) {
      const res = await t.request('POST', path, { body });
      expect(res.status, path).toBe(409);
      expect(res.body).toEqual({
        code: 'ORDER_INVALID_STATE',
        error: 'Conflict',
        message: `What is left to ship of order ${order.orderNumber} weighs 150000 kg, more than one parcel may (100000 kg); create its shipment with parcels of your own (POST /shipments with orderId and parcels)`,
      });
    }
    expect((await t.request('GET', `${org()}/shipments?limit=1`)).body.total).toBe(before);

    const parcel = (quantity: number) => ({
      weight: 50_000 * quantity,
      weightUnit: 'kg',
      dimensions: { length: 0, width: 0, height: 0 },
      orderLines: [{ sku: 'COIL', quantity }],
    });
    const byHand = await t.request('POST', `${org()}/shipments`, {
      body: { type: 'outbound', orderId: order.id, carrierSettings: { carrierId, productId: 'local_pallet' }, parcels: [parcel(2)] },
    });
    expect(byHand.status, JSON.stringify(byHand.body)).toBe(201);
    // One coil is left: that fits one parcel.
    expect((await t.request('POST', `${org()}/orders/${order.id}/shipments`, { body: { carrierId, productId: 'local_pallet' } })).status).toBe(201);
  });
});
