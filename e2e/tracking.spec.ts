import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';

/**
 * Own deliveries (the `local` carrier, decisions §13): nobody can be asked where the van is, so the
 * packer sets the status by hand on the shipment page; the shipments list shows it in its Tracking
 * column and filters on it.
 */
test('a local shipment delivered by hand: status and event on the page, the Tracking column and filter', async ({ page }) => {
  const owner = { orgName: 'Van Hall', name: 'Vera Van', email: 'vera@van.example', password: 'own van all day' };
  const { call } = await seedOrganization(page.request, owner);
  const address = (await call('POST', '/sender-addresses', {
    name: 'Van warehouse',
    attContact: 'Vera',
    address1: 'Kajvej 5',
    zipcode: '8000',
    city: 'Aarhus C',
    countryCode: 'DK',
    phone: '+4570101011',
  })) as { id: string };
  const carrier = (await call('POST', '/carriers', { name: 'Our van', carrierSlug: 'local', config: {}, senderAddressId: address.id })) as { id: string };
  const body = (name: string) => ({
    type: 'outbound',
    carrierSettings: { carrierId: carrier.id, productId: 'local_parcel' },
    parties: [{ type: 'receiver', name, address1: 'Havnegade 1', postalCode: '5000', city: 'Odense C', countryCode: 'DK' }],
    parcels: [{ weight: 1, weightUnit: 'kg', dimensions: { length: 20, width: 15, height: 10 } }],
  });
  const delivered = (await call('POST', '/shipments', body('Bo Berg'))) as { id: string; reference: string };
  const moving = (await call('POST', '/shipments', body('Kim Krog'))) as { id: string; reference: string };
  await call('POST', `/shipments/${delivered.id}/send`, {});
  await call('POST', `/shipments/${moving.id}/send`, {});

  await signIn(page, owner.email, owner.password);
  const main = page.getByRole('main');

  await test.step('set by hand on the shipment page', async () => {
    await page.goto(`/#/shipments/${encodeURIComponent(delivered.id)}`);
    const card = main.getByRole('region', { name: 'Tracking' });
    await expect(card.locator('dd').getByText('Not yet moving')).toBeVisible();
    await expect(card.getByText('No tracking events yet.')).toBeVisible();
    const form = card.getByRole('form', { name: 'Set the status by hand' });
    await form.getByLabel('New status').selectOption({ label: 'Delivered' });
    await form.getByLabel('What happened').fill('Delivered by our own van');
    await form.getByRole('button', { name: 'Save status' }).click();
    const events = card.getByRole('list', { name: 'Tracking events, newest first' });
    await expect(events.getByRole('listitem')).toHaveCount(1);
    await expect(events.getByRole('listitem').first()).toContainText('Delivered by our own van');
    await expect(card.locator('dd').getByText('Delivered', { exact: true })).toBeVisible();
  });

  await test.step('the list shows the tracking status and filters on it', async () => {
    await page.goto('/#/shipments');
    const table = main.getByRole('table', { name: 'Shipments' });
    await expect(table.getByRole('columnheader', { name: 'Tracking' })).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: delivered.reference })).toContainText('Delivered');
    await expect(table.getByRole('row').filter({ hasText: moving.reference })).toContainText('Not yet moving');
    await main.getByRole('combobox', { name: /^Tracking/ }).selectOption({ label: 'Delivered' });
    await expect(table.getByRole('row').filter({ hasText: moving.reference })).toHaveCount(0);
    await expect(table.getByRole('row').filter({ hasText: delivered.reference })).toHaveCount(1);
  });
});
