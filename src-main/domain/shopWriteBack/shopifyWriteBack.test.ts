import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setupLocalCarrier, startTestServer, type TestServer } from '../../testing/harness';
import { fakeFulfillmentControl, fakeShopify, fulfillmentsOf, shopifyOrder, startFakeShopify, type FakeShopify } from '../../testing/fakeShopify';
import { shopifyApiVersion } from '../../storefronts/shopify/graphql';
import { inWriteTransaction } from '../../db/tx';
import { queueShopWriteBack, writeDueFulfillments } from './outbox';
import { RETRY_DELAYS_MS } from '../webhooks/delivery';

let clock = new Date('2026-03-02T09:00:00.000Z');
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

let t: TestServer;
let shop: FakeShopify;
let carrierId: string;
let senderAddressId: string;
let channelId: string;
let nextOrderId = 5001;
const org = () => `/orgs/${t.org.orgId}`;

/** An order in the fake shop and in Shipdesk as the sync makes it (the shop's line ids kept on the lines). */
async function shopOrder() {
  const id = nextOrderId++;
  const inShop = shopifyOrder(id);
  shop.orders.push(inShop);
  const res = await t.request('POST', `${org()}/orders`, {
    body: {
      orderNumber: inShop.name,
      externalId: inShop.id,
      orderChannelId: channelId,
      customerEmail: 'jane@example.dk',
      shippingAddress: { name: 'Jane Doe', address1: 'Storgade 5', city: 'København Ø', postalCode: '2100', countryCode: 'DK' },
      orderLines: [
        { name: 'Stoneware mug - Blue', sku: 'MUG-01', quantity: 2, weight: 400, weightUnit: 'g' },
        { name: 'Gift card', quantity: 1, requiresShipping: false, giftCard: true },
      ],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const lines = t.app.db.$client.prepare('SELECT id FROM order_lines WHERE order_id = ? ORDER BY position').all(res.body.id) as { id: string }[];
  lines.forEach((line, index) =>
    t.app.db.$client.prepare('UPDATE order_lines SET external_line_id = ? WHERE id = ?').run(inShop.lineItems[index]!.id, line.id),
  );
  return { orderId: res.body.id as string, inShop };
}

async function dispatch(orderId: string, patch: Record<string, unknown> = {}) {
  const created = await t.request('POST', `${org()}/orders/${orderId}/shipments`, { body: { carrierId, productId: 'local_parcel' } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  if (Object.keys(patch).length) expect((await t.request('PATCH', `${org()}/shipments/${created.body.id}`, { body: patch })).status).toBe(200);
  const sent = await t.request('POST', `${org()}/shipments/${created.body.id}/send`);
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return sent.body;
}

const rowOf = (shipmentId: string) =>
  t.app.db.$client
    .prepare(
      'SELECT status, attempts, remote_id AS remoteId, last_error AS lastError, sent_tracking_number AS sent FROM shop_fulfillments WHERE shipment_id = ?',
    )
    .get(shipmentId) as { status: string; attempts: number; remoteId: string | null; lastError: string | null; sent: string | null };

const mutations = (name: string) => shop.requests.filter((request) => request.query?.includes(`${name}(`)).length;

beforeAll(async () => {
  t = await startTestServer({ now: () => clock });
  t.app.db.$client.prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(t.org.orgId);
  shop = await startFakeShopify();
  ({ carrierId, senderAddressId } = await setupLocalCarrier(t, t.org, { trackingUrlTemplate: 'https://track.acme.example/{trackingNumber}' }));
  const channel = await t.request('POST', `${org()}/order-channels`, {
    body: { name: 'Shopify', type: 'shopify', config: { ...fakeShopify, syncIntervalMinutes: 0 } },
  });
  expect(channel.status, JSON.stringify(channel.body)).toBe(201);
  channelId = channel.body.id;
});
afterAll(async () => {
  await t.close();
  await shop.close();
});
beforeEach(async () => {
  t.app.storefront = { origin: shop.origin };
  shop.failWith = null;
  shop.scopes = ['read_orders', 'read_merchant_managed_fulfillment_orders', 'write_merchant_managed_fulfillment_orders'];
  fakeFulfillmentControl.holdAnswers = null;
  advance(24 * 3600_000);
  while ((await writeDueFulfillments(t.app)) > 0);
});

describe('write-back to Shopify (GraphQL Admin API)', () => {
  it('creates one fulfilment for the shipped lines with the tracking number, link and carrier, asking Shopify to notify the customer', async () => {
    const { orderId, inShop } = await shopOrder();
    const shipment = await dispatch(orderId);
    expect(await writeDueFulfillments(t.app)).toBe(1);
    const state = fulfillmentsOf(inShop);
    expect(state.fulfillments).toHaveLength(1);
    const [fulfillment] = state.fulfillments;
    expect(fulfillment!.trackingInfo).toEqual([{ company: 'Own trucks', number: shipment.tracking.number, url: shipment.tracking.url }]);
    // The mug's two units from the mug's fulfillment order line; the gift card needs no shipping.
    expect(fulfillment!.lines).toEqual([{ fulfillmentOrderLineId: state.fulfillmentOrders[0]!.lines[0]!.id, quantity: 2 }]);
    expect(fulfillment!.notifyCustomer).toEqual([true]);
    expect(inShop.displayFulfillmentStatus).toBe('FULFILLED');
    expect(rowOf(shipment.id)).toEqual({ status: 'sent', attempts: 1, remoteId: fulfillment!.id, lastError: null, sent: shipment.tracking.number });
    const paths = new Set(shop.requests.map((request) => request.path));
    expect(paths).toEqual(new Set([`/admin/api/${shopifyApiVersion}/graphql.json`]));
    expect(mutations('fulfillmentCreateV2')).toBe(0);
    advance(3600_000);
    expect(await writeDueFulfillments(t.app)).toBe(0);
    expect(fulfillmentsOf(inShop).fulfillments).toHaveLength(1);
  });

  it('writes a fulfilment per shipment with its own quantities when an order leaves in two parcels', async () => {
    const { orderId, inShop } = await shopOrder();
    const created = await t.request('POST', `${org()}/orders/${orderId}/shipments`, { body: { carrierId, productId: 'local_parcel' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const parcel = created.body.parcels[0];
    const one = await t.request('PATCH', `${org()}/shipments/${created.body.id}`, {
      body: { parcels: [{ ...parcel, orderLines: parcel.orderLines.map((line: Record<string, unknown>) => ({ ...line, quantity: 1 })) }] },
    });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect((await t.request('POST', `${org()}/shipments/${created.body.id}/send`)).status).toBe(200);
    expect(await writeDueFulfillments(t.app)).toBe(1);
    expect(inShop.displayFulfillmentStatus).toBe('PARTIALLY_FULFILLED');
    // The rest of the order: the second mug.
    const second = await dispatch(orderId);
    expect(await writeDueFulfillments(t.app)).toBe(1);
    const state = fulfillmentsOf(inShop);
    const mugLine = state.fulfillmentOrders[0]!.lines[0]!.id;
    expect(state.fulfillments.map((f) => f.lines)).toEqual([
      [{ fulfillmentOrderLineId: mugLine, quantity: 1 }],
      [{ fulfillmentOrderLineId: mugLine, quantity: 1 }],
    ]);
    expect(state.fulfillments[1]!.trackingInfo[0]!.number).toBe(second.tracking.number);
    expect(inShop.displayFulfillmentStatus).toBe('FULFILLED');
    expect(state.fulfillmentOrders[0]!.status).toBe('CLOSED');
  });

  it('updates the same fulfilment when the tracking number changes, never a second one', async () => {
    const { orderId, inShop } = await shopOrder();
    const shipment = await dispatch(orderId);
    expect(await writeDueFulfillments(t.app)).toBe(1);
    t.app.db.$client.prepare("UPDATE shipments SET tracking_number = 'NEW-777' WHERE id = ?").run(shipment.id);
    inWriteTransaction(t.app.db, (tx) => queueShopWriteBack(tx, clock, shipment.id));
    const creates = mutations('fulfillmentCreate');
    expect(await writeDueFulfillments(t.app)).toBe(1);
    expect(mutations('fulfillmentCreate')).toBe(creates);
    expect(mutations('fulfillmentTrackingInfoUpdate')).toBe(1);
    const fulfillments = fulfillmentsOf(inShop).fulfillments;
    expect(fulfillments).toHaveLength(1);
    expect(fulfillments[0]!.trackingInfo[0]!.number).toBe('NEW-777');
    expect(rowOf(shipment.id)).toMatchObject({ status: 'sent', sent: 'NEW-777', remoteId: fulfillments[0]!.id });
  });

  it('after a timeout, finds the fulfilment the slow answer made and does not create a second', async () => {
    const { orderId, inShop } = await shopOrder();
    const shipment = await dispatch(orderId);
    t.app.storefront = { origin: shop.origin, timeoutMs: 300 };
    let release = () => {};
    fakeFulfillmentControl.holdAnswers = new Promise<void>((resolve) => {
      release = resolve;
    });
    expect(await writeDueFulfillments(t.app)).toBe(1);
    fakeFulfillmentControl.holdAnswers = null;
    release();
    expect(rowOf(shipment.id)).toMatchObject({ status: 'queued', lastError: expect.stringMatching(/did not answer within/) });
    expect(fulfillmentsOf(inShop).fulfillments).toHaveLength(1);
    advance(RETRY_DELAYS_MS[0]);
    const creates = mutations('fulfillmentCreate');
    expect(await writeDueFulfillments(t.app)).toBe(1);
    expect(mutations('fulfillmentCreate')).toBe(creates);
    expect(fulfillmentsOf(inShop).fulfillments).toHaveLength(1);
    expect(rowOf(shipment.id)).toMatchObject({ status: 'sent', remoteId: fulfillmentsOf(inShop).fulfillments[0]!.id, lastError: null });
  });

  it('does not ask Shopify to notify the customer when Shipdesk e-mails the customer itself', async () => {
    const saved = await t.request('PUT', `${org()}/email-settings`, {
      body: { host: 'smtp.example.com', port: 587, secure: false, username: 'u', password: 'p', fromAddress: 'shop@example.com' },
    });
    expect(saved.status).toBe(200);
    const rule = await t.request('POST', `${org()}/shipping-rules`, {
      body: {
        name: 'E-mail',
        services: [],
        senderAddressId,
        receivingCountries: ['*'],
        conditions: [],
        carrierId,
        productId: 'local_parcel',
        emailNotification: true,
      },
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    try {
      const { orderId, inShop } = await shopOrder();
      await dispatch(orderId, { shippingRuleId: rule.body.id });
      expect(await writeDueFulfillments(t.app)).toBe(1);
      expect(fulfillmentsOf(inShop).fulfillments[0]!.notifyCustomer).toEqual([false]);
    } finally {
      await t.request('DELETE', `${org()}/email-settings`);
    }
  });

  it("records Shopify's refusal in plain words: a missing access scope, a fulfillment order no longer open", async () => {
    const { orderId, inShop } = await shopOrder();
    const shipment = await dispatch(orderId);
    shop.scopes = ['read_orders', 'read_merchant_managed_fulfillment_orders'];
    expect(await writeDueFulfillments(t.app)).toBe(1);
    expect(rowOf(shipment.id)).toMatchObject({ status: 'queued', lastError: expect.stringMatching(/access scope.*write_merchant_managed_fulfillment_orders/) });
    // Meanwhile someone fulfilled the order in Shopify by hand.
    fulfillmentsOf(inShop).fulfillmentOrders[0]!.status = 'CLOSED';
    shop.scopes = ['read_orders', 'read_merchant_managed_fulfillment_orders', 'write_merchant_managed_fulfillment_orders'];
    advance(RETRY_DELAYS_MS[0]);
    expect(await writeDueFulfillments(t.app)).toBe(1);
    expect(rowOf(shipment.id)).toMatchObject({ status: 'queued', attempts: 2, lastError: expect.stringMatching(/no open fulfilment left for 2 × /) });
    expect(fulfillmentsOf(inShop).fulfillments).toHaveLength(0);
  });
});

describe('the fake refuses what Shopify refuses', () => {
  const graphql = async (query: string, variables: Record<string, unknown>) => {
    const res = await fetch(`${shop.origin}/admin/api/${shopifyApiVersion}/graphql.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shopify-access-token': fakeShopify.accessToken },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as { data: Record<string, { userErrors: { message: string }[]; fulfillment: unknown }>; errors?: { message: string }[] };
  };
  const create = `mutation($f: FulfillmentInput!) { fulfillmentCreate(fulfillment: $f) { fulfillment { id } userErrors { field message } } }`;

  it('a quantity above what remains, an unknown line, an unknown fulfillment order, the deprecated V2 name', async () => {
    const inShop = shopifyOrder(nextOrderId++);
    shop.orders.push(inShop);
    const fo = fulfillmentsOf(inShop).fulfillmentOrders[0]!;
    const above = await graphql(create, {
      f: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id, fulfillmentOrderLineItems: [{ id: fo.lines[0]!.id, quantity: 3 }] }] },
    });
    expect(above.data.fulfillmentCreate!.userErrors.map((e) => e.message)).toEqual(['Invalid fulfillment order line item quantity requested.']);
    const unknownLine = await graphql(create, {
      f: {
        lineItemsByFulfillmentOrder: [
          { fulfillmentOrderId: fo.id, fulfillmentOrderLineItems: [{ id: 'gid://shopify/FulfillmentOrderLineItem/1', quantity: 1 }] },
        ],
      },
    });
    expect(unknownLine.data.fulfillmentCreate!.userErrors.map((e) => e.message)).toEqual(['Fulfillment order line item does not exist.']);
    const unknownOrder = await graphql(create, { f: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: 'gid://shopify/FulfillmentOrder/1' }] } });
    expect(unknownOrder.data.fulfillmentCreate!.userErrors.map((e) => e.message)).toEqual(['Fulfillment order does not exist.']);
    const v2 = await graphql(
      `
        mutation ($f: FulfillmentV2Input!) {
          fulfillmentCreateV2(fulfillment: $f) {
            userErrors {
              message
            }
          }
        }
      `,
      { f: {} },
    );
    expect(v2.errors?.length).toBeGreaterThan(0);
    expect(fulfillmentsOf(inShop).fulfillments).toHaveLength(0);
    const update = await graphql(
      `
        mutation ($id: ID!, $t: FulfillmentTrackingInput!) {
          fulfillmentTrackingInfoUpdate(fulfillmentId: $id, trackingInfoInput: $t) {
            fulfillment {
              id
            }
            userErrors {
              message
            }
          }
        }
      `,
      { id: 'gid://shopify/Fulfillment/1', t: { number: 'X' } },
    );
    expect(update.data.fulfillmentTrackingInfoUpdate!.userErrors.map((e) => e.message)).toEqual(['Fulfillment does not exist.']);
  });
});
