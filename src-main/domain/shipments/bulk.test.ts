import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors';
import type { BinaryResponse } from '../../../src-shared/client';
import { exportColumns } from '../../../src-shared/schemas/bulk';
import { receiverParty, setupLocalCarrier, shipmentBody, shippingRuleBody, startTestServer, type TestServer } from '../../testing/harness';
import { createPrinter } from '../../testing/printing';

let t: TestServer;
let carrierId: string;
let senderAddressId: string;
const orgId = () => t.org.orgId;

beforeAll(async () => {
  t = await startTestServer();
  t.app.db.$client.prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(t.org.orgId);
  ({ carrierId, senderAddressId } = await setupLocalCarrier(t));
});
afterAll(async () => t.close());

async function create(overrides: Record<string, unknown> = {}) {
  return t.client().call('shipments.create', { params: { orgId: orgId() }, body: shipmentBody(carrierId, overrides) as never });
}
async function sent(overrides: Record<string, unknown> = {}) {
  const shipment = await create(overrides);
  await t.client().call('shipments.send', { params: { orgId: orgId(), shipmentId: shipment.id } });
  return shipment;
}
const statusOf = async (shipmentId: string) => (await t.client().call('shipments.get', { params: { orgId: orgId(), shipmentId } })).status;

describe('hold and release', () => {
  it('puts each on hold in its own change; one that cannot be held fails with the reason and the rest still go', async () => {
    const a = await create();
    const b = await create({ status: 'draft' });
    const c = await sent();
    const d = await create({ status: 'on_hold' });
    const answer = await t.client().call('shipments.batchHold', { params: { orgId: orgId() }, body: { shipmentIds: [a.id, c.id, b.id, d.id] } });
    expect(answer.results.map((result) => [result.shipmentId, result.status])).toEqual([
      [a.id, 'done'],
      [c.id, 'failed'],
      [b.id, 'done'],
      [d.id, 'done'],
    ]);
    expect(answer.results[1]).toMatchObject({
      code: 'SHIPMENT_INVALID_STATE',
      message: `Shipment ${c.reference} is dispatched; only draft, pending or error shipments can be put on hold`,
    });
    expect(answer.results[3]?.message).toBe('Already on hold; nothing changed');
    expect(answer.summary).toEqual({ total: 4, done: 3, failed: 1 });
    expect(await statusOf(a.id)).toBe('on_hold');
    expect(await statusOf(b.id)).toBe('on_hold');
    expect(await statusOf(c.id)).toBe('dispatched');
    const read = await t.client().call('shipments.get', { params: { orgId: orgId(), shipmentId: a.id } });
    expect(read.activities.map((activity) => activity.description)).toContain('Status pending → on_hold');
  });

  it('releases on_hold → pending only; a draft is refused, one already pending is done', async () => {
    const held = await create({ status: 'on_hold' });
    const draft = await create({ status: 'draft' });
    const pending = await create();
    const answer = await t.client().call('shipments.batchRelease', { params: { orgId: orgId() }, body: { shipmentIds: [held.id, draft.id, pending.id] } });
    expect(answer.results.map((result) => result.status)).toEqual(['done', 'failed', 'done']);
    expect(answer.results[1]).toMatchObject({
      code: 'SHIPMENT_INVALID_STATE',
      message: `Shipment ${draft.reference} is draft; only on hold shipments can be released`,
    });
    expect(await statusOf(held.id)).toBe('pending');
    expect(await statusOf(draft.id)).toBe('draft');
  });

  it('an unknown id is a failed result of its own', async () => {
    const a = await create();
    const answer = await t.client().call('shipments.batchHold', { params: { orgId: orgId() }, body: { shipmentIds: ['shp_nope', a.id] } });
    expect(answer.results[0]).toMatchObject({ shipmentId: 'shp_nope', status: 'failed', code: 'SHIPMENT_NOT_FOUND' });
    expect(answer.results[1]?.status).toBe('done');
  });

  it('refuses more than 100 ids and the same id twice, before anything changes', async () => {
    const a = await create();
    const many = Array.from({ length: 101 }, (_, index) => `shp_${index}`);
    await expect(t.client().call('shipments.batchHold', { params: { orgId: orgId() }, body: { shipmentIds: many } })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    const twice = await t
      .client()
      .call('shipments.batchHold', { params: { orgId: orgId() }, body: { shipmentIds: [a.id, a.id] } })
      .catch((error: unknown) => error);
    expect(twice).toBeInstanceOf(ApiError);
    expect((twice as ApiError).details?.[0]).toMatchObject({ path: 'body.shipmentIds.1' });
    expect(await statusOf(a.id)).toBe('pending');
  });
});

describe('cancel', () => {
  it('cancels as cancel does: a dispatched one has its booking voided; processing is refused; cancelled is done', async () => {
    const pending = await create();
    const dispatched = await sent();
    const cancelled = await create({ status: 'cancelled' });
    const processing = await create({ status: 'processing' });
    const answer = await t.client().call('shipments.batchCancel', {
      params: { orgId: orgId() },
      body: { shipmentIds: [pending.id, dispatched.id, cancelled.id, processing.id] },
    });
    expect(answer.results.map((result) => result.status)).toEqual(['done', 'done', 'done', 'failed']);
    expect(answer.results[3]).toMatchObject({
      code: 'SHIPMENT_INVALID_STATE',
      message: `Shipment ${processing.reference} is being booked with its carrier right now; only draft, pending, on hold, error, dispatched or partly dispatched shipments can be cancelled`,
    });
    const voided = await t.client().call('shipments.get', { params: { orgId: orgId(), shipmentId: dispatched.id } });
    expect(voided.status).toBe('cancelled');
    expect(voided.activities.at(-1)?.description).toMatch(/^Cancelled; booking .+ voided$/);
  });
});

describe('change shipping rule', () => {
  it("applies the rule's carrier, product and services to each; a booked one is refused", async () => {
    const rule = await t.client().call('shippingRules.create', {
      params: { orgId: orgId() },
      body: shippingRuleBody(carrierId, senderAddressId, { name: 'Pallets', productId: 'local_pallet', services: [] }) as never,
    });
    const a = await create();
    const b = await sent();
    const answer = await t.client().call('shipments.batchApplyRule', {
      params: { orgId: orgId() },
      body: { shipmentIds: [a.id, b.id], shippingRuleId: rule.id },
    });
    expect(answer.results.map((result) => result.status)).toEqual(['done', 'failed']);
    expect(answer.results[1]?.message).toBe(
      `Shipment ${b.reference} is dispatched; only draft, pending, on hold or error shipments can have their shipping rule changed`,
    );
    const changed = await t.client().call('shipments.get', { params: { orgId: orgId(), shipmentId: a.id } });
    expect(changed.shippingRuleId).toBe(rule.id);
    expect(changed.carrierSettings.productId).toBe('local_pallet');
  });

  it('an unknown rule is 404 and changes nothing', async () => {
    const a = await create();
    await expect(
      t.client().call('shipments.batchApplyRule', { params: { orgId: orgId() }, body: { shipmentIds: [a.id], shippingRuleId: 'rul_nope' } }),
    ).rejects.toMatchObject({ code: 'SHIPPING_RULE_NOT_FOUND' });
  });
});

describe('print labels', () => {
  it("one job per label, each printer's share in the list's order; one without labels fails in words", async () => {
    const target = mkdtempSync(join(tmpdir(), 'shipdesk-bulk-print-'));
    const printer = await createPrinter(t, { name: 'Bulk folder', driver: 'file', target, format: 'pdf' });
    const twoParcels = shipmentBody(carrierId).parcels;
    const first = await sent({ reference: 'BULK-B', parcels: [...twoParcels, ...twoParcels] });
    const unsent = await create({ reference: 'BULK-UNSENT' });
    const second = await sent({ reference: 'BULK-A' });
    const answer = await t.client().call('shipments.batchPrint', {
      params: { orgId: orgId() },
      body: { shipmentIds: [first.id, unsent.id, second.id], printerId: printer.id },
    });
    expect(answer.results.map((result) => result.status)).toEqual(['done', 'failed', 'done']);
    expect(answer.results[1]).toMatchObject({
      code: 'SHIPMENT_INVALID_STATE',
      message: 'Shipment BULK-UNSENT is pending and has no labels yet; send it first',
    });
    expect(answer.printJobs.map((job) => [job.shipmentId, job.status])).toEqual([
      [first.id, 'done'],
      [first.id, 'done'],
      [second.id, 'done'],
    ]);
    // The files came out in the list's order: BULK-B's two labels, then BULK-A's (not by name).
    const files = readdirSync(target).sort((x, y) => statSync(join(target, x)).mtimeMs - statSync(join(target, y)).mtimeMs);
    expect(files.map((file) => file.split('-doc_')[0])).toEqual(['BULK-B', 'BULK-B', 'BULK-A']);
    expect(answer.printJobs.map((job) => job.id)).toEqual([...answer.printJobs.map((job) => job.id)].sort());
  });

  it('a printer that fails is a failed result naming the label and the printer', async () => {
    const gone = await createPrinter(t, { name: 'Unplugged', driver: 'file', target: join(tmpdir(), 'shipdesk-no-such-folder-bulk'), format: 'pdf' });
    const shipment = await sent();
    const answer = await t.client().call('shipments.batchPrint', { params: { orgId: orgId() }, body: { shipmentIds: [shipment.id], printerId: gone.id } });
    expect(answer.results[0]).toMatchObject({
      status: 'failed',
      code: 'PRINTER_OFFLINE',
      message: expect.stringMatching(/^Label did not print on 'Unplugged': /),
    });
  });

  it('an unknown printer is 404 before anything is queued', async () => {
    const shipment = await sent();
    await expect(
      t.client().call('shipments.batchPrint', { params: { orgId: orgId() }, body: { shipmentIds: [shipment.id], printerId: 'prn_nope' } }),
    ).rejects.toMatchObject({ code: 'PRINTER_NOT_FOUND' });
    expect((await t.client().call('printJobs.list', { params: { orgId: orgId() }, query: { shipmentId: shipment.id } })).total).toBe(0);
  });
});

describe('export CSV', () => {
  it('answers text/csv with the documented header and one row per shipment in the order of the ids', async () => {
    const a = await create({ reference: 'EXP-1', parties: [receiverParty({ name: '=HYPERLINK("x")', city: 'Aarhus, C' })] });
    const b = await sent({ reference: 'EXP-2' });
    const file = (await t
      .client()
      .call('shipments.export', { params: { orgId: orgId() }, body: { shipmentIds: [b.id, 'shp_gone', a.id] } })) as unknown as BinaryResponse;
    expect(file.contentType).toBe('text/csv; charset=utf-8');
    expect(file.filename).toMatch(/^shipments-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = new TextDecoder().decode(file.data).split('\r\n');
    expect(lines[0]).toBe(exportColumns.join(','));
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^EXP-2,dispatched,outbound,/);
    const row = lines[2] as string;
    expect(row).toContain(`EXP-1,pending,outbound,`);
    expect(row).toContain(`,"'=HYPERLINK(""x"")",`);
    expect(row).toContain(`,"Aarhus, C",DK,jens@example.dk,1,2.5,,,,${a.id}`);
    expect(lines[3]).toBe('');
  });

  it('a packer may do every bulk action (write:shipments and write:printers, decisions §3)', async () => {
    const token = await t.tokenWithScopes(t.org, ['read:all', 'write:shipments', 'write:orders', 'write:printers']);
    const a = await create();
    const packer = t.client(token);
    expect((await packer.call('shipments.batchHold', { params: { orgId: orgId() }, body: { shipmentIds: [a.id] } })).summary.done).toBe(1);
    expect((await packer.call('shipments.batchRelease', { params: { orgId: orgId() }, body: { shipmentIds: [a.id] } })).summary.done).toBe(1);
    expect((await packer.call('shipments.batchPrint', { params: { orgId: orgId() }, body: { shipmentIds: [a.id] } })).results[0]?.code).toBe(
      'SHIPMENT_INVALID_STATE',
    );
    expect((await packer.call('shipments.batchCancel', { params: { orgId: orgId() }, body: { shipmentIds: [a.id] } })).summary.done).toBe(1);
  });

  it('a viewer may export (it only reads)', async () => {
    const a = await create();
    const token = await t.tokenWithScopes(t.org, ['read:shipments']);
    const file = (await t.client(token).call('shipments.export', { params: { orgId: orgId() }, body: { shipmentIds: [a.id] } })) as unknown as BinaryResponse;
    expect(new TextDecoder().decode(file.data)).toContain(a.id);
    await expect(t.client(token).call('shipments.batchHold', { params: { orgId: orgId() }, body: { shipmentIds: [a.id] } })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
  });
});
