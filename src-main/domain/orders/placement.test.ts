/**
 * Issue 17, point 6: the shipments of an order never place more of an SKU than the order has left
 * (placement.ts), whichever operation writes them, and an order is fulfilled only by its own lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiverParty, setupLocalCarrier, startTestServer, type TestServer } from '../../testing/harness';
import { spreadOverSkuLines } from './placement';

let t: TestServer;
let carrierId: string;
let channelId: string;
let orderCounter = 0;
beforeAll(async () => {
  t = await startTestServer();
  ({ carrierId } = await setupLocalCarrier(t));
  channelId = (await t.request('POST', `/orgs/${t.org.orgId}/order-channels`, { body: { name: 'Manual', type: 'manual' } })).body.id;
});
afterAll(async () => t.close());

const org = () => `/orgs/${t.org.orgId}`;
type Line = { sku: string; quantity: number; id?: string };

async function createOrder(orderLines: Record<string, unknown>[]) {
  const res = await t.request('POST', `${org()}/orders`, {
    body: {
      orderNumber: `#Q${++orderCounter}`,
      orderChannelId: channelId,
      shippingAddress: { name: 'Kim Larsen', address1: 'Vestergade 3', city: 'Odense', postalCode: '5000', countryCode: 'DK' },
      orderLines,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; orderNumber: string };
}

const parcel = (orderLines: Line[]) => ({ weight: 1, weightUnit: 'kg', dimensions: { length: 10, width: 10, height: 10 }, orderLines });

/** POST /shipments with the order and parcels typed by hand. */
const createByHand = (orderId: string, lines: Line[]) =>
  t.request('POST', `${org()}/shipments`, {
    body: { type: 'outbound', carrierSettings: { carrierId, productId: 'local_parcel' }, parties: [receiverParty()], orderId, parcels: [parcel(lines)] },
  });
const createFromOrder = (orderId: string) => t.request('POST', `${org()}/orders/${orderId}/shipments`, { body: { carrierId, productId: 'local_parcel' } });
const patchLines = (shipmentId: string, lines: Line[]) => t.request('PATCH', `${org()}/shipments/${shipmentId}`, { body: { parcels: [parcel(lines)] } });
const getOrder = async (orderId: string) => (await t.request('GET', `${org()}/orders/${orderId}`)).body;
const getShipment = async (shipmentId: string) => (await t.request('GET', `${org()}/shipments/${shipmentId}`)).body;
const linesOf = (shipment: { parcels: { orderLines: Line[] }[] }) => shipment.parcels.flatMap((p) => p.orderLines.map((l) => [l.sku, l.quantity]));
const liveShipmentsOf = async (orderId: string) => (await getOrder(orderId)).shipmentCount as number;

function expectRefused(res: { status: number; body: { code: string; message: string } }, message: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(409);
  expect(res.body.code).toBe('ORDER_INVALID_STATE');
  expect(res.body.message).toContain(message);
}

describe('an order line cannot be placed beyond what the order has left', () => {
  it('POST /shipments with orderId and parcels: refused over the limit, naming the SKU and what is left; nothing is written', async () => {
    const order = await createOrder([{ name: 'Mug', sku: 'MUG', quantity: 2 }]);
    const res = await createByHand(order.id, [{ sku: 'MUG', quantity: 50 }]);
    expectRefused(res, `Order ${order.orderNumber} has 2 of SKU MUG left to place (2 ordered, 0 in its other shipments); this would place 50`);
    expect(await liveShipmentsOf(order.id)).toBe(0);
    expect((await createByHand(order.id, [{ sku: 'MUG', quantity: 2 }])).status).toBe(201);
  });

  it('two shipments together: the second gets only what the first left, and a cancelled one frees its units', async () => {
    const order = await createOrder([{ name: 'Mug', sku: 'MUG', quantity: 2 }]);
    const first = await createByHand(order.id, [{ sku: 'MUG', quantity: 1 }]);
    expect(first.status).toBe(201);
    expectRefused(await createByHand(order.id, [{ sku: 'MUG', quantity: 2 }]), 'has 1 of SKU MUG left to place (2 ordered, 1 in its other shipments)');
    const second = await createByHand(order.id, [{ sku: 'MUG', quantity: 1 }]);
    expect(second.status).toBe(201);
    expectRefused(await createByHand(order.id, [{ sku: 'MUG', quantity: 1 }]), 'has 0 of SKU MUG left');

    expect((await t.request('POST', `${org()}/shipments/${first.body.id}/cancel`)).status).toBe(200);
    expect((await createByHand(order.id, [{ sku: 'MUG', quantity: 1 }])).status).toBe(201);
    expect(await liveShipmentsOf(order.id)).toBe(2);
  });

  it('concurrent creates cannot over-place together: one of two is refused', async () => {
    const order = await createOrder([{ name: 'Mug', sku: 'MUG', quantity: 2 }]);
    const answers = await Promise.all([createByHand(order.id, [{ sku: 'MUG', quantity: 2 }]), createByHand(order.id, [{ sku: 'MUG', quantity: 2 }])]);
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409]);
    expect(await liveShipmentsOf(order.id)).toBe(1);
  });

  it('counts an SKU over all the order lines that have it: by hand up to their sum, and the order-based create offers only what is left', async () => {
    const order = await createOrder([
      { name: 'Mug', sku: 'MUG', quantity: 2 },
      { name: 'Mug (gift wrapped)', sku: 'MUG', quantity: 3 },
      { name: 'Tea', sku: 'TEA', quantity: 1 },
    ]);
    const byHand = await createByHand(order.id, [{ sku: 'MUG', quantity: 4 }]);
    expect(byHand.status, JSON.stringify(byHand.body)).toBe(201);
    // 4 of the 5 mugs are placed, whichever line the hand-typed line is tied to.
    const fromOrder = await createFromOrder(order.id);
    expect(fromOrder.status, JSON.stringify(fromOrder.body)).toBe(201);
    expect(linesOf(fromOrder.body)).toEqual([
      ['MUG', 1],
      ['TEA', 1],
    ]);
    expectRefused(await createFromOrder(order.id), 'already placed');
  });

  it('the order-based create refuses once the SKU is placed in full by hand over two lines', async () => {
    const order = await createOrder([
      { name: 'Mug', sku: 'MUG', quantity: 2 },
      { name: 'Mug (gift wrapped)', sku: 'MUG', quantity: 3 },
    ]);
    expect((await createByHand(order.id, [{ sku: 'MUG', quantity: 5 }])).status).toBe(201);
    expectRefused(await createFromOrder(order.id), 'already placed');
    expect(await liveShipmentsOf(order.id)).toBe(1);
  });

  it('PATCH: raising a quantity is refused; adding a line of an SKU held on two order lines is summed per SKU', async () => {
    const order = await createOrder([
      { name: 'Mug', sku: 'MUG', quantity: 2 },
      { name: 'Mug (gift wrapped)', sku: 'MUG', quantity: 3 },
      { name: 'Tea', sku: 'TEA', quantity: 1 },
    ]);
    const shipment = (await createFromOrder(order.id)).body;
    expect(linesOf(shipment)).toEqual([
      ['MUG', 2],
      ['MUG', 3],
      ['TEA', 1],
    ]);
    expectRefused(
      await patchLines(shipment.id, [{ sku: 'TEA', quantity: 50 }]),
      `Order ${order.orderNumber} has 1 of SKU TEA left to place (1 ordered, 0 in its other shipments); this would place 50`,
    );
    expect(linesOf(await getShipment(shipment.id))).toEqual(linesOf(shipment));

    // The same five mugs as one line, then as two lines: fine.
    expect(
      (
        await patchLines(shipment.id, [
          { sku: 'MUG', quantity: 5 },
          { sku: 'TEA', quantity: 1 },
        ])
      ).status,
    ).toBe(200);
    expect(
      (
        await patchLines(shipment.id, [
          { sku: 'MUG', quantity: 4 },
          { sku: 'TEA', quantity: 1 },
          { sku: 'MUG', quantity: 1 },
        ])
      ).status,
    ).toBe(200);
    // One more mug on a line of its own is one too many.
    expectRefused(
      await patchLines(shipment.id, [
        { sku: 'MUG', quantity: 4 },
        { sku: 'TEA', quantity: 1 },
        { sku: 'MUG', quantity: 1 },
        { sku: 'MUG', quantity: 1 },
      ]),
      'has 5 of SKU MUG left to place (5 ordered, 0 in its other shipments); this would place 6',
    );
  });

  it('PATCH orderId: a shipment moved into an order may not bring more than it has left', async () => {
    const full = await createOrder([{ name: 'Mug', sku: 'MUG', quantity: 1 }]);
    expect((await createFromOrder(full.id)).status).toBe(201);
    const other = await createOrder([{ name: 'Mug', sku: 'MUG', quantity: 3 }]);
    const shipment = (await createFromOrder(other.id)).body;
    expectRefused(
      await t.request('PATCH', `${org()}/shipments/${shipment.id}`, { body: { orderId: full.id } }),
      `Order ${full.orderNumber} has 0 of SKU MUG left`,
    );
    expect((await getShipment(shipment.id)).orderId).toBe(other.id);
  });

  it('a shipment over-placed before this rule can still be edited, and lowered, but not raised', async () => {
    const order = await createOrder([{ name: 'Mug', sku: 'MUG', quantity: 2 }]);
    const shipment = (await createFromOrder(order.id)).body;
    // As a PATCH could write before the rule existed.
    t.app.db.$client.prepare('UPDATE parcel_order_lines SET quantity = 50 WHERE parcel_id = ?').run(shipment.parcels[0].id);
    expect((await t.request('PATCH', `${org()}/shipments/${shipment.id}`, { body: { reference: 'FIX-ADDRESS' } })).status).toBe(200);
    expect((await patchLines(shipment.id, [{ sku: 'MUG', quantity: 10 }])).status).toBe(200);
    expectRefused(await patchLines(shipment.id, [{ sku: 'MUG', quantity: 11 }]), 'has 2 of SKU MUG left to place');
    expect((await patchLines(shipment.id, [{ sku: 'MUG', quantity: 2 }])).status).toBe(200);
  });

  it('lines of an SKU the order does not have are not limited', async () => {
    const order = await createOrder([{ name: 'Mug', sku: 'MUG', quantity: 1 }]);
    const res = await createByHand(order.id, [
      { sku: 'MUG', quantity: 1 },
      { sku: 'BUBBLE-WRAP', quantity: 100 },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('split and batch split that move what a shipment holds are unaffected', async () => {
    const order = await createOrder([
      { name: 'Crate', sku: 'CRATE', quantity: 4 },
      { name: 'Lid', sku: 'LID', quantity: 2 },
    ]);
    const shipment = (await createFromOrder(order.id)).body;
    const [crate, lid] = shipment.parcels[0].orderLines;
    const split = await t.request('POST', `${org()}/shipments/${shipment.id}/parcels/${shipment.parcels[0].id}/split`, { body: { orderLineIds: [lid.id] } });
    expect(split.status, JSON.stringify(split.body)).toBe(201);
    const batch = await t.request('POST', `${org()}/shipments/${shipment.id}/parcels/${shipment.parcels[0].id}/batch-split`, {
      body: { shipments: [{ orderLines: [{ id: crate.id, quantity: 1 }] }, { orderLines: [{ id: crate.id, quantity: 2 }] }] },
    });
    expect(batch.status, JSON.stringify(batch.body)).toBe(201);
    expect(linesOf(batch.body.originalShipment)).toEqual([['CRATE', 1]]);
    expect(await getOrder(order.id)).toMatchObject({ status: 'processing', shipmentCount: 4 });
    expectRefused(await createFromOrder(order.id), 'already placed');
  });
});

describe("order status and lines that are not the order's", () => {
  it("a dispatched shipment holding none of the order's lines does not make it partially fulfilled", async () => {
    const order = await createOrder([{ name: 'Mug', sku: 'MUG', quantity: 2, weight: 0.4, weightUnit: 'kg' }]);
    const extras = await createByHand(order.id, [{ sku: 'GIFT-NOTE', quantity: 1 }]);
    expect(extras.status).toBe(201);
    const sent = await t.request('POST', `${org()}/shipments/${extras.body.id}/send`);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.status).toBe('dispatched');
    expect((await getOrder(order.id)).status).toBe('processing');

    const mugs = (await createFromOrder(order.id)).body;
    expect(linesOf(mugs)).toEqual([['MUG', 2]]);
    expect((await t.request('POST', `${org()}/shipments/${mugs.id}/send`)).status).toBe(200);
    expect((await getOrder(order.id)).status).toBe('fulfilled');
  });

  it('an SKU on two order lines is fulfilled by one hand-typed line of their sum', async () => {
    const order = await createOrder([
      { name: 'Mug', sku: 'MUG', quantity: 2 },
      { name: 'Mug (gift wrapped)', sku: 'MUG', quantity: 3 },
    ]);
    const shipment = await createByHand(order.id, [{ sku: 'MUG', quantity: 5 }]);
    expect((await t.request('POST', `${org()}/shipments/${shipment.body.id}/send`)).status).toBe(200);
    expect((await getOrder(order.id)).status).toBe('fulfilled');
  });
});

describe('spreadOverSkuLines', () => {
  const line = (id: string, sku: string | null, quantity: number) => ({ id, sku, productId: null, name: `Line ${id}`, quantity });
  const lines = [line('a', 'MUG', 2), line('b', 'TEA', 1), line('c', 'MUG', 3), line('d', null, 1)];

  it('fills the next lines of an SKU with what a line holds beyond its quantity, and keeps what none has room for', () => {
    expect(spreadOverSkuLines(lines, new Map([['a', 4]]))).toEqual(
      new Map([
        ['a', 2],
        ['b', 0],
        ['c', 2],
        ['d', 0],
      ]),
    );
    expect(
      spreadOverSkuLines(
        lines,
        new Map([
          ['c', 4],
          ['b', 1],
        ]),
      ),
    ).toEqual(
      new Map([
        ['a', 1],
        ['b', 1],
        ['c', 3],
        ['d', 0],
      ]),
    );
    // 8 mugs of 5: the 3 too many stay on the line that holds them, so the total is still 8.
    expect(spreadOverSkuLines(lines, new Map([['a', 8]]))).toEqual(
      new Map([
        ['a', 5],
        ['b', 0],
        ['c', 3],
        ['d', 0],
      ]),
    );
    // A line without a SKU goes by its name and shares with no other.
    expect(spreadOverSkuLines(lines, new Map([['d', 2]]))).toEqual(
      new Map([
        ['a', 0],
        ['b', 0],
        ['c', 0],
        ['d', 2],
      ]),
    );
  });
});
