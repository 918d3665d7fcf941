import Database from 'better-sqlite3';
import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';
import { databaseFile } from '../src-main/app/runtime/config';

/**
 * Issue 22: a change the shop made after a shipment existed is shown on the order with Apply and
 * Dismiss. The server here cannot reach a shop, so the held change is put in the order's row as a
 * sync leaves it (src-main/domain/orders/shopChangeState.ts); the sync itself is tested against the
 * fake Shopify in src-main/domain/orders/shopChanges.test.ts.
 */
const address = { name: 'Jane Doe', address1: 'Storgade 5', city: 'København Ø', postalCode: '2100', countryCode: 'DK' };
const moved = { name: 'Jane Doe', address1: 'Vestergade 9', city: 'Aarhus C', postalCode: '8000', countryCode: 'DK' };
const lines = [{ lineId: 'gid://shopify/LineItem/1', name: 'Stoneware mug', sku: 'MUG-01', quantity: 2 }];
const snapshot = (shippingAddress: typeof address) => ({ state: 'open', customerName: 'Jane Doe', customerEmail: null, notes: null, shippingAddress, lines });

function holdShopChange(dataDir: string, orderId: string, pending: Record<string, unknown>) {
  const db = new Database(databaseFile(dataDir));
  try {
    db.prepare('UPDATE orders SET shop_change = ? WHERE id = ?').run(JSON.stringify({ seen: pending.snapshot, pending }), orderId);
  } finally {
    db.close();
  }
}

test('an order changed in the shop shows what changed; Apply writes the shop’s address, Dismiss keeps the order', async ({ page, server }) => {
  const owner = { orgName: 'Change Hall', name: 'Cai Owner', email: 'cai@change.example', password: 'changes all day long' };
  const { call } = await seedOrganization(page.request, owner);
  const channel = await call('POST', '/order-channels', {
    name: 'Web shop',
    type: 'shopify',
    // No schedule: this server never reaches for the shop.
    config: { shopDomain: 'change-hall.myshopify.com', accessToken: 'shpat_e2e_token_0002', syncIntervalMinutes: 0 },
  });
  const order = await call('POST', '/orders', {
    orderNumber: '#1001',
    orderChannelId: channel.id,
    externalId: '5001',
    customerName: 'Jane Doe',
    shippingAddress: address,
    orderLines: [{ name: 'Stoneware mug', sku: 'MUG-01', quantity: 2 }],
  });
  holdShopChange(server.dataDir, order.id, {
    kind: 'changed',
    detectedAt: '2026-11-27T10:15:00.000Z',
    summary: ['Shipping address'],
    fields: ['shippingAddress'],
    snapshot: snapshot(moved),
  });

  await signIn(page, owner.email, owner.password);
  await page.goto(`/#/orders/${order.id}`);
  const notice = page.getByRole('region', { name: 'Changed in the shop' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('Shipping address');
  await expect(notice).toContainText('Vestergade 9');
  // Keyboard: Tab reaches Apply, Enter presses it.
  const apply = notice.getByRole('button', { name: 'Apply' });
  await apply.focus();
  await page.keyboard.press('Enter');
  await expect(notice).toBeHidden();
  await expect(page.getByText('Vestergade 9')).toBeVisible();

  // A cancellation held: Dismiss keeps the order as it is.
  holdShopChange(server.dataDir, order.id, {
    kind: 'cancelled',
    detectedAt: '2026-11-27T11:00:00.000Z',
    summary: ['Cancelled in the shop'],
    fields: [],
    snapshot: { ...snapshot(moved), state: 'cancelled' },
  });
  await page.reload();
  const cancelled = page.getByRole('region', { name: 'Cancelled in the shop' });
  await expect(cancelled).toBeVisible();
  await cancelled.getByRole('button', { name: 'Dismiss' }).click();
  await expect(cancelled).toBeHidden();
  const read = await call('GET', `/orders/${order.id}`);
  expect(read).toMatchObject({ status: 'pending', shopChange: null, shippingAddress: { address1: 'Vestergade 9' } });
});
