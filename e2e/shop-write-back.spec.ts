import Database from 'better-sqlite3';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';

/**
 * Issue 22: the order screen says what the shop was told about each shipment, and offers Retry once
 * the last attempt has failed. The shop here cannot be reached (a .invalid host), so the real
 * background task records a real failure; the six attempts over seven hours are then stood in for by
 * writing the outbox row as the last attempt leaves it.
 */
test('a shop order shows its write-back state, and Retry queues a failed one again', async ({ page, server }) => {
  const owner = { orgName: 'Shop Hall', name: 'Sam Shop', email: 'sam@shop.example', password: 'tell the shop' };
  const { call } = await seedOrganization(page.request, owner);
  const address = (await call('POST', '/sender-addresses', {
    name: 'Shop warehouse',
    attContact: 'Sam',
    address1: 'Kajvej 5',
    zipcode: '8000',
    city: 'Aarhus C',
    countryCode: 'DK',
    phone: '+4570101011',
  })) as { id: string };
  const carrier = (await call('POST', '/carriers', { name: 'Our van', carrierSlug: 'local', config: {}, senderAddressId: address.id })) as { id: string };
  const channel = (await call('POST', '/order-channels', {
    name: 'Web shop',
    type: 'woocommerce',
    config: { siteUrl: 'https://shop-hall.invalid', consumerKey: 'ck_e2e', consumerSecret: 'cs_e2e', syncIntervalMinutes: 0 },
  })) as { id: string };
  const order = (await call('POST', '/orders', {
    orderNumber: 'W-321',
    externalId: '321',
    orderChannelId: channel.id,
    shippingAddress: { name: 'Bo Berg', address1: 'Havnegade 1', city: 'Odense C', postalCode: '5000', countryCode: 'DK' },
    orderLines: [{ name: 'Tea tin', sku: 'TEA-02', quantity: 1, weight: 0.2, weightUnit: 'kg' }],
  })) as { id: string };
  const shipment = (await call('POST', `/orders/${order.id}/shipments`, { carrierId: carrier.id, productId: 'local_parcel' })) as {
    id: string;
    reference: string;
  };
  await call('POST', `/shipments/${shipment.id}/send`, {});

  await signIn(page, owner.email, owner.password);
  await page.goto(`/#/orders/${encodeURIComponent(order.id)}`);
  const card = page.getByRole('main').getByRole('region', { name: 'Told to the shop' });
  await expect(card.getByText(/Waiting to be sent to WooCommerce|Not sent yet: WooCommerce \(shop-hall\.invalid\) could not be reached/)).toBeVisible();
  await expect(card.getByRole('button', { name: /Retry/ })).toHaveCount(0);

  const db = new Database(join(server.dataDir, 'shipdesk.sqlite'));
  try {
    db.prepare(
      "UPDATE shop_fulfillments SET status = 'failed', attempts = 6, next_attempt_at = NULL, last_error = 'WooCommerce (shop-hall.invalid) could not be reached' WHERE shipment_id = ?",
    ).run(shipment.id);
  } finally {
    db.close();
  }
  await page.reload();
  await expect(card.getByText('Not sent to WooCommerce: WooCommerce (shop-hall.invalid) could not be reached')).toBeVisible();
  const retry = card.getByRole('button', { name: `Retry sending shipment ${shipment.reference} to WooCommerce` });
  await retry.focus();
  await page.keyboard.press('Enter');
  await expect(card.getByRole('status')).toHaveText(`Shipment ${shipment.reference} is queued to be sent to WooCommerce again.`);
  await expect(retry).toHaveCount(0);
  await expect(card.getByText(/Waiting to be sent to WooCommerce|Not sent yet: WooCommerce \(shop-hall\.invalid\) could not be reached/)).toBeVisible();
});
