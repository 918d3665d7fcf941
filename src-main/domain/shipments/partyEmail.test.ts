import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShipdeskClient } from '../../../src-shared/client';
import type { Party, Shipment, ShipmentCreateInput } from '../../../src-shared/schemas/shipment';
import { receiverParty, senderAddressBody, shipmentBody, startTestServer, type TestServer } from '../../testing/harness';

// Interface 2.2 and 2.6 give a party's and a sender address's email the email format: without one
// the field is left out, never "" (issue 17, point 4). Called through the typed client.

let t: TestServer;
let api: ShipdeskClient;
let orgId: string;
let carrierId: string;

const newShipment = (overrides: Record<string, unknown> = {}) => shipmentBody(carrierId, overrides) as ShipmentCreateInput;
const sender = (shipment: { parties: Party[] }) => shipment.parties.find((party) => party.type === 'sender');

function expectSenderWithoutEmail(shipments: readonly Shipment[], what: string) {
  expect(shipments.length, what).toBeGreaterThan(0);
  for (const shipment of shipments) {
    expect(sender(shipment), what).toBeDefined();
    expect(sender(shipment), what).not.toHaveProperty('email');
    for (const party of shipment.parties) expect(party.email, what).not.toBe('');
  }
}

beforeAll(async () => {
  t = await startTestServer();
  api = t.client();
  orgId = t.org.orgId;
  const address = await api.call('senderAddresses.create', { params: { orgId }, body: senderAddressBody({ email: undefined }) as never });
  const carrier = await api.call('carriers.create', {
    params: { orgId },
    body: { name: 'Own trucks', carrierSlug: 'local', config: {}, senderAddressId: address.id },
  });
  carrierId = carrier.id;
});

afterAll(async () => {
  await t.close();
});

describe('an email that is not there', () => {
  it('is left out of a sender address, in its create, get, list and update answers', async () => {
    const created = await api.call('senderAddresses.create', { params: { orgId }, body: senderAddressBody({ email: undefined, name: 'No mail' }) as never });
    expect(created).not.toHaveProperty('email');
    const params = { orgId, addressId: created.id };
    expect(await api.call('senderAddresses.get', { params })).not.toHaveProperty('email');
    const listed = await api.call('senderAddresses.list', { params: { orgId }, query: { limit: 100 } });
    expect(listed.data.find((address) => address.id === created.id)).not.toHaveProperty('email');

    expect((await api.call('senderAddresses.update', { params, body: { email: 'dock@acme.example' } })).email).toBe('dock@acme.example');
    // "" in an update still clears it.
    expect(await api.call('senderAddresses.update', { params, body: { email: '' } })).not.toHaveProperty('email');
  });

  it('is left out of a sender party built from such an address, in every shipment answer', async () => {
    const created = await api.call('shipments.create', { params: { orgId }, body: newShipment({ reference: 'NO-MAIL-1' }) });
    expectSenderWithoutEmail([created], 'create');
    const params = { orgId, shipmentId: created.id };
    const [parcel] = created.parcels;

    expectSenderWithoutEmail([await api.call('shipments.get', { params })], 'get');
    const listed = await api.call('shipments.list', { params: { orgId }, query: { limit: 100 } });
    expect(JSON.stringify(listed)).not.toContain('"email":""');

    expectSenderWithoutEmail([await api.call('shipments.update', { params, body: { reference: 'NO-MAIL-1A' } })], 'PATCH');
    // A read sent back as a PATCH keeps working without the field.
    const read = await api.call('shipments.get', { params });
    // The spec types a read party's type as any string; these are the create enum's values.
    expectSenderWithoutEmail([await api.call('shipments.update', { params, body: { parties: read.parties as never } })], 'PATCH with the parties read');

    const split = await api.call('shipments.split', { params: { ...params, parcelId: parcel!.id }, body: { orderLineIds: [parcel!.orderLines[0]!.id] } });
    expectSenderWithoutEmail([split.originalShipment, split.newShipment], 'split');
    const other = await api.call('shipments.create', { params: { orgId }, body: newShipment({ reference: 'NO-MAIL-2' }) });
    const otherParcel = other.parcels[0]!;
    const batch = await api.call('shipments.batchSplit', {
      params: { orgId, shipmentId: other.id, parcelId: otherParcel.id },
      body: { shipments: [{ orderLines: [{ id: otherParcel.orderLines[1]!.id, quantity: 1 }] }] },
    });
    expectSenderWithoutEmail([batch.originalShipment, ...batch.newShipments], 'batch split');

    expectSenderWithoutEmail([await api.call('shipments.send', { params })], 'send');
    // The return swaps the parties: the address's party is its receiver now, still without an email.
    const ret = await api.call('shipments.createReturn', { params });
    expect(ret.parties.find((party) => party.type === 'receiver')).not.toHaveProperty('email');
    for (const party of ret.parties) expect(party.email).not.toBe('');
  });

  it('stays as given where there is one', async () => {
    const created = await api.call('shipments.create', { params: { orgId }, body: newShipment({ parties: [receiverParty({ email: 'jens@example.dk' })] }) });
    expect(created.parties.find((party) => party.type === 'receiver')?.email).toBe('jens@example.dk');
  });
});
