import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';

/**
 * The organization's own details, saved on its settings screen and used where the decisions say
 * (the company name as the sender on new shipments), and an order cancelled from its page.
 */
test('organization details saved on the settings screen name the sender of new shipments; an order is cancelled from its page', async ({ page }) => {
  const owner = { orgName: 'Fjord Hall', name: 'Frida Fjord', email: 'frida@fjord.example', password: 'fjord fjord fjord' };
  const { orgId, call } = await seedOrganization(page.request, owner);
  const address = (await call('POST', '/sender-addresses', { name: 'Fjord dock', address1: 'Kajen 1', zipcode: '9000', city: 'Aalborg', countryCode: 'DK' })) as { id: string };
  const carrier = (await call('POST', '/carriers', { name: 'Fjord vans', carrierSlug: 'local', config: {}, senderAddressId: address.id })) as { id: string };
  const channel = (await call('POST', '/order-channels', { name: 'Phone', type: 'manual', config: {} })) as { id: string };
  await signIn(page, owner.email, owner.password);
  const main = page.getByRole('main');
  const heading = main.getByRole('heading', { level: 1 });

  await test.step('organization: company name and currency saved', async () => {
    await page.goto('/#/settings/organization');
    await expect(heading).toHaveText('Organization');
    await main.getByLabel('Company name').fill('Fjord Trading ApS');
    await main.getByLabel('Currency').selectOption('EUR');
    await main.getByRole('button', { name: 'Save organization' }).click();
    await expect(main.getByRole('status').filter({ hasText: /^Saved / })).toBeVisible();
    expect(await call('GET', '')).toMatchObject({ id: orgId, companyName: 'Fjord Trading ApS', currency: 'EUR' });
  });

  await test.step('a new shipment without a sender party is sent in the company’s name', async () => {
    const shipment = (await call('POST', '/shipments', {
      type: 'outbound',
      carrierSettings: { carrierId: carrier.id, productId: 'local_parcel' },
      parties: [{ type: 'receiver', name: 'Ole Olsen', address1: 'Vestergade 2', postalCode: '8000', city: 'Aarhus C', countryCode: 'DK' }],
    })) as { parties: { type: string; name: string }[] };
    expect(shipment.parties.find((party) => party.type === 'sender')).toMatchObject({ name: 'Fjord Trading ApS' });
  });

  await test.step('cancel order: asked first, then cancelled, and no shipment can be made from it', async () => {
    const order = (await call('POST', '/orders', {
      orderNumber: 'F-1',
      orderChannelId: channel.id,
      shippingAddress: { name: 'Ole Olsen', address1: 'Vestergade 2', city: 'Aarhus C', postalCode: '8000', countryCode: 'DK' },
      orderLines: [{ name: 'Rope', sku: 'ROPE-10', quantity: 1, weight: 2 }],
    })) as { id: string };
    await page.goto(`/#/orders/${encodeURIComponent(order.id)}`);
    await expect(heading).toHaveText('Order F-1 Pending');
    await main.getByRole('button', { name: 'Cancel order' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel order F-1?' });
    await dialog.getByRole('button', { name: 'Cancel order' }).click();
    await expect(dialog).toBeHidden();
    await expect(heading).toHaveText('Order F-1 Cancelled');
    await expect(main.getByRole('button', { name: 'Create shipment' })).toBeDisabled();
    expect(((await call('GET', `/orders/${order.id}`)) as { status: string }).status).toBe('cancelled');
  });
});
