import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OPEN_DEPTH } from '../../src-shared/schemas/common';
import { senderAddressBody, setupLocalCarrier, shipmentBody, startTestServer, type TestServer } from '../testing/harness';

/**
 * Objects whose inner structure the spec leaves open (shipment `additionalParameters`, sender address
 * `customs`, order `externalData`) keep the bounds of every text field, and a deeply nested one is a
 * 400 rather than a 500 when it is stored or read back.
 */
let t: TestServer;
let carrierId: string;
let channelId: string;
beforeAll(async () => {
  t = await startTestServer();
  ({ carrierId } = await setupLocalCarrier(t));
  channelId = (await t.request('POST', `/orgs/${t.org.orgId}/order-channels`, { body: { name: 'Manual', type: 'manual', config: {} } })).body.id;
});
afterAll(async () => t.close());

const org = () => `/orgs/${t.org.orgId}`;
const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : [nested(depth - 1)]);
const count = (table: string) => (t.app.db.$client.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

/** The doors that take an open object, each given `value` as that object. */
const doors = [
  {
    name: 'shipment additionalParameters',
    table: 'shipments',
    url: () => `${org()}/shipments`,
    body: (value: unknown) => shipmentBody(carrierId, { carrierSettings: { carrierId, productId: 'local_parcel', additionalParameters: value } }),
    path: 'body.carrierSettings.additionalParameters',
    stored: (read: any) => read.carrierSettings.additionalParameters,
  },
  {
    name: 'sender address customs',
    table: 'sender_addresses',
    url: () => `${org()}/sender-addresses`,
    body: (value: unknown) => senderAddressBody({ customs: value }),
    path: 'body.customs',
    stored: (read: any) => read.customs,
  },
  {
    name: 'order externalData',
    table: 'orders',
    url: () => `${org()}/orders`,
    body: (value: unknown) => ({
      orderNumber: `EXT-${count('orders') + Math.random()}`,
      orderChannelId: channelId,
      orderLines: [{ name: 'Mug', quantity: 1 }],
      externalData: value,
    }),
    path: 'body.externalData',
    stored: (read: any) => read.externalData,
  },
];
type Door = (typeof doors)[number];
const send = (door: Door, value: unknown) => t.request('POST', door.url(), { body: door.body(value) });
/** `{a: [[[…]]]}` nested `depth` arrays deep, written as text (JSON.stringify itself would overflow). */
const sendNested = (door: Door, depth: number) =>
  t.request('POST', door.url(), {
    rawBody: JSON.stringify(door.body({ a: 'NESTED' })).replace('"NESTED"', '['.repeat(depth) + ']'.repeat(depth)),
  });

describe.each(doors)('$name', (door) => {
  it('refuses a text over 1000 characters, at any depth, and a key over 1000 characters, storing nothing', async () => {
    const before = count(door.table);
    const long = await send(door, { note: 'x'.repeat(1001) });
    expect(long.status).toBe(400);
    expect(long.body.code).toBe('VALIDATION_FAILED');
    expect(long.body.details).toContainEqual({ path: `${door.path}.note`, message: 'Must be at most 1000 characters' });
    const deepText = await send(door, { lines: [{ text: 'y'.repeat(1001) }] });
    expect(deepText.status).toBe(400);
    expect(deepText.body.details[0].path).toBe(`${door.path}.lines.0.text`);
    const key = await send(door, { ['k'.repeat(1001)]: 1 });
    expect(key.status).toBe(400);
    expect(count(door.table)).toBe(before);
  });

  it('refuses nesting deeper than the bound with 400 (it was a 500 from SQLite or the stack)', async () => {
    for (const depth of [MAX_OPEN_DEPTH + 5, 2000, 100_000]) {
      const res = await sendNested(door, depth);
      expect(res.status, `depth ${depth}`).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.details).toHaveLength(1);
    }
  });

  it('keeps an object within the bounds as it was given, and reads it back', async () => {
    const value = { service: 'x'.repeat(1000), count: 2, flag: true, none: null, deep: nested(MAX_OPEN_DEPTH - 2) };
    const created = await send(door, value);
    expect(created.status).toBe(201);
    const collection = door.table === 'sender_addresses' ? 'sender-addresses' : door.table;
    const read = await t.request('GET', `${org()}/${collection}/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(door.stored(read.body)).toEqual(value);
  });
});

it('bounds the carrier override of a split the same way', async () => {
  const shipment = (await t.request('POST', `${org()}/shipments`, { body: shipmentBody(carrierId) })).body;
  const parcel = shipment.parcels[0];
  const split = await t.request('POST', `${org()}/shipments/${shipment.id}/parcels/${parcel.id}/split`, {
    rawBody: JSON.stringify({ orderLineIds: [parcel.orderLines[0].id], additionalParameters: { a: 'NESTED' } }).replace(
      '"NESTED"',
      '['.repeat(2000) + ']'.repeat(2000),
    ),
  });
  expect(split.status).toBe(400);
  expect(split.body.details[0].path).toMatch(/^body\.additionalParameters\.a/);
  const read = await t.request('GET', `${org()}/shipments/${shipment.id}`);
  expect(read.body.parcels[0].orderLines).toHaveLength(2);
});
