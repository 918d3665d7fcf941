import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/ids';
import { billingPeriod } from '../orgs/usage';
import { receiverParty, setupLocalCarrier, shipmentBody, shippingRuleBody, startTestServer, type TestOrg, type TestServer } from '../../testing/harness';

let t: TestServer;
let carrierId: string;
let senderAddressId: string;
beforeAll(async () => {
  t = await startTestServer();
  ({ carrierId, senderAddressId } = await setupLocalCarrier(t));
});
afterAll(async () => t.close());

const sql = () => t.app.db.$client;
const shipmentsPath = (org: TestOrg = t.org) => `/orgs/${org.orgId}/shipments`;
const splitPath = (shipmentId: string, parcelId: string, org: TestOrg = t.org) => `${shipmentsPath(org)}/${shipmentId}/parcels/${parcelId}/split`;
const batchPath = (shipmentId: string, parcelId: string, org: TestOrg = t.org) => `${shipmentsPath(org)}/${shipmentId}/parcels/${parcelId}/batch-split`;

interface LineRow {
  id: string;
  parcel_id: string;
  position: number;
  order_line_id: string | null;
  sku: string;
  quantity: number;
  description: string | null;
  unit_price: number | null;
  currency: string | null;
  tarrif_number: string | null;
  unit_weight_kg: number | null;
}

async function createShipment(overrides: Record<string, unknown> = {}, org: TestOrg = t.org, carrier = carrierId) {
  const res = await t.request('POST', shipmentsPath(org), { token: org.token, body: shipmentBody(carrier, overrides) });
  if (res.status !== 201) throw new Error(`create: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A shipment whose single parcel holds the given lines (sku → quantity), weighing `weight` kg. */
function bodyWithLines(lines: Record<string, number>, weight = 10, overrides: Record<string, unknown> = {}) {
  return {
    reference: `REF-${newId('shipment').slice(-8)}`,
    parcels: [
      {
        weight,
        weightUnit: 'kg',
        dimensions: { length: 40, width: 30, height: 20 },
        orderLines: Object.entries(lines).map(([sku, quantity]) => ({ sku, quantity, description: `Item ${sku}`, unitPrice: 10, currency: 'DKK' })),
      },
    ],
    ...overrides,
  };
}

function linesOfParcel(parcelId: string): LineRow[] {
  return sql().prepare('SELECT * FROM parcel_order_lines WHERE parcel_id = ? ORDER BY position').all(parcelId) as LineRow[];
}

function linesOfShipment(shipmentId: string): LineRow[] {
  return sql()
    .prepare('SELECT l.* FROM parcel_order_lines l JOIN parcels p ON p.id = l.parcel_id WHERE p.shipment_id = ? ORDER BY p.position, l.position')
    .all(shipmentId) as LineRow[];
}

function parcelRows(shipmentId: string): { id: string; weight: number; weight_unit: string; length: number; width: number; height: number }[] {
  return sql().prepare('SELECT * FROM parcels WHERE shipment_id = ? ORDER BY position').all(shipmentId) as never;
}

function shipmentRow(shipmentId: string): Record<string, unknown> {
  return sql().prepare('SELECT * FROM shipments WHERE id = ?').get(shipmentId) as Record<string, unknown>;
}

function usageOf(orgId: string): number {
  const row = sql().prepare('SELECT created FROM shipment_usage WHERE org_id = ? AND period = ?').get(orgId, billingPeriod(new Date()).key) as
    { created: number } | undefined;
  return row?.created ?? 0;
}

function activities(shipmentId: string): string[] {
  return (sql().prepare('SELECT action FROM shipment_activities WHERE shipment_id = ? ORDER BY created_at, id').all(shipmentId) as { action: string }[]).map(
    (row) => row.action,
  );
}

function eventsFor(shipmentId: string, type: string): { data: any }[] {
  return (
    sql()
      .prepare("SELECT payload FROM outbox_events WHERE type = ? AND json_extract(payload, '$.data.id') = ? ORDER BY created_at, id")
      .all(type, shipmentId) as { payload: string }[]
  ).map((row) => JSON.parse(row.payload));
}

/** Every row of every table (API tokens aside: their lastUsedAt moves with each request). */
function snapshot(): Record<string, unknown[]> {
  const tables = sql()
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'api_tokens' ORDER BY name")
    .all() as {
    name: string;
  }[];
  return Object.fromEntries(tables.map(({ name }) => [name, sql().prepare(`SELECT * FROM "${name}"`).all()]));
}

/** An order channel, an order with a shipping address and weighted lines, inserted as rows. */
function insertOrder(org: TestOrg, lines: { sku: string; quantity: number; weight: number | null; weightUnit?: string }[]): string {
  const now = new Date().toISOString();
  const channelId = newId('orderChannel');
  const orderId = newId('order');
  sql()
    .prepare("INSERT INTO order_channels (id, org_id, name, type, config, created_at, updated_at) VALUES (?, ?, 'Manual', 'manual', '{}', ?, ?)")
    .run(channelId, org.orgId, now, now);
  const address = JSON.stringify({ name: 'Karen Blixen', address1: 'Strandvejen 111', city: 'Rungsted Kyst', postalCode: '2960', countryCode: 'DK' });
  sql()
    .prepare(
      `INSERT INTO orders (id, org_id, order_channel_id, order_number, status, shipment_count, customer_email, shipping_address, external_data, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'pending', 0, 'karen@example.dk', ?, '{}', ?, ?)`,
    )
    .run(orderId, org.orgId, channelId, `#${orderId.slice(-6)}`, address, now, now);
  lines.forEach((line, position) => {
    sql()
      .prepare(
        `INSERT INTO order_lines (id, order_id, position, name, quantity, sku, unit_price, currency, weight, weight_unit, hs_code)
         VALUES (?, ?, ?, ?, ?, ?, 25, 'DKK', ?, ?, '0901')`,
      )
      .run(newId('orderLine'), orderId, position, `Product ${line.sku}`, line.quantity, line.sku, line.weight, line.weightUnit ?? 'kg');
  });
  return orderId;
}

async function shipmentFromOrder(orderId: string, overrides: Record<string, unknown> = {}) {
  const res = await t.request('POST', shipmentsPath(), {
    body: { type: 'outbound', carrierSettings: { carrierId, productId: 'local_parcel' }, orderId, ...overrides },
  });
  if (res.status !== 201) throw new Error(`create from order: ${JSON.stringify(res.body)}`);
  return res.body;
}

function unitsBySku(shipmentIds: string[]): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const id of shipmentIds) for (const line of linesOfShipment(id)) totals[line.sku] = (totals[line.sku] ?? 0) + line.quantity;
  return totals;
}

describe('split', () => {
  it('moves the named lines whole into a new shipment that copies the original', async () => {
    const original = await createShipment({
      reference: 'SPLIT-A',
      status: 'draft',
      termOfTrade: 'DDP',
      servicePointId: 'SP-77',
      pickupDetails: { date: '2026-07-01', from: '08:00', to: '12:00', instruction: 'Gate 3' },
      parties: [receiverParty(), { type: 'billing', name: 'Acme Billing', address1: 'Bygade 2', postalCode: '5000', city: 'Odense', countryCode: 'DK' }],
      carrierSettings: { carrierId, productId: 'local_parcel', services: ['signature'], additionalParameters: { door: 'B' } },
    });
    const parcel = original.parcels[0];
    const [mug, tea] = parcel.orderLines;
    const usageBefore = usageOf(t.org.orgId);

    const res = await t.request('POST', splitPath(original.id, parcel.id), { body: { orderLineIds: [tea.id] } });
    expect(res.status).toBe(201);
    const { originalShipment, newShipment } = res.body;

    // The new shipment: copies, status of the original, reference suffix, one parcel with the moved line.
    expect(newShipment.id).not.toBe(original.id);
    expect(newShipment).toMatchObject({
      reference: 'SPLIT-A-2',
      status: 'draft',
      type: 'outbound',
      senderAddressId,
      termOfTrade: 'DDP',
      servicePointId: 'SP-77',
      pickupDetails: { date: '2026-07-01', from: '08:00', to: '12:00', instruction: 'Gate 3' },
      orderId: null,
      carrierSettings: { carrierId, productId: 'local_parcel', services: ['signature'], additionalParameters: { door: 'B' } },
    });
    expect(newShipment.parties).toEqual(original.parties);
    expect(newShipment.parcels).toHaveLength(1);
    expect(newShipment.parcels[0].id).not.toBe(parcel.id);
    expect(newShipment.parcels[0].dimensions).toEqual(parcel.dimensions);
    expect(newShipment.parcels[0].orderLines).toEqual([tea]); // same id, every field kept
    // By share: 3 of the parcel's 5 units move, so 2.5 kg × 3/5.
    expect(newShipment.parcels[0]).toMatchObject({ weight: 1.5, weightUnit: 'kg' });

    // The original keeps the rest, and loses the same weight.
    expect(originalShipment.parcels).toHaveLength(1);
    expect(originalShipment.parcels[0]).toMatchObject({ id: parcel.id, weight: 1, orderLines: [mug] });
    expect(originalShipment.status).toBe('draft');

    // The rows: the line row moved (same id, new parcel), nothing duplicated.
    expect(linesOfParcel(parcel.id).map((line) => line.id)).toEqual([mug.id]);
    expect(linesOfParcel(newShipment.parcels[0].id).map((line) => line.id)).toEqual([tea.id]);
    expect(sql().prepare('SELECT count(*) AS n FROM parcel_order_lines WHERE id = ?').get(tea.id)).toEqual({ n: 1 });
    expect(parcelRows(original.id)[0]?.weight).toBe(1);

    // Usage, activities and events.
    expect(usageOf(t.org.orgId)).toBe(usageBefore + 1);
    expect(activities(original.id)).toEqual(['created', 'shipment_split']);
    expect(activities(newShipment.id)).toEqual(['created', 'shipment_split']);
    expect(originalShipment.activities.map((a: { action: string }) => a.action)).toEqual(['created', 'shipment_split']);
    expect(newShipment.activities.map((a: { action: string }) => a.action)).toEqual(['created', 'shipment_split']);
    // Worded for the packing table: references, parcel numbers and SKUs, no ids.
    expect(originalShipment.activities.at(-1).description).toBe(`Moved ${tea.quantity} × ${tea.sku} from parcel 1 to SPLIT-A-2`);
    expect(newShipment.activities.at(-1).description).toBe('Split from parcel 1 of SPLIT-A');
    const created = eventsFor(newShipment.id, 'shipment.created');
    expect(created).toHaveLength(1);
    expect(created[0]?.data.parcels[0].orderLines.map((line: { id: string }) => line.id)).toEqual([tea.id]);
    const updated = eventsFor(original.id, 'shipment.updated');
    expect(updated).toHaveLength(1);
    expect(updated[0]?.data.parcels[0].orderLines.map((line: { id: string }) => line.id)).toEqual([mug.id]);

    // The response is what a read gives.
    expect((await t.request('GET', `${shipmentsPath()}/${original.id}`)).body).toEqual(originalShipment);
    expect((await t.request('GET', `${shipmentsPath()}/${newShipment.id}`)).body).toEqual(newShipment);
  });

  it('numbers references -2, -3 across splits, and takes the body reference when given', async () => {
    const original = await createShipment(bodyWithLines({ A: 1, B: 1, C: 1, D: 1, E: 1 }, 5, { reference: 'WAVE-9' }));
    const parcel = original.parcels[0];
    const lineIds = parcel.orderLines.map((line: { id: string }) => line.id);
    const first = await t.request('POST', splitPath(original.id, parcel.id), { body: { orderLineIds: [lineIds[0]] } });
    const second = await t.request('POST', splitPath(original.id, parcel.id), { body: { orderLineIds: [lineIds[1]] } });
    const named = await t.request('POST', splitPath(original.id, parcel.id), { body: { orderLineIds: [lineIds[2]], reference: 'CUSTOM-1' } });
    expect([first.status, second.status, named.status]).toEqual([201, 201, 201]);
    expect(first.body.newShipment.reference).toBe('WAVE-9-2');
    expect(second.body.newShipment.reference).toBe('WAVE-9-3');
    expect(named.body.newShipment.reference).toBe('CUSTOM-1');
    expect(named.body.originalShipment.reference).toBe('WAVE-9');
    // References that only look alike ("WAVE-9-x", "WAVE-90-2", "WAVE-9-3-2") are not suffixes of WAVE-9.
    await createShipment(bodyWithLines({ X: 1 }, 1, { reference: 'WAVE-9-x' }));
    await createShipment(bodyWithLines({ X: 1 }, 1, { reference: 'WAVE-9-3-2' }));
    const other = await createShipment(bodyWithLines({ A: 1, B: 1 }, 2, { reference: 'WAVE-90' }));
    const res = await t.request('POST', splitPath(other.id, other.parcels[0].id), { body: { orderLineIds: [other.parcels[0].orderLines[0].id] } });
    expect(res.body.newShipment.reference).toBe('WAVE-90-2');
    const third = await t.request('POST', splitPath(original.id, parcel.id), { body: { orderLineIds: [lineIds[3]] } });
    expect(third.body.newShipment.reference).toBe('WAVE-9-4');
  });

  it('takes the lowest free suffix: an unrelated "ACME-2024" or a body\'s "PM-7" does not push the numbers up', async () => {
    await createShipment(bodyWithLines({ X: 1 }, 1, { reference: 'ACME-2024' }));
    const acme = await createShipment(bodyWithLines({ A: 1, B: 1 }, 2, { reference: 'ACME' }));
    const split = await t.request('POST', splitPath(acme.id, acme.parcels[0].id), { body: { orderLineIds: [acme.parcels[0].orderLines[0].id] } });
    expect(split.body.newShipment.reference).toBe('ACME-2');

    const pm = await createShipment(bodyWithLines({ A: 1, B: 1, C: 1, D: 1 }, 4, { reference: 'PM' }));
    const [a, b, c] = pm.parcels[0].orderLines.map((line: { id: string }) => line.id);
    const batch = await t.request('POST', `/orgs/${t.org.orgId}/shipments/${pm.id}/parcels/${pm.parcels[0].id}/batch-split`, {
      body: {
        shipments: [
          { orderLines: [{ id: a, quantity: 1 }], reference: 'PM-7' },
          { orderLines: [{ id: b, quantity: 1 }] },
          { orderLines: [{ id: c, quantity: 1 }] },
        ],
      },
    });
    expect(batch.status).toBe(201);
    expect(batch.body.newShipments.map((shipment: { reference: string }) => shipment.reference)).toEqual(['PM-7', 'PM-2', 'PM-3']);
  });

  it('removes a parcel it empties, and takes every line of the parcel when orderLineIds is left out', async () => {
    const original = await createShipment({
      parcels: [
        { weight: 3, weightUnit: 'kg', dimensions: { length: 10, width: 10, height: 10 }, orderLines: [{ sku: 'KEEP', quantity: 1 }] },
        {
          weight: 4,
          weightUnit: 'kg',
          dimensions: { length: 50, width: 40, height: 30 },
          orderLines: [
            { sku: 'GO-1', quantity: 2 },
            { sku: 'GO-2', quantity: 1 },
          ],
        },
      ],
    });
    const [keep, go] = original.parcels;
    const res = await t.request('POST', splitPath(original.id, go.id));
    expect(res.status).toBe(201);
    expect(res.body.newShipment.parcels).toHaveLength(1);
    expect(res.body.newShipment.parcels[0]).toMatchObject({ weight: 4, dimensions: { length: 50, width: 40, height: 30 } });
    expect(res.body.newShipment.parcels[0].orderLines).toEqual(go.orderLines);
    expect(res.body.originalShipment.parcels).toEqual([keep]);
    expect(sql().prepare('SELECT count(*) AS n FROM parcels WHERE id = ?').get(go.id)).toEqual({ n: 0 });
    expect(linesOfShipment(original.id).map((line) => line.sku)).toEqual(['KEEP']);
  });

  it('refuses lines that are not of the parcel, named twice, or that would empty the shipment (422), changing nothing', async () => {
    const original = await createShipment({
      parcels: [
        {
          weight: 1,
          weightUnit: 'kg',
          dimensions: { length: 1, width: 1, height: 1 },
          orderLines: [
            { sku: 'P1-A', quantity: 1 },
            { sku: 'P1-B', quantity: 1 },
          ],
        },
        { weight: 1, weightUnit: 'kg', dimensions: { length: 1, width: 1, height: 1 }, orderLines: [{ sku: 'P2-A', quantity: 1 }] },
        { weight: 1, weightUnit: 'kg', dimensions: { length: 1, width: 1, height: 1 }, orderLines: [] },
      ],
    });
    const [first, second, empty] = original.parcels;
    const before = snapshot();
    const cases: [string, unknown, string][] = [
      [first.id, { orderLineIds: ['pol_doesnotexist'] }, 'pol_doesnotexist'],
      [first.id, { orderLineIds: [second.orderLines[0].id] }, second.orderLines[0].id],
      [first.id, { orderLineIds: [first.orderLines[0].id, first.orderLines[0].id] }, first.orderLines[0].id],
      [empty.id, undefined, empty.id],
    ];
    for (const [parcelId, body, named] of cases) {
      const res = await t.request('POST', splitPath(original.id, parcelId), body === undefined ? {} : { body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe('PARCEL_INVALID_SPLIT');
      expect(res.body.message).toContain(named);
    }
    expect(snapshot()).toEqual(before);

    // Taking every line of a one-parcel shipment would leave it with none.
    const single = await createShipment();
    const all = await t.request('POST', splitPath(single.id, single.parcels[0].id));
    expect(all.status).toBe(422);
    expect(all.body.code).toBe('PARCEL_INVALID_SPLIT');
    expect(all.body.message).toContain('without any order line');
    const named = await t.request('POST', splitPath(single.id, single.parcels[0].id), {
      body: { orderLineIds: single.parcels[0].orderLines.map((line: { id: string }) => line.id) },
    });
    expect(named.status).toBe(422);
    expect(linesOfShipment(single.id)).toHaveLength(2);
  });

  it('answers 404 for an unknown shipment, a parcel of another shipment, or another organization', async () => {
    const a = await createShipment();
    const b = await createShipment();
    const unknownShipment = await t.request('POST', splitPath('shp_unknown', a.parcels[0].id));
    expect([unknownShipment.status, unknownShipment.body.code]).toEqual([404, 'SHIPMENT_NOT_FOUND']);
    const foreignParcel = await t.request('POST', splitPath(a.id, b.parcels[0].id), { body: { orderLineIds: [b.parcels[0].orderLines[0].id] } });
    expect([foreignParcel.status, foreignParcel.body.code]).toEqual([404, 'PARCEL_NOT_FOUND']);
    const batch = await t.request('POST', batchPath(a.id, 'prc_unknown'), {
      body: { shipments: [{ orderLines: [{ id: a.parcels[0].orderLines[0].id, quantity: 1 }] }] },
    });
    expect([batch.status, batch.body.code]).toEqual([404, 'PARCEL_NOT_FOUND']);
    const other = await t.createOrg();
    const cross = await t.request('POST', splitPath(a.id, a.parcels[0].id, other), {
      token: other.token,
      body: { orderLineIds: [a.parcels[0].orderLines[0].id] },
    });
    expect([cross.status, cross.body.code]).toEqual([404, 'SHIPMENT_NOT_FOUND']);
    expect(linesOfShipment(a.id)).toHaveLength(2);
  });

  it('works only on draft or pending shipments (409 SHIPMENT_INVALID_STATE otherwise)', async () => {
    for (const status of ['processing', 'dispatched', 'partly_dispatched', 'error', 'cancelled', 'on_hold']) {
      const shipment = await createShipment();
      sql().prepare('UPDATE shipments SET status = ? WHERE id = ?').run(status, shipment.id);
      const before = snapshot();
      const split = await t.request('POST', splitPath(shipment.id, shipment.parcels[0].id), { body: { orderLineIds: [shipment.parcels[0].orderLines[0].id] } });
      expect([split.status, split.body.code], status).toEqual([409, 'SHIPMENT_INVALID_STATE']);
      expect(split.body.message).toContain(status);
      const batch = await t.request('POST', batchPath(shipment.id, shipment.parcels[0].id), {
        body: { shipments: [{ orderLines: [{ id: shipment.parcels[0].orderLines[0].id, quantity: 1 }] }] },
      });
      expect([batch.status, batch.body.code], status).toEqual([409, 'SHIPMENT_INVALID_STATE']);
      expect(snapshot()).toEqual(before);
    }
    const pending = await createShipment();
    const res = await t.request('POST', splitPath(pending.id, pending.parcels[0].id), { body: { orderLineIds: [pending.parcels[0].orderLines[0].id] } });
    expect(res.body.newShipment.status).toBe('pending');
    expect(shipmentRow(res.body.newShipment.id).status).toBe('pending');
  });

  it('takes carrier fields from the body, checked like a create', async () => {
    const original = await createShipment();
    const parcel = original.parcels[0];
    const pallet = await t.request('POST', splitPath(original.id, parcel.id), {
      body: { orderLineIds: [parcel.orderLines[0].id], productId: 'local_pallet', services: ['tail_lift'], additionalParameters: { ramp: true } },
    });
    expect(pallet.status).toBe(201);
    expect(pallet.body.newShipment.carrierSettings).toEqual({
      carrierId,
      productId: 'local_pallet',
      services: ['tail_lift'],
      additionalParameters: { ramp: true },
    });
    expect(pallet.body.originalShipment.carrierSettings).toEqual(original.carrierSettings);

    // A product the carrier does not offer is taken, as on create, and refused at send (decisions §8).
    const hovercraft = await createShipment();
    const taken = await t.request('POST', splitPath(hovercraft.id, hovercraft.parcels[0].id), {
      body: { orderLineIds: [hovercraft.parcels[0].orderLines[0].id], productId: 'hovercraft' },
    });
    expect(taken.status).toBe(201);
    expect(taken.body.newShipment.carrierSettings.productId).toBe('hovercraft');

    const other = await createShipment();
    const before = snapshot();
    const badCarrier = await t.request('POST', splitPath(other.id, other.parcels[0].id), {
      body: { orderLineIds: [other.parcels[0].orderLines[0].id], carrierId: 'car_unknown' },
    });
    expect([badCarrier.status, badCarrier.body.code]).toEqual([404, 'CARRIER_NOT_FOUND']);
    const unknownField = await t.request('POST', splitPath(other.id, other.parcels[0].id), {
      body: { orderLineIds: [other.parcels[0].orderLines[0].id], colour: 'red' },
    });
    expect(unknownField.status).toBe(400);
    expect(snapshot()).toEqual(before);
  });

  it('keeps the shipping rule (its papers, printing and return) unless the split goes to another carrier', async () => {
    const rule = await t.request('POST', `/orgs/${t.org.orgId}/shipping-rules`, {
      body: shippingRuleBody(carrierId, senderAddressId, { name: 'Abroad with invoices', generateCommercialInvoice: true }),
    });
    expect(rule.status).toBe(201);
    const { carrierId: otherCarrierId } = await setupLocalCarrier(t);
    const withRule = async () => {
      const created = await createShipment(bodyWithLines({ MUG: 3, TEA: 3 }));
      const patched = await t.request('PATCH', `${shipmentsPath()}/${created.id}`, { body: { shippingRuleId: rule.body.id } });
      expect(patched.body.shippingRuleId).toBe(rule.body.id);
      return patched.body;
    };
    const split = async (shipment: any, override: Record<string, unknown>) => {
      const res = await t.request('POST', splitPath(shipment.id, shipment.parcels[0].id), {
        body: { orderLineIds: [shipment.parcels[0].orderLines[0].id], ...override },
      });
      expect(res.status).toBe(201);
      return res.body.newShipment;
    };

    expect((await split(await withRule(), {})).shippingRuleId).toBe(rule.body.id);
    // Another service of the same carrier: the customs papers must still come with it.
    const insured = await split(await withRule(), { services: ['insurance'] });
    expect(insured).toMatchObject({
      shippingRuleId: rule.body.id,
      shippingRule: { id: rule.body.id },
      carrierSettings: { carrierId, services: ['insurance'] },
    });
    const moved = await split(await withRule(), { carrierId: otherCarrierId });
    expect(moved.shippingRuleId).toBeNull();
    expect(moved.shippingRule).toBeUndefined();
  });

  it('moves weight by unit weight when the lines come from an order, in the parcel own unit, and recomputes the order', async () => {
    const orderId = insertOrder(t.org, [
      { sku: 'MUG', quantity: 4, weight: 0.35 },
      { sku: 'TEA', quantity: 6, weight: 250, weightUnit: 'g' },
      { sku: 'PEN', quantity: 10, weight: 0.02 },
    ]);
    const original = await shipmentFromOrder(orderId, { reference: 'ORD-W' });
    const parcel = original.parcels[0];
    expect(parcel.weight).toBe(3.1); // 4 × 0.35 + 6 × 0.25 + 10 × 0.02
    expect(sql().prepare('SELECT shipment_count AS n FROM orders WHERE id = ?').get(orderId)).toEqual({ n: 1 });
    const [mug, tea, pen] = parcel.orderLines;

    const res = await t.request('POST', splitPath(original.id, parcel.id), { body: { orderLineIds: [tea.id] } });
    expect(res.status).toBe(201);
    expect(res.body.newShipment.parcels[0].weight).toBe(1.5);
    expect(res.body.originalShipment.parcels[0].weight).toBe(1.6);
    expect(res.body.newShipment.orderId).toBe(orderId);
    expect(res.body.newShipment.parties).toEqual(original.parties);
    // The moved row keeps its order allocation and unit weight.
    const moved = linesOfParcel(res.body.newShipment.parcels[0].id)[0];
    expect(moved).toMatchObject({ id: tea.id, order_line_id: expect.stringMatching(/^oln_/), unit_weight_kg: 0.25 });
    expect(sql().prepare('SELECT shipment_count AS n, status FROM orders WHERE id = ?').get(orderId)).toEqual({ n: 2, status: 'processing' });

    // A parcel kept in grams loses grams.
    sql().prepare("UPDATE parcels SET weight = 1600, weight_unit = 'g' WHERE id = ?").run(parcel.id);
    const grams = await t.request('POST', splitPath(original.id, parcel.id), { body: { orderLineIds: [pen.id] } });
    expect(grams.body.newShipment.parcels[0]).toMatchObject({ weight: 200, weightUnit: 'g' });
    expect(grams.body.originalShipment.parcels[0]).toMatchObject({ weight: 1400, weightUnit: 'g', orderLines: [mug] });
    expect(grams.body.newShipment.reference).toBe('ORD-W-3');
  });

  it('moves the order weight of lines placed by hand or rewritten by a PATCH, as they are tied to the order', async () => {
    const orderId = insertOrder(t.org, [
      { sku: 'MUG', quantity: 4, weight: 400, weightUnit: 'g' },
      { sku: 'POT', quantity: 1, weight: 1.2 },
    ]);
    // A packer weighs the box with its packaging (3 kg, not the goods' 2.8 kg) and types the lines in.
    const byHand = await shipmentFromOrder(orderId, {
      parcels: [
        {
          weight: 3,
          weightUnit: 'kg',
          dimensions: { length: 30, width: 20, height: 20 },
          orderLines: [
            { sku: 'MUG', quantity: 4 },
            { sku: 'POT', quantity: 1 },
          ],
        },
      ],
    });
    const parcel = byHand.parcels[0];
    const pot = parcel.orderLines.find((line: { sku: string }) => line.sku === 'POT');
    const res = await t.request('POST', splitPath(byHand.id, parcel.id), { body: { orderLineIds: [pot.id] } });
    expect(res.status).toBe(201);
    // The teapot's 1.2 kg, not the parcel's 3 kg shared by units (0.6 kg).
    expect(res.body.newShipment.parcels[0].weight).toBe(1.2);
    expect(res.body.originalShipment.parcels[0].weight).toBe(1.8);

    // A PATCH of parcels rewrites the lines without weights of their own; the order still knows them.
    const patched = await t.request('PATCH', `${shipmentsPath()}/${byHand.id}`, {
      body: { parcels: [{ weight: 1800, weightUnit: 'g', dimensions: { length: 30, width: 20, height: 20 }, orderLines: [{ sku: 'MUG', quantity: 4 }] }] },
    });
    expect(patched.status).toBe(200);
    const patchedParcel = patched.body.parcels[0];
    const batch = await t.request('POST', batchPath(byHand.id, patchedParcel.id), {
      body: { shipments: [{ orderLines: [{ id: patchedParcel.orderLines[0].id, quantity: 1 }] }] },
    });
    expect(batch.status).toBe(201);
    expect(batch.body.newShipments[0].parcels[0]).toMatchObject({ weight: 400, weightUnit: 'g' });
    expect(batch.body.originalShipment.parcels[0]).toMatchObject({ weight: 1400, weightUnit: 'g' });
  });

  it('never takes a parcel below zero weight', async () => {
    const orderId = insertOrder(t.org, [
      { sku: 'HEAVY', quantity: 1, weight: 5 },
      { sku: 'LIGHT', quantity: 1, weight: 1 },
    ]);
    const original = await shipmentFromOrder(orderId);
    const parcel = original.parcels[0];
    sql().prepare('UPDATE parcels SET weight = 2 WHERE id = ?').run(parcel.id);
    const res = await t.request('POST', splitPath(original.id, parcel.id), { body: { orderLineIds: [parcel.orderLines[0].id] } });
    expect(res.body.newShipment.parcels[0].weight).toBe(5);
    expect(res.body.originalShipment.parcels[0].weight).toBe(0);
  });
});

describe('batch split', () => {
  it('moves quantities into several shipments: partial moves make new lines, a line may feed several, a full move keeps the id', async () => {
    const original = await createShipment(bodyWithLines({ BOX: 10, CUP: 4, LID: 2, KEEP: 1 }, 17, { reference: 'BATCH-A', status: 'draft' }));
    const parcel = original.parcels[0];
    const [box, cup, lid, keep] = parcel.orderLines;
    const usageBefore = usageOf(t.org.orgId);
    const res = await t.request('POST', batchPath(original.id, parcel.id), {
      body: {
        shipments: [
          {
            orderLines: [
              { id: box.id, quantity: 3 },
              { id: cup.id, quantity: 1 },
            ],
          },
          {
            orderLines: [
              { id: box.id, quantity: 3 },
              { id: lid.id, quantity: 2 },
            ],
            reference: 'BATCH-A-MANUAL',
          },
          { orderLines: [{ id: box.id, quantity: 4 }] },
        ],
      },
    });
    expect(res.status).toBe(201);
    const { originalShipment, newShipments } = res.body;
    expect(newShipments.map((s: { reference: string }) => s.reference)).toEqual(['BATCH-A-2', 'BATCH-A-MANUAL', 'BATCH-A-3']);
    expect(newShipments.every((s: { status: string }) => s.status === 'draft')).toBe(true);

    const [one, two, three] = newShipments;
    // BOX 10 → 3 + 3 + 4: the last part is all that is left, so the row itself moves there.
    expect(one.parcels[0].orderLines.map((l: any) => [l.sku, l.quantity])).toEqual([
      ['BOX', 3],
      ['CUP', 1],
    ]);
    expect(one.parcels[0].orderLines[0].id).not.toBe(box.id);
    expect(one.parcels[0].orderLines[0]).toEqual({ ...box, id: one.parcels[0].orderLines[0].id, quantity: 3 });
    expect(one.parcels[0].orderLines[1].id).not.toBe(cup.id);
    expect(two.parcels[0].orderLines.map((l: any) => [l.sku, l.quantity])).toEqual([
      ['BOX', 3],
      ['LID', 2],
    ]);
    expect(two.parcels[0].orderLines[1].id).toBe(lid.id);
    expect(three.parcels[0].orderLines).toEqual([{ ...box, quantity: 4 }]);

    // The original keeps CUP 3 (reduced, same id) and KEEP; BOX and LID are gone from it.
    expect(originalShipment.parcels[0].orderLines).toEqual([{ ...cup, quantity: 3 }, keep]);
    // Weight by share of 17 units over 17 kg: 4, 5, 4 kg move, 4 kg stay.
    expect(newShipments.map((s: any) => s.parcels[0].weight)).toEqual([4, 5, 4]);
    expect(originalShipment.parcels[0].weight).toBe(4);

    // Nothing created or lost, by sku.
    expect(unitsBySku([original.id, ...newShipments.map((s: { id: string }) => s.id)])).toEqual({ BOX: 10, CUP: 4, LID: 2, KEEP: 1 });
    expect(usageOf(t.org.orgId)).toBe(usageBefore + 3);
    expect(activities(original.id)).toEqual(['created', 'shipment_split']);
    for (const shipment of newShipments) {
      expect(activities(shipment.id)).toEqual(['created', 'shipment_split']);
      expect(eventsFor(shipment.id, 'shipment.created')).toHaveLength(1);
    }
    expect(eventsFor(original.id, 'shipment.updated')).toHaveLength(1);
    expect((await t.request('GET', `${shipmentsPath()}/${original.id}`)).body).toEqual(originalShipment);
  });

  it('moves weight by unit weight per new shipment and removes an emptied parcel', async () => {
    const orderId = insertOrder(t.org, [
      { sku: 'A', quantity: 5, weight: 0.2 },
      { sku: 'B', quantity: 2, weight: 1.5 },
    ]);
    const original = await shipmentFromOrder(orderId, { reference: 'UW' });
    // A second parcel keeps the shipment non-empty when the first is emptied.
    sql()
      .prepare("INSERT INTO parcels (id, shipment_id, position, weight, weight_unit, length, width, height) VALUES (?, ?, 1, 1, 'kg', 0, 0, 0)")
      .run('prc_second', original.id);
    sql().prepare("INSERT INTO parcel_order_lines (id, parcel_id, position, sku, quantity) VALUES ('pol_second', 'prc_second', 0, 'EXTRA', 1)").run();
    const parcel = original.parcels[0];
    const [a, b] = parcel.orderLines;
    const res = await t.request('POST', batchPath(original.id, parcel.id), {
      body: {
        shipments: [
          {
            orderLines: [
              { id: a.id, quantity: 2 },
              { id: b.id, quantity: 1 },
            ],
          },
          {
            orderLines: [
              { id: a.id, quantity: 3 },
              { id: b.id, quantity: 1 },
            ],
          },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.newShipments.map((s: any) => s.parcels[0].weight)).toEqual([1.9, 2.1]);
    expect(res.body.newShipments.map((s: any) => s.reference)).toEqual(['UW-2', 'UW-3']);
    expect(res.body.originalShipment.parcels.map((p: { id: string }) => p.id)).toEqual(['prc_second']);
    expect(sql().prepare('SELECT count(*) AS n FROM parcels WHERE id = ?').get(parcel.id)).toEqual({ n: 0 });
    // The rows of A and B now sit in the second new shipment with their ids.
    expect(res.body.newShipments[1].parcels[0].orderLines.map((l: { id: string }) => l.id)).toEqual([a.id, b.id]);
    expect(sql().prepare('SELECT shipment_count AS n FROM orders WHERE id = ?').get(orderId)).toEqual({ n: 3 });
  });

  it('refuses too many units, unknown lines, a line twice in one shipment, or emptying the shipment (422), changing nothing', async () => {
    const original = await createShipment(bodyWithLines({ X: 3, Y: 2 }, 5));
    const parcel = original.parcels[0];
    const [x, y] = parcel.orderLines;
    const before = snapshot();
    const cases: [unknown, string][] = [
      [[{ orderLines: [{ id: x.id, quantity: 2 }] }, { orderLines: [{ id: x.id, quantity: 2 }] }], x.id],
      [[{ orderLines: [{ id: y.id, quantity: 3 }] }], y.id],
      [[{ orderLines: [{ id: 'pol_nope', quantity: 1 }] }], 'pol_nope'],
      [
        [
          {
            orderLines: [
              { id: x.id, quantity: 1 },
              { id: x.id, quantity: 1 },
            ],
          },
        ],
        x.id,
      ],
      [[{ orderLines: [{ id: x.id, quantity: 3 }] }, { orderLines: [{ id: y.id, quantity: 2 }] }], 'without any order line'],
    ];
    for (const [shipments, named] of cases) {
      const res = await t.request('POST', batchPath(original.id, parcel.id), { body: { shipments } });
      expect(res.status, JSON.stringify(shipments)).toBe(422);
      expect(res.body.code).toBe('PARCEL_INVALID_SPLIT');
      expect(res.body.message).toContain(named);
    }
    const empty = await t.request('POST', batchPath(original.id, parcel.id), { body: { shipments: [] } });
    expect(empty.status).toBe(400);
    const zero = await t.request('POST', batchPath(original.id, parcel.id), { body: { shipments: [{ orderLines: [{ id: x.id, quantity: 0 }] }] } });
    expect(zero.status).toBe(400);
    expect(snapshot()).toEqual(before);
  });

  it('is all or nothing: an invalid third entry leaves every row as it was', async () => {
    const original = await createShipment(bodyWithLines({ P: 5, Q: 5 }, 10));
    const [p, q] = original.parcels[0].orderLines;
    const before = snapshot();
    const res = await t.request('POST', batchPath(original.id, original.parcels[0].id), {
      body: {
        shipments: [
          { orderLines: [{ id: p.id, quantity: 1 }] },
          { orderLines: [{ id: q.id, quantity: 2 }] },
          {
            orderLines: [
              { id: p.id, quantity: 1 },
              { id: 'pol_missing', quantity: 1 },
            ],
          },
        ],
      },
    });
    expect([res.status, res.body.code]).toEqual([422, 'PARCEL_INVALID_SPLIT']);
    expect(res.body.message).toContain('shipments[2]');
    expect(snapshot()).toEqual(before);
  });

  it('counts each new shipment against the plan; running out mid-batch changes nothing (403 PLAN_LIMITS_EXCEEDED)', async () => {
    const org = await t.createOrg();
    const { carrierId: orgCarrier } = await setupLocalCarrier(t, org);
    const original = await createShipment(bodyWithLines({ R: 3, S: 3 }, 6), org, orgCarrier);
    const [r, s] = original.parcels[0].orderLines;
    const period = billingPeriod(new Date()).key;
    expect(usageOf(org.orgId)).toBe(1);
    sql().prepare('UPDATE shipment_usage SET created = 498 WHERE org_id = ? AND period = ?').run(org.orgId, period);
    const body = {
      shipments: [{ orderLines: [{ id: r.id, quantity: 1 }] }, { orderLines: [{ id: s.id, quantity: 1 }] }, { orderLines: [{ id: r.id, quantity: 1 }] }],
    };
    const before = snapshot();
    const refused = await t.request('POST', batchPath(original.id, original.parcels[0].id, org), { token: org.token, body });
    expect([refused.status, refused.body.code]).toEqual([403, 'PLAN_LIMITS_EXCEEDED']);
    expect(refused.body.message).toContain('needs 3 new shipments but only 2 more fit');
    expect(refused.body.message).toContain('(498 of 500 used)');
    expect(snapshot()).toEqual(before);
    expect(usageOf(org.orgId)).toBe(498);

    sql().prepare('UPDATE shipment_usage SET created = 497 WHERE org_id = ? AND period = ?').run(org.orgId, period);
    const fits = await t.request('POST', batchPath(original.id, original.parcels[0].id, org), { token: org.token, body });
    expect(fits.status).toBe(201);
    expect(usageOf(org.orgId)).toBe(500);
  });

  it('takes carrier fields from the body for every new shipment', async () => {
    const original = await createShipment(bodyWithLines({ T: 4 }, 4));
    const line = original.parcels[0].orderLines[0];
    const res = await t.request('POST', batchPath(original.id, original.parcels[0].id), {
      body: {
        productId: 'local_pallet',
        services: ['pallet_exchange'],
        shipments: [{ orderLines: [{ id: line.id, quantity: 1 }] }, { orderLines: [{ id: line.id, quantity: 2 }] }],
      },
    });
    expect(res.status).toBe(201);
    for (const shipment of res.body.newShipments) {
      expect(shipment.carrierSettings).toMatchObject({ carrierId, productId: 'local_pallet', services: ['pallet_exchange'] });
    }
    expect(res.body.originalShipment.parcels[0].orderLines).toEqual([{ ...line, quantity: 1 }]);
  });

  it('under 20 concurrent batch splits of one parcel, no unit is moved twice, created or lost', async () => {
    const original = await createShipment(bodyWithLines({ APPLE: 10, PEAR: 5 }, 15, { reference: 'RACE' }));
    const parcel = original.parcels[0];
    const [apple, pear] = parcel.orderLines;
    const requests = Array.from({ length: 20 }, (_, index) =>
      t.request('POST', batchPath(original.id, parcel.id), {
        body: {
          shipments: [
            {
              orderLines: [
                { id: apple.id, quantity: 2 },
                { id: pear.id, quantity: 1 },
              ],
            },
            ...(index % 2 ? [{ orderLines: [{ id: apple.id, quantity: 1 }] }] : []),
          ],
        },
      }),
    );
    const results = await Promise.all(requests);
    const won = results.filter((res) => res.status === 201);
    const lost = results.filter((res) => res.status !== 201);
    expect(won.length).toBeGreaterThan(0);
    expect(lost.length).toBeGreaterThan(0);
    for (const res of lost) expect([res.status, res.body.code]).toEqual([422, 'PARCEL_INVALID_SPLIT']);

    const newIds = won.flatMap((res) => res.body.newShipments.map((s: { id: string }) => s.id));
    expect(new Set(newIds).size).toBe(newIds.length);
    const allIds = [original.id, ...newIds];
    expect(unitsBySku(allIds)).toEqual({ APPLE: 10, PEAR: 5 });
    // Each new shipment got exactly what its request asked for.
    for (const res of won) {
      expect(res.body.newShipments[0].parcels[0].orderLines.map((l: any) => [l.sku, l.quantity])).toEqual([
        ['APPLE', 2],
        ['PEAR', 1],
      ]);
    }
    // Every line row belongs to exactly one parcel, and every reference is different.
    const references = allIds.map((id) => shipmentRow(id).reference);
    expect(new Set(references).size).toBe(references.length);
    const originalLines = linesOfShipment(original.id);
    expect(originalLines.length).toBeGreaterThan(0);
    expect(originalLines.every((line) => line.quantity > 0)).toBe(true);
  });
});
