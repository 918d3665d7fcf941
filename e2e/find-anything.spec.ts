import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from './fixtures';
import { scan } from './scanner';
import { seedOrganization, signIn } from './seed';

/**
 * Issue 20, "Find anything": the shipments search finds a shipment by its order number, receiver or
 * tracking number; optional columns show them; filters by carrier, country and days; sort, filters,
 * search and page survive a reload and the back button; a scanned or typed label barcode opens its
 * shipment; the orders search finds a SKU. With SHIPDESK_SCREENSHOTS=1 the searched list is saved
 * to docs/screenshots/shipments-search.png.
 */
const SCREENSHOTS = process.env.SHIPDESK_SCREENSHOTS === '1';
const screenshotDir = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));

const receiver = (name: string, countryCode: string, postalCode: string, city: string) => ({
  type: 'receiver',
  name,
  address1: 'Storgatan 1',
  postalCode,
  city,
  countryCode,
  email: `${name.split(' ')[0]!.toLowerCase()}@kunde.example`,
});

test('search by any number, optional columns, filters, reload and back, scan to open', async ({ page }) => {
  const owner = { orgName: 'Find Hall', name: 'Frida Find', email: 'frida@find.example', password: 'find it fast please' };
  const { call } = await seedOrganization(page.request, owner);
  const address = (await call('POST', '/sender-addresses', {
    name: 'Find warehouse',
    address1: 'Kajvej 3',
    zipcode: '8000',
    city: 'Aarhus C',
    countryCode: 'DK',
  })) as { id: string };
  const vans = (await call('POST', '/carriers', { name: 'Own vans', carrierSlug: 'local', config: {}, senderAddressId: address.id })) as { id: string };
  const bikes = (await call('POST', '/carriers', { name: 'Bike couriers', carrierSlug: 'local', config: {}, senderAddressId: address.id })) as { id: string };
  const parcel = { weight: 1, weightUnit: 'kg', dimensions: { length: 20, width: 20, height: 10 } };
  const shipment = (carrierId: string, reference: string, party: ReturnType<typeof receiver>) =>
    call('POST', '/shipments', { type: 'outbound', reference, carrierSettings: { carrierId, productId: 'local_parcel' }, parties: [party], parcels: [parcel] });
  // Enough rows for a second page (50 a page), then the few the test looks for, newest.
  for (let i = 1; i <= 48; i++) await shipment(vans.id, `BULK-${String(i).padStart(3, '0')}`, receiver(`Bulk Receiver ${i}`, 'DK', '8000', 'Aarhus'));
  await shipment(bikes.id, 'FA-SE-1', receiver('Astrid Lindqvist', 'SE', '41319', 'Göteborg'));
  const sent = (await shipment(vans.id, 'FA-DK-2', receiver('Jonas Holm', 'DK', '5000', 'Odense'))) as { id: string };
  await call('POST', `/shipments/${sent.id}/send`);
  const booked = (await call('GET', `/shipments/${sent.id}`)) as { tracking: { number: string }; parcels: { trackingNumber: string }[] };
  const channel = (await call('POST', '/order-channels', { name: 'Web shop', type: 'manual' })) as { id: string };
  const order = (await call('POST', '/orders', {
    orderNumber: 'WEB-7001',
    orderChannelId: channel.id,
    customerName: 'Maja Krog',
    customerEmail: 'maja@kunde.example',
    shippingAddress: { name: 'Maja Krog', address1: 'Havnevej 2', city: 'Vejle', postalCode: '7100', countryCode: 'DK' },
    orderLines: [{ name: 'Brass lamp', quantity: 1, sku: 'LAMP-BRASS-7', weight: 1, weightUnit: 'kg' }],
  })) as { id: string };
  await call('POST', `/orders/${order.id}/shipments`, { reference: 'FA-ORDER-3', carrierId: bikes.id, productId: 'local_parcel', senderAddressId: address.id });

  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await signIn(page, owner.email, owner.password);
  const main = page.getByRole('main');
  const heading = main.getByRole('heading', { level: 1 });
  const table = main.getByRole('table', { name: 'Shipments' });
  const bodyRows = table.locator('tbody tr');
  const search = main.getByRole('searchbox', { name: /^Search references, order numbers, receivers and tracking numbers/ });
  await page.goto('/#/shipments');
  await expect(heading).toHaveText('Shipments');

  await test.step('the search finds an order number, a receiver and a tracking number', async () => {
    await search.fill('web-7001');
    await expect(bodyRows).toHaveCount(1);
    await expect(bodyRows.first()).toContainText('FA-ORDER-3');
    await search.fill('lindqvist');
    await expect(bodyRows).toHaveCount(1);
    await expect(bodyRows.first()).toContainText('FA-SE-1');
    await search.fill(booked.tracking.number.slice(2).toLowerCase());
    await expect(bodyRows).toHaveCount(1);
    await expect(bodyRows.first()).toContainText('FA-DK-2');
    await search.fill('no such thing anywhere');
    await expect(main.getByText(/No shipment’s reference, order number, receiver or tracking number contains/)).toBeVisible();
    await search.fill('');
  });

  await test.step('optional columns: receiver, country, order number and tracking number', async () => {
    await main.getByText('Columns', { exact: true }).click();
    const chooser = main.getByRole('group', { name: 'Show columns' });
    for (const name of ['Receiver', 'Country', 'Order', 'Tracking number']) {
      await expect(chooser.getByRole('checkbox', { name, exact: true })).not.toBeChecked();
      await chooser.getByRole('checkbox', { name, exact: true }).check();
      await expect(table.getByRole('columnheader', { name, exact: true })).toBeVisible();
    }
    await main.getByText('Columns', { exact: true }).click();
    await expect(table.getByRole('row').filter({ hasText: 'FA-ORDER-3' })).toContainText('WEB-7001');
    await expect(table.getByRole('row').filter({ hasText: 'FA-ORDER-3' })).toContainText('Maja Krog');
    await expect(table.getByRole('row').filter({ hasText: 'FA-SE-1' })).toContainText('SE');
    await expect(table.getByRole('row').filter({ hasText: 'FA-DK-2' })).toContainText(booked.tracking.number);
  });

  await test.step('filters: carrier, receiver country, days created', async () => {
    await main.getByRole('combobox', { name: 'Carrier', exact: true }).selectOption({ label: 'Bike couriers' });
    await expect(bodyRows).toHaveCount(2);
    const country = main.getByRole('combobox', { name: 'Country' });
    await country.fill('Sweden');
    await country.press('Tab');
    await expect(bodyRows).toHaveCount(1);
    await expect(bodyRows.first()).toContainText('FA-SE-1');
    await main.getByRole('button', { name: 'Clear filters' }).click();
    await expect(bodyRows).toHaveCount(50);
    const today = await page.evaluate(() => new Date().toLocaleDateString('sv-SE'));
    const tomorrow = await page.evaluate(() => new Date(Date.now() + 86_400_000).toLocaleDateString('sv-SE'));
    await main.getByLabel('Created from').fill(tomorrow);
    await expect(main.getByText('No shipment matches.')).toBeVisible();
    await main.getByLabel('Created from').fill(today);
    await main.getByLabel('Created to').fill(today);
    await expect(bodyRows).toHaveCount(50);
  });

  await test.step('sort, filters, search and page survive a reload and the back button', async () => {
    const pager = main.getByRole('navigation', { name: 'Shipments pages' });
    await main.getByLabel('Created from').fill('');
    await main.getByLabel('Created to').fill('');
    await expect(bodyRows).toHaveCount(50);
    await pager.getByRole('button', { name: 'Next' }).click();
    await expect(bodyRows).toHaveCount(1);
    await page.reload();
    await expect(heading).toHaveText('Shipments');
    await expect(bodyRows).toHaveCount(1);
    expect(page.url()).toContain('page=2');
    await pager.getByRole('button', { name: 'Previous' }).click();
    await expect(bodyRows).toHaveCount(50);

    await main.getByRole('combobox', { name: 'Carrier', exact: true }).selectOption({ label: 'Own vans' });
    await search.fill('bulk-00');
    await expect(bodyRows).toHaveCount(9);
    await table.getByRole('columnheader', { name: 'Reference' }).getByRole('button').click();
    await expect(bodyRows.first()).toContainText('BULK-001');
    await page.reload();
    await expect(search).toHaveValue('bulk-00');
    await expect(main.getByRole('combobox', { name: 'Carrier', exact: true }).locator('option:checked')).toHaveText('Own vans');
    await expect(bodyRows).toHaveCount(9);
    await expect(bodyRows.first()).toContainText('BULK-001');
    await bodyRows.first().getByRole('link').click();
    await expect(heading).toHaveText(/^Shipment BULK-001/);
    await page.goBack();
    await expect(search).toHaveValue('bulk-00');
    await expect(bodyRows).toHaveCount(9);
    await expect(bodyRows.first()).toContainText('BULK-001');
    await expect(main.getByRole('combobox', { name: 'Carrier', exact: true }).locator('option:checked')).toHaveText('Own vans');
    await main.getByRole('button', { name: 'Clear filters' }).click();
    await search.fill('');
    // Back to newest first: the first click sorts oldest first.
    await table.getByRole('columnheader', { name: 'Created' }).getByRole('button').click();
    await table.getByRole('columnheader', { name: 'Created' }).getByRole('button').click();
    await expect(bodyRows.first()).toContainText('FA-ORDER-3');
  });

  if (SCREENSHOTS) {
    await search.fill('kunde');
    await expect(bodyRows).toHaveCount(50);
    await expect(bodyRows.first()).toContainText('FA-ORDER-3');
    await expect(main.getByText('Loading…')).toHaveCount(0);
    // The picture starts at the table's first column (earlier steps scrolled it sideways).
    await table.evaluate((element) => element.parentElement?.scrollTo({ left: 0 }));
    mkdirSync(screenshotDir, { recursive: true });
    await page.screenshot({ path: `${screenshotDir}shipments-search.png`, animations: 'disabled', caret: 'hide' });
    await search.fill('');
  }

  await test.step('a scanned parcel number, or a typed tracking number and Enter, opens its shipment', async () => {
    await search.focus();
    await scan(page, booked.parcels[0]!.trackingNumber);
    await expect(heading).toHaveText(/^Shipment FA-DK-2/);
    await page.goBack();
    await expect(search).toHaveValue('');
    await search.fill(booked.tracking.number);
    await search.press('Enter');
    await expect(heading).toHaveText(/^Shipment FA-DK-2/);
  });

  await test.step('orders: a SKU finds its order, and the search survives a reload', async () => {
    await page.goto('/#/orders');
    const orderSearch = main.getByRole('searchbox', { name: 'Search' });
    await orderSearch.fill('lamp-brass');
    const orderRows = main.getByRole('table', { name: 'Orders' }).locator('tbody tr');
    await expect(orderRows).toHaveCount(1);
    await expect(orderRows.first()).toContainText('WEB-7001');
    await expect(page).toHaveURL(/search=lamp-brass/);
    await page.reload();
    await expect(main.getByRole('searchbox', { name: 'Search' })).toHaveValue('lamp-brass');
    await expect(orderRows).toHaveCount(1);
  });
  expect(pageErrors).toEqual([]);
});
