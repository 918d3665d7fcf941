import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ipcChannelOf } from '../../../src-shared/operation';
import type { IpcEnvelope } from '../../../src-shared/ipc';
import { receiverParty, setupLocalCarrier, shipmentBody, startTestServer, type TestServer } from '../../testing/harness';
import { registerIpcHandlers, type IpcInvokeEventLike, type IpcMainLike } from '../../ipc/register';
import { NOT_UNICODE_MESSAGE } from './wellFormedText';

/**
 * decisions §1: what a 2xx answers is what is stored. SQLite keeps UTF-8, so an unpaired UTF-16
 * surrogate was answered as sent by a create and read back as U+FFFD; bytes that are not UTF-8 were
 * replaced on the way in. Both are refused now, at every door, before anything is written.
 */

let t: TestServer;
let carrierId: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ carrierId } = await setupLocalCarrier(t));
});
afterAll(async () => {
  await t.close();
});

const shipmentsPath = () => `/orgs/${t.org.orgId}/shipments`;
const shipmentCount = () => (t.app.db.$client.prepare('SELECT count(*) AS n FROM shipments').get() as { n: number }).n;

/** A shipment body as JSON text, with `reference` spliced in as written (escapes stay escapes). */
function shipmentJson(referenceJson: string, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify(shipmentBody(carrierId, { reference: 'PLACEHOLDER', ...overrides })).replace('"PLACEHOLDER"', referenceJson);
}

describe('text that is not valid Unicode', () => {
  it('refuses a lone surrogate in a field with 400 at its path, and stores nothing', async () => {
    const before = shipmentCount();
    const response = await t.request('POST', shipmentsPath(), { rawBody: shipmentJson('"x\\ud800y"') });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      code: 'VALIDATION_FAILED',
      error: 'Bad Request',
      message: `Invalid body.reference: ${NOT_UNICODE_MESSAGE}`,
      details: [{ path: 'body.reference', message: NOT_UNICODE_MESSAGE }],
    });
    expect(shipmentCount()).toBe(before);
  });

  it('finds it deep in a body and in a field name, where a schema takes any names', async () => {
    const body = shipmentBody(carrierId, {
      parties: [receiverParty({ name: 'Jens \udc00' })],
      carrierSettings: { carrierId, productId: 'local_parcel', additionalParameters: { 'door\ud83d': 'left' } },
    });
    const response = await t.request('POST', shipmentsPath(), { body });
    expect(response.status).toBe(400);
    // In the body's order (carrierSettings comes before parties in it).
    expect(response.body.details).toEqual([
      {
        path: 'body.carrierSettings.additionalParameters.door\\ud83d',
        message: expect.stringContaining('The field name contains a character that is not valid Unicode'),
      },
      { path: 'body.parties.0.name', message: NOT_UNICODE_MESSAGE },
    ]);
  });

  it('keeps proper pairs (an emoji) and answers with what it stored', async () => {
    const response = await t.request('POST', shipmentsPath(), { rawBody: shipmentJson('"Box \\ud83d\\udce6 Øst"') });
    expect(response.status).toBe(201);
    expect(response.body.reference).toBe('Box 📦 Øst');
    const read = await t.request('GET', `${shipmentsPath()}/${response.body.id}`);
    expect(read.body.reference).toBe('Box 📦 Øst');
  });

  it('is refused over IPC as over HTTP', async () => {
    const handlers = new Map<string, (event: IpcInvokeEventLike, input: unknown) => unknown>();
    const ipcMain: IpcMainLike = { handle: (channel, listener) => void handlers.set(channel, listener) };
    registerIpcHandlers(ipcMain, t.app, { isTrustedSender: () => true });
    const invoke = (operationId: string, input: unknown) =>
      handlers.get(ipcChannelOf(operationId))?.({ sender: { id: 7 }, senderFrame: { url: 'app://shipdesk/index.html' } }, input) as Promise<IpcEnvelope>;
    expect((await invoke('auth.login', { body: { email: t.org.email, password: t.org.password } })).ok).toBe(true);

    const before = shipmentCount();
    const answer = await invoke('shipments.create', { params: { orgId: t.org.orgId }, body: shipmentBody(carrierId, { reference: 'x\ud800y' }) });
    expect(answer).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'VALIDATION_FAILED', details: [{ path: 'body.reference', message: NOT_UNICODE_MESSAGE }] }),
    });
    expect(shipmentCount()).toBe(before);
  });
});

describe('a body that is not UTF-8', () => {
  it('is refused with 400 rather than stored with its bytes replaced', async () => {
    const before = shipmentCount();
    // The reference "Søren" with its ø as Windows-1252 writes it (one byte, 0xF8).
    const json = shipmentJson('"S~ren"');
    const at = json.indexOf('~');
    const bytes = Buffer.concat([Buffer.from(json.slice(0, at)), Buffer.from([0xf8]), Buffer.from(json.slice(at + 1))]);
    const response = await fetch(t.url + shipmentsPath(), {
      method: 'POST',
      headers: { authorization: `Bearer ${t.org.token}`, 'content-type': 'application/json' },
      body: bytes,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 'BAD_REQUEST',
      error: 'Bad Request',
      message: 'The JSON body is not UTF-8 text (line 1 has bytes that are not UTF-8); send JSON encoded as UTF-8',
    });
    expect(shipmentCount()).toBe(before);
  });

  it('still takes a JSON body that starts with a byte-order mark', async () => {
    const response = await fetch(t.url + shipmentsPath(), {
      method: 'POST',
      headers: { authorization: `Bearer ${t.org.token}`, 'content-type': 'application/json' },
      body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(shipmentJson('"BOM-1"'))]),
    });
    expect(response.status).toBe(201);
    expect(((await response.json()) as { reference: string }).reference).toBe('BOM-1');
  });
});
