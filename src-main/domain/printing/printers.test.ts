import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { setupLocalCarrier, shippingRuleBody, startTestServer, type TestOrg, type TestServer } from '../../testing/harness';
import { createPrinter } from '../../testing/printing';

let t: TestServer;
let other: TestOrg;
const folder = mkdtempSync(join(tmpdir(), 'shipdesk-printers-'));

beforeAll(async () => {
  t = await startTestServer();
  other = await t.createOrg('Other Warehouse');
});
afterAll(async () => {
  await t.close();
  rmSync(folder, { recursive: true, force: true });
});

const printersPath = (org: TestOrg = t.org) => `/orgs/${org.orgId}/printers`;
const cups = inject('cups');

describe('printers CRUD', () => {
  it('creates each driver with the spec shape; raw targets get port 9100', async () => {
    const res = await t.request('POST', printersPath(), { body: { name: 'Zebra dock 1', driver: 'raw', target: 'zebra-dock1.local', format: 'zpl' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^prn_[0-9a-z]{26}$/),
      name: 'Zebra dock 1',
      driver: 'raw',
      target: 'zebra-dock1.local:9100',
      format: 'zpl',
      labelSize: '100X150',
      isDefault: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const ipv6 = await createPrinter(t, { name: 'v6', driver: 'raw', target: '[::1]', format: 'zpl' });
    expect(ipv6.target).toBe('[::1]:9100');
    const office = await createPrinter(t, { name: 'Office laser', driver: 'cups', target: 'Office_Laser', format: 'pdf', labelSize: 'A4' });
    expect(office).toMatchObject({ driver: 'cups', target: 'Office_Laser', labelSize: 'A4' });
    const hot = await createPrinter(t, { name: 'Hot folder', driver: 'file', target: folder, format: 'pdf' });
    expect(hot.target).toBe(folder);
    const got = await t.request('GET', `${printersPath()}/${hot.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(hot);
  });

  it.each([
    [{ name: 'x', driver: 'raw', target: 'host:99999', format: 'zpl' }, 'body.target'],
    [{ name: 'x', driver: 'raw', target: 'http://zebra/', format: 'zpl' }, 'body.target'],
    [{ name: 'x', driver: 'raw', target: '10.0.0.5:9100', format: 'pdf' }, 'body.format'],
    [{ name: 'x', driver: 'file', target: 'relative/folder', format: 'pdf' }, 'body.target'],
    [{ name: 'x', driver: 'cups', target: '', format: 'pdf' }, 'body.target'],
    [{ name: 'x', driver: 'cups', target: '-oraw', format: 'pdf' }, 'body.target'],
    [{ name: 'x', driver: 'cups', target: 'Q\nB', format: 'pdf' }, 'body.target'],
    [{ name: 'x', driver: 'cups', target: 'Shipdesk PDF', format: 'pdf' }, 'body.target'],
    [{ name: 'x', driver: 'cups', target: 'Dock#1', format: 'pdf' }, 'body.target'],
    [{ name: 'x', driver: 'lpd', target: 'q', format: 'pdf' }, 'body.driver'],
    [{ name: 'x', driver: 'cups', target: 'q', format: 'png' }, 'body.format'],
    [{ name: 'x', driver: 'cups', target: 'q', format: 'pdf', labelSize: 'A5' }, 'body.labelSize'],
    [{ name: '', driver: 'cups', target: 'q', format: 'pdf' }, 'body.name'],
    [{ name: 'x', driver: 'cups', target: 'q', format: 'pdf', colour: 'red' }, 'body.colour'],
  ])('refuses %j at %s', async (body, path) => {
    const res = await t.request('POST', printersPath(), { body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.details.map((detail: { path: string }) => detail.path)).toContain(path);
  });

  it('PATCH changes only what is given and checks driver, target and format together', async () => {
    const printer = await createPrinter(t, { name: 'Queue', driver: 'cups', target: 'Q1', format: 'pdf' });
    const renamed = await t.request('PATCH', `${printersPath()}/${printer.id}`, { body: { name: 'Renamed' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', driver: 'cups', target: 'Q1' });

    // A queue name is not a folder: switching the driver alone is refused at the target.
    const bad = await t.request('PATCH', `${printersPath()}/${printer.id}`, { body: { driver: 'file' } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ path: 'body.target', message: 'Must be an absolute folder path, e.g. /srv/hotfolder' }]);
    const both = await t.request('PATCH', `${printersPath()}/${printer.id}`, { body: { driver: 'raw', target: '192.168.1.50', format: 'zpl' } });
    expect(both.status).toBe(200);
    expect(both.body).toMatchObject({ driver: 'raw', target: '192.168.1.50:9100', format: 'zpl' });
    const unknownField = await t.request('PATCH', `${printersPath()}/${printer.id}`, { body: { queue: 'x' } });
    expect(unknownField.status).toBe(400);
  });

  it('keeps one default per format: marking one takes the mark from the other', async () => {
    const a = await createPrinter(t, { name: 'A', driver: 'cups', target: 'A', format: 'pdf', isDefault: true });
    const zebra = await createPrinter(t, { name: 'Z', driver: 'raw', target: '10.0.0.9', format: 'zpl', isDefault: true });
    const b = await createPrinter(t, { name: 'B', driver: 'cups', target: 'B', format: 'pdf', isDefault: true });
    const read = async (id: string) => (await t.request('GET', `${printersPath()}/${id}`)).body;
    expect((await read(a.id)).isDefault).toBe(false);
    expect((await read(b.id)).isDefault).toBe(true);
    expect((await read(zebra.id)).isDefault).toBe(true);

    await t.request('PATCH', `${printersPath()}/${a.id}`, { body: { isDefault: true } });
    expect((await read(a.id)).isDefault).toBe(true);
    expect((await read(b.id)).isDefault).toBe(false);
    const defaults = t.app.db.$client
      .prepare('SELECT format, COUNT(*) AS n FROM printers WHERE org_id = ? AND is_default = 1 AND deleted_at IS NULL GROUP BY format')
      .all(t.org.orgId);
    expect(defaults).toEqual([
      { format: 'pdf', n: 1 },
      { format: 'zpl', n: 1 },
    ]);
  });

  it('a format change leaves the old format’s default behind, and takes the new one only when asked', async () => {
    const read = async (id: string) => (await t.request('GET', `${printersPath()}/${id}`)).body;
    const zebra = await createPrinter(t, { name: 'Zebra default', driver: 'raw', target: '10.0.0.10', format: 'zpl', isDefault: true });
    const office = await createPrinter(t, { name: 'Office default', driver: 'cups', target: 'Office2', format: 'pdf', isDefault: true });
    const moved = await t.request('PATCH', `${printersPath()}/${office.id}`, { body: { format: 'zpl' } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ format: 'zpl', isDefault: false });
    expect((await read(zebra.id)).isDefault).toBe(true);
    const asked = await t.request('PATCH', `${printersPath()}/${office.id}`, { body: { format: 'pdf', isDefault: true } });
    expect(asked.body).toMatchObject({ format: 'pdf', isDefault: true });
    expect((await read(zebra.id)).isDefault).toBe(true);
  });

  it('a rule’s document printer stays PDF: a change to ZPL is 409 naming the rule', async () => {
    const papers = await createPrinter(t, { name: 'Papers', driver: 'file', target: folder, format: 'pdf' });
    const { carrierId, senderAddressId } = await setupLocalCarrier(t);
    const rule = await t.request('POST', `/orgs/${t.org.orgId}/shipping-rules`, {
      body: shippingRuleBody(carrierId, senderAddressId, {
        name: 'Export papers',
        generatePackingList: true,
        autoPrintDocuments: true,
        documentPrinterId: papers.id,
      }),
    });
    expect(rule.status).toBe(201);
    const refused = await t.request('PATCH', `${printersPath()}/${papers.id}`, { body: { format: 'zpl' } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining(`Shipping rule Export papers (${rule.body.id}) prints its packing lists and invoices on this printer`),
    });
    expect((await t.request('GET', `${printersPath()}/${papers.id}`)).body.format).toBe('pdf');
    // The rule can still be edited, and other changes to the printer go through.
    expect((await t.request('PATCH', `/orgs/${t.org.orgId}/shipping-rules/${rule.body.id}`, { body: { description: 'EU export' } })).status).toBe(200);
    expect((await t.request('PATCH', `${printersPath()}/${papers.id}`, { body: { name: 'Papers at dock 2' } })).status).toBe(200);
  });

  it('lists newest first in the page envelope; bounds are rejected', async () => {
    const res = await t.request('GET', `${printersPath()}?page=1&limit=2`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ page: 1, limit: 2 });
    expect(res.body.data).toHaveLength(2);
    expect(res.body.total).toBeGreaterThanOrEqual(6);
    const all = (await t.request('GET', `${printersPath()}?limit=100`)).body.data as { createdAt: string; id: string }[];
    const sorted = [...all].sort((x, y) => (y.createdAt + y.id).localeCompare(x.createdAt + x.id));
    expect(all.map((p) => p.id)).toEqual(sorted.map((p) => p.id));
    for (const query of ['limit=0', 'limit=101', 'page=0', 'page=abc', 'colour=red']) {
      expect((await t.request('GET', `${printersPath()}?${query}`)).status, query).toBe(400);
    }
  });

  it('soft delete: 200 with a message, then 404 everywhere; refused while a rule prints to it', async () => {
    const printer = await createPrinter(t, { name: 'Short-lived', driver: 'file', target: folder, format: 'pdf' });
    const deleted = await t.request('DELETE', `${printersPath()}/${printer.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: `Printer ${printer.id} deleted` });
    for (const [method, body] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
      const res = await t.request(method, `${printersPath()}/${printer.id}`, body ? { body } : {});
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('PRINTER_NOT_FOUND');
    }
    const row = t.app.db.$client.prepare('SELECT deleted_at FROM printers WHERE id = ?').get(printer.id) as { deleted_at: string | null };
    expect(row.deleted_at).not.toBeNull();
    const listed = (await t.request('GET', `${printersPath()}?limit=100`)).body.data.map((p: { id: string }) => p.id);
    expect(listed).not.toContain(printer.id);

    const used = await createPrinter(t, { name: 'Used by a rule', driver: 'file', target: folder, format: 'pdf' });
    const { carrierId, senderAddressId } = await setupLocalCarrier(t);
    const rule = await t.request('POST', `/orgs/${t.org.orgId}/shipping-rules`, {
      body: shippingRuleBody(carrierId, senderAddressId, { autoPrintLabels: true, labelPrinterId: used.id }),
    });
    expect(rule.status).toBe(201);
    const refused = await t.request('DELETE', `${printersPath()}/${used.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(rule.body.id);
  });

  it('another organization sees none of it (404, never 403)', async () => {
    const mine = await createPrinter(t, { name: 'Mine', driver: 'file', target: folder, format: 'pdf' });
    for (const [method, body] of [['GET'], ['PATCH', { name: 'theirs now' }], ['DELETE']] as const) {
      const res = await t.request(method, `${printersPath(other)}/${mine.id}`, { token: other.token, ...(body ? { body } : {}) });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('PRINTER_NOT_FOUND');
    }
    const theirs = await t.request('GET', printersPath(other), { token: other.token });
    expect(theirs.body.data).toEqual([]);
    // My token on their organization's path: no access to the organization at all.
    expect((await t.request('GET', printersPath(other))).status).toBe(403);
  });

  it('401 without a credential; read:printers lists but cannot change; a packer can add printers', async () => {
    expect((await t.request('GET', printersPath(), { token: null })).status).toBe(401);
    const reader = await t.tokenWithScopes(t.org, ['read:printers']);
    expect((await t.request('GET', printersPath(), { token: reader })).status).toBe(200);
    const refused = await t.request('POST', printersPath(), { token: reader, body: { name: 'x', driver: 'cups', target: 'q', format: 'pdf' } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    expect(refused.body.message).toContain('write:printers');
    const shipmentsOnly = await t.tokenWithScopes(t.org, ['read:shipments']);
    expect((await t.request('GET', printersPath(), { token: shipmentsOnly })).status).toBe(403);
    const packer = await t.tokenWithScopes(t.org, ['read:all', 'write:shipments', 'write:orders', 'write:printers']);
    expect(
      (await t.request('POST', printersPath(), { token: packer, body: { name: 'Packer added', driver: 'file', target: folder, format: 'pdf' } })).status,
    ).toBe(201);
  });
});

describe('GET /printers/discover', () => {
  it('answers a list of CUPS queues (empty, not an error, without CUPS)', async () => {
    const res = await t.request('GET', `${printersPath()}/discover`);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    for (const printer of res.body) expect(printer).toEqual({ name: expect.any(String), driver: 'cups', target: printer.name, isDefault: expect.any(Boolean) });
    if (cups.state === 'ready') expect(res.body.map((printer: { name: string }) => printer.name)).toContain(cups.queue);
    expect((await t.request('GET', `${printersPath()}/discover`, { token: null })).status).toBe(401);
  });
});
