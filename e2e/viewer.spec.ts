import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';

/**
 * A viewer (decisions §3: read:all only) reads shipments and orders without being offered what their
 * role cannot do: no button that would only end in a FORBIDDEN, and a note saying why. The owner's
 * screens keep every action (the other specs drive them).
 */
test('a viewer sees shipments, orders and their documents read-only, with the reason, and Pack tells them it is not theirs', async ({ page }) => {
  const owner = { orgName: 'Glass Hall', name: 'Gro Glass', email: 'gro@glass.example', password: 'glass glass glass' };
  const { call } = await seedOrganization(page.request, owner);
  const address = (await call('POST', '/sender-addresses', {
    name: 'Glass dock',
    address1: 'Havnen 3',
    zipcode: '5000',
    city: 'Odense',
    countryCode: 'DK',
  })) as { id: string };
  const carrier = (await call('POST', '/carriers', { name: 'Glass vans', carrierSlug: 'local', config: {}, senderAddressId: address.id })) as { id: string };
  const channel = (await call('POST', '/order-channels', { name: 'Phone', type: 'manual', config: {} })) as { id: string };
  const order = (await call('POST', '/orders', {
    orderNumber: 'G-1',
    orderChannelId: channel.id,
    shippingAddress: { name: 'Vera Vik', address1: 'Strandvej 9', city: 'Aarhus C', postalCode: '8000', countryCode: 'DK' },
    orderLines: [{ name: 'Vase', sku: 'VASE-1', quantity: 2, weight: 1 }],
  })) as { id: string };
  const shipment = (await call('POST', `/orders/${order.id}/shipments`, { carrierId: carrier.id, productId: 'local_parcel' })) as {
    id: string;
    reference: string;
  };
  await call('POST', `/shipments/${shipment.id}/send`, {});
  await call('POST', '/members', { email: 'vic@glass.example', name: 'Vic Viewer', role: 'viewer', password: 'viewer viewer viewer' });

  await signIn(page, 'vic@glass.example', 'viewer viewer viewer');
  const main = page.getByRole('main');
  const heading = main.getByRole('heading', { level: 1 });
  const note = main.getByText('Your role (viewer) can look at');

  await test.step('shipments list: the rows, without selection, Send selected or New shipment', async () => {
    await page.goto('/#/shipments');
    await expect(heading).toHaveText('Shipments');
    await expect(main.getByRole('table', { name: 'Shipments' }).getByRole('row').filter({ hasText: shipment.reference })).toBeVisible();
    await expect(note).toContainText('shipments but not change them');
    await expect(main.getByRole('checkbox')).toHaveCount(0);
    await expect(main.getByRole('button', { name: /Send selected|New shipment/ })).toHaveCount(0);
  });

  await test.step('a shipment: its facts and label to preview and download, no action, split or print', async () => {
    await page.goto(`/#/shipments/${encodeURIComponent(shipment.id)}`);
    await expect(heading).toHaveText(`Shipment ${shipment.reference} Dispatched`);
    await expect(note).toBeVisible();
    const documents = main.getByRole('table', { name: 'Documents' });
    await expect(documents.getByRole('button', { name: /^Preview / })).toBeVisible();
    await expect(documents.getByRole('button', { name: /^Download / })).toBeVisible();
    await expect(main.getByRole('button', { name: /^Print|Cancel shipment|Create return/ })).toHaveCount(0);
    await documents.getByRole('button', { name: /^Preview / }).click();
    const preview = page.getByRole('dialog');
    await expect(preview.getByRole('button', { name: 'Download' })).toBeVisible();
    await expect(preview.getByRole('button', { name: 'Print…' })).toHaveCount(0);
    await preview.getByRole('button', { name: 'Close dialog' }).click();
  });

  await test.step('the new-shipment form, reached by its address, is read-only', async () => {
    await page.goto('/#/shipments/new');
    await expect(heading).toHaveText('New shipment');
    await expect(note).toBeVisible();
    await expect(main.getByLabel('Reference')).toBeDisabled();
    await expect(main.getByRole('button', { name: 'Create outbound shipment' })).toBeDisabled();
  });

  await test.step('orders: the list and an order without New order, Import, Create shipment, Edit or Cancel', async () => {
    await page.goto('/#/orders');
    await expect(heading).toHaveText('Orders');
    await expect(note).toContainText('orders but not change them');
    await expect(main.getByRole('button', { name: /New order|Import CSV|Get new orders/ })).toHaveCount(0);
    await main.getByRole('link', { name: 'G-1' }).click();
    await expect(heading).toHaveText('Order G-1 Fulfilled');
    await expect(main.getByRole('table', { name: 'Order lines' })).toContainText('Vase');
    await expect(main.getByRole('button', { name: /Create shipment|Edit order|Cancel order|Delete order/ })).toHaveCount(0);
  });

  await test.step('Pack says it is for roles that may send shipments, and offers no scan box', async () => {
    await page.goto('/#/pack');
    await expect(heading).toHaveText('Pack');
    await expect(note).toContainText('this screen is for packers, admins and owners');
    await expect(main.getByLabel('Scan an order or a shipment')).toHaveCount(0);
  });
});
