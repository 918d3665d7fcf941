import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test as base } from './fixtures';
import { seedOrganization, signIn } from './seed';
import { closedPort } from '../src-main/testing/printing';

/** The fake shop's key pair; the file's server trusts its certificate. */
interface ShopCertificate {
  key: Buffer;
  cert: Buffer;
}

/**
 * The fake shop below serves https on 127.0.0.1 with a throwaway certificate. The Shipdesk server
 * reads NODE_EXTRA_CA_CERTS once, when it starts (with the file's first test), so the certificate is
 * made by a worker fixture, which is set up before any test's. A file with its own worker fixtures
 * gets a worker of its own, so no other file's server is started with it.
 */
const test = base.extend<object, { shopCertificate: ShopCertificate }>({
  shopCertificate: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as the first argument
    async ({}, use) => {
      const dir = mkdtempSync(join(tmpdir(), 'shipdesk-e2e-shop-cert-'));
      const previous = process.env.NODE_EXTRA_CA_CERTS;
      // openssl comes with every Debian and with scripts/install-system-deps.sh.
      const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          key,
          '-out',
          cert,
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
        ],
        { stdio: 'ignore' },
      );
      const certificate: ShopCertificate = { key: readFileSync(key), cert: readFileSync(cert) };
      // Added to the certificates the environment already trusts, not in their place.
      const bundle = join(dir, 'trusted.pem');
      writeFileSync(bundle, Buffer.concat([previous && existsSync(previous) ? readFileSync(previous) : Buffer.alloc(0), Buffer.from('\n'), certificate.cert]));
      process.env.NODE_EXTRA_CA_CERTS = bundle;
      await use(certificate);
      if (previous === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
      else process.env.NODE_EXTRA_CA_CERTS = previous;
      rmSync(dir, { recursive: true, force: true });
    },
    { scope: 'worker', auto: true },
  ],
});

/**
 * Bringing orders in from the Orders screen: a CSV file from a spreadsheet, and "Get new orders"
 * from the shops. The file's server is set up once, so both tests use the same owner.
 */
const owner = { orgName: 'Import Hall', name: 'Ida Importer', email: 'ida@import.example', password: 'a long password' };

async function openOrders(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Orders' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
}

test('import CSV: good orders come in, a bad row is listed, the same file again is skipped', async ({ page }) => {
  const { call: api } = await seedOrganization(page.request, owner);
  const channel = await api('POST', '/order-channels', { name: 'Spreadsheet', type: 'csv' });
  // Header is row 1; order 3001 has two lines (rows 2–3), 3002 one (row 4), 3003 a quantity of 0 (row 5).
  const csv = [
    'orderNumber,orderChannelId,customerName,shippingName,shippingAddress1,shippingPostalCode,shippingCity,shippingCountryCode,lineName,lineSku,lineQuantity,lineWeight',
    `3001,${channel.id},"Hansen, Jens",Jens Hansen,Nørregade 1,1165,København K,DK,Stoneware mug,MUG-01,2,0.4`,
    `3001,${channel.id},,,,,,,Teapot,POT-01,1,1.2`,
    `3002,${channel.id},Åse Olsen,Åse Olsen,Storgata 3,0155,Oslo,NO,Tea tin,TEA-02,3,0.2`,
    `3003,${channel.id},Ida Berg,Ida Berg,Storgatan 3,11122,Stockholm,SE,Stoneware mug,MUG-01,0,0.4`,
  ].join('\n');
  const file = { name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') };

  await signIn(page, owner.email, owner.password);
  await openOrders(page);
  // No shop is connected yet: nothing to get.
  await expect(page.getByRole('button', { name: 'Get new orders' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Import CSV…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import orders from CSV' });
  await expect(dialog).toContainText('orderChannelId');

  // A file the server refuses whole (an unknown column) says why, and imports nothing.
  await dialog.getByLabel('CSV file').setInputFiles({
    name: 'wrong.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`orderNumber,orderChannelId,lineName,lineQuantity,colour\n1,${channel.id},Mug,1,red\n`),
  });
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  const refusal = dialog.getByRole('alert');
  await expect(refusal).toContainText('The file was not imported');
  await expect(refusal).toContainText('colour');

  // A file that is not UTF-8 (Excel's plain "CSV" is Windows-1252) is refused in the app itself,
  // saying how to save it, rather than sent with "\ufffd" where its "ø" were.
  let importsSent = 0;
  const countImports = (request: { url(): string }) => void (importsSent += request.url().includes('/orders/import') ? 1 : 0);
  page.on('request', countImports);
  const windows1252 = Buffer.concat([
    Buffer.from(`orderNumber,orderChannelId,customerName,lineName,lineQuantity\n9001,${channel.id},S`),
    Buffer.from([0xf8]),
    Buffer.from('ren,Mug,1\n'),
  ]);
  await dialog.getByLabel('CSV file').setInputFiles({ name: 'old-excel.csv', mimeType: 'text/csv', buffer: windows1252 });
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(refusal).toContainText('not UTF-8');
  await expect(refusal).toContainText('CSV UTF-8');
  expect(importsSent).toBe(0);
  page.off('request', countImports);

  // While the server works the packer sees so, and cannot press Import twice.
  let releaseImport: () => void = () => {};
  const importHeld = new Promise<void>((resolve) => (releaseImport = resolve));
  await page.route(
    (url) => url.pathname.endsWith('/orders/import'),
    async (route) => {
      await importHeld;
      await route.continue();
    },
    { times: 1 },
  );
  await dialog.getByLabel('CSV file').setInputFiles(file);
  await expect(dialog).toContainText('orders.csv');
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Importing… large files take a few seconds' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Importing…' })).toBeDisabled();
  releaseImport();

  await expect(dialog.getByRole('status').filter({ hasText: 'imported' })).toHaveText('2 orders imported, 0 already there (skipped)');
  const rowErrors = dialog.getByRole('table', { name: 'Rows not imported' });
  await expect(rowErrors.getByRole('row')).toHaveCount(2);
  await expect(rowErrors.getByRole('row').nth(1)).toContainText('5');
  await expect(rowErrors.getByRole('row').nth(1)).toContainText('lineQuantity');

  // The list behind the dialog has reloaded: 3001 and 3002 are there, 3003 is not.
  await dialog.getByRole('button', { name: 'Close dialog' }).click();
  const orders = page.getByRole('table', { name: 'Orders' });
  await expect(orders.getByRole('link', { name: '3001', exact: true })).toBeVisible();
  await expect(orders.getByRole('link', { name: '3002', exact: true })).toBeVisible();
  await expect(orders.getByRole('link', { name: '3003', exact: true })).toHaveCount(0);

  // The same file again creates nothing: both orders are already there.
  await page.getByRole('button', { name: 'Import CSV…' }).click();
  await dialog.getByLabel('CSV file').setInputFiles(file);
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'imported' })).toHaveText('0 orders imported, 2 already there (skipped)');
  await expect(dialog.getByRole('table', { name: 'Rows not imported' })).toBeVisible();
  // Focus comes back to the dialog's button, so Enter or Tab carry on from there.
  await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toBeFocused();

  // A shop's export has no Shipdesk channel ids: the chosen channel takes its rows.
  await expect(dialog.getByLabel('Channel of the orders')).toHaveValue(channel.id);
  await dialog.getByLabel('CSV file').setInputFiles({
    name: 'shop-export.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('orderNumber,customerName,lineName,lineQuantity\n4001,Bo Berg,Mug,1\n'),
  });
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'imported' })).toHaveText('1 order imported, 0 already there (skipped)');
  await dialog.getByRole('button', { name: 'Close dialog' }).click();
  await expect(orders.getByRole('link', { name: '4001', exact: true })).toBeVisible();
});

/**
 * A WooCommerce shop on https://127.0.0.1 (a channel's siteUrl must be https). A Shopify fake cannot
 * be reached this way: a Shopify channel must name a *.myshopify.com domain, and the headless server
 * has no setting for the storefront origin that tests give the app in-process.
 */
interface FakeWooShop {
  siteUrl: string;
  orders: Record<string, unknown>[];
  close(): Promise<void>;
}

const fakeKeys = { consumerKey: 'ck_e2e_key', consumerSecret: 'cs_e2e_secret' };

async function startFakeWooShop(certificate: ShopCertificate, orders: Record<string, unknown>[]): Promise<FakeWooShop> {
  const expected = `Basic ${Buffer.from(`${fakeKeys.consumerKey}:${fakeKeys.consumerSecret}`).toString('base64')}`;
  const server: Server = createHttpsServer(certificate, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://fake');
    if (url.pathname !== '/wp-json/wc/v3/orders') return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"rest_no_route"}');
    if (req.headers.authorization !== expected)
      return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"woocommerce_rest_cannot_view"}');
    res.writeHead(200, { 'content-type': 'application/json', 'x-wp-total': String(orders.length), 'x-wp-totalpages': '1' }).end(JSON.stringify(orders));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    siteUrl: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    orders,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function wooOrder(id: number, quantity = 1) {
  return {
    id,
    number: `W-${id}`,
    status: 'processing',
    currency: 'EUR',
    total: '25.00',
    billing: { first_name: 'Hans', last_name: 'Meier', email: `hans${id}@example.de` },
    shipping: { first_name: 'Hans', last_name: 'Meier', address_1: 'Hauptstr. 1', city: 'Berlin', postcode: '10115', country: 'DE' },
    line_items: [{ id: id * 10, name: 'Tea tin', product_id: 31, variation_id: 0, quantity, sku: 'TEA-02', price: 12.5, total: '25.00' }],
  };
}

test('get new orders: each shop synced in turn, with what it brought in or why it could not be read', async ({ page, shopCertificate }) => {
  const shop = await startFakeWooShop(shopCertificate, [wooOrder(901), wooOrder(902), wooOrder(903, 0)]);
  try {
    const { call: api } = await seedOrganization(page.request, owner);
    // The starter plan has room for two channels: the earlier test's CSV channel makes way (its orders stay).
    for (const old of (await api('GET', '/order-channels')).data as { id: string }[]) await api('DELETE', `/order-channels/${old.id}`);
    await api('POST', '/order-channels', { name: 'Corner Shop', type: 'woocommerce', config: { siteUrl: shop.siteUrl, ...fakeKeys } });
    await api('POST', '/order-channels', {
      name: 'Closed Shop',
      type: 'woocommerce',
      config: { siteUrl: `https://127.0.0.1:${await closedPort()}`, ...fakeKeys },
    });

    await signIn(page, owner.email, owner.password);
    await openOrders(page);
    // Each sync is held a moment, so the progress line can be read.
    await page.route('**/order-channels/*/sync', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Get new orders' }).click();
    const dialog = page.getByRole('dialog', { name: 'Get new orders' });
    const progress = dialog.getByRole('status');
    await expect(progress).toHaveText(/^Syncing (Corner|Closed) Shop \(1 of 2\)…$/);
    await expect(progress).toHaveText(/^Syncing (Corner|Closed) Shop \(2 of 2\)…$/);
    await expect(progress).toHaveText('Done: 1 of 2 shops read; 1 could not be read.');

    const corner = dialog.getByRole('region', { name: /Corner Shop/ });
    await expect(corner).toContainText('2 orders imported, 0 already there (skipped)');
    const notImported = corner.getByRole('table', { name: 'Orders not imported from Corner Shop' });
    await expect(notImported.getByRole('row').nth(1)).toContainText('903');

    const closed = dialog.getByRole('region', { name: /Closed Shop/ });
    await expect(closed.getByRole('alert')).toContainText('no orders were imported');
    await expect(closed.getByRole('alert')).toContainText('UNREACHABLE');
    await expect(closed.getByRole('alert')).toContainText('STOREFRONT_ERROR');

    await dialog.getByRole('button', { name: 'Close dialog' }).click();
    const orders = page.getByRole('table', { name: 'Orders' });
    await expect(orders.getByRole('link', { name: 'W-901', exact: true })).toBeVisible();
    await expect(orders.getByRole('link', { name: 'W-902', exact: true })).toBeVisible();

    // Syncing again brings nothing twice.
    await page.getByRole('button', { name: 'Get new orders' }).click();
    await expect(progress).toHaveText('Done: 1 of 2 shops read; 1 could not be read.');
    await expect(corner).toContainText('0 orders imported, 2 already there (skipped)');
  } finally {
    await shop.close();
  }
});
