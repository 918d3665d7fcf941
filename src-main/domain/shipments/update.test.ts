import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { localCarrier } from '../../carriers/local';
import { shipmentStatuses, type ShipmentStatus } from '../../../src-shared/schemas/shipment';
import { receiverParty, setupLocalCarrier, shipmentBody, shippingRuleBody, startTestServer, type TestServer } from '../../testing/harness';
import { allowedSources, patchTransitions } from '../../../src-shared/shipmentLifecycle';

let t: TestServer;
let carrierId: string;
let senderAddressId: string;
beforeAll(async () => {
  t = await startTestServer();
  t.app.db.$client.prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(t.org.orgId);
  ({ carrierId, senderAddressId } = await setupLocalCarrier(t));
});
afterAll(async () => t.close());

const base = () => `/orgs/${t.org.orgId}/shipments`;
const create = async (overrides: Record<string, unknown> = {}) => (await t.request('POST', base(), { body: shipmentBody(carrierId, overrides) })).body;
const forceStatus = (id: string, status: ShipmentStatus) => t.app.db.$client.prepare('UPDATE shipments SET status = ? WHERE id = ?').run(status, id);
const outbox = (type: string) => t.app.db.$client.prepare('SELECT count(*) AS n FROM outbox_events WHERE type = ?').get(type) as { n: number };

describe('PATCH status follows the transition table of decisions §4', () => {
  it('matches the decisions for a few rows (the table is the one copy)', () => {
    expect(patchTransitions.draft).toEqual(['pending', 'on_hold', 'cancelled']);
    expect(patchTransitions.error).toEqual(['draft', 'pending', 'on_hold', 'cancelled']);
    expect(patchTransitions.dispatched).toEqual([]);
  });

  for (const from of shipmentStatuses) {
    const editable = (allowedSources.updateFields as readonly string[]).includes(from);
    it(`${from} → ${from} alone: 409 (the table has no such move); with field changes and as an empty body: ${editable ? '200' : '409'}`, async () => {
      const shipment = await create();
      forceStatus(shipment.id, from);
      const events = (t.app.db.$client.prepare('SELECT count(*) AS n FROM outbox_events').get() as { n: number }).n;
      const same = await t.request('PATCH', `${base()}/${shipment.id}`, { body: { status: from } });
      expect(same.status).toBe(409);
      expect(same.body).toMatchObject({ code: 'SHIPMENT_INVALID_STATE', message: expect.stringContaining(`is already ${from}`) });
      // A refused move leaves no trace: no event, no new updatedAt.
      expect((t.app.db.$client.prepare('SELECT count(*) AS n FROM outbox_events').get() as { n: number }).n).toBe(events);
      expect((await t.request('GET', `${base()}/${shipment.id}`)).body.updatedAt).toBe(shipment.updatedAt);
      for (const body of [{ status: from, reference: `SAME-${from}` }, {}]) {
        const res = await t.request('PATCH', `${base()}/${shipment.id}`, { body });
        expect(res.status, JSON.stringify(body)).toBe(editable ? 200 : 409);
        if (editable) expect(res.body.activities.map((a: { action: string }) => a.action)).not.toContain('status_changed');
        else expect(res.body.code).toBe('SHIPMENT_INVALID_STATE');
      }
      if (!editable) expect((t.app.db.$client.prepare('SELECT count(*) AS n FROM outbox_events').get() as { n: number }).n).toBe(events);
    });
    for (const to of shipmentStatuses) {
      if (from === to) continue;
      const allowed = patchTransitions[from].includes(to);
      it(`${from} → ${to}: ${allowed ? '200' : '409'}`, async () => {
        const shipment = await create();
        forceStatus(shipment.id, from);
        const res = await t.request('PATCH', `${base()}/${shipment.id}`, { body: { status: to } });
        if (allowed) {
          expect(res.status).toBe(200);
          expect(res.body.status).toBe(to);
          expect(res.body.activities.map((a: { action: string }) => a.action)).toContain('status_changed');
        } else {
          expect(res.status).toBe(409);
          expect(res.body.code).toBe('SHIPMENT_INVALID_STATE');
          expect(res.body.message).toContain(from);
          for (const target of patchTransitions[from]) expect(res.body.message).toContain(target);
          const row = t.app.db.$client.prepare('SELECT status FROM shipments WHERE id = ?').get(shipment.id) as { status: string };
          expect(row.status).toBe(from);
        }
      });
    }
  }
});

describe('PATCH fields', () => {
  it('changes fields, replaces parties and parcels, and writes an activity and shipment.updated', async () => {
    const shipment = await create();
    const before = outbox('shipment.updated').n;
    const res = await t.request('PATCH', `${base()}/${shipment.id}`, {
      body: {
        reference: 'NEW-REF',
        termOfTrade: 'DDP',
        servicePointId: 'SP-1',
        pickupDetails: { date: '2026-12-01', from: '08:00', to: '12:00', instruction: 'Gate 2' },
        parcels: [{ weight: 1, weightUnit: 'kg', dimensions: { length: 1, width: 1, height: 1 }, orderLines: [{ sku: 'X', quantity: 1 }] }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      reference: 'NEW-REF',
      termOfTrade: 'DDP',
      servicePointId: 'SP-1',
      pickupDetails: { date: '2026-12-01', instruction: 'Gate 2' },
    });
    expect(res.body.parcels).toHaveLength(1);
    expect(res.body.parcels[0].orderLines[0]).toMatchObject({ sku: 'X', quantity: 1 });
    expect(res.body.activities.map((a: { action: string }) => a.action)).toContain('updated');
    expect(outbox('shipment.updated').n).toBe(before + 1);
    const cleared = await t.request('PATCH', `${base()}/${shipment.id}`, { body: { pickupDetails: null } });
    expect(cleared.body).not.toHaveProperty('pickupDetails');
  });

  it('refuses carrierSettings with a message saying what to do instead', async () => {
    const shipment = await create();
    const res = await t.request('PATCH', `${base()}/${shipment.id}`, { body: { carrierSettings: { carrierId, productId: 'local_pallet' } } });
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toMatchObject({ path: 'body.carrierSettings' });
    expect(res.body.details[0].message).toContain('shippingRuleId');
  });

  it('re-applies a shipping rule: carrier, product, services and sender', async () => {
    const shipment = await create();
    const rule = await t.request('POST', `/orgs/${t.org.orgId}/shipping-rules`, {
      body: shippingRuleBody(carrierId, senderAddressId, {
        productId: 'local_pallet',
        services: ['tail_lift'],
        additionalParameters: [{ name: 'dock', val: '3' }],
      }),
    });
    expect(rule.status).toBe(201);
    const res = await t.request('PATCH', `${base()}/${shipment.id}`, { body: { shippingRuleId: rule.body.id } });
    expect(res.status).toBe(200);
    expect(res.body.carrierSettings).toEqual({ carrierId, productId: 'local_pallet', services: ['tail_lift'], additionalParameters: { dock: '3' } });
    expect(res.body.shippingRuleId).toBe(rule.body.id);
    expect(res.body.shippingRule).toMatchObject({ id: rule.body.id, name: 'Denmark parcels' });
    expect(res.body.activities.map((a: { action: string }) => a.action)).toContain('shipping_rule_applied');
    expect((await t.request('PATCH', `${base()}/${shipment.id}`, { body: { shippingRuleId: 'rul_unknown' } })).body.code).toBe('SHIPPING_RULE_NOT_FOUND');
  });

  it('rebuilds the sender party from a new sender address (direct or by a rule) unless the body names one', async () => {
    const shipment = await create();
    const addressBody = { name: 'Odense hub', attContact: 'Gate 4', address1: 'Havnegade 9', zipcode: '5000', city: 'Odense', countryCode: 'DK' };
    const odense = (await t.request('POST', `/orgs/${t.org.orgId}/sender-addresses`, { body: addressBody })).body;
    const receiver = shipment.parties.find((party: { type: string }) => party.type === 'receiver');
    const moved = await t.request('PATCH', `${base()}/${shipment.id}`, { body: { senderAddressId: odense.id } });
    expect(moved.status).toBe(200);
    const sender = moved.body.parties.find((party: { type: string }) => party.type === 'sender');
    expect(sender).toMatchObject({ address1: 'Havnegade 9', postalCode: '5000', city: 'Odense', attention: 'Gate 4' });
    expect(moved.body.parties.find((party: { type: string }) => party.type === 'receiver')).toEqual(receiver);

    const rule = await t.request('POST', `/orgs/${t.org.orgId}/shipping-rules`, {
      body: shippingRuleBody(carrierId, senderAddressId, { name: 'Back to Aarhus' }),
    });
    const byRule = await t.request('PATCH', `${base()}/${shipment.id}`, { body: { shippingRuleId: rule.body.id } });
    expect(byRule.body.senderAddressId).toBe(senderAddressId);
    expect(byRule.body.parties.find((party: { type: string }) => party.type === 'sender').city).not.toBe('Odense');

    const ownSender = { type: 'sender', name: 'Drop-ship Ltd', address1: 'Road 1', postalCode: '1000', city: 'Copenhagen', countryCode: 'DK' };
    const named = await t.request('PATCH', `${base()}/${shipment.id}`, { body: { senderAddressId: odense.id, parties: [ownSender, receiver] } });
    expect(named.body.parties.find((party: { type: string }) => party.type === 'sender')).toMatchObject({ name: 'Drop-ship Ltd' });
  });

  it('refuses field changes outside draft, pending, on_hold and error', async () => {
    for (const status of shipmentStatuses) {
      const shipment = await create();
      forceStatus(shipment.id, status);
      const res = await t.request('PATCH', `${base()}/${shipment.id}`, { body: { reference: `R-${status}` } });
      const allowed = (allowedSources.updateFields as readonly string[]).includes(status);
      expect(res.status, status).toBe(allowed ? 200 : 409);
    }
  });

  it('validates the body and hides other organizations’ shipments', async () => {
    const shipment = await create();
    expect((await t.request('PATCH', `${base()}/${shipment.id}`, { body: { parties: [] } })).status).toBe(400);
    expect((await t.request('PATCH', `${base()}/${shipment.id}`, { body: { status: 'shipped' } })).status).toBe(400);
    expect((await t.request('PATCH', `${base()}/${shipment.id}`, { body: { reference: '' } })).status).toBe(400);
    const other = await t.createOrg();
    const res = await t.request('PATCH', `/orgs/${other.orgId}/shipments/${shipment.id}`, { token: other.token, body: { reference: 'x' } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('SHIPMENT_NOT_FOUND');
  });
});

describe('DELETE and cancel', () => {
  it('deletes only shipments that were not sent', async () => {
    for (const status of shipmentStatuses) {
      const shipment = await create();
      forceStatus(shipment.id, status);
      const res = await t.request('DELETE', `${base()}/${shipment.id}`);
      const allowed = (allowedSources.delete as readonly string[]).includes(status);
      expect(res.status, status).toBe(allowed ? 200 : 409);
      if (allowed) {
        expect(res.body.message).toContain(shipment.id);
        expect((await t.request('GET', `${base()}/${shipment.id}`)).status).toBe(404);
        const parcels = t.app.db.$client.prepare('SELECT count(*) AS n FROM parcels WHERE shipment_id = ?').get(shipment.id) as { n: number };
        expect(parcels.n).toBe(0);
      }
    }
  });

  it('cancels from every status but processing and cancelled, with shipment.cancelled', async () => {
    for (const status of shipmentStatuses) {
      const shipment = await create();
      forceStatus(shipment.id, status);
      const before = outbox('shipment.cancelled').n;
      const res = await t.request('POST', `${base()}/${shipment.id}/cancel`);
      const allowed = (allowedSources.cancel as readonly string[]).includes(status);
      expect(res.status, status).toBe(allowed ? 200 : 409);
      if (allowed) {
        expect(res.body.status).toBe('cancelled');
        expect(res.body.activities.map((a: { action: string }) => a.action)).toContain('cancelled');
        expect(outbox('shipment.cancelled').n).toBe(before + 1);
      }
    }
  });

  it('cancels a dispatched shipment whose carrier was deleted since (the booking is voided with it)', async () => {
    const temporary = await setupLocalCarrier(t);
    const shipment = (await t.request('POST', base(), { body: shipmentBody(temporary.carrierId) })).body;
    expect((await t.request('POST', `${base()}/${shipment.id}/send`)).body.status).toBe('dispatched');
    expect((await t.request('DELETE', `/orgs/${t.org.orgId}/carriers/${temporary.carrierId}`)).status).toBe(200);
    const res = await t.request('POST', `${base()}/${shipment.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
  });

  it('the void is a carrier call in logs[]; a refused void is logged too and changes nothing else (422 CARRIER_ERROR)', async () => {
    const sent = async () => {
      const created = (await t.request('POST', base(), { body: shipmentBody(carrierId) })).body;
      return (await t.request('POST', `${base()}/${created.id}/send`)).body;
    };
    const shipment = await sent();
    const cancelled = await t.request('POST', `${base()}/${shipment.id}/cancel`);
    expect(cancelled.body.logs.map((log: { request: { operation: string } }) => log.request.operation)).toEqual(['book', 'void']);
    expect(cancelled.body.logs[1]).toMatchObject({ direction: 'carrier', request: { trackingNumber: shipment.tracking.number }, error: null });

    const refused = await sent();
    const voiding = vi.spyOn(localCarrier, 'void').mockRejectedValueOnce(new Error('the carrier is closed for the night'));
    try {
      const res = await t.request('POST', `${base()}/${refused.id}/cancel`);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'CARRIER_ERROR', errors: [{ code: 'VOID_FAILED', message: 'the carrier is closed for the night' }] });
    } finally {
      voiding.mockRestore();
    }
    const after = (await t.request('GET', `${base()}/${refused.id}`)).body;
    expect(after.status).toBe('dispatched');
    expect(after.logs.map((log: { request: { operation: string }; error: string | null }) => [log.request.operation, log.error])).toEqual([
      ['book', null],
      ['void', 'the carrier is closed for the night'],
    ]);
  });
});

describe('PATCH takes back what a read shows', () => {
  it('a read sent back keeps parcel and line ids, and "" stays no value', async () => {
    const { email: _email, ...withoutEmail } = receiverParty();
    const shipment = await create({ parties: [withoutEmail] });
    const read = (await t.request('GET', `${base()}/${shipment.id}`)).body;
    const [parcel] = read.parcels;
    // The receiver has no email (left out: it has the email format) and TEA-02 no country of origin ("").
    expect(read.parties.find((p: { type: string }) => p.type === 'receiver')).not.toHaveProperty('email');
    expect(parcel.orderLines[1].countryOfOrigin).toBe('');
    const res = await t.request('PATCH', `${base()}/${shipment.id}`, {
      body: {
        parties: read.parties,
        parcels: [
          { ...parcel, weight: 3.1 },
          { ...parcel, id: undefined, orderLines: [{ ...parcel.orderLines[0], id: undefined, sku: 'BOX-1' }] },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [kept, added] = res.body.parcels;
    expect(kept).toMatchObject({ id: parcel.id, weight: 3.1 });
    expect(kept.orderLines.map((line: { id: string }) => line.id)).toEqual(parcel.orderLines.map((line: { id: string }) => line.id));
    expect(kept.orderLines[1]).toMatchObject({ currency: 'DKK', countryOfOrigin: '' });
    expect(added.id).not.toBe(parcel.id);
    expect(added.id).toMatch(/^prc_/);
    expect(added.orderLines[0].id).not.toBe(parcel.orderLines[0].id);
    expect(res.body.parties).toEqual(read.parties);
    // The kept ids still work where ids are given: a split of the kept parcel by line id.
    const split = await t.request('POST', `${base()}/${shipment.id}/parcels/${parcel.id}/split`, { body: { orderLineIds: [parcel.orderLines[1].id] } });
    expect(split.status, JSON.stringify(split.body)).toBe(201);
  });

  it('refuses ids the shipment does not have, and the same id twice, changing nothing', async () => {
    const shipment = await create();
    const other = await create();
    const [parcel] = shipment.parcels;
    const cases: [unknown[], string, string][] = [
      [[{ ...other.parcels[0] }], 'body.parcels.0.id', `${other.parcels[0].id} is not a parcel of this shipment`],
      [
        [{ ...parcel, orderLines: [{ ...parcel.orderLines[0], id: other.parcels[0].orderLines[0].id }] }],
        'body.parcels.0.orderLines.0.id',
        'is not an order line of this shipment',
      ],
      [[parcel, parcel], 'body.parcels.1.id', `${parcel.id} is given twice`],
      [[{ ...parcel, id: 'prc_made_up' }], 'body.parcels.0.id', 'prc_made_up is not a parcel of this shipment; leave id out for a new one'],
    ];
    for (const [parcels, path, message] of cases) {
      const res = await t.request('PATCH', `${base()}/${shipment.id}`, { body: { parcels } });
      expect(res.status, path).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(res.body.details).toContainEqual({ path, message: expect.stringContaining(message) });
    }
    expect((await t.request('GET', `${base()}/${shipment.id}`)).body.parcels).toEqual(shipment.parcels);
    // On create no parcel exists yet, so an id copied from another shipment is refused the same way.
    const copy = await t.request('POST', base(), { body: shipmentBody(carrierId, { parcels: other.parcels }) });
    expect(copy.status).toBe(400);
    expect(copy.body.details[0]).toMatchObject({ path: 'body.parcels.0.id' });
  });
});
