import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { execute } from '../app/dispatcher/execute';
import { login } from '../domain/auth/login';
import { createOrgWithOwner } from '../domain/orgs/orgs';
import { senderAddressBody, shippingRuleBody } from '../testing/harness';
import { fullScans, recordingApp, type RecordingApp } from '../testing/queryPlans';

let recording: RecordingApp;
beforeEach(() => {
  recording = recordingApp();
});
afterEach(() => recording.close());

/**
 * Saving a carrier, sender address, shipping rule, printer, webhook, order channel, order or the
 * organization must not read the tables that grow with every shipment. Writing a row's `id` back
 * (even unchanged) makes SQLite look for rows that refer to it in every table with a foreign key to
 * this one, reading the whole table where that column has no index. The plans are SQLite's own for
 * the statements each PATCH really ran.
 */
it('a PATCH of a settings record or an order reads no table whole', async () => {
  const { app } = recording;
  const dir = app.dataDir;
  const { orgId } = await createOrgWithOwner(app, { orgName: 'Plans', email: 'plans@example.com', password: 'long enough password' });
  const door = { authorization: `Bearer ${(await login(app, 'test', 'plans@example.com', 'long enough password')).accessToken}`, client: 'test' };
  const call = async (operationId: string, raw: Record<string, unknown>) => {
    const result = await execute(app, operationId, { params: { orgId }, ...raw }, door);
    expect(result.status, `${operationId}: ${JSON.stringify(result.body)}`).toBeLessThan(300);
    return result.body as { id: string };
  };
  const address = await call('senderAddresses.create', { body: senderAddressBody() });
  const carrier = await call('carriers.create', { body: { name: 'Own trucks', carrierSlug: 'local', config: {}, senderAddressId: address.id } });
  const rule = await call('shippingRules.create', { body: shippingRuleBody(carrier.id, address.id) });
  const printer = await call('printers.create', { body: { name: 'Desk', driver: 'file', target: join(dir, 'labels'), format: 'pdf' } });
  const webhook = await call('webhooks.create', { body: { name: 'ERP', url: 'https://erp.example/hooks', events: ['shipment.created'] } });
  const channel = await call('orderChannels.create', { body: { name: 'Desk', type: 'manual' } });
  const order = await call('orders.create', {
    body: {
      orderNumber: 'A-1',
      orderChannelId: channel.id,
      shippingAddress: { name: 'Kim', address1: 'Vestergade 3', city: 'Odense', postalCode: '5000', countryCode: 'DK' },
      orderLines: [{ name: 'Mug', quantity: 1 }],
    },
  });

  const patches: [string, Record<string, unknown>][] = [
    ['senderAddresses.update', { params: { orgId, addressId: address.id }, body: { city: 'Aarhus C' } }],
    ['carriers.update', { params: { orgId, carrierId: carrier.id }, body: { name: 'Own vans' } }],
    ['shippingRules.update', { params: { orgId, ruleId: rule.id }, body: { name: 'Denmark' } }],
    ['printers.update', { params: { orgId, printerId: printer.id }, body: { name: 'Desk 2' } }],
    ['webhooks.update', { params: { orgId, webhookId: webhook.id }, body: { name: 'ERP 2' } }],
    ['orderChannels.update', { params: { orgId, channelId: channel.id }, body: { name: 'Desk 2' } }],
    ['orders.update', { params: { orgId, orderId: order.id }, body: { notes: 'Fragile' } }],
    ['orgs.update', { params: { id: orgId }, body: { name: 'Plans 2' } }],
  ];
  for (const [operationId, raw] of patches) {
    recording.takeLookups();
    await call(operationId, raw);
    const updates = recording.takeLookups().filter((sql) => /^\s*update\b/i.test(sql));
    expect(updates.length, operationId).toBeGreaterThan(0);
    for (const sql of updates) expect(fullScans(app, sql), `${operationId}: ${sql}`).toEqual([]);
  }
});
