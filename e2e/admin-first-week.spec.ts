import { expect, startServer, test } from './fixtures';
import { seedOrganization, signIn } from './seed';

/**
 * An owner's first week on a fresh install: settings made by hand, then the first orders and
 * shipments from the screens, as an admin types them (Danish decimal commas, the keyboard).
 */
const owner = { orgName: 'Havn Lager', name: 'Hanne Havn', email: 'hanne@havn.example', password: 'havn havn havn' };

type Call = Awaited<ReturnType<typeof seedOrganization>>['call'];

/** A pending local-carrier shipment to Aarhus, with its own sender address and carrier. */
async function seedShipment(call: Call, quay: number, carrierName: string, reference: string): Promise<{ id: string }> {
  const address = (await call('POST', '/sender-addresses', {
    name: `Kaj ${quay}`,
    address1: `Kajen ${quay}`,
    zipcode: '8000',
    city: 'Aarhus C',
    countryCode: 'DK',
  })) as { id: string };
  const carrier = (await call('POST', '/carriers', { name: carrierName, carrierSlug: 'local', config: {}, senderAddressId: address.id })) as { id: string };
  return (await call('POST', '/shipments', {
    type: 'outbound',
    reference,
    carrierSettings: { carrierId: carrier.id, productId: 'local_parcel' },
    parties: [{ type: 'receiver', name: 'Ole Olsen', address1: 'Vestergade 2', postalCode: '8000', city: 'Aarhus C', countryCode: 'DK' }],
    parcels: [{ weight: 1, weightUnit: 'kg', dimensions: { length: 10, width: 10, height: 10 }, orderLines: [] }],
  })) as { id: string };
}

test('new order: a weight or price typed with a decimal comma is kept as typed, not multiplied by ten', async ({ page }) => {
  const { call } = await seedOrganization(page.request, owner);
  await call('POST', '/order-channels', { name: 'Telefon', type: 'manual', config: {} });
  await signIn(page, owner.email, owner.password);
  const main = page.getByRole('main');
  await page.goto('/#/orders');
  await main.getByRole('button', { name: 'New order' }).click();
  const form = page.getByRole('form', { name: 'New order' });
  await form.getByLabel('Order number (required)').fill('H-1');
  const line = form.getByRole('group', { name: 'Line 1' });
  await line.getByLabel('Name (required)').fill('Krus');
  await line.getByLabel('Quantity (required)').fill('3');
  // Typed key by key, as a person does: a number field would drop the comma and keep "04".
  await line.getByLabel('Weight per unit').pressSequentially('0,4');
  await line.getByLabel('Unit price').pressSequentially('12,50');
  await line.getByLabel('Currency (e.g. DKK)').fill('DKK');
  await expect(line.getByLabel('Weight per unit')).toHaveValue('0,4');

  // Something that is no number is said at its field, not sent.
  await line.getByLabel('Unit price').fill('12 kr');
  await form.getByRole('button', { name: 'Create order' }).click();
  await expect(line.getByLabel('Unit price')).toHaveAccessibleDescription('A number, e.g. 0.5 or 0,5.');
  await line.getByLabel('Unit price').fill('12,50');
  await form.getByRole('button', { name: 'Create order' }).click();
  await expect(form).toBeHidden();
  await expect(main.getByRole('heading', { level: 1 })).toHaveText('Order H-1 Pending');

  const orders = (await call('GET', '/orders?search=H-1')) as { data: { id: string }[] };
  const saved = (await call('GET', `/orders/${orders.data[0]?.id}`)) as { orderLines: { weight: number; unitPrice: number }[]; totalAmount: number };
  expect(saved.orderLines).toEqual([expect.objectContaining({ weight: 0.4, unitPrice: 12.5 })]);
  expect(saved.totalAmount).toBe(37.5);
});

test('settings forms: what needs attention is named as the form labels its fields, not by the API’s field names', async ({ page }) => {
  await seedOrganization(page.request, owner);
  await signIn(page, owner.email, owner.password);
  const main = page.getByRole('main');

  await page.goto('/#/settings/sender-addresses');
  await main.getByRole('button', { name: 'New sender address' }).click();
  const address = page.getByRole('dialog', { name: 'New sender address' });
  await address.getByRole('button', { name: 'Create sender address' }).click();
  const problems = address.getByRole('alert').getByRole('listitem');
  await expect(problems).toHaveText([
    'Name is required',
    'Address line 1 is required',
    'Postal code is required',
    'City is required',
    'Country: Choose a country (two-letter code such as DK)',
  ]);
  // Each item names a label the form shows.
  for (const label of ['Address line 1 (required)', 'Postal code (required)', 'Country (required)']) await expect(address.getByLabel(label)).toBeVisible();
  await address.getByRole('button', { name: 'Cancel' }).click();

  await page.goto('/#/settings/printers');
  await main.getByRole('button', { name: 'New printer' }).click();
  const printer = page.getByRole('dialog', { name: 'New printer' });
  await printer.getByLabel('Name (required)', { exact: true }).fill('Hot folder');
  await printer.getByLabel('Connection').selectOption('file');
  await printer.getByLabel('Folder (required)').fill('labels/out');
  await printer.getByRole('button', { name: 'Create printer' }).click();
  await expect(printer.getByRole('alert').getByRole('listitem')).toHaveText(['Queue, address or folder: Must be an absolute folder path, e.g. /srv/hotfolder']);
});

test('shipment page, keyboard only: after Put on hold, Release and Send the focus is on the title with the new status, not lost', async ({ page }) => {
  const { call } = await seedOrganization(page.request, owner);
  const shipment = await seedShipment(call, 4, 'Egne vogne', 'HAVN-KEYS');
  await signIn(page, owner.email, owner.password);
  await page.goto(`/#/shipments/${encodeURIComponent(shipment.id)}`);
  const heading = page.getByRole('main').getByRole('heading', { level: 1 });
  const actions = page.getByRole('group', { name: 'Shipment actions' });
  await expect(heading).toHaveText('Shipment HAVN-KEYS Pending');

  for (const [action, status] of [
    ['Put on hold', 'On hold'],
    ['Release', 'Pending'],
    ['Send', 'Dispatched'],
  ] as const) {
    await actions.getByRole('button', { name: action, exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect(heading).toHaveText(`Shipment HAVN-KEYS ${status}`);
    await expect(heading).toBeFocused();
  }
  // From the title, Tab goes on to the actions the new status offers.
  await page.keyboard.press('Tab');
  await expect(actions.getByRole('button', { name: 'Create return' })).toBeFocused();
});

test('a list that cannot be read says so, and does not also claim to be empty', async ({ page }) => {
  await seedOrganization(page.request, owner);
  // The server does not answer list reads (stopped, restarting, a hub across the network gone).
  await page.route(/\/orgs\/[^/]+\/(shipments|sender-addresses|print-jobs)(\?|$)/, (route) => route.abort('connectionrefused'));
  await signIn(page, owner.email, owner.password);
  const main = page.getByRole('main');

  await page.goto('/#/shipments');
  await expect(main.getByRole('alert').filter({ hasText: 'The shipments could not be loaded' })).toBeVisible();
  await expect(main.getByText('No shipments yet', { exact: false })).toHaveCount(0);

  await page.goto('/#/settings/sender-addresses');
  await expect(main.getByRole('alert').filter({ hasText: 'Shipdesk cannot be reached.' })).toBeVisible();
  await expect(main.getByText('No sender addresses yet', { exact: false })).toHaveCount(0);

  await page.goto('/#/print-jobs');
  await expect(main.getByRole('alert').filter({ hasText: 'The print jobs could not be loaded' })).toBeVisible();
  await expect(main.getByText('No failed print jobs', { exact: false })).toHaveCount(0);

  // Once it answers again, the empty list says it is empty.
  await page.unroute(/\/orgs\/[^/]+\/(shipments|sender-addresses|print-jobs)(\?|$)/);
  await main.getByRole('button', { name: 'Refresh' }).click();
  await expect(main.getByText('No failed print jobs. Every document sent to a printer got there.')).toBeVisible();
});

test('shipment form: a field the server refuses gets the focus, also when saved with Ctrl+Enter from another field', async ({ page }) => {
  const { call } = await seedOrganization(page.request, owner);
  const shipment = await seedShipment(call, 5, 'Egne biler', 'HAVN-FORM');
  await signIn(page, owner.email, owner.password);
  const form = page.getByRole('form', { name: 'Edit shipment HAVN-FORM' });
  const city = form.getByRole('group', { name: 'Receiver' }).getByLabel('City');
  await page.goto(`/#/shipments/${encodeURIComponent(shipment.id)}/edit`);
  await city.fill('');
  // Saved from another field: the answer comes back, and the field it names is where the keyboard is.
  await form.getByLabel('Reference').focus();
  await page.keyboard.press('Control+Enter');
  await expect(form.getByRole('alert').filter({ hasText: 'Some fields need attention.' })).toBeVisible();
  await expect(city).toBeFocused();
  await expect(city).toHaveAccessibleDescription('Required');
  await city.fill('Aarhus N');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText('Shipment HAVN-FORM Pending');
});

test('delete a carrier, printer or rule still in use: the question says what the server will do, and the refusal names the rule', async ({ page }) => {
  const { call } = await seedOrganization(page.request, owner);
  const address = (await call('POST', '/sender-addresses', { name: 'Kaj 6', address1: 'Kajen 6', zipcode: '8000', city: 'Aarhus C', countryCode: 'DK' })) as {
    id: string;
  };
  const carrier = (await call('POST', '/carriers', { name: 'Havnens vogne', carrierSlug: 'local', config: {}, senderAddressId: address.id })) as { id: string };
  const printer = (await call('POST', '/printers', {
    name: 'Havn labels',
    driver: 'file',
    target: '/tmp/havn-labels',
    format: 'pdf',
    labelSize: '100X150',
  })) as { id: string };
  const returns = (await call('POST', '/shipping-rules', {
    name: 'Havn returns',
    carrierId: carrier.id,
    productId: 'local_return',
    services: [],
    senderAddressId: address.id,
    receivingCountries: ['*'],
    conditions: [],
  })) as { id: string };
  await call('POST', '/shipping-rules', {
    name: 'Havn parcels',
    carrierId: carrier.id,
    productId: 'local_parcel',
    services: [],
    senderAddressId: address.id,
    receivingCountries: ['DK'],
    conditions: [],
    labelPrinterId: printer.id,
    returnShippingRuleId: returns.id,
  });
  await signIn(page, owner.email, owner.password);
  const main = page.getByRole('main');

  for (const [path, name, noun, question, refusal] of [
    [
      'carriers',
      'Havnens vogne',
      'carrier',
      'Shipping rules that book with it must be changed or deleted first.',
      /used by shipping rule Havn (returns|parcels)/,
    ],
    ['printers', 'Havn labels', 'printer', 'Shipping rules that print to it must be given another printer first.', /used by shipping rule Havn parcels/],
    [
      'shipping-rules',
      'Havn returns',
      'shipping rule',
      'A rule that sends its returns with it must be changed first.',
      /return rule of shipping rule .*Havn parcels/,
    ],
  ] as const) {
    await page.goto(`/#/settings/${path}`);
    await main.getByRole('button', { name: `Delete ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${noun}` });
    await expect(dialog).toContainText(question);
    await dialog.getByRole('button', { name: `Delete ${noun}` }).click();
    await expect(dialog.getByRole('alert')).toContainText(refusal);
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await expect(main.getByRole('row').filter({ hasText: name }).first()).toBeVisible();
  }
});

test('a shared station: what one person typed and left unsaved is not offered to the next one who signs in', async ({ page }) => {
  const { call } = await seedOrganization(page.request, owner);
  await call('POST', '/order-channels', { name: 'Disk', type: 'manual', config: {} });
  await call('POST', '/members', { email: 'pia@havn.example', name: 'Pia Pakker', role: 'packer', password: 'pia pia pia pia' });
  await signIn(page, owner.email, owner.password);
  const main = page.getByRole('main');

  await page.goto('/#/orders');
  await main.getByRole('button', { name: 'New order' }).click();
  const order = page.getByRole('form', { name: 'New order' });
  await order.getByLabel('Order number (required)').fill('HANNE-HALF-DONE');
  await order.getByRole('button', { name: 'Close' }).click();
  await page.goto('/#/shipments/new');
  await main.getByLabel('Reference').fill('HANNE-DRAFT');
  await page.goto('/#/orders');
  await page.getByRole('button', { name: 'Sign out' }).click();

  await page.getByLabel('Email').fill('pia@havn.example');
  await page.getByLabel('Password').fill('pia pia pia pia');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toContainText('Pia Pakker');
  await page.goto('/#/orders');
  await main.getByRole('button', { name: 'New order' }).click();
  await expect(order.getByLabel('Order number (required)')).toHaveValue('');
  await order.getByRole('button', { name: 'Close' }).click();
  await page.goto('/#/shipments/new');
  await expect(main.getByLabel('Reference')).toHaveValue('');
  await expect(main.getByText('Your unsaved changes were kept.')).toHaveCount(0);
});

test('first start and sign in, keyboard only: a refusal puts the focus where the next keys belong', async ({ browser }) => {
  // A server of its own: this file's shared one is set up by the other tests.
  const fresh = await startServer();
  const page = await browser.newPage({ baseURL: fresh.url });
  try {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Set up Shipdesk' })).toBeVisible();
    await expect(page.getByLabel('Organization name')).toBeFocused();
    // Enter from the last field with the first one left empty: the focus goes up to it.
    await page.getByLabel('Your name').fill('Hanne Havn');
    await page.getByLabel('Email').fill('hanne@fresh.example');
    await page.getByLabel('Password').fill('havn havn havn');
    await page.keyboard.press('Enter');
    await expect(page.getByLabel('Organization name')).toBeFocused();
    await expect(page.getByLabel('Organization name')).toHaveAccessibleDescription('Required');
    await page.keyboard.type('Havn Lager');
    // The button clicked with a short password: focus is on the password, not lost with the button.
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await expect(page.getByLabel('Password')).toBeFocused();
    await page.getByLabel('Password').fill('havn havn havn');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').fill('hanne@fresh.example');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toContainText('That email and password do not match.');
    // Typing again replaces the wrong password.
    await expect(page.getByLabel('Password')).toBeFocused();
    await page.keyboard.type('havn havn havn');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('navigation', { name: 'Main' })).toContainText('Hanne Havn');
  } finally {
    await page.close();
    await fresh.stop();
  }
});

test('shipment form at 1024 × 768, keyboard only: a field Tab moves to is not hidden under the save bar', async ({ page }) => {
  await seedOrganization(page.request, owner);
  await page.setViewportSize({ width: 1024, height: 768 });
  await signIn(page, owner.email, owner.password);
  await page.goto('/#/shipments/new');
  const form = page.getByRole('form', { name: 'New shipment' });
  await expect(form.getByLabel('Reference')).toBeFocused();
  const bar = form.getByText('Ctrl+Enter saves · Enter moves to the next field').locator('..');
  const top = (await bar.boundingBox())?.y ?? 0;
  // Through the shipment, carrier, receiver and parcel fields, as a keyboard user fills them in.
  const seen: string[] = [];
  while (!seen.includes('parcels.0.dimensions.height')) {
    await page.keyboard.press('Tab');
    const field = await page.locator('html').evaluate((html) => {
      const element = html.ownerDocument.activeElement;
      return element?.matches('input, select') ? { name: element.getAttribute('name') ?? '', bottom: element.getBoundingClientRect().bottom } : null;
    });
    if (!field) continue;
    seen.push(field.name);
    expect(field.bottom, `${field.name} ends below the top of the save bar`).toBeLessThanOrEqual(top);
  }
});

test('team members: one’s own name changed there is the name the sidebar shows, also after a reload', async ({ page }) => {
  await seedOrganization(page.request, owner);
  await signIn(page, owner.email, owner.password);
  const navigation = page.getByRole('navigation', { name: 'Main' });
  await expect(navigation).toContainText('Hanne Havn');
  await page.goto('/#/settings/team-members');
  await page.getByRole('main').getByRole('button', { name: 'Edit Hanne Havn' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Hanne Havn' });
  await dialog.getByLabel('Name (required)').fill('Hanne H. Havn');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(navigation).toContainText('Hanne H. Havn');
  await page.reload();
  await expect(navigation).toContainText('Hanne H. Havn');
  // Back as it was, for the file's other tests.
  await page.getByRole('main').getByRole('button', { name: 'Edit Hanne H. Havn' }).click();
  await page.getByRole('dialog', { name: 'Edit Hanne H. Havn' }).getByLabel('Name (required)').fill('Hanne Havn');
  await page.getByRole('dialog', { name: 'Edit Hanne H. Havn' }).getByRole('button', { name: 'Save changes' }).click();
  await expect(navigation).toContainText('Hanne Havn');
});

test('why this rule: an answer on screen is asked again when a rule under it is edited, never left telling of the old price', async ({ page }) => {
  const { call } = await seedOrganization(page.request, owner);
  // The plan allows three carriers: this file's other tests may have made them already.
  const carriers = (await call('GET', '/carriers')) as { data: { id: string; senderAddressId: string }[] };
  let carrier = carriers.data[0];
  if (!carrier) {
    const address = (await call('POST', '/sender-addresses', { name: 'Kaj 8', address1: 'Kajen 8', zipcode: '8000', city: 'Aarhus C', countryCode: 'DK' })) as {
      id: string;
    };
    carrier = (await call('POST', '/carriers', { name: 'Havnens trucks', carrierSlug: 'local', config: {}, senderAddressId: address.id })) as {
      id: string;
      senderAddressId: string;
    };
  }
  const rule = (name: string, receivingCountries: string[], conditions: unknown[]) =>
    call('POST', '/shipping-rules', {
      name,
      carrierId: carrier.id,
      productId: 'local_parcel',
      services: [],
      senderAddressId: carrier.senderAddressId,
      receivingCountries,
      conditions,
    });
  await rule('Greenland light', ['GL'], [{ type: 'weight', min: 0, max: 5, shippingPrice: 49, currency: 'DKK' }]);
  await rule('Greenland any', ['GL'], [{ type: 'flatRate', shippingPrice: 99, currency: 'DKK' }]);
  await signIn(page, owner.email, owner.password);
  await page.goto('/#/settings/shipping-rules');
  const explainer = page.getByRole('region', { name: 'Why this rule?' });
  await explainer.getByRole('combobox', { name: 'Country (required)' }).fill('Greenland');
  await explainer.getByRole('combobox', { name: 'Country (required)' }).press('Enter');
  await explainer.getByLabel('Weight (required)').fill('2');
  await explainer.getByRole('button', { name: 'Find matching rules' }).click();
  const chosen = explainer.getByRole('listitem').filter({ hasText: /Chosen/ });
  await expect(chosen).toContainText('Greenland light — DKK 49.00');

  await page.getByRole('main').getByRole('button', { name: 'Edit Greenland light' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Greenland light' });
  await dialog.getByRole('group', { name: 'Condition 1' }).getByLabel('Shipping price').fill('149');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(chosen).toContainText('Greenland any — DKK 99.00');
  await expect(explainer).toContainText('Greenland light — DKK 149.00');
});
