import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';

/**
 * Every screen against axe-core's WCAG 2 A/AA rules, with data on it: a packing station is used by
 * keyboard, scanner and screen reader alike, and a missing label or contrast too low to read under
 * warehouse light is a bug like any other.
 */
test('every screen passes axe-core’s WCAG 2 A and AA checks', async ({ page }) => {
  test.setTimeout(120_000);
  const owner = { orgName: 'Axe Hall', name: 'Ada Owner', email: 'ada@axe.example', password: 'accessible all day' };
  const { call: api } = await seedOrganization(page.request, owner);
  const address = await api('POST', '/sender-addresses', { name: 'Hall 1', address1: 'Havnevej 2', zipcode: '8000', city: 'Aarhus', countryCode: 'DK' });
  const carrier = await api('POST', '/carriers', { name: 'Own trucks', carrierSlug: 'local', config: {}, senderAddressId: address.id });
  const channel = await api('POST', '/order-channels', { name: 'Counter', type: 'manual', config: {} });
  await api('POST', '/shipping-rules', {
    name: 'Denmark',
    carrierId: carrier.id,
    productId: 'local_parcel',
    services: [],
    senderAddressId: address.id,
    receivingCountries: ['DK'],
    conditions: [],
  });
  const order = await api('POST', '/orders', {
    orderNumber: 'AXE-1',
    orderChannelId: channel.id,
    shippingAddress: { name: 'Jens Hansen', address1: 'Nørregade 1', city: 'København K', postalCode: '1165', countryCode: 'DK' },
    orderLines: [{ name: 'Mug', sku: 'MUG-01', quantity: 2, weight: 0.4 }],
  });
  // A second order, still open, for its "Edit order" dialog (the first is shipped in full below).
  const openOrder = await api('POST', '/orders', {
    orderNumber: 'AXE-2',
    orderChannelId: channel.id,
    orderLines: [{ name: 'Tea', sku: 'TEA-01', quantity: 1 }],
  });
  const shipment = await api('POST', `/orders/${order.id}/shipments`, {});
  await api('POST', `/shipments/${shipment.id}/send`);
  await api('POST', '/webhooks', { name: 'ERP', url: 'http://127.0.0.1:9/hook', events: ['shipment.created'] });

  // The live event stream stays open for as long as a screen is shown, so the page would never be
  // network-idle; these checks are about each screen once it has loaded, not about live updates.
  await page.route(/\/orgs\/[^/]+\/events$/, (route) => route.abort());
  await signIn(page, owner.email, owner.password);
  const screens = [
    '/pack',
    '/shipments',
    '/shipments/new',
    `/shipments/${shipment.id}`,
    '/orders',
    `/orders/${order.id}`,
    '/print-jobs',
    '/settings/sender-addresses',
    '/settings/order-channels',
    '/settings/carriers',
    '/settings/shipping-rules',
    '/settings/printers',
    '/settings/team-members',
    '/settings/api-tokens',
    '/settings/webhooks',
    '/settings/organization',
    '/settings/usage',
  ];
  const found: string[] = [];
  const check = async (where: string) => {
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    for (const violation of violations) {
      found.push(
        `${where}: ${violation.id} (${violation.impact}) ${violation.help} — ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(' | ')}`,
      );
    }
  };
  for (const screen of screens) {
    await page.goto(`/#${screen}`);
    await expect(page.locator('main h1').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    await check(screen);
    // The screen's form too: "New sender address", "New printer", … open in a dialog.
    const create = page.locator('main .page-header button.primary');
    if (screen.startsWith('/settings/') && (await create.count()) === 1) {
      await create.click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await check(`${screen} (${await create.innerText()})`);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
    }
  }
  // The work screens' dialogs: a new order, and editing one.
  await page.goto('/#/orders');
  await page.getByRole('button', { name: 'New order' }).click();
  await expect(page.getByRole('dialog', { name: 'New order' })).toBeVisible();
  await check('/orders (New order)');
  await page.keyboard.press('Escape');
  await page.goto(`/#/orders/${openOrder.id}`);
  await page.getByRole('button', { name: 'Edit order' }).click();
  await expect(page.getByRole('dialog', { name: 'Edit order AXE-2' })).toBeVisible();
  await check('/orders/:id (Edit order)');
  await page.keyboard.press('Escape');
  expect(found, found.join('\n')).toEqual([]);
});
