import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderLabel } from '../../documents/label';
import { receiverParty, senderAddressBody, setupLocalCarrier, shipmentBody, startTestServer, type TestServer } from '../../testing/harness';
import { createPrinter } from '../../testing/printing';
import type * as registry from '../../carriers/registry';
import type * as labelModule from '../../documents/label';
import type { CarrierAdapter } from '../../carriers/adapter';

// The real renderer, wrapped so a test can make one booking fail.
vi.mock('../../documents/label', async (importOriginal) => {
  const original = await importOriginal<typeof labelModule>();
  return { ...original, renderLabel: vi.fn(original.renderLabel) };
});

// A courier that books like `local` but has no inbound (return) product.
vi.mock('../../carriers/registry', async (importOriginal) => {
  const original = await importOriginal<typeof registry>();
  const local = original.carrierAdapters[0] as CarrierAdapter;
  const outboundOnly: CarrierAdapter = {
    ...local,
    slug: 'test-outbound-only',
    describe: { ...local.describe, name: 'Outbound-only courier' },
    products: (config, stored) => local.products(config, stored).filter((product) => product.type === 'outbound'),
  };
  return { carrierAdapters: [...original.carrierAdapters, outboundOnly] };
});

let t: TestServer;
let carrierId: string;
let senderAddressId: string;

const sql = () => t.app.db.$client;
const org = () => t.org.orgId;
const shipmentsPath = () => `/orgs/${org()}/shipments`;

beforeAll(async () => {
  t = await startTestServer();
  sql().prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(org());
  ({ carrierId, senderAddressId } = await setupLocalCarrier(t));
});
afterAll(async () => t.close());

async function create(body: Record<string, unknown>) {
  const res = await t.request('POST', shipmentsPath(), { body });
  if (res.status !== 201) throw new Error(`create: ${JSON.stringify(res.body)}`);
  return res.body;
}

async function dispatched(body: Record<string, unknown>) {
  const shipment = await create(body);
  const sent = await t.request('POST', `${shipmentsPath()}/${shipment.id}/send`);
  if (sent.status !== 200) throw new Error(`send: ${JSON.stringify(sent.body)}`);
  return sent.body;
}

const createReturn = (id: string) => t.request('POST', `${shipmentsPath()}/${id}/create-return`);
const get = async (id: string) => (await t.request('GET', `${shipmentsPath()}/${id}`)).body;
const returnsOf = (id: string) =>
  sql().prepare('SELECT id, reference, status FROM shipments WHERE return_for_shipment_id = ? ORDER BY created_at, id').all(id) as {
    id: string;
    reference: string;
    status: string;
  }[];

async function createRule(body: Record<string, unknown>) {
  const res = await t.request('POST', `/orgs/${org()}/shipping-rules`, {
    body: { services: [], senderAddressId, receivingCountries: ['*'], conditions: [], ...body },
  });
  if (res.status !== 201) throw new Error(`rule: ${JSON.stringify(res.body)}`);
  return res.body;
}

const ruleOnShipment = (shipmentId: string, ruleId: string) => sql().prepare('UPDATE shipments SET shipping_rule_id = ? WHERE id = ?').run(ruleId, shipmentId);

describe('create-return', () => {
  it('creates and sends the return: parties swapped, inbound, RET- reference, the carrier return product', async () => {
    const original = await dispatched(
      shipmentBody(carrierId, {
        reference: 'WEB-1001',
        parties: [receiverParty(), { ...receiverParty({ name: 'Pick-up point' }), type: 'pickup' }],
        servicePointId: 'SP-42',
      }),
    );
    const res = await createReturn(original.id);
    expect(res.status).toBe(200);
    const ret = res.body;
    expect(ret).toMatchObject({
      type: 'inbound',
      status: 'dispatched',
      reference: 'RET-WEB-1001',
      returnForShipmentId: original.id,
      orderId: null,
      servicePointId: null,
      senderAddressId,
      shippingRuleId: null,
      carrierSettings: { carrierId, productId: 'local_return', services: [], additionalParameters: {} },
    });
    expect(ret.id).not.toBe(original.id);

    const originalSender = original.parties.find((p: { type: string }) => p.type === 'sender');
    const originalReceiver = original.parties.find((p: { type: string }) => p.type === 'receiver');
    expect(ret.parties).toEqual([
      { ...originalReceiver, type: 'sender' },
      { ...originalSender, type: 'receiver' },
    ]);

    expect(ret.parcels).toHaveLength(1);
    const [copy] = ret.parcels;
    const [source] = original.parcels;
    expect(copy.id).not.toBe(source.id);
    expect(copy).toMatchObject({ weight: source.weight, weightUnit: source.weightUnit, dimensions: source.dimensions });
    expect(copy.orderLines.map(({ id: _id, ...line }: { id: string }) => line)).toEqual(source.orderLines.map(({ id: _id, ...line }: { id: string }) => line));
    expect(copy.orderLines.every((line: { id: string }) => !source.orderLines.some((s: { id: string }) => s.id === line.id))).toBe(true);

    expect(ret.documents).toHaveLength(1);
    expect(ret.documents[0]).toMatchObject({ documentType: 'label', format: 'pdf' });
    expect(ret.tracking.number).not.toBe(original.tracking.number);
    expect(ret.activities.map((a: { action: string }) => a.action)).toEqual(['created', 'status_changed', 'sent']);

    const after = await get(original.id);
    expect(after.status).toBe('dispatched');
    expect(after.activities.at(-1)).toMatchObject({ action: 'return_created', description: expect.stringContaining('RET-WEB-1001') });
    const events = sql().prepare("SELECT type FROM outbox_events WHERE json_extract(payload, '$.data.id') = ? ORDER BY created_at, id").all(ret.id) as {
      type: string;
    }[];
    expect(events.map((event) => event.type)).toEqual(['shipment.created', 'shipment.dispatched']);
  });

  it('allows several returns, each RET- + the original reference (decisions §7) and linked to it', async () => {
    const original = await dispatched(shipmentBody(carrierId, { reference: 'WEB-2002' }));
    const returns = [];
    for (let i = 0; i < 3; i++) returns.push((await createReturn(original.id)).body);
    expect(returns.map((ret) => ret.reference)).toEqual(['RET-WEB-2002', 'RET-WEB-2002', 'RET-WEB-2002']);
    expect(new Set(returns.map((ret) => ret.id)).size).toBe(3);
    expect(returns.map((ret) => ret.returnForShipmentId)).toEqual([original.id, original.id, original.id]);
    expect(returnsOf(original.id).map((row) => row.status)).toEqual(['dispatched', 'dispatched', 'dispatched']);
    expect((await get(original.id)).activities.filter((a: { action: string }) => a.action === 'return_created')).toHaveLength(3);
  });

  it("books with the original rule's return rule when it has one", async () => {
    const returnCarrier = await setupLocalCarrier(t, t.org, { trackingPrefix: 'RTN' });
    const returnRule = await createRule({
      name: 'Returns by van',
      carrierId: returnCarrier.carrierId,
      productId: 'local_return',
      services: ['collect'],
      additionalParameters: [{ name: 'door', val: 'back' }],
    });
    const outboundRule = await createRule({ name: 'Parcels DK', carrierId, productId: 'local_parcel', returnShippingRuleId: returnRule.id });
    const original = await create(shipmentBody(carrierId));
    ruleOnShipment(original.id, outboundRule.id);
    await t.request('POST', `${shipmentsPath()}/${original.id}/send`);

    const ret = (await createReturn(original.id)).body;
    expect(ret).toMatchObject({
      status: 'dispatched',
      shippingRuleId: returnRule.id,
      carrierSettings: { carrierId: returnCarrier.carrierId, productId: 'local_return', services: ['collect'], additionalParameters: { door: 'back' } },
    });
    expect(ret.tracking.number).toMatch(/^RTN\d{9}$/);
    expect((await get(original.id)).activities.at(-1).description).toContain('return rule Returns by van');
  });

  it('answers 422 RETURN_RULE_MISSING when neither a return rule nor a return product exists, creating nothing', async () => {
    const address = (await t.request('POST', `/orgs/${org()}/sender-addresses`, { body: senderAddressBody() })).body;
    const courier = (
      await t.request('POST', `/orgs/${org()}/carriers`, { body: { name: 'No returns', carrierSlug: 'test-outbound-only', senderAddressId: address.id } })
    ).body;
    const original = await dispatched(shipmentBody(courier.id));
    const before = await get(original.id);
    const shipmentsBefore = sql().prepare('SELECT count(*) AS n FROM shipments').get();

    const res = await createReturn(original.id);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('RETURN_RULE_MISSING');
    expect(res.body.message).toContain('No returns offers no return product');
    expect(returnsOf(original.id)).toEqual([]);
    expect(sql().prepare('SELECT count(*) AS n FROM shipments').get()).toEqual(shipmentsBefore);
    expect(await get(original.id)).toEqual(before);

    // A rule without a return rule does not help either; the message says what to add.
    const rule = await createRule({ name: 'No-return rule', carrierId: courier.id, productId: 'local_parcel' });
    ruleOnShipment(original.id, rule.id);
    const again = await createReturn(original.id);
    expect(again.body.code).toBe('RETURN_RULE_MISSING');
    expect(again.body.message).toContain('No-return rule has no return rule');
  });

  it('refuses with 409 unless the source is a dispatched outbound shipment', async () => {
    for (const status of ['pending', 'cancelled', 'error', 'draft']) {
      const shipment = await create(shipmentBody(carrierId, { status }));
      const res = await createReturn(shipment.id);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('SHIPMENT_INVALID_STATE');
      expect(res.body.message).toContain(`is ${status}`);
    }
    const inbound = await dispatched(shipmentBody(carrierId, { type: 'inbound', carrierSettings: { carrierId, productId: 'local_return' } }));
    const fromInbound = await createReturn(inbound.id);
    expect(fromInbound.status).toBe(409);
    expect(fromInbound.body.message).toContain('only outbound shipments get a return');

    const partly = await create(shipmentBody(carrierId, { status: 'partly_dispatched' }));
    expect((await createReturn(partly.id)).body.status).toBe('dispatched');
    const aReturn = returnsOf(partly.id)[0]!;
    expect((await createReturn(aReturn.id)).status).toBe(409);
    expect((await createReturn('shp_unknown')).body.code).toBe('SHIPMENT_NOT_FOUND');
  });

  it('keeps a return that lacks what a send needs in error, says what, and answers 200', async () => {
    // An imported history shipment: dispatched without a receiver party, so its return has no sender.
    const imported = await create(shipmentBody(carrierId, { status: 'dispatched', parties: undefined }));
    const res = await createReturn(imported.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'error', type: 'inbound', returnForShipmentId: imported.id, documents: [] });
    expect(res.body.errors).toEqual([expect.objectContaining({ code: 'SHIPMENT_INCOMPLETE', message: expect.stringContaining('a sender party') })]);
    expect(res.body.activities.at(-1)).toMatchObject({ action: 'send_failed' });
    expect(returnsOf(imported.id).map((item) => item.id)).toEqual([res.body.id]);

    // Given its sender, it is sent by hand like any shipment in error.
    const completed = await t.request('PATCH', `${shipmentsPath()}/${res.body.id}`, {
      body: { parties: [...res.body.parties, { ...receiverParty(), type: 'sender' }] },
    });
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect((await t.request('POST', `${shipmentsPath()}/${res.body.id}/send`)).body.status).toBe('dispatched');
  });

  it('keeps a return whose booking failed in error and answers 200', async () => {
    const original = await dispatched(shipmentBody(carrierId, { reference: 'WEB-3003' }));
    vi.mocked(renderLabel).mockRejectedValueOnce(new Error('label printer template missing'));
    const res = await createReturn(original.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'error', reference: 'RET-WEB-3003', returnForShipmentId: original.id, documents: [] });
    expect(res.body.errors).toEqual([expect.objectContaining({ code: 'BOOKING_FAILED', message: 'label printer template missing' })]);
    expect(res.body.activities.at(-1).action).toBe('send_failed');

    // Sent again by hand it books, and being inbound it never makes a return of itself.
    const resent = await t.request('POST', `${shipmentsPath()}/${res.body.id}/send`);
    expect(resent.body.status).toBe('dispatched');
    expect(returnsOf(res.body.id)).toEqual([]);
  });

  it("leaves the order's status alone", async () => {
    const channel = (await t.request('POST', `/orgs/${org()}/order-channels`, { body: { name: 'Shop', type: 'manual' } })).body;
    const order = (
      await t.request('POST', `/orgs/${org()}/orders`, {
        body: {
          orderNumber: 'RET-ORDER-1',
          orderChannelId: channel.id,
          orderLines: [{ name: 'Mug', sku: 'MUG-01', quantity: 1, weight: 0.5, weightUnit: 'kg' }],
          shippingAddress: { name: 'Jens Hansen', address1: 'Nørregade 1', city: 'København K', postalCode: '1165', countryCode: 'DK' },
        },
      })
    ).body;
    const readOrder = async () => (await t.request('GET', `/orgs/${org()}/orders/${order.id}`)).body;
    const original = await dispatched({ type: 'outbound', carrierSettings: { carrierId, productId: 'local_parcel' }, orderId: order.id });
    const before = await readOrder();
    expect(before.status).toBe('fulfilled');

    const ret = (await createReturn(original.id)).body;
    expect(ret.orderId).toBe(order.id);
    expect(ret.parcels[0].orderLines[0]).toMatchObject({ sku: 'MUG-01', quantity: 1 });
    const links = sql()
      .prepare('SELECT l.order_line_id FROM parcel_order_lines l JOIN parcels p ON p.id = l.parcel_id WHERE p.shipment_id = ?')
      .all(ret.id) as { order_line_id: string | null }[];
    expect(links).toEqual([{ order_line_id: null }]);

    vi.mocked(renderLabel).mockRejectedValueOnce(new Error('boom'));
    expect((await createReturn(original.id)).body.status).toBe('error');
    const after = await readOrder();
    expect(after.status).toBe('fulfilled');
    expect(after.shipmentCount).toBe(before.shipmentCount);
  });
});

describe('automatic return on dispatch', () => {
  it("creates and sends the return when the shipment's rule asks for it", async () => {
    const rule = await createRule({ name: 'Always a return', carrierId, productId: 'local_parcel', autoCreateReturnShipment: true });
    const shipment = await create(shipmentBody(carrierId, { reference: 'AUTO-1' }));
    ruleOnShipment(shipment.id, rule.id);
    const sent = await t.request('POST', `${shipmentsPath()}/${shipment.id}/send`);
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe('dispatched');
    expect(sent.body.activities.map((a: { action: string }) => a.action)).toEqual(['created', 'status_changed', 'sent', 'return_created']);
    expect(returnsOf(shipment.id)).toEqual([expect.objectContaining({ reference: 'RET-AUTO-1', status: 'dispatched' })]);
  });

  it('prints the return label with the outbound label when the rule prints labels (it goes in the parcel)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'shipdesk-return-print-'));
    try {
      const printer = await createPrinter(t, { name: 'Desk', driver: 'file', target: folder, format: 'pdf' });
      const rule = await createRule({
        name: 'Return in the box',
        carrierId,
        productId: 'local_parcel',
        autoCreateReturnShipment: true,
        autoPrintLabels: true,
        labelPrinterId: printer.id,
      });
      const shipment = await create(shipmentBody(carrierId, { reference: 'BOX-1' }));
      ruleOnShipment(shipment.id, rule.id);
      expect((await t.request('POST', `${shipmentsPath()}/${shipment.id}/send`)).status).toBe(200);
      const [aReturn] = returnsOf(shipment.id);
      const jobsOf = async (id: string) => (await t.request('GET', `/orgs/${org()}/print-jobs?shipmentId=${id}`)).body.data;
      expect(await jobsOf(shipment.id)).toEqual([expect.objectContaining({ printerId: printer.id, status: 'done' })]);
      expect(await jobsOf(aReturn!.id)).toEqual([expect.objectContaining({ printerId: printer.id, status: 'done' })]);
      expect(readdirSync(folder).sort()).toEqual([expect.stringMatching(/^BOX-1-doc_/), expect.stringMatching(/^RET-BOX-1-doc_/)]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('keeps the send when the automatic return cannot be made, and says why on the shipment', async () => {
    const address = (await t.request('POST', `/orgs/${org()}/sender-addresses`, { body: senderAddressBody() })).body;
    const courier = (
      await t.request('POST', `/orgs/${org()}/carriers`, {
        body: { name: 'No returns either', carrierSlug: 'test-outbound-only', senderAddressId: address.id },
      })
    ).body;
    const rule = await createRule({ name: 'Return wanted', carrierId: courier.id, productId: 'local_parcel', autoCreateReturnShipment: true });
    const shipment = await create(shipmentBody(courier.id));
    ruleOnShipment(shipment.id, rule.id);
    const sent = await t.request('POST', `${shipmentsPath()}/${shipment.id}/send`);
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe('dispatched');
    expect(sent.body.errors).toEqual([expect.objectContaining({ code: 'AUTO_RETURN_FAILED', message: expect.stringContaining('no return product') })]);
    expect(returnsOf(shipment.id)).toEqual([]);
  });
});
