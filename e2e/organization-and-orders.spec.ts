import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';

/**
 * The organization's own details, saved on its settings screen and used where the decisions say
 * (the company name as the sender on new shipments), an order edited and then cancelled from its page,
 * and one typed in by mistake deleted.
 */
test('organization details saved on the settings screen name the sender of new shipments; an order is edited and cancelled from its page, a mistaken one deleted', async ({
  page,
}) => {
  const owner = { orgName: 'Fjord Hall', name: 'Frida Fjord', email: 'frida@fjord.example', password: 'fjord fjord fjord' };
  const { orgId, call } = await seedOrganization(page.request, owner);
  const address = (await call('POST', '/sender-addresses', {
    name: 'Fjord dock',
    address1: 'Kajen 1',
    zipcode: '9000',
    city: 'Aalborg',
    countryCode: 'DK',
  })) as { id: string };
  const carrier = (await call('POST', '/carriers', { name: 'Fjord vans', carrierSlug: 'local', config: {}, senderAddressId: address.id })) as { id: string };
  const channel = (await call('POST', '/order-channels', { name: 'Phone', type: 'manual', config: {} })) as { id: string };
  await signIn(page, owner.email, owner.password);
  const main = page.getByRole('main');
  const heading = main.getByRole('heading', { level: 1 });

  await test.step('organization: company name, currency and EORI number saved', async () => {
    await page.goto('/#/settings/organization');
    await expect(heading).toHaveText('Organization');
    await main.getByLabel('Company name').fill('Fjord Trading ApS');
    await main.getByLabel('Currency').selectOption('EUR');
    // Typed as a person copies it from a letter: spaces and lower case are tidied.
    await main.getByLabel('EORI number').fill('dk 1234 5678');
    await main.getByRole('button', { name: 'Save organization' }).click();
    await expect(main.getByRole('status').filter({ hasText: /^Saved / })).toBeVisible();
    expect(await call('GET', '')).toMatchObject({ id: orgId, companyName: 'Fjord Trading ApS', currency: 'EUR', eoriNumber: 'DK12345678' });
    await expect(main.getByLabel('EORI number')).toHaveValue('DK12345678');
  });

  await test.step('a new shipment without a sender party is sent in the company’s name', async () => {
    const shipment = (await call('POST', '/shipments', {
      type: 'outbound',
      carrierSettings: { carrierId: carrier.id, productId: 'local_parcel' },
      parties: [{ type: 'receiver', name: 'Ole Olsen', address1: 'Vestergade 2', postalCode: '8000', city: 'Aarhus C', countryCode: 'DK' }],
    })) as { parties: { type: string; name: string }[] };
    expect(shipment.parties.find((party) => party.type === 'sender')).toMatchObject({ name: 'Fjord Trading ApS' });
  });

  const order = (await call('POST', '/orders', {
    orderNumber: 'F-1',
    orderChannelId: channel.id,
    customerName: 'Ole Olsen',
    totalAmount: 100,
    currency: 'DKK',
    shippingAddress: { name: 'Ole Olsen', address1: 'Vestergade 2', city: 'Aarhus C', postalCode: '8000', countryCode: 'DK', province: 'Midtjylland' },
    orderLines: [
      { name: 'Rope', sku: 'ROPE-10', quantity: 1, weight: 2, barcode: '5701234567890', vendor: 'Ropes Ltd' },
      { name: 'Hook', sku: 'HOOK-1', quantity: 2, weight: 0.1 },
    ],
  })) as { id: string; orderLines: { id: string; sku: string }[] };

  await test.step('new order: the required fields are marked as on the other forms; an address may be left out, a partial one not', async () => {
    await page.goto('/#/orders');
    await main.getByRole('button', { name: 'New order' }).click();
    const form = page.getByRole('form', { name: 'New order' });
    for (const label of ['Order channel (required)', 'Order number (required)', 'Customer name', 'Customer email']) {
      await expect(form.getByLabel(label, { exact: true })).toBeVisible();
    }
    const address = form.getByRole('group', { name: 'Shipping address' });
    await expect(address).toHaveAccessibleDescription('May be left empty. Once any of it is filled in, the fields marked required are needed.');
    for (const label of [
      'Name (required)',
      'Company',
      'Address (required)',
      'Address, second line',
      'Postal code (required)',
      'City (required)',
      'Country (required)',
      'Phone',
    ]) {
      await expect(address.getByLabel(label, { exact: true })).toBeVisible();
    }
    const line = form.getByRole('group', { name: 'Line 1' });
    for (const label of ['Name (required)', 'SKU', 'Quantity (required)', 'Unit price']) {
      await expect(line.getByLabel(label, { exact: true })).toBeVisible();
    }
    // What the marks say is what the form holds to: a city alone asks for the rest of the address.
    await form.getByLabel('Order number (required)').fill('F-0');
    await line.getByLabel('Name (required)').fill('Rope');
    await address.getByLabel('City (required)').fill('Aarhus C');
    await form.getByRole('button', { name: 'Create order' }).click();
    await expect(address.getByLabel('Postal code (required)')).toHaveAccessibleDescription('Required when an address is given.');
    await form.getByRole('button', { name: 'Close' }).click();
    await expect(form).toBeHidden();
  });

  await test.step('edit order: a quantity, the city and the lines changed; what the form does not show is kept', async () => {
    const rope = order.orderLines.find((line) => line.sku === 'ROPE-10');
    await page.goto(`/#/orders/${encodeURIComponent(order.id)}`);
    await expect(heading).toHaveText('Order F-1 Pending');
    await main.getByRole('button', { name: 'Edit order' }).click();
    const form = page.getByRole('form', { name: 'Edit order F-1' });
    await expect(form.getByLabel('Customer name')).toHaveValue('Ole Olsen');
    const line1 = form.getByRole('group', { name: 'Line 1' });
    await expect(line1.getByLabel('Name')).toHaveValue('Rope');
    await line1.getByLabel('Quantity').fill('3');
    await form.getByRole('group', { name: 'Shipping address' }).getByLabel('City').fill('Aarhus N');
    await form.getByRole('button', { name: 'Remove line 2' }).click();
    await form.getByRole('button', { name: 'Add line' }).click();
    const added = form.getByRole('group', { name: 'Line 2' });
    await added.getByLabel('Name').fill('Tarp');
    await added.getByLabel('SKU').fill('TARP-3');
    await form.getByRole('button', { name: 'Save order' }).click();
    await expect(form).toBeHidden();
    await expect(main.getByRole('table', { name: 'Order lines' }).getByRole('row').filter({ hasText: 'Tarp' })).toBeVisible();

    const saved = (await call('GET', `/orders/${order.id}`)) as {
      orderLines: Record<string, unknown>[];
      shippingAddress: Record<string, unknown>;
      totalAmount: number;
      customerName: string;
    };
    expect(saved.orderLines).toEqual([
      expect.objectContaining({ id: rope?.id, name: 'Rope', quantity: 3, barcode: '5701234567890', vendor: 'Ropes Ltd', weight: 2 }),
      expect.objectContaining({ name: 'Tarp', sku: 'TARP-3', quantity: 1 }),
    ]);
    expect(saved.shippingAddress).toMatchObject({ city: 'Aarhus N', address1: 'Vestergade 2', province: 'Midtjylland' });
    // A total not made from the lines (a shop's, with shipping) is left as it was.
    expect([saved.totalAmount, saved.customerName]).toEqual([100, 'Ole Olsen']);
  });

  /** A one-line order to Ole Olsen, typed in on the phone channel. */
  const oleOrder = async (orderNumber: string, line: { name: string; sku: string; quantity: number; weight: number }) =>
    (await call('POST', '/orders', {
      orderNumber,
      orderChannelId: channel.id,
      shippingAddress: { name: 'Ole Olsen', address1: 'Vestergade 2', city: 'Aarhus C', postalCode: '8000', countryCode: 'DK' },
      orderLines: [line],
    })) as { id: string };

  await test.step('edit order: a quantity below what a shipment holds is refused in the form, nothing saved', async () => {
    const placed = await oleOrder('F-2', { name: 'Anchor', sku: 'ANC-5', quantity: 2, weight: 5 });
    await call('POST', `/orders/${placed.id}/shipments`, { carrierId: carrier.id, productId: 'local_parcel' });
    await page.goto(`/#/orders/${encodeURIComponent(placed.id)}`);
    await expect(heading).toHaveText('Order F-2 Processing');
    // An order a shipment was made from keeps its history: it can be cancelled, not deleted.
    await expect(main.getByRole('button', { name: 'Delete order' })).toHaveCount(0);
    await main.getByRole('button', { name: 'Edit order' }).click();
    const form = page.getByRole('form', { name: 'Edit order F-2' });
    await form.getByRole('group', { name: 'Line 1' }).getByLabel('Quantity').fill('1');
    await form.getByRole('button', { name: 'Save order' }).click();
    await expect(form.getByRole('alert')).toContainText('its quantity cannot go below 2');
    await form.getByRole('button', { name: 'Close' }).click();
    const after = (await call('GET', `/orders/${placed.id}`)) as { orderLines: { quantity: number }[] };
    expect(after.orderLines.map((line) => line.quantity)).toEqual([2]);
    await page.goto(`/#/orders/${encodeURIComponent(order.id)}`);
  });

  await test.step('cancel order: asked first, then cancelled, and no shipment can be made from it', async () => {
    await expect(heading).toHaveText('Order F-1 Pending');
    await main.getByRole('button', { name: 'Cancel order' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel order F-1?' });
    await dialog.getByRole('button', { name: 'Cancel order' }).click();
    await expect(dialog).toBeHidden();
    await expect(heading).toHaveText('Order F-1 Cancelled');
    await expect(main.getByRole('button', { name: 'Create shipment' })).toBeDisabled();
    await expect(main.getByRole('button', { name: 'Edit order' })).toBeDisabled();
    expect(((await call('GET', `/orders/${order.id}`)) as { status: string }).status).toBe('cancelled');
  });

  await test.step('cancel an order with a shipment not yet sent: the dialog says it goes too, and it does', async () => {
    const packed = await oleOrder('F-4', { name: 'Buoy', sku: 'BUOY-1', quantity: 1, weight: 1 });
    const shipment = (await call('POST', `/orders/${packed.id}/shipments`, { carrierId: carrier.id, productId: 'local_parcel' })) as {
      id: string;
      reference: string;
    };
    await page.goto(`/#/orders/${encodeURIComponent(packed.id)}`);
    await expect(heading).toHaveText('Order F-4 Processing');
    await main.getByRole('button', { name: 'Cancel order' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel order F-4?' });
    await expect(dialog).toContainText(`Its shipment not yet sent (${shipment.reference}) will be cancelled with it.`);
    await dialog.getByRole('button', { name: 'Cancel order' }).click();
    await expect(heading).toHaveText('Order F-4 Cancelled');
    await expect(main.getByRole('row').filter({ hasText: shipment.reference })).toContainText('Cancelled');
    expect(((await call('GET', `/shipments/${shipment.id}`)) as { status: string }).status).toBe('cancelled');
  });

  await test.step('delete order: one typed in by mistake, asked first, then gone from the list', async () => {
    const mistake = await oleOrder('F-3-DUPLICATE', { name: 'Rope', sku: 'ROPE-10', quantity: 1, weight: 2 });
    await page.goto(`/#/orders/${encodeURIComponent(mistake.id)}`);
    await expect(heading).toHaveText('Order F-3-DUPLICATE Pending');
    await main.getByRole('button', { name: 'Delete order' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete order F-3-DUPLICATE?' });
    // Focus starts on the harmless choice.
    await expect(dialog.getByRole('button', { name: 'Keep it' })).toBeFocused();
    await dialog.getByRole('button', { name: 'Delete order' }).click();
    await expect(heading).toHaveText('Orders');
    const orders = main.getByRole('table', { name: 'Orders' });
    await expect(orders.getByRole('row').filter({ hasText: 'F-2' })).toBeVisible();
    await expect(orders.getByRole('row').filter({ hasText: 'F-3-DUPLICATE' })).toHaveCount(0);
    expect(((await call('GET', `/orders?search=F-3`)) as { data: unknown[] }).data).toEqual([]);
  });
});
