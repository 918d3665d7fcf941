import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { scan } from './scanner';
import { seedOrganization, signIn } from './seed';

/**
 * Scanner-driven packing (USERS 5) on the Pack screen, with a keyboard-wedge scanner simulated as the
 * browser sees one: control characters around the code (STX … GS), then Enter. The shop: a sender
 * address, the `local` carrier, a `file` printer in a temporary folder, a rule for Denmark that prints
 * labels on that printer, and orders typed in through the API. Both tests share one server (one file).
 */

const EMAIL = 'pia@pack.example';
const PASSWORD = 'a long password';
const labelsDir = mkdtempSync(join(tmpdir(), 'shipdesk-e2e-pack-'));
test.afterAll(() => rmSync(labelsDir, { recursive: true, force: true }));

/**
 * The same code read again at once (a double trigger): the whole burst in one call, so a busy test
 * machine cannot stretch it past the repeat window the way typing key by key could.
 */
async function scanAgainAtOnce(page: Page, code: string): Promise<void> {
  await page.keyboard.insertText(`\x02${code}\x1d`);
  await page.keyboard.press('Enter');
}

const labelFiles = () => readdirSync(labelsDir);

/** With SHIPDESK_SCREENSHOTS=1, docs/screenshots/<name>.png for the README (as packing-flow.spec.ts). */
async function snap(page: Page, name: string): Promise<void> {
  if (process.env.SHIPDESK_SCREENSHOTS !== '1') return;
  const dir = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}${name}.png`, animations: 'disabled', caret: 'hide' });
}

test.describe.configure({ mode: 'serial' });

test('pack: scan an order, shipment by rule, send and print; repeats ignored, focus kept', async ({ page }) => {
  test.setTimeout(90_000);
  const { call } = await seedOrganization(page.request, { orgName: 'Pack Hall', name: 'Pia Packer', email: EMAIL, password: PASSWORD });
  const api = { get: (path: string) => call('GET', path), post: (path: string, data?: unknown) => call('POST', path, data) };
  const address = await api.post('/sender-addresses', { name: 'Hall 1', address1: 'Havnevej 2', zipcode: '8000', city: 'Aarhus', countryCode: 'DK' });
  const carrier = await api.post('/carriers', { name: 'Own trucks', carrierSlug: 'local', config: {}, senderAddressId: address.id });
  const printer = await api.post('/printers', { name: 'Desk printer', driver: 'file', target: labelsDir, format: 'pdf', labelSize: '100X150' });
  await api.post('/shipping-rules', {
    name: 'Denmark parcels',
    carrierId: carrier.id,
    productId: 'local_parcel',
    services: [],
    senderAddressId: address.id,
    receivingCountries: ['DK'],
    conditions: [],
    autoPrintLabels: true,
    labelPrinterId: printer.id,
  });
  const channel = await api.post('/order-channels', { name: 'Web shop', type: 'manual' });
  const order = (orderNumber: string, countryCode = 'DK') =>
    api.post('/orders', {
      orderNumber,
      orderChannelId: channel.id,
      customerName: `Customer ${orderNumber}`,
      shippingAddress: { name: `Customer ${orderNumber}`, address1: 'Storgade 5', postalCode: '2100', city: 'København Ø', countryCode },
      orderLines: [{ name: 'Stoneware mug', sku: 'MUG-01', quantity: 2, weight: 0.4 }],
    });
  const first = await order('A-1001');
  await order('A-10010'); // contains "A-1001": a scan is exact, never a part of a number
  await order('A-1002');
  await order('A-1003');
  await order('S-2001', 'SE'); // no rule ships to Sweden

  await signIn(page, EMAIL, PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pack' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pack');
  const box = page.getByLabel('Scan an order or a shipment');
  await expect(box).toBeFocused();
  const main = page.getByRole('main');
  // This station sends without checking items (scan-to-verify is e2e/pack-verify.spec.ts).
  await main.getByRole('checkbox', { name: /Check items by scanning/ }).uncheck();
  await expect(box).toBeFocused();
  const result = main.locator('.pack-result');
  const log = main.getByRole('table', { name: 'Scans this session, newest first' });

  await test.step('a double read of one scan makes one shipment by the rule', async () => {
    await scan(page, 'A-1001');
    await scanAgainAtOnce(page, 'A-1001');
    await expect(result).toContainText('Order A-1001: shipment made by rule “Denmark parcels”, not sent yet');
    await expect(result.getByRole('heading', { level: 2 })).toHaveText('SHP-000001 Pending');
    await expect(result).toContainText('Customer A-1001, Storgade 5, 2100 København Ø, DK');
    await expect(result).toContainText('Own trucks · Own delivery, parcel');
    await expect(log.getByRole('row')).toHaveCount(2);
    await expect(log.getByRole('row').nth(1)).toContainText('read again once within 500 ms, ignored');
    const shipments = await api.get(`/shipments?orderId=${first.id}`);
    expect(shipments.total).toBe(1);
    await expect(box).toBeFocused();
    await expect(box).toHaveValue('');
  });

  await test.step('Enter sends it; the rule prints the label on the file printer', async () => {
    await page.keyboard.press('Enter');
    await expect(result.getByRole('heading', { level: 2 })).toHaveText('SHP-000001 Dispatched');
    await expect(result).toContainText('Label sent to Desk printer');
    await expect(result.locator('.pack-tracking')).toHaveText(/^\S+\d+$/);
    await expect.poll(labelFiles).toHaveLength(1);
    await expect(box).toBeFocused();
  });

  await test.step('the next order right after, without a click', async () => {
    await scan(page, 'A-1002');
    await expect(result.getByRole('heading', { level: 2 })).toHaveText('SHP-000002 Pending');
    await page.keyboard.press('Enter');
    await expect(result.getByRole('heading', { level: 2 })).toHaveText('SHP-000002 Dispatched');
    await expect(result).toContainText('Label sent to Desk printer');
    await expect.poll(labelFiles).toHaveLength(2);
  });

  await test.step('"Send and print on scan": the scan alone books and prints', async () => {
    await main.getByRole('checkbox', { name: /Send and print on scan/ }).check();
    await expect(box).toBeFocused();
    await scan(page, 'A-1003');
    await expect(result).toContainText('Order A-1003: shipment made by rule “Denmark parcels” and sent');
    await expect(result.getByRole('heading', { level: 2 })).toHaveText('SHP-000003 Dispatched');
    await expect(result).toContainText('Label sent to Desk printer');
    await expect.poll(labelFiles).toHaveLength(3);
    expect((await api.get(`/orders/${first.id}`)).status).toBe('fulfilled');
    await snap(page, 'pack');
  });

  await test.step('an unknown code, typed after clicking on the page', async () => {
    await main.getByRole('heading', { name: 'Pack' }).click();
    await scan(page, 'NOPE-42');
    await expect(result.getByRole('heading', { level: 2 })).toHaveText('Nothing found for “NOPE-42”');
    await expect(box).toBeFocused();
  });

  await test.step('no rule fits, and an order already packed', async () => {
    await scan(page, 'S-2001');
    await expect(result.getByRole('heading', { level: 2 })).toHaveText('No shipping rule fits this order: choose a carrier on the order page');
    await expect(result.getByRole('link', { name: 'Choose a carrier for order S-2001' })).toBeVisible();
    await scan(page, 'A-1001');
    await expect(result.getByRole('heading', { level: 2 })).toHaveText('Everything in order A-1001 is already packed');
    await expect(result.getByRole('link', { name: 'See the shipments of order A-1001' })).toBeVisible();
    expect(labelFiles()).toHaveLength(3);
  });

  await test.step('a shipment reference shows the shipment, ready for a reprint', async () => {
    await scan(page, 'SHP-000001');
    await expect(result).toContainText('Shipment found by its reference “SHP-000001”, of order A-1001');
    await expect(result.getByRole('heading', { level: 2 })).toHaveText('SHP-000001 Dispatched');
    await expect(result).toContainText('Last print: Label sent to Desk printer');
    await expect(result.getByRole('button', { name: 'Print label' })).toBeVisible();
    await expect(result.getByRole('link', { name: 'Open SHP-000001' })).toBeVisible();
    await expect(box).toBeFocused();
    // Nothing was printed again by looking.
    expect(labelFiles()).toHaveLength(3);
  });

  await test.step('the label printer is down: the label is not lost, and Print label offers another printer first', async () => {
    const spareDir = mkdtempSync(join(tmpdir(), 'shipdesk-e2e-pack-spare-'));
    const downDir = `${labelsDir}-unplugged`;
    try {
      await api.post('/printers', { name: 'Spare printer', driver: 'file', target: spareDir, format: 'pdf', labelSize: '100X150' });
      await order('A-1004');
      renameSync(labelsDir, downDir); // the desk printer's share is gone
      await scan(page, 'A-1004');
      await expect(result.getByRole('heading', { level: 2 })).toHaveText('SHP-000004 Dispatched');
      await expect(result.getByRole('alert')).toContainText('Desk printer');
      await result.getByRole('button', { name: 'Print on another printer…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Print' });
      await expect(dialog.getByLabel('Printer for PDF').locator('option:checked')).toHaveText('Spare printer · 100X150');
      await dialog.getByRole('button', { name: 'Print', exact: true }).click();
      // Printed: the dialog makes way for the next scan, and the card tells where the label went.
      await expect(dialog).toBeHidden();
      await expect(result).toContainText('Label sent to Spare printer');
      await expect(box).toBeFocused();
      expect(readdirSync(spareDir)).toHaveLength(1);
    } finally {
      if (existsSync(downDir)) renameSync(downDir, labelsDir);
      rmSync(spareDir, { recursive: true, force: true });
    }
  });
});

test('lists: a second scan replaces the first; order numbers open their order', async ({ page }) => {
  await signIn(page, EMAIL, PASSWORD);
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText('Shipments'); // an owner's start screen; a packer's is Pack
  const search = page.getByRole('searchbox', { name: 'Search references' });
  await expect(search).toBeFocused();
  await scan(page, 'SHP-000001');
  await expect(heading).toHaveText('Shipment SHP-000001 Dispatched');
  await page.goBack();
  await expect(heading).toHaveText('Shipments');
  await expect(search).toBeFocused();
  await expect(search).toHaveValue('');
  await scan(page, 'SHP-000002');
  await expect(heading).toHaveText('Shipment SHP-000002 Dispatched');

  // The product's name, as the shipment page shows it, not its id.
  await page.goBack();
  const table = page.getByRole('table', { name: 'Shipments' });
  await expect(table.getByRole('row').filter({ hasText: 'SHP-000001' })).toContainText('Own delivery, parcel');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Orders' }).click();
  await expect(heading).toHaveText('Orders');
  const orderSearch = page.getByRole('searchbox', { name: 'Search' });
  await expect(orderSearch).toBeFocused();
  await scan(page, 'A-1001'); // A-10010 is found too; the exact number wins
  await expect(heading).toHaveText('Order A-1001 Fulfilled');
  await expect(page.getByRole('button', { name: 'Create shipment' })).toBeDisabled();
  await expect(page.getByText('Everything in this order is shipped')).toBeVisible();
  await page.goBack();
  await expect(orderSearch).toBeFocused();
  await expect(orderSearch).toHaveValue('');
});

test('a packer starts on Pack', async ({ page }) => {
  const login = await (await page.request.post('/auth/login', { data: { email: EMAIL, password: PASSWORD } })).json();
  const added = await page.request.post(`/orgs/${login.orgs[0].id}/members`, {
    headers: { authorization: `Bearer ${login.accessToken}` },
    data: { email: 'per@pack.example', name: 'Per Packer', password: PASSWORD, role: 'packer' },
  });
  expect(added.ok(), await added.text()).toBe(true);
  await page.goto('/');
  await page.getByLabel('Email').fill('per@pack.example');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pack');
  await expect(page.getByLabel('Scan an order or a shipment')).toBeFocused();
  await expect(page.getByText('Nothing scanned yet.')).toBeVisible();
});

/**
 * What a tester found at a packing station (USERS 1, 4, 5), at the smallest screen a station has:
 * the Pack screen's send prints the label when no rule did, a Print dialog never takes the next
 * scan's Enter, a printer that failed is not remembered, and F5 keeps the scans of the session.
 */
test.describe('a packing station at 1024 × 768', () => {
  test.use({ viewport: { width: 1024, height: 768 } });
  const defaultDir = mkdtempSync(join(tmpdir(), 'shipdesk-e2e-pack-default-'));
  test.afterAll(() => rmSync(defaultDir, { recursive: true, force: true }));

  async function openPack(page: Page) {
    const { call, orgId } = await seedOrganization(page.request, { orgName: 'Pack Hall', name: 'Pia Packer', email: EMAIL, password: PASSWORD });
    await signIn(page, EMAIL, PASSWORD);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pack' }).click();
    const box = page.getByLabel('Scan an order or a shipment');
    await expect(box).toBeFocused();
    const main = page.getByRole('main');
    // Stations that send without checking items (scan-to-verify is e2e/pack-verify.spec.ts).
    await main.getByRole('checkbox', { name: /Check items by scanning/ }).uncheck();
    await expect(box).toBeFocused();
    /** The print jobs of a shipment, from the server's log. */
    const jobsOf = async (reference: string) => {
      const [shipment] = (await call('GET', `/shipments?reference=${reference}`)).data;
      return (await call('GET', `/print-jobs?shipmentId=${shipment.id}`)).data as { status: string; printerId: string }[];
    };
    /** The print jobs of the one shipment of an order. */
    const jobsOfOrder = async (orderNumber: string) => {
      const [order] = (await call('GET', `/orders?orderNumber=${orderNumber}`)).data;
      const [shipment] = (await call('GET', `/shipments?orderId=${order.id}`)).data;
      return jobsOf(shipment.reference);
    };
    /** A Danish order, which the "Denmark parcels" rule prints on the Desk printer. */
    const danishOrder = async (orderNumber: string) =>
      call('POST', '/orders', {
        orderNumber,
        orderChannelId: (await call('GET', '/order-channels')).data[0].id,
        customerName: `Customer ${orderNumber}`,
        shippingAddress: { name: `Customer ${orderNumber}`, address1: 'Storgade 5', postalCode: '2100', city: 'København Ø', countryCode: 'DK' },
        orderLines: [{ name: 'Stoneware mug', sku: 'MUG-01', quantity: 1, weight: 0.4 }],
      });
    /** The organization's default PDF printer, a hot folder of this file. */
    const stationDefault = async () =>
      (await call('GET', '/printers')).data.find((printer: { name: string }) => printer.name === 'Station default') ??
      call('POST', '/printers', { name: 'Station default', driver: 'file', target: defaultDir, format: 'pdf', labelSize: '100X150', isDefault: true });
    return {
      call,
      orgId,
      box,
      main,
      stationDefault,
      result: main.locator('.pack-result'),
      log: main.getByRole('table', { name: 'Scans this session, newest first' }),
      jobsOf,
      jobsOfOrder,
      danishOrder,
    };
  }

  test('Send and print prints the label when the rule does not, and only once when it does', async ({ page }) => {
    const { call, result, jobsOf, jobsOfOrder, danishOrder, stationDefault: makeDefault } = await openPack(page);
    const carrier = (await call('GET', '/carriers')).data.find((one: { name: string }) => one.name === 'Own trucks');
    const shipment = (reference: string) =>
      call('POST', '/shipments', {
        type: 'outbound',
        reference,
        carrierSettings: { carrierId: carrier.id, productId: 'local_parcel' },
        parties: [{ type: 'receiver', name: 'Jens Hansen', address1: 'Nørregade 1', postalCode: '1165', city: 'København K', countryCode: 'DK' }],
        parcels: [{ weight: 1.5, weightUnit: 'kg', dimensions: { length: 30, width: 20, height: 10 }, orderLines: [] }],
      });

    await test.step('no rule and no default printer: sent, and the card says why no label came out', async () => {
      expect((await shipment('NORULE-1')).shippingRule ?? null).toBeNull();
      await scan(page, 'NORULE-1');
      await expect(result.getByRole('button', { name: /Send and print/ })).toBeVisible();
      await page.keyboard.press('Enter');
      await expect(result.getByRole('heading', { level: 2 })).toHaveText('NORULE-1 Dispatched');
      await expect(result.getByRole('alert')).toContainText('No label was printed: No printer chosen and no default printer for PDF');
      await expect(result.getByRole('button', { name: 'Print label' })).toBeVisible();
    });

    const stationDefault = await makeDefault();

    await test.step('no rule: the label goes to the default printer', async () => {
      await shipment('NORULE-2');
      await scan(page, 'NORULE-2');
      await expect(result.getByRole('heading', { level: 2 })).toHaveText('NORULE-2 Pending'); // an Enter before that is ignored
      await page.keyboard.press('Enter');
      await expect(result.getByRole('heading', { level: 2 })).toHaveText('NORULE-2 Dispatched');
      await expect(result).toContainText('Label sent to Station default');
      expect(await jobsOf('NORULE-2')).toMatchObject([{ status: 'done', printerId: stationDefault.id }]);
      expect(readdirSync(defaultDir)).toEqual([expect.stringMatching(/^NORULE-2-/)]);
    });

    await test.step('a rule that does not print labels by itself: the Pack screen prints it', async () => {
      const address = (await call('GET', '/sender-addresses')).data[0];
      await call('POST', '/shipping-rules', {
        name: 'Norway, no printing',
        carrierId: carrier.id,
        productId: 'local_parcel',
        services: [],
        senderAddressId: address.id,
        receivingCountries: ['NO'],
        conditions: [],
        autoPrintLabels: false,
      });
      const channel = (await call('GET', '/order-channels')).data[0];
      await call('POST', '/orders', {
        orderNumber: 'N-3001',
        orderChannelId: channel.id,
        customerName: 'Kari Nordmann',
        shippingAddress: { name: 'Kari Nordmann', address1: 'Storgata 1', postalCode: '0155', city: 'Oslo', countryCode: 'NO' },
        orderLines: [
          { name: 'Stoneware mug', sku: 'MUG-01', quantity: 1, weight: 0.4, unitPrice: 120, currency: 'DKK', hsCode: '6912.00', countryOfOrigin: 'DK' },
        ],
      });
      // Oslo is an export: customs needs the exporter's EORI number (issue 21).
      await call('PUT', '', { eoriNumber: 'DK12345678' });
      await scan(page, 'N-3001');
      await expect(result).toContainText('shipment made by rule “Norway, no printing”, not sent yet');
      await page.keyboard.press('Enter');
      await expect(result).toContainText('Label sent to Station default');
      expect(await jobsOfOrder('N-3001')).toMatchObject([{ status: 'done', printerId: stationDefault.id }]);
    });

    await test.step('a rule that prints: its print only, never a second one from the Pack screen', async () => {
      await danishOrder('A-1006');
      const before = labelFiles().length;
      await scan(page, 'A-1006');
      await expect(result).toContainText('not sent yet');
      await page.keyboard.press('Enter');
      await expect(result).toContainText('Label sent to Desk printer');
      expect(await jobsOfOrder('A-1006')).toHaveLength(1);
      expect(labelFiles()).toHaveLength(before + 1);
      expect(readdirSync(defaultDir)).toHaveLength(2);
    });
  });

  test('after Print label, the next scan is a scan: never a second label', async ({ page }) => {
    const { box, main, result, log, jobsOf, stationDefault } = await openPack(page);
    await stationDefault();
    const dialog = page.getByRole('dialog', { name: 'Print' });
    const printButton = dialog.getByRole('button', { name: 'Print', exact: true });

    await test.step('Enter prints once; the dialog closes and the scan box has the focus', async () => {
      const before = (await jobsOf('SHP-000002')).length;
      await scan(page, 'SHP-000002');
      await result.getByRole('button', { name: 'Print label' }).click();
      await expect(printButton).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(dialog).toBeHidden();
      await expect(box).toBeFocused();
      await expect(result).toContainText('Last print: Label sent to Station default');
      expect(await jobsOf('SHP-000002')).toHaveLength(before + 1);

      await scan(page, 'A-1002');
      await expect(result.getByRole('heading', { level: 2 })).toHaveText('Everything in order A-1002 is already packed');
      await expect(log.getByRole('row').nth(1)).toContainText('A-1002');
      expect(await jobsOf('SHP-000002')).toHaveLength(before + 1);
    });

    await test.step('a scan read while the dialog is open prints nothing and is handled as a scan', async () => {
      await scan(page, 'SHP-000002');
      const before = (await jobsOf('SHP-000002')).length;
      await result.getByRole('button', { name: 'Print label' }).click();
      await expect(printButton).toBeFocused();
      await scan(page, 'A-1003');
      await expect(dialog).toBeHidden();
      await expect(result.getByRole('heading', { level: 2 })).toHaveText('Everything in order A-1003 is already packed');
      await expect(log.getByRole('row').nth(1)).toContainText('A-1003');
      await expect(box).toBeFocused();
      expect(await jobsOf('SHP-000002')).toHaveLength(before);
      await expect(main.getByRole('dialog')).toHaveCount(0);
    });
  });

  test('a printer whose print failed is not remembered; the next send prints where it should', async ({ page }) => {
    const { call, orgId, result, jobsOfOrder, danishOrder, stationDefault } = await openPack(page);
    const working = await stationDefault();
    const unplugged = await call('POST', '/printers', {
      name: 'Unplugged desk',
      driver: 'file',
      target: `${defaultDir}-not-mounted`,
      format: 'pdf',
      labelSize: '100X150',
    });
    const desk = (await call('GET', '/printers')).data.find((printer: { name: string }) => printer.name === 'Desk printer');
    const remembered = () => page.evaluate((key) => localStorage.getItem(key), `shipdesk.printer.${orgId}.pdf`);
    const dialog = page.getByRole('dialog', { name: 'Print' });

    await scan(page, 'SHP-000002');
    await result.getByRole('button', { name: 'Print label' }).click();
    const choice = dialog.getByLabel('Printer for PDF');
    await choice.selectOption({ label: 'Unplugged desk · 100X150' });
    await dialog.getByRole('button', { name: 'Print', exact: true }).click();
    await expect(dialog.getByRole('table', { name: 'Print jobs' })).toContainText('Failed');
    await expect(dialog.getByText('Remembered on this station once you print')).toBeVisible();
    expect(await remembered()).not.toBe(unplugged.id);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // The rule's own printer takes the next label, not the one that just failed.
    await danishOrder('A-1007');
    await scan(page, 'A-1007');
    await expect(result).toContainText('not sent yet');
    await page.keyboard.press('Enter');
    await expect(result).toContainText('Label sent to Desk printer');
    expect(await jobsOfOrder('A-1007')).toMatchObject([{ status: 'done', printerId: desk.id }]);

    // A print that worked is remembered.
    await result.getByRole('button', { name: 'Print label' }).click();
    await choice.selectOption({ label: 'Station default · 100X150 (default)' });
    await dialog.getByRole('button', { name: 'Print', exact: true }).click();
    await expect(dialog).toBeHidden();
    expect(await remembered()).toBe(working.id);
  });

  test('the scans of the session survive a reload, not a sign-out', async ({ page }) => {
    const { box, log } = await openPack(page);
    await scan(page, 'NOPE-77');
    await expect(log.getByRole('row').nth(1)).toContainText('Nothing found');
    await page.reload();
    await expect(box).toBeFocused();
    await expect(log.getByRole('row').nth(1)).toContainText('NOPE-77');
    await expect(log.getByRole('row').nth(1)).toContainText('Nothing found');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, EMAIL, PASSWORD);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pack' }).click();
    await expect(page.getByText('Nothing scanned yet.')).toBeVisible();
  });
});
