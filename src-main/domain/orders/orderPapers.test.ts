import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupLocalCarrier, shippingRuleBody, startTestServer, type TestServer } from '../../testing/harness';
import { closedPort, createPrinter } from '../../testing/printing';
import { pdfPages, pdfText } from '../../testing/shippingPapers';

/** Pick lists and packing slips through the real server; their PDFs read back with poppler's pdftotext. */
let t: TestServer;
let dkCarrier: string;
let seCarrier: string;
let channelId: string;
const folder = mkdtempSync(join(tmpdir(), 'shipdesk-pick-list-'));
const ids: Record<string, string> = {};

const orders = () => `/orgs/${t.org.orgId}/orders`;
const address = (countryCode: string, name: string) => ({ name, address1: 'Nørregade 1', city: 'København K', postalCode: '1165', countryCode });

async function createOrder(orderNumber: string, countryCode: string, orderLines: Record<string, unknown>[], more: Record<string, unknown> = {}) {
  const res = await t.request('POST', orders(), {
    body: {
      orderNumber,
      orderChannelId: channelId,
      customerName: `Customer ${orderNumber}`,
      shippingAddress: address(countryCode, `Receiver ${orderNumber}`),
      orderLines,
      ...more,
    },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  ids[orderNumber] = res.body.id;
  return res.body;
}

const paper = (kind: 'pick-list' | 'packing-slips', body: unknown, token?: string) =>
  t.request('POST', `${orders()}/${kind}`, { body, ...(token ? { token } : {}) });
/** The text of a PDF answer, spaces squeezed so columns read as one line each. */
const textOf = (pdf: Buffer) =>
  pdfText(pdf)
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean);

beforeAll(async () => {
  t = await startTestServer();
  const dk = await setupLocalCarrier(t);
  const se = await setupLocalCarrier(t);
  dkCarrier = dk.carrierId;
  seCarrier = se.carrierId;
  await t.request('POST', `/orgs/${t.org.orgId}/shipping-rules`, {
    body: shippingRuleBody(dkCarrier, dk.senderAddressId, { name: 'Denmark', receivingCountries: ['DK'] }),
  });
  await t.request('POST', `/orgs/${t.org.orgId}/shipping-rules`, {
    body: shippingRuleBody(seCarrier, se.senderAddressId, { name: 'Sweden', receivingCountries: ['SE'] }),
  });
  await t.request('PUT', `/orgs/${t.org.orgId}`, {
    body: {
      companyName: 'Acme Tea ApS',
      addressLine1: 'Lagervej 4',
      postalCode: '8000',
      city: 'Aarhus C',
      returnInstructions: 'Return within 30 days to Lagervej 4.\nPut this slip in the box.',
    },
  });
  channelId = (await t.request('POST', `/orgs/${t.org.orgId}/order-channels`, { body: { name: 'Manual', type: 'manual' } })).body.id;
  await createOrder('P-1', 'DK', [
    { name: 'Mug', sku: 'MUG', quantity: 2, unitPrice: 99.5, location: 'A-10' },
    { name: 'Tea', sku: 'TEA', quantity: 1, location: 'A-2' },
    { name: 'Gift card', sku: 'GIFT', quantity: 1, requiresShipping: false, location: 'A-1' },
  ]);
  await createOrder('P-2', 'DK', [
    { name: 'Mug', sku: 'MUG', quantity: 3, location: 'A-10' },
    { name: 'Spoon', sku: 'SPOON', quantity: 1 },
  ]);
  await createOrder('P-3', 'SE', [{ name: 'Mug', sku: 'MUG', quantity: 1, location: 'A-10' }]);
});
afterAll(async () => {
  await t.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('POST /orders/pick-list', () => {
  it('is an A4 PDF grouped by bin (A-2 before A-10, no bin last), then SKU, with totals and the orders each goes to', async () => {
    const res = await paper('pick-list', { orderIds: [ids['P-1'], ids['P-2']] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(/filename="pick-list-\d{4}-\d\d-\d\d\.pdf"/);
    const [page, ...more] = await pdfPages(res.body);
    expect(more).toEqual([]);
    expect(page?.width).toBeCloseTo(595.28, 1);
    expect(page?.height).toBeCloseTo(841.89, 1);
    const lines = textOf(res.body);
    expect(lines).toContain('Pick list');
    expect(lines).toContain('Organization Acme Tea ApS');
    expect(lines).toContain('Orders 2');
    expect(lines).toContain('To pick 7 items in 3 lines');
    const start = (heading: string) => lines.findIndex((line) => line.startsWith(heading));
    expect(start('Location A-2 · 1 item')).toBeGreaterThan(0);
    expect(start('Location A-10 · 5 items')).toBeGreaterThan(start('Location A-2'));
    expect(start('No location · 1 item')).toBeGreaterThan(start('Location A-10'));
    expect(lines[start('Location A-2') + 2]).toBe('TEA Tea 1 P-1');
    expect(lines[start('Location A-10') + 2]).toBe('MUG Mug 5 P-1 ×2, P-2 ×3');
    expect(lines[start('No location') + 2]).toBe('SPOON Spoon 1 P-2');
    // A line that needs no shipping is not picked; the pick list shows no prices.
    expect(lines.join('\n')).not.toMatch(/GIFT|99\.5/);
  });

  it('takes every pending order, or only those whose rule books with one carrier', async () => {
    const all = textOf((await paper('pick-list', { allPending: true })).body);
    expect(all).toContain('Orders 3');
    expect(all).toContain('MUG Mug 6 P-1 ×2, P-2 ×3, P-3');

    const sweden = textOf((await paper('pick-list', { allPending: true, carrierId: seCarrier })).body);
    expect(sweden).toContain('Orders 1');
    expect(sweden.some((line) => line.startsWith('Note Only orders for'))).toBe(true);
    expect(sweden).toContain('MUG Mug 1 P-3');
    expect(sweden.join('\n')).not.toMatch(/P-1|P-2/);

    const denmark = textOf((await paper('pick-list', { orderIds: [ids['P-1'], ids['P-3']], carrierId: dkCarrier })).body);
    expect(denmark).toContain('Orders 1');
    expect(denmark.join('\n')).not.toContain('P-3');
  });

  it('leaves out what booked shipments already carry', async () => {
    const order = await createOrder('P-4', 'DK', [{ name: 'Kettle', sku: 'KETTLE', quantity: 3, location: 'B-1' }]);
    const shipment = await t.request('POST', `${orders()}/${order.id}/shipments`, { body: {} });
    expect(shipment.status).toBe(201);
    // Made but not booked: the kettles still have to be picked.
    expect(textOf((await paper('pick-list', { orderIds: [order.id] })).body)).toContain('KETTLE Kettle 3 P-4 ×3');
    t.app.db.$client.prepare("UPDATE shipments SET status = 'dispatched' WHERE id = ?").run(shipment.body.id);
    expect(textOf((await paper('pick-list', { orderIds: [order.id] })).body)).toContain('Nothing to pick: every line of these orders is already shipped.');
  });

  it('refuses a body that names no orders or both ways (400), unknown orders (404), and a selection left empty (409)', async () => {
    const neither = await paper('pick-list', {});
    expect(neither.status).toBe(400);
    expect(neither.body.details.map((detail: { path: string }) => detail.path)).toEqual(['body.orderIds']);
    expect((await paper('pick-list', { orderIds: [ids['P-1']], allPending: true })).status).toBe(400);
    expect((await paper('pick-list', { orderIds: Array.from({ length: 501 }, (_, i) => `ord_${i}`) })).status).toBe(400);
    expect((await paper('packing-slips', { orderIds: Array.from({ length: 101 }, (_, i) => `ord_${i}`) })).status).toBe(400);
    const unknown = await paper('pick-list', { orderIds: [ids['P-1'], 'ord_nope'] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('ORDER_NOT_FOUND');
    const other = await t.createOrg('Other Warehouse');
    expect((await paper('pick-list', { orderIds: [ids['P-1']] }, other.token)).status).toBe(403);
    expect((await paper('pick-list', { allPending: true, carrierId: 'car_nope' })).body.code).toBe('CARRIER_NOT_FOUND');
    const none = await paper('pick-list', { orderIds: [ids['P-3']], carrierId: dkCarrier });
    expect(none.status).toBe(409);
    expect(none.body.code).toBe('ORDER_INVALID_STATE');
  });

  it('is a read (read:orders); printing it needs write:orders, which a packer has', async () => {
    const viewer = await t.tokenWithScopes(t.org, ['read:all']);
    expect((await paper('pick-list', { allPending: true }, viewer)).status).toBe(200);
    const print = await t.request('POST', `${orders()}/pick-list/print`, { token: viewer, body: { allPending: true } });
    expect(print.status).toBe(403);
    expect(print.body.message).toContain('write:orders');
  });
});

describe('POST /orders/packing-slips', () => {
  it('is one page per order: sender, order, ship-to, lines and quantities without prices, and the return instructions', async () => {
    const res = await paper('packing-slips', { orderIds: [ids['P-2'], ids['P-1']] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(await pdfPages(res.body)).toHaveLength(2);
    const pages = pdfText(res.body)
      .split('\f')
      .map((page) => page.replace(/[ \t]+/g, ' '));
    expect(pages[0]).toContain('Packing slip');
    expect(pages[0]).toContain('Order P-2');
    expect(pages[0]).toContain('Acme Tea ApS');
    expect(pages[0]).toContain('Lagervej 4');
    expect(pages[0]).toContain('Receiver P-2');
    expect(pages[0]).toMatch(/MUG Mug 3/);
    expect(pages[0]).toMatch(/SPOON Spoon 1/);
    expect(pages[0]).toContain('Return within 30 days to Lagervej 4.');
    expect(pages[0]).toContain('Put this slip in the box.');
    expect(pages[1]).toContain('Order P-1');
    expect(pages[1]).toMatch(/MUG Mug 2/);
    expect(pages[1]).not.toContain('99.5');
    expect(pages[1]).not.toContain('GIFT');
    expect(pages.join('')).not.toContain('ord_');
  });
});

describe('printing a pick list or packing slips', () => {
  it('goes to the PDF printer chosen (a hot folder here), or the default one; no print job is written', async () => {
    const printer = await createPrinter(t, { name: 'Office laser', driver: 'file', target: folder, format: 'pdf', labelSize: 'A4', isDefault: true });
    const res = await t.request('POST', `${orders()}/pick-list/print`, { body: { orderIds: [ids['P-1'], ids['P-2']], printerId: printer.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      printerId: printer.id,
      printerName: 'Office laser',
      orderCount: 2,
      pageCount: 1,
      printedAt: expect.any(String),
      message: "The pick list of 2 orders (1 page) went to 'Office laser'.",
    });
    // A packer's scopes are enough to print (the default PDF printer, as none is named).
    const packer = await t.tokenWithScopes(t.org, ['read:all', 'write:shipments', 'write:orders', 'write:printers']);
    const slips = await t.request('POST', `${orders()}/packing-slips/print`, { token: packer, body: { orderIds: [ids['P-1'], ids['P-2']] } });
    expect(slips.status).toBe(200);
    expect(slips.body.pageCount).toBe(2);
    const files = readdirSync(folder).sort();
    expect(files).toHaveLength(2);
    const printed = files.map((file) => textOf(readFileSync(join(folder, file))).join('\n'));
    expect(printed.find((text) => text.includes('Pick list'))).toContain('MUG Mug 5 P-1 ×2, P-2 ×3');
    expect(printed.find((text) => text.includes('Packing slip'))).toContain('Order P-2');
    expect((await t.request('GET', `/orgs/${t.org.orgId}/print-jobs`)).body.total).toBe(0);
  });

  it('answers 422 PRINTER_OFFLINE in plain words when the printer does not take it, and 400 for a ZPL printer', async () => {
    const offline = await createPrinter(t, { name: 'Laser upstairs', driver: 'file', target: join(folder, 'not-mounted'), format: 'pdf', labelSize: 'A4' });
    const res = await t.request('POST', `${orders()}/pick-list/print`, { body: { allPending: true, printerId: offline.id } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('PRINTER_OFFLINE');
    expect(res.body.message).toMatch(/^Printer 'Laser upstairs' did not take the pick list: /);
    const zebra = await createPrinter(t, { name: 'Zebra', driver: 'raw', target: `127.0.0.1:${await closedPort()}`, format: 'zpl', labelSize: '100X150' });
    const zpl = await t.request('POST', `${orders()}/packing-slips/print`, { body: { allPending: true, printerId: zebra.id } });
    expect(zpl.status).toBe(400);
    expect(zpl.body.details).toEqual([{ path: 'body.printerId', message: "'Zebra' prints ZPL labels; choose a PDF printer" }]);
  });
});
