import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeGls, type FakeGls } from '../../carriers/gls/fake';
import { GLS_PARCEL } from '../../carriers/gls/shipmentRequest';
import { fakeKarrioConnections, startFakeKarrio, type FakeKarrio } from '../../carriers/karrio/fake';
import { receiverParty, senderAddressBody, startTestServer, type TestServer } from '../../testing/harness';
import { pdfText } from '../../testing/shippingPapers';

/**
 * Close-outs of carriers that have a close call of their own, against their local fakes through
 * `apiBaseUrl`: GLS ShipIT's end of day and a Karrio manifest. A carrier's refusal closes nothing.
 */

let t: TestServer;
let gls: FakeGls;
let karrio: FakeKarrio;
let senderAddressId: string;
let glsCarrierId: string;
let karrioCarrierId: string;

const orgPath = () => `/orgs/${t.org.orgId}`;

beforeAll(async () => {
  [gls, karrio] = await Promise.all([startFakeGls(), startFakeKarrio()]);
  t = await startTestServer({ carrierHttp: { timeoutMs: 1500, backoffMs: 10, maxRetryAfterMs: 5000 } });
  t.app.db.$client.prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(t.org.orgId);
  const address = await t.request('POST', `${orgPath()}/sender-addresses`, {
    body: senderAddressBody({
      name: 'Acme Lager',
      address1: 'Industriestraße 7',
      zipcode: '36286',
      city: 'Neuenstein',
      countryCode: 'DE',
      phone: '+4966771234',
    }),
  });
  senderAddressId = address.body.id;
  const glsCarrier = await t.request('POST', `${orgPath()}/carriers`, {
    body: {
      name: 'GLS',
      carrierSlug: 'gls',
      senderAddressId,
      config: { clientId: gls.clientId, clientSecret: gls.clientSecret, contactId: gls.contactId, testMode: true, apiBaseUrl: gls.url },
    },
  });
  expect(glsCarrier.status, JSON.stringify(glsCarrier.body)).toBe(201);
  glsCarrierId = glsCarrier.body.id;
  const karrioCarrier = await t.request('POST', `${orgPath()}/carriers`, {
    body: {
      name: 'PostNord via Karrio',
      carrierSlug: 'karrio',
      senderAddressId,
      config: { apiBaseUrl: karrio.url, apiKey: karrio.apiKey, connectionId: fakeKarrioConnections[0]?.id, testMode: true },
    },
  });
  expect(karrioCarrier.status, JSON.stringify(karrioCarrier.body)).toBe(201);
  karrioCarrierId = karrioCarrier.body.id;
});
afterAll(async () => {
  await t?.close();
  await Promise.all([gls?.close(), karrio?.close()]);
});
beforeEach(() => {
  gls.switches.clear();
  karrio.switches.manifestRefusal = null;
  karrio.switches.serverError = null;
});

let counter = 0;
const parcel = (weight: number) => ({ weight, weightUnit: 'kg', dimensions: { length: 30, width: 20, height: 10 }, orderLines: [] });

async function created(carrier: 'gls' | 'karrio', weights: number[] = [2.5]): Promise<string> {
  const gl = carrier === 'gls';
  const res = await t.request('POST', `${orgPath()}/shipments`, {
    body: {
      type: 'outbound',
      reference: `EOD-${++counter}`,
      carrierSettings: { carrierId: gl ? glsCarrierId : karrioCarrierId, productId: gl ? GLS_PARCEL : 'postnord_parcel', services: [] },
      parties: [
        gl
          ? receiverParty({ name: 'Tim Test', address1: 'Testallee 5', postalCode: '65760', city: 'Eschborn', countryCode: 'DE', email: 'tim@example.de' })
          : receiverParty({ countryCode: 'SE', postalCode: '11122', city: 'Stockholm', address1: 'Drottninggatan 1' }),
      ],
      parcels: weights.map(parcel),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

async function dispatched(carrier: 'gls' | 'karrio', weights: number[] = [2.5]) {
  const sent = await t.request('POST', `${orgPath()}/shipments/${await created(carrier, weights)}/send`);
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return sent.body as { id: string; reference: string; tracking: { number: string } };
}

const closeOut = (body: object) => t.request('POST', `${orgPath()}/close-outs`, { body });
const waitingFor = async (carrierId: string) =>
  (await t.request('GET', `${orgPath()}/close-outs/waiting`)).body.data.find((entry: { carrierId: string }) => entry.carrierId === carrierId);

describe('GLS end of day', () => {
  it("calls ShipIT's end of day for the shipments' shipping date and closes them", async () => {
    const shipments = [await dispatched('gls', [2, 3]), await dispatched('gls')];
    const before = gls.state.counts.endOfDay;
    const res = await closeOut({ carrierId: glsCarrierId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ carrierId: glsCarrierId, status: 'closed', carrierReference: null, totals: { shipments: 2, parcels: 3, weight: 7.5 } });
    expect(res.body.shipments.map((shipment: { id: string }) => shipment.id)).toEqual(shipments.map((shipment) => shipment.id));
    expect(gls.state.counts.endOfDay - before).toBe(1);
    expect(gls.state.closedDays.at(-1)).toBe(new Date().toISOString().slice(0, 10));
    // GLS answers with a report, no paper of its own.
    expect((await t.request('GET', `${orgPath()}/close-outs/${res.body.id}/carrier-document`)).body.code).toBe('NOT_FOUND');
    const pdf = (await t.request('GET', `${orgPath()}/close-outs/${res.body.id}/content`)).body as Buffer;
    const text = pdfText(pdf);
    expect(text).toContain(shipments[0]?.tracking.number);
    // The carrier books in its sandbox: the paper says so.
    expect(text).toContain('Handover list · TEST');
  });

  it('closes nothing when GLS keeps failing, and closes them on the next try', async () => {
    const shipment = await dispatched('gls');
    gls.switches.add('endOfDay', { kind: 'serverError', status: 503 }, 20);
    const failed = await closeOut({ carrierId: glsCarrierId });
    expect(failed.status).toBe(422);
    expect(failed.body.code).toBe('CARRIER_ERROR');
    expect(failed.body.message).toMatch(/^GLS did not answer the end-of-day close; nothing was closed/);
    expect(failed.body.errors.length).toBeGreaterThan(0);
    expect(await waitingFor(glsCarrierId)).toMatchObject({ shipments: 1 });
    expect((await t.request('GET', `${orgPath()}/close-outs?carrierId=${glsCarrierId}`)).body.total).toBe(1);
    gls.switches.clear();
    const res = await closeOut({ carrierId: glsCarrierId });
    expect(res.status).toBe(201);
    expect(res.body.shipments.map((item: { id: string }) => item.id)).toEqual([shipment.id]);
  });

  it('hands each shipment over once while sends and close-outs run at once and GLS takes its time', async () => {
    const earlier = await dispatched('gls');
    const ids = [];
    for (let i = 0; i < 8; i++) ids.push(await created('gls'));
    // Each end of day answers late, so close-outs overlap the sends and each other.
    gls.switches.add('endOfDay', { kind: 'delay', ms: 150 }, 20);
    const sends = ids.map((id) => t.request('POST', `${orgPath()}/shipments/${id}/send`));
    const closes = Array.from({ length: 4 }, () => closeOut({ carrierId: glsCarrierId }));
    const [sent, closed] = await Promise.all([Promise.all(sends), Promise.all(closes)]);
    expect(sent.map((res) => res.status)).toEqual(ids.map(() => 200));
    for (const res of closed) expect([201, 409]).toContain(res.status);
    const last = await closeOut({ carrierId: glsCarrierId });
    expect([201, 409]).toContain(last.status);
    const all = [...closed, last].filter((res) => res.status === 201).flatMap((res) => res.body.shipments.map((shipment: { id: string }) => shipment.id));
    expect(all.length).toBe(new Set(all).size);
    expect(new Set(all)).toEqual(new Set([earlier.id, ...ids]));
    expect(await waitingFor(glsCarrierId)).toBeUndefined();
  });
});

describe('Karrio manifest', () => {
  it("makes a manifest of the shipments' Karrio ids from where they left, and keeps its id", async () => {
    const shipments = [await dispatched('karrio'), await dispatched('karrio', [1, 1])];
    const res = await closeOut({ carrierId: karrioCarrierId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const made = karrio.state.manifests.at(-1);
    expect(made).toBeDefined();
    expect(res.body).toMatchObject({ status: 'closed', carrierReference: made?.manifest.id, totals: { shipments: 2, parcels: 3 } });
    const karrioIds = shipments.map(
      (shipment) => karrio.state.shipments.find((entry) => entry.shipment.tracking_number === shipment.tracking.number)?.shipment.id,
    );
    expect(made?.request).toMatchObject({ carrier_name: 'postnord', shipment_ids: karrioIds, reference: res.body.id });
    // No sender address chosen: the address Karrio has for the first shipment's shipper.
    expect(made?.request.address).toMatchObject({ address_line1: 'Industriestraße 7', postal_code: '36286', country_code: 'DE' });
    // Karrio's own manifest paper is kept and served beside the handover list.
    const manifestPdf = await t.request('GET', `${orgPath()}/close-outs/${res.body.id}/carrier-document`);
    expect(manifestPdf.status).toBe(200);
    expect(manifestPdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdfText(manifestPdf.body as Buffer)).toContain(`manifest ${made?.manifest.id}`);
  });

  it('sends the chosen sender address with the manifest', async () => {
    await dispatched('karrio');
    const res = await closeOut({ carrierId: karrioCarrierId, senderAddressId });
    expect(res.status).toBe(201);
    expect(karrio.state.manifests.at(-1)?.request.address).toMatchObject({ address_line1: 'Industriestraße 7', city: 'Neuenstein', country_code: 'DE' });
  });

  it("closes nothing when the carrier refuses the manifest, and shows the carrier's words", async () => {
    const shipment = await dispatched('karrio');
    const manifests = karrio.state.manifests.length;
    karrio.switches.manifestRefusal = { code: 'manifest_error', message: 'The manifest cut-off for today has passed', times: 1 };
    const failed = await closeOut({ carrierId: karrioCarrierId });
    expect(failed.status).toBe(422);
    expect(failed.body).toMatchObject({ code: 'CARRIER_ERROR', errors: [{ code: 'manifest_error', message: 'The manifest cut-off for today has passed' }] });
    expect(failed.body.message).toMatch(/^PostNord via Karrio refused the end-of-day close; nothing was closed/);
    expect(karrio.state.manifests.length).toBe(manifests);
    expect(await waitingFor(karrioCarrierId)).toMatchObject({ shipments: 1 });
    const cancel = await t.request('POST', `${orgPath()}/shipments/${shipment.id}/cancel`);
    expect(cancel.status).toBe(200);
    expect((await closeOut({ carrierId: karrioCarrierId })).status).toBe(409);
  });
});
