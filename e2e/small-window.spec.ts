import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';

/**
 * The smallest window the app supports (1024 × 768, a small laptop at a packing station) with names
 * as long as people type them: every list's action buttons and columns stay in the window without
 * scrolling sideways (long texts wrap or are cut, whole in the tooltip), the page itself never
 * scrolls sideways, and Sign out stays in view on a long page.
 */
test.use({ viewport: { width: 1024, height: 768 } });

const owner = { orgName: 'Narrow Hall', name: 'Nina Narrow', email: 'nina@narrow.example', password: 'narrow window all day' };
const LONG = 'Bartholomew-Alexander Christoffersen-Vandenberghe Lindqvist'; // 60 characters
const root = mkdtempSync(join(tmpdir(), 'shipdesk-e2e-small-window-'));
test.afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Nothing in `main` sticks out of the window to the right, and the document does not scroll sideways. */
async function expectFitsWidth(page: Page, what: string): Promise<void> {
  const sizes = await page.locator('html').evaluate((html) => ({ scrollWidth: html.scrollWidth, clientWidth: html.clientWidth }));
  expect.soft(sizes.scrollWidth, `${what}: the page scrolls sideways`).toBeLessThanOrEqual(sizes.clientWidth);
  const viewport = page.viewportSize() as { width: number; height: number };
  const tables = page.getByRole('main').getByRole('table');
  expect(await tables.count(), `${what}: a table`).toBeGreaterThan(0);
  for (const table of await tables.all()) {
    const name = (await table.getAttribute('aria-label')) ?? 'table';
    // A table narrower than its box: nothing hidden in a sideways scroll inside it.
    const overflow = await table.evaluate((element) => {
      let box = element.parentElement;
      const view = element.ownerDocument.defaultView;
      while (box && view?.getComputedStyle(box).overflowX === 'visible') box = box.parentElement;
      return box ? box.scrollWidth - box.clientWidth : 0;
    });
    expect.soft(overflow, `${what}: table ${name} scrolls sideways inside its box`).toBeLessThanOrEqual(0);
    for (const cell of await table.locator('th, button').all()) {
      const box = await cell.boundingBox();
      const label = ((await cell.getAttribute('aria-label')) ?? (await cell.innerText())).trim();
      expect(box, `${what}: ${name} "${label}" is rendered`).not.toBeNull();
      if (!box) continue;
      expect.soft(box.x, `${what}: ${name} "${label}" starts in the window`).toBeGreaterThanOrEqual(0);
      expect.soft(box.x + box.width, `${what}: ${name} "${label}" ends in the window`).toBeLessThanOrEqual(viewport.width);
    }
  }
}

test('at 1024 × 768 every list shows its columns and row actions without scrolling sideways, long names and all', async ({ page }) => {
  const { call } = await seedOrganization(page.request, owner);
  const address = await call('POST', '/sender-addresses', {
    name: `${LONG} warehouse`,
    attContact: LONG,
    address1: 'Industrivej Syd 123, Bygning 4, Port 17, Bagindgangen',
    zipcode: '8000',
    city: 'Aarhus C',
    countryCode: 'DK',
  });
  const carrier = await call('POST', '/carriers', { name: `${LONG} vans`, carrierSlug: 'local', config: {}, senderAddressId: address.id });
  const channel = await call('POST', '/order-channels', { name: `${LONG} phone orders`, type: 'manual', config: {} });
  // A printer whose folder is missing: its jobs fail with a long reason (the folder's path in it).
  const missing = join(root, 'a-shared-folder-on-the-office-server-that-is-not-mounted-today');
  const unplugged = await call('POST', '/printers', { name: `${LONG} station`, driver: 'file', target: missing, format: 'pdf', labelSize: '100X150' });
  await call('POST', '/printers', { name: 'Office', driver: 'file', target: root, format: 'pdf', labelSize: 'A4', isDefault: true });
  for (const name of [`${LONG} over 500 DKK`, 'Parcels in Denmark']) {
    await call('POST', '/shipping-rules', {
      name,
      carrierId: carrier.id,
      productId: 'local_parcel',
      services: [],
      senderAddressId: address.id,
      receivingCountries: ['DK', 'SE', 'NO', 'DE', 'NL', 'BE', 'FR'],
      conditions: [
        { type: 'price', operator: 'gte', value: 500, shippingPrice: 0, currency: 'DKK' },
        { type: 'weight', min: 0, max: 20, shippingPrice: 49, currency: 'DKK' },
      ],
    });
  }
  await call('POST', '/api-tokens', { name: `${LONG} label script`, scopes: ['read:shipments', 'write:shipments', 'read:orders', 'write:printers'] });
  await call('POST', '/webhooks', {
    name: `${LONG} ERP`,
    url: `https://erp.example.com/hooks/shipdesk/${'a'.repeat(60)}`,
    events: ['shipment.created', 'shipment.dispatched', 'order.updated'],
  });
  await call('POST', '/members', {
    email: 'bartholomew.alexander.christoffersen@narrow.example',
    name: LONG,
    role: 'packer',
    password: 'packer packer packer',
  });
  const order = await call('POST', '/orders', {
    orderNumber: 'N-1',
    orderChannelId: channel.id,
    customerName: LONG,
    customerEmail: 'bartholomew.alexander.christoffersen@narrow.example',
    shippingAddress: { name: LONG, address1: 'Strandvejen 7', city: 'Hellerup', postalCode: '2900', countryCode: 'DK' },
    orderLines: [{ name: 'Vase', sku: 'VASE-1', quantity: 2, unitPrice: 1299, currency: 'DKK', weight: 1 }],
  });
  const shipment = await call('POST', `/orders/${order.id}/shipments`, { carrierId: carrier.id, productId: 'local_parcel' });
  await call('POST', `/shipments/${shipment.id}/send`, {});
  await call('POST', `/shipments/${shipment.id}/print`, { printerId: unplugged.id });

  await signIn(page, owner.email, owner.password);
  const main = page.getByRole('main');
  const heading = main.getByRole('heading', { level: 1 });
  const screens: { path: string; title: string; table: string; row: string; buttons: string[] }[] = [
    { path: '/print-jobs', title: 'Print jobs', table: 'Print jobs', row: shipment.reference, buttons: ['Retry', 'Print on another printer…'] },
    { path: '/orders', title: 'Orders', table: 'Orders', row: LONG, buttons: [] },
    { path: '/shipments', title: 'Shipments', table: 'Shipments', row: shipment.reference, buttons: [] },
    {
      path: '/settings/shipping-rules',
      title: 'Shipping rules',
      table: 'Shipping rules',
      row: `${LONG} over 500 DKK`,
      buttons: [`Edit ${LONG} over 500 DKK`, `Delete ${LONG} over 500 DKK`],
    },
    { path: '/settings/printers', title: 'Printers', table: 'Printers', row: `${LONG} station`, buttons: [`Edit ${LONG} station`, `Delete ${LONG} station`] },
    {
      path: '/settings/api-tokens',
      title: 'API tokens',
      table: 'API tokens',
      row: `${LONG} label script`,
      buttons: [`Rename ${LONG} label script`, `Revoke ${LONG} label script`],
    },
    {
      path: '/settings/sender-addresses',
      title: 'Sender addresses',
      table: 'Sender addresses',
      row: `${LONG} warehouse`,
      buttons: [`Delete ${LONG} warehouse`],
    },
    {
      path: '/settings/order-channels',
      title: 'Order channels',
      table: 'Order channels',
      row: `${LONG} phone orders`,
      buttons: [`Delete ${LONG} phone orders`],
    },
    { path: '/settings/carriers', title: 'Carriers', table: 'Carriers', row: `${LONG} vans`, buttons: [`Delete ${LONG} vans`] },
    { path: '/settings/team-members', title: 'Team members', table: 'Team members', row: LONG, buttons: [`Edit ${LONG}`, `Remove ${LONG}`] },
    { path: '/settings/webhooks', title: 'Webhooks', table: 'Webhooks', row: `${LONG} ERP`, buttons: [`Delete ${LONG} ERP`] },
  ];
  for (const screen of screens) {
    await test.step(screen.title, async () => {
      await page.goto(`/#${screen.path}`);
      await expect(heading).toHaveText(screen.title);
      const row = main.getByRole('table', { name: screen.table, exact: true }).getByRole('row').filter({ hasText: screen.row });
      await expect(row).toHaveCount(1);
      for (const name of screen.buttons)
        await expect.soft(row.getByRole('button', { name, exact: true }), `${screen.title}: ${name}`).toBeInViewport({ ratio: 1, timeout: 2000 });
      await expectFitsWidth(page, screen.title);
    });
  }

  await test.step('a long page keeps Sign out in view', async () => {
    await page.goto(`/#/shipments/${encodeURIComponent(shipment.id)}`);
    await expect(heading).toContainText(shipment.reference);
    const signOut = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign out' });
    await expect(signOut).toBeInViewport({ ratio: 1 });
    await page.mouse.wheel(0, 2000);
    await expect(signOut).toBeInViewport({ ratio: 1 });
  });
});
