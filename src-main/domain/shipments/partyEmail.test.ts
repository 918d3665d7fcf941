import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiverParty, senderAddressBody, shipmentBody, startTestServer, type TestServer } from '../../testing/harness';

// Interface 2.2 and 2.6 give a party's and a sender address's email the email format: without one
// the field is left out, never "" (issue 17, point 4).

let t: TestServer;
let carrierId: string;
let addressId: string;

const shipments = () => `/orgs/${t.org.orgId}/shipments`;

type PartyLike = { type: string; email?: string };

/** Every party of every shipment in an answer: create, get, PATCH, send, return, split, batch split. */
function partiesIn(answer: unknown): PartyLike[] {
  const found: PartyLike[] = [];
  const visit = (value: unknown) => {
    if (!value || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach(visit);
    const record = value as Record<string, unknown>;
    if (Array.isArray(record.parties)) found.push(...(record.parties as PartyLike[]));
    Object.values(record).forEach(visit);
  };
  visit(answer);
  return found;
}

function expectSenderWithoutEmail(answer: { status: number; body: unknown }, what: string) {
  expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  const senders = partiesIn(answer.body).filter((party) => party.type === 'sender');
  expect(senders.length, what).toBeGreaterThan(0);
  for (const sender of senders) expect(sender, what).not.toHaveProperty('email');
  for (const party of partiesIn(answer.body)) expect(party.email, what).not.toBe('');
}

beforeAll(async () => {
  t = await startTestServer();
  const address = await t.request('POST', `/orgs/${t.org.orgId}/sender-addresses`, { body: senderAddressBody({ email: undefined }) });
  expect(address.status).toBe(201);
  addressId = address.body.id;
  const carrier = await t.request('POST', `/orgs/${t.org.orgId}/carriers`, {
    body: { name: 'Own trucks', carrierSlug: 'local', config: {}, senderAddressId: addressId },
  });
  carrierId = carrier.body.id;
});

afterAll(async () => {
  await t.close();
});

describe('an email that is not there', () => {
  it('is left out of a sender address, in its create, get, list and update answers', async () => {
    const created = await t.request('POST', `/orgs/${t.org.orgId}/sender-addresses`, { body: senderAddressBody({ email: undefined, name: 'No mail' }) });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty('email');
    const path = `/orgs/${t.org.orgId}/sender-addresses/${created.body.id}`;
    expect((await t.request('GET', path)).body).not.toHaveProperty('email');
    const listed = (await t.request('GET', `/orgs/${t.org.orgId}/sender-addresses?limit=100`)).body.data as { id: string }[];
    expect(listed.find((address) => address.id === created.body.id)).not.toHaveProperty('email');

    const withEmail = await t.request('PUT', path, { body: { email: 'dock@acme.example' } });
    expect(withEmail.body.email).toBe('dock@acme.example');
    const cleared = await t.request('PUT', path, { body: { email: '' } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).not.toHaveProperty('email');
  });

  it('is left out of a sender party built from such an address, in every shipment answer', async () => {
    const created = await t.request('POST', shipments(), { body: shipmentBody(carrierId, { reference: 'NO-MAIL-1' }) });
    expectSenderWithoutEmail(created, 'create');
    const id = created.body.id as string;
    const parcel = created.body.parcels[0] as { id: string; orderLines: { id: string }[] };

    expectSenderWithoutEmail(await t.request('GET', `${shipments()}/${id}`), 'get');
    const listed = await t.request('GET', `${shipments()}?limit=100`);
    expect(listed.status).toBe(200);
    for (const party of partiesIn(listed.body)) expect(party.email).not.toBe('');

    expectSenderWithoutEmail(await t.request('PATCH', `${shipments()}/${id}`, { body: { reference: 'NO-MAIL-1A' } }), 'PATCH');
    // A read sent back as a PATCH keeps working without the field.
    const read = (await t.request('GET', `${shipments()}/${id}`)).body;
    expectSenderWithoutEmail(await t.request('PATCH', `${shipments()}/${id}`, { body: { parties: read.parties } }), 'PATCH with the parties read');

    expectSenderWithoutEmail(
      await t.request('POST', `${shipments()}/${id}/parcels/${parcel.id}/split`, { body: { orderLineIds: [parcel.orderLines[0]!.id] } }),
      'split',
    );
    const batch = await t.request('POST', shipments(), {
      body: shipmentBody(carrierId, { reference: 'NO-MAIL-2' }),
    });
    const batchParcel = batch.body.parcels[0] as { id: string; orderLines: { id: string }[] };
    expectSenderWithoutEmail(
      await t.request('POST', `${shipments()}/${batch.body.id}/parcels/${batchParcel.id}/batch-split`, {
        body: { shipments: [{ orderLines: [{ id: batchParcel.orderLines[1]!.id, quantity: 1 }] }] },
      }),
      'batch split',
    );

    expectSenderWithoutEmail(await t.request('POST', `${shipments()}/${id}/send`), 'send');
    // The return swaps the parties: the address's party is its receiver now, still without an email.
    const ret = await t.request('POST', `${shipments()}/${id}/create-return`);
    expect(ret.status, JSON.stringify(ret.body)).toBe(200);
    for (const party of partiesIn(ret.body)) expect(party.email).not.toBe('');
    expect(partiesIn(ret.body).find((party) => party.type === 'receiver')).not.toHaveProperty('email');
  });

  it('stays as given where there is one', async () => {
    const created = await t.request('POST', shipments(), {
      body: shipmentBody(carrierId, { parties: [receiverParty({ email: 'jens@example.dk' })] }),
    });
    expect(created.status).toBe(201);
    expect(partiesIn(created.body).find((party) => party.type === 'receiver')?.email).toBe('jens@example.dk');
  });
});
