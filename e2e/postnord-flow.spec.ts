import { rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fakePostnordApiKey, fakePostnordCustomerNumber, startFakePostnord, type FakePostnord } from '../src-main/carriers/postnord/fake';
import { cupsForTests, pdfFilesIn, waitForPrintedPdf } from './cups';
import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';

/**
 * Issue 19's flow with a real carrier: an order is shipped with PostNord (a local fake of PostNord's
 * booking API, reached through the carrier's API base URL, as no carrier can be reached from here)
 * and its label, PostNord's own A6 PDF, is printed to the real CUPS PDF queue. The settings are laid
 * through the API; the order page, send and print are clicked through like a packer would.
 */

/** A6 in PostScript points. */
const A6_PT = { width: (105 / 25.4) * 72, height: (148 / 25.4) * 72 };

let fake: FakePostnord;
test.beforeAll(async () => {
  fake = await startFakePostnord();
});
test.afterAll(async () => {
  await fake.close();
});

test('an order booked with PostNord (test mode) and its label printed to the CUPS PDF queue', async ({ page }) => {
  test.setTimeout(120_000);
  const cups = cupsForTests();
  const owner = { orgName: 'Lager Nord AB', name: 'Pia Packer', email: 'pia@lagernord.example', password: 'packing station 1' };
  const { call: api } = await seedOrganization(page.request, owner);
  const address = await api('POST', '/sender-addresses', {
    name: 'Lager Nord',
    address1: 'Sandhamnsgatan 61',
    zipcode: '11528',
    city: 'Stockholm',
    countryCode: 'SE',
    phone: '+46701234567',
  });
  const carrier = await api('POST', '/carriers', {
    name: 'PostNord',
    carrierSlug: 'postnord',
    config: { apiKey: fakePostnordApiKey, customerNumber: fakePostnordCustomerNumber, apiBaseUrl: fake.url, labelFormat: 'pdf', labelSize: 'A6' },
    senderAddressId: address.id,
  });
  expect(carrier.config.apiKey).not.toBe(fakePostnordApiKey);
  if (cups.state === 'ready') {
    await api('POST', '/printers', { name: 'Label printer', driver: 'cups', target: cups.queue, format: 'pdf', labelSize: 'A6', isDefault: true });
  }
  const channel = await api('POST', '/order-channels', { name: 'Phone orders', type: 'manual' });
  const order = await api('POST', '/orders', {
    orderChannelId: channel.id,
    orderNumber: 'SE-1001',
    customerName: 'Anna Svensson',
    customerEmail: 'anna@example.se',
    shippingAddress: {
      name: 'Anna Svensson',
      address1: 'Karlavägen 100',
      postalCode: '11526',
      city: 'Stockholm',
      countryCode: 'SE',
      phone: '+46709876543',
      email: 'anna@example.se',
    },
    orderLines: [{ name: 'Kaffekopp', sku: 'MUG-01', quantity: 2, unitPrice: 99, currency: 'SEK', weight: 0.4, weightUnit: 'kg' }],
  });

  await signIn(page, owner.email, owner.password);
  const main = page.getByRole('main');
  const heading = main.getByRole('heading', { level: 1 });
  await page.goto(`/#/orders/${encodeURIComponent(order.id)}`);
  await expect(heading).toContainText('SE-1001');

  const shipmentId = await test.step('a shipment from the order with PostNord Parcel (product "Parcel")', async () => {
    await main.getByRole('button', { name: 'Create shipment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create shipment for order SE-1001' });
    await dialog.getByRole('radio', { name: 'Choose carrier and product' }).check();
    await expect(dialog.getByLabel('Carrier', { exact: true }).locator('option:checked')).toHaveText(/PostNord/);
    await dialog.getByLabel('Product', { exact: true }).selectOption({ label: 'Parcel' });
    await dialog.getByRole('button', { name: 'Create shipment' }).click();
    await expect(heading).toHaveText(/^Shipment SHP-\d+/);
    return decodeURIComponent(new URL(page.url()).hash.replace('#/shipments/', ''));
  });

  await test.step('send: PostNord books it; its item id is the tracking number; the label is its A6 PDF', async () => {
    const bookingsBefore = fake.state.bookingCalls;
    await main.getByRole('group', { name: 'Shipment actions' }).getByRole('button', { name: 'Send' }).click();
    await expect(heading).toContainText('Dispatched');
    expect(fake.state.bookingCalls).toBe(bookingsBefore + 1);
    const booking = fake.state.bookings.at(-1);
    const itemId = booking?.items[0]?.itemId ?? '';
    await expect(main.getByRole('region', { name: 'Tracking' })).toContainText(itemId);
    // A carrier in test mode is marked so on the shipment.
    await expect(main.getByText('TEST', { exact: true }).first()).toBeVisible();
    const stored = await api('GET', `/shipments/${shipmentId}`);
    expect(stored).toMatchObject({ status: 'dispatched', tracking: { number: itemId, status: 'pending' } });
    expect(stored.documents).toMatchObject([{ documentType: 'label', format: 'pdf', size: 'A6' }]);
    // Stored exactly as PostNord sent it.
    expect(stored.documents[0].content).toBe(fake.state.labels.at(-1)?.data);
  });

  await test.step("TEST beside the test-mode carrier in the order's shipments and in the shipments list", async () => {
    const { reference } = await api('GET', `/shipments/${shipmentId}`);
    await page.goto(`/#/orders/${encodeURIComponent(order.id)}`);
    await expect(main.getByRole('row').filter({ hasText: reference })).toContainText('TEST');
    await page.goto('/#/shipments');
    await expect(main.getByRole('row').filter({ hasText: reference })).toContainText('TEST');
    await page.goto(`/#/shipments/${encodeURIComponent(shipmentId)}`);
    await expect(heading).toContainText('Dispatched');
  });

  await test.step('print: the label to the CUPS PDF queue, an A6 page with the item id on it', async () => {
    if (cups.state === 'broken') throw new Error(cups.reason);
    if (cups.state === 'absent') {
      test.info().annotations.push({ type: 'print step skipped', description: cups.reason });
      return;
    }
    const stored = await api('GET', `/shipments/${shipmentId}`);
    const labelId = stored.documents[0].id as string;
    const before = pdfFilesIn(cups.outputDir);
    await main.getByRole('button', { name: /^Preview Label · PDF · A6/ }).click();
    const preview = page.getByRole('dialog', { name: /Label · PDF · A6/ });
    await preview.getByRole('button', { name: 'Print…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Print' });
    await dialog.getByRole('button', { name: 'Print', exact: true }).click();
    await expect(dialog.getByRole('table', { name: 'Print jobs' }).getByRole('row').filter({ hasText: 'Label' })).toContainText('Done');
    const printed = await waitForPrintedPdf(cups.outputDir, labelId, before);
    try {
      expect(Math.abs(printed.widthPt - A6_PT.width), `printed width ${printed.widthPt} pt`).toBeLessThanOrEqual(1.5);
      expect(Math.abs(printed.heightPt - A6_PT.height), `printed height ${printed.heightPt} pt`).toBeLessThanOrEqual(1.5);
      const text = execFileSync('pdftotext', [printed.file, '-'], { encoding: 'utf8' });
      expect(text).toContain(stored.tracking.number);
    } finally {
      rmSync(printed.file, { force: true });
    }
  });
});
