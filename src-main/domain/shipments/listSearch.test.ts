import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiverParty, setupLocalCarrier, shipmentBody, startTestServer, type TestOrg, type TestServer } from '../../testing/harness';

/**
 * The shipments list's `search` and filters (issue 20 "Find anything"): every field the search
 * matches, through the API, and that the text follows the shipment as it changes.
 */
let t: TestServer;
let carrierId: string;
let senderAddressId: string;
beforeAll(async () => {
  t = await startTestServer();
  ({ carrierId, senderAddressId } = await setupLocalCarrier(t));
});
afterAll(async () => t.close());

const api = (token?: string) => t.client(token);

async function list(query: Record<string, unknown>, org: TestOrg = t.org) {
  return api(org.token).call('shipments.list', { params: { orgId: org.orgId }, query: query as never });
}

async function references(query: Record<string, unknown>, org: TestOrg = t.org): Promise<string[]> {
  return (await list(query, org)).data.map((item) => item.reference).sort();
}

async function createShipment(overrides: Record<string, unknown>, org: TestOrg = t.org, carrier = carrierId) {
  return api(org.token).call('shipments.create', { params: { orgId: org.orgId }, body: shipmentBody(carrier, overrides) as never });
}

async function orderWithShipment(orderNumber: string, reference: string) {
  const channel = await api().call('orderChannels.create', {
    params: { orgId: t.org.orgId },
    body: { name: `Channel ${orderNumber}`, type: 'manual' } as never,
  });
  const order = await api().call('orders.create', {
    params: { orgId: t.org.orgId },
    body: {
      orderNumber,
      orderChannelId: channel.id,
      customerName: 'Birgitte Ærø',
      customerEmail: 'birgitte@shop.example',
      shippingAddress: { name: 'Birgitte Ærø', address1: 'Havnegade 2', city: 'Svendborg', postalCode: '5700', countryCode: 'DK' },
      orderLines: [{ name: 'Lamp', quantity: 2, sku: 'LAMP-BRASS-7', weight: 1, weightUnit: 'kg' }],
    } as never,
  });
  const shipment = await api().call('orders.createShipment', {
    params: { orgId: t.org.orgId, orderId: order.id },
    body: { reference, carrierId, productId: 'local_parcel', senderAddressId } as never,
  });
  return { order, shipment };
}

describe('shipments search', () => {
  it('matches reference, order number, receiver name, e-mail and postal code, tracking and parcel numbers, ignoring case', async () => {
    await createShipment({
      reference: 'FIND-REF-0001',
      parties: [receiverParty({ name: 'Åsa Lindqvist', email: 'asa.l@mail.example', postalCode: '41319', countryCode: 'SE' })],
    });
    await createShipment({ reference: 'FIND-REF-0002', parties: [receiverParty({ name: 'Kim Berg', email: 'kim@post.example', postalCode: '9990' })] });
    const sent = await createShipment({
      reference: 'FIND-REF-0003',
      parties: [receiverParty({ name: 'Ole Sand', email: 'ole@x.example', postalCode: '6000' })],
    });
    await api().call('shipments.send', { params: { orgId: t.org.orgId, shipmentId: sent.id } } as never);
    const booked = await api().call('shipments.get', { params: { orgId: t.org.orgId, shipmentId: sent.id } } as never);
    const tracking = (booked as { tracking?: { number?: string } }).tracking?.number as string;
    const parcelNumber = (booked as { parcels: { trackingNumber?: string; parcelNumber?: string }[] }).parcels[0]!;
    expect(tracking).toBeTruthy();
    await orderWithShipment('WEBSHOP-5512', 'FIND-REF-0004');

    expect(await references({ search: 'find-ref' })).toEqual(['FIND-REF-0001', 'FIND-REF-0002', 'FIND-REF-0003', 'FIND-REF-0004']);
    expect(await references({ search: 'ref-0002' })).toEqual(['FIND-REF-0002']);
    expect(await references({ search: 'webshop-55' })).toEqual(['FIND-REF-0004']);
    expect(await references({ search: 'åSA lind' })).toEqual(['FIND-REF-0001']);
    expect(await references({ search: 'ÆRØ' })).toEqual(['FIND-REF-0004']);
    expect(await references({ search: 'KIM@POST' })).toEqual(['FIND-REF-0002']);
    expect(await references({ search: '41319' })).toEqual(['FIND-REF-0001']);
    expect(await references({ search: tracking.slice(2).toLowerCase() })).toEqual(['FIND-REF-0003']);
    const ownNumber = parcelNumber.parcelNumber ?? parcelNumber.trackingNumber;
    expect(ownNumber).toBeTruthy();
    expect(await references({ search: ownNumber!.slice(-6) })).toContain('FIND-REF-0003');
    // Shorter than a trigram: the same "contains", from a scan of the search text.
    expect(await references({ search: '99' })).toContain('FIND-REF-0002');
    expect(await references({ search: 'æ' })).toEqual(['FIND-REF-0004']);
    // Wildcards and quotes are text.
    expect(await references({ search: 'find"ref' })).toEqual([]);
    expect(await references({ search: 'fin%' })).toEqual([]);
    const page = await list({ search: 'find-ref', limit: 3 });
    expect(page.total).toBe(4);
    expect(page.data).toHaveLength(3);
    // Newest first, as the list is, read from the search index.
    expect(page.data.map((item) => item.reference)).toEqual(['FIND-REF-0004', 'FIND-REF-0003', 'FIND-REF-0002']);
    // A create writes its document once, after its rows, and leaves the triggers on for other writers.
    expect(t.app.db.$client.prepare('SELECT count(*) AS n FROM search_doc_deferrals').get()).toEqual({ n: 0 });
  });

  it('finds a shipment after its receiver, reference or order number change, and after a split', async () => {
    const { order, shipment } = await orderWithShipment('CHG-100', 'CHANGE-ME-1');
    await api().call('shipments.update', {
      params: { orgId: t.org.orgId, shipmentId: shipment.id },
      body: { reference: 'CHANGED-1', parties: [receiverParty({ name: 'Nanna Nyholm', email: 'nanna@new.example', postalCode: '7100' })] } as never,
    });
    expect(await references({ search: 'change-me' })).toEqual([]);
    expect(await references({ search: 'nyholm' })).toEqual(['CHANGED-1']);
    expect(await references({ search: 'nanna@new' })).toEqual(['CHANGED-1']);
    expect(await references({ search: 'Birgitte' })).not.toContain('CHANGED-1');

    await api().call('orders.update', { params: { orgId: t.org.orgId, orderId: order.id }, body: { orderNumber: 'CHG-200' } as never });
    expect(await references({ search: 'chg-200' })).toEqual(['CHANGED-1']);
    expect(await references({ search: 'chg-100' })).toEqual([]);

    const split = await createShipment({ reference: 'SPLIT-SRC', parties: [receiverParty({ name: 'Splittet Person', postalCode: '3300' })] });
    const line = (split as { parcels: { id: string; orderLines: { id: string }[] }[] }).parcels[0]!;
    const res = await t.request('POST', `/orgs/${t.org.orgId}/shipments/${split.id}/parcels/${line.id}/split`, {
      body: { orderLineIds: [line.orderLines[1]!.id] },
    });
    expect(res.status).toBe(201);
    const found = await list({ search: 'splittet person' });
    expect(found.data.map((item) => item.id).sort()).toEqual([split.id, res.body.newShipment.id].sort());
  });

  it('never finds another organization’s shipments', async () => {
    const other = await t.createOrg('Other Warehouse');
    const theirs = await setupLocalCarrier(t, other);
    await createShipment({ reference: 'THEIRS-ONLY-1', parties: [receiverParty({ name: 'Secret Receiver' })] }, other, theirs.carrierId);
    expect(await references({ search: 'secret receiver' })).toEqual([]);
    expect(await references({ search: 'theirs-only' })).toEqual([]);
    expect(await references({ search: 'th' })).not.toContain('THEIRS-ONLY-1');
    expect(await references({ search: 'secret receiver' }, other)).toEqual(['THEIRS-ONLY-1']);
  });
});

describe('shipments filters and list fields', () => {
  it('filters by carrier, receiver country and creation date, and lists receiver, country, order and tracking numbers', async () => {
    const org = await t.createOrg('Filters');
    const first = await setupLocalCarrier(t, org);
    const second = await setupLocalCarrier(t, org);
    const client = api(org.token);
    const create = (reference: string, carrier: string, countryCode: string) =>
      client.call('shipments.create', {
        params: { orgId: org.orgId },
        body: shipmentBody(carrier, { reference, parties: [receiverParty({ name: `Receiver ${reference}`, countryCode })] }) as never,
      });
    const a = await create('F-A', first.carrierId, 'DK');
    await create('F-B', second.carrierId, 'SE');
    await create('F-C', second.carrierId, 'DK');

    expect(await references({ carrierId: second.carrierId }, org)).toEqual(['F-B', 'F-C']);
    expect(await references({ country: 'DK' }, org)).toEqual(['F-A', 'F-C']);
    expect(await references({ country: 'SE', carrierId: second.carrierId }, org)).toEqual(['F-B']);
    expect((await list({ country: 'NO' }, org)).total).toBe(0);

    const day = a.createdAt.slice(0, 10);
    const dayBefore = new Date(Date.parse(day) - 86_400_000).toISOString().slice(0, 10);
    expect(await references({ createdFrom: day, createdTo: day }, org)).toEqual(['F-A', 'F-B', 'F-C']);
    expect(await references({ createdTo: dayBefore }, org)).toEqual([]);
    expect(await references({ createdFrom: a.createdAt, createdTo: a.createdAt }, org)).toContain('F-A');
    expect(await references({ createdFrom: new Date(Date.parse(a.createdAt) + 3_600_000).toISOString() }, org)).toEqual([]);
    const refused = await t.request('GET', `/orgs/${org.orgId}/shipments?createdFrom=yesterday`, { token: org.token });
    expect(refused.status).toBe(400);
    expect((await t.request('GET', `/orgs/${org.orgId}/shipments?country=dk`, { token: org.token })).status).toBe(400);

    const item = (await list({ carrierId: first.carrierId }, org)).data[0]!;
    expect(item).toMatchObject({ reference: 'F-A', receiverName: 'Receiver F-A', receiverCountryCode: 'DK' });
    expect(item.orderNumber).toBeUndefined();
    expect(item.trackingNumber).toBeUndefined();
    await client.call('shipments.send', { params: { orgId: org.orgId, shipmentId: a.id } } as never);
    expect((await list({ carrierId: first.carrierId }, org)).data[0]!.trackingNumber).toBeTruthy();
  });
});

describe('orders search and filters', () => {
  it('matches order number, customer name and e-mail and any line’s SKU; filters by creation date', async () => {
    const org = await t.createOrg('Order search');
    const client = api(org.token);
    const channel = await client.call('orderChannels.create', { params: { orgId: org.orgId }, body: { name: 'Web', type: 'manual' } as never });
    const create = (orderNumber: string, customerName: string, customerEmail: string, skus: string[]) =>
      client.call('orders.create', {
        params: { orgId: org.orgId },
        body: {
          orderNumber,
          orderChannelId: channel.id,
          customerName,
          customerEmail,
          shippingAddress: { name: customerName, address1: 'Vej 1', city: 'Odense', postalCode: '5000', countryCode: 'DK' },
          orderLines: skus.map((sku) => ({ name: sku, quantity: 1, sku })),
        } as never,
      });
    const first = await create('S-1001', 'Søren Østergaard', 'soren@shop.example', ['CUP-BLUE', 'SAUCER-9']);
    await create('S-1002', 'Lise Holm', 'lise@mail.example', ['PLATE-1']);
    // "Å" sent as "A" and a combining ring, as some shops do.
    await create('S-1003', 'A\u030Asa Berg', 'asa@mail.example', ['BOWL-2']);
    const numbers = async (query: Record<string, unknown>) =>
      (await client.call('orders.list', { params: { orgId: org.orgId }, query: query as never })).data.map((order) => order.orderNumber).sort();
    expect(await numbers({ search: 's-100' })).toEqual(['S-1001', 'S-1002', 'S-1003']);
    expect(await numbers({ search: 'ØSTERG' })).toEqual(['S-1001']);
    expect(await numbers({ search: 'lise@mail' })).toEqual(['S-1002']);
    expect(await numbers({ search: 'saucer' })).toEqual(['S-1001']);
    expect(await numbers({ search: 'e-1' })).toEqual(['S-1002']);
    expect(await numbers({ search: 'ø' })).toEqual(['S-1001']);
    expect(await numbers({ search: 'åsa berg' })).toEqual(['S-1003']);
    expect(await numbers({ search: 'å' })).toEqual(['S-1003']);

    // A line's SKU changed by an update is found by its new SKU only.
    const detail = await client.call('orders.get', { params: { orgId: org.orgId, orderId: first.id } } as never);
    await client.call('orders.update', {
      params: { orgId: org.orgId, orderId: first.id },
      body: {
        orderLines: (detail as { orderLines: { name: string }[] }).orderLines.map((line) => ({ name: line.name, quantity: 1, sku: 'MUG-NEW' })),
      } as never,
    });
    expect(await numbers({ search: 'saucer' })).toEqual([]);
    expect(await numbers({ search: 'mug-new' })).toEqual(['S-1001']);

    const day = first.createdAt.slice(0, 10);
    expect(await numbers({ createdFrom: day, createdTo: day })).toEqual(['S-1001', 'S-1002', 'S-1003']);
    expect(await numbers({ createdFrom: new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10) })).toEqual([]);
    // Another organization's orders are never found.
    expect((await api().call('orders.list', { params: { orgId: t.org.orgId }, query: { search: 'saucer' } as never })).data).toEqual([]);
  });
});
