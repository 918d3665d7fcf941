import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { seedOrganization, signIn, type Seeded } from './seed';

/**
 * Issue 17, point 7: a country is never saved as another country. Every country field is the one
 * picker (components/CountryPicker.tsx): it finds a country by name (English or Danish) or code and
 * stores only a code chosen from its list; text that names no single country is refused at the field.
 */

const owner = { orgName: 'Fjord Freight', name: 'Frida Fjord', email: 'frida@fjord.example', password: 'countries all day' };
let call: Seeded['call'];
let carrierId: string;
let senderAddressId: string;

test.beforeEach(async ({ page }) => {
  // Each test calls through its own request context; the file's server keeps the organization.
  ({ call } = await seedOrganization(page.request, owner));
  if (!carrierId) {
    const address = (await call('POST', '/sender-addresses', {
      name: 'Quay 4',
      address1: 'Kajen 4',
      zipcode: '8000',
      city: 'Aarhus C',
      countryCode: 'DK',
    })) as { id: string };
    const carrier = (await call('POST', '/carriers', { name: 'Fjord trucks', carrierSlug: 'local', config: {}, senderAddressId: address.id })) as {
      id: string;
    };
    carrierId = carrier.id;
    senderAddressId = address.id;
  }
  await signIn(page, owner.email, owner.password);
});

/** The WCAG 2 A/AA problems axe finds on the page as it is now. */
async function axeProblems(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return violations.map((violation) => `${violation.id}: ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`);
}

test('shipment form: "Denmark" saves DK, an unknown country is refused at its field, "Add party" adds the missing receiver', async ({ page }) => {
  const main = page.getByRole('main');
  await page.goto('/#/shipments/new');
  await expect(main.getByRole('heading', { level: 1 })).toHaveText('New shipment');

  await test.step('"Add party" adds a sender next to the receiver; with the receiver removed, it adds a receiver', async () => {
    await main.getByRole('button', { name: 'Add party' }).click();
    await expect(main.getByRole('group', { name: 'Sender', exact: true })).toBeVisible();
    await main.getByRole('button', { name: 'Remove receiver party' }).click();
    await expect(main.getByRole('group', { name: 'Receiver', exact: true })).toHaveCount(0);
    await main.getByRole('button', { name: 'Add party' }).click();
    await expect(main.getByRole('group', { name: 'Receiver', exact: true })).toBeVisible();
    await expect(main.getByRole('group', { name: 'Billing', exact: true })).toHaveCount(0);
    // Its party type has the focus, where the keyboard goes on filling it in.
    await expect(main.getByRole('group', { name: 'Receiver', exact: true }).getByLabel('Party type')).toBeFocused();
  });

  const receiver = main.getByRole('group', { name: 'Receiver', exact: true });
  const sender = main.getByRole('group', { name: 'Sender', exact: true });
  const receiverCountry = receiver.getByRole('combobox', { name: 'Country' });
  await test.step('fill in both parties and a parcel; the sender in Germany, found by its Danish name', async () => {
    for (const [party, values] of [
      [receiver, ['Karen Kunde', 'Nørregade 7', '1165', 'København K']],
      [sender, ['Lager Nord', 'Hafenstraße 1', '20457', 'Hamburg']],
    ] as const) {
      await party.getByLabel('Name', { exact: true }).fill(values[0]);
      await party.getByLabel('Address', { exact: true }).fill(values[1]);
      await party.getByLabel('Postal code').fill(values[2]);
      await party.getByLabel('City').fill(values[3]);
    }
    const senderCountry = sender.getByRole('combobox', { name: 'Country' });
    await senderCountry.fill('Tyskland');
    await expect(senderCountry).toHaveAttribute('aria-expanded', 'true');
    await expect(sender.getByRole('option', { name: /Germany \(DE\)/ })).toHaveAttribute('aria-selected', 'true');
    await senderCountry.press('Enter');
    await expect(senderCountry).toHaveValue('Germany (DE)');
    // In this form Enter goes on to the next field, as a scanner expects.
    await expect(sender.getByLabel('Phone (optional)')).toBeFocused();

    const parcel = main.getByRole('group', { name: 'Parcel 1' });
    await parcel.getByLabel('Weight', { exact: true }).fill('2');
    await parcel.getByLabel('Length (cm)').fill('30');
    await parcel.getByLabel('Width (cm)').fill('20');
    await parcel.getByLabel('Height (cm)').fill('10');
    await main.getByRole('button', { name: 'Add order line to parcel 1' }).click();
    const line = main.getByRole('group', { name: 'Parcel 1, order line 1' });
    await line.getByLabel('SKU').fill('MUG-01');
    const origin = line.getByRole('combobox', { name: 'Country of origin' });
    await origin.fill('Kina');
    await origin.press('Tab');
    await expect(origin).toHaveValue('China (CN)');
    await main.getByLabel('Product', { exact: true }).selectOption({ label: 'Own delivery, parcel' });
  });

  await test.step('a misspelt country is refused where it was typed, and nothing is saved', async () => {
    await receiverCountry.fill('Denmrk');
    await expect(receiver.getByRole('listbox')).toBeHidden();
    await receiverCountry.press('Tab');
    await expect(receiverCountry).toHaveValue('Denmrk');
    await expect(receiverCountry).toHaveAttribute('aria-invalid', 'true');
    await expect(receiverCountry).toHaveAccessibleDescription('No country is called “Denmrk”. Type a name or a code, such as Denmark or DK.');
    await main.getByRole('button', { name: 'Create outbound shipment' }).click();
    await expect(receiverCountry).toBeFocused();
    await expect(main.getByRole('heading', { level: 1 })).toHaveText('New shipment');
    // "De" could be Germany or Denmark: leaving the field does not choose.
    await receiverCountry.fill('De');
    await receiverCountry.press('Tab');
    await expect(receiverCountry).toHaveValue('De');
    await expect(receiverCountry).toHaveAccessibleDescription(/^“De” could be \d+ countries: choose one from the list\.$/);
    expect(((await call('GET', '/shipments')) as { data: unknown[] }).data).toHaveLength(0);
  });

  await test.step('the picker as a combobox with its list open passes axe', async () => {
    await receiverCountry.fill('Denmark');
    await expect(receiver.getByRole('listbox', { name: 'Countries to choose from' }).getByRole('option')).toHaveText(['Denmark (DK)']);
    await expect(receiverCountry).toHaveAttribute('aria-activedescendant', /.+/);
    expect(await axeProblems(page)).toEqual([]);
  });

  await test.step('"Denmark" picked with Enter is saved as DK', async () => {
    await receiverCountry.press('Enter');
    await expect(receiverCountry).toHaveValue('Denmark (DK)');
    await main.getByRole('button', { name: 'Create outbound shipment' }).click();
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(/^Shipment SHP-\d+ /);
    const id = decodeURIComponent(new URL(page.url()).hash.replace('#/shipments/', ''));
    const stored = (await call('GET', `/shipments/${id}`)) as {
      parties: { type: string; countryCode: string }[];
      parcels: { orderLines: { countryOfOrigin: string }[] }[];
    };
    expect(stored.parties.map(({ type, countryCode }) => ({ type, countryCode }))).toEqual(
      expect.arrayContaining([
        { type: 'receiver', countryCode: 'DK' },
        { type: 'sender', countryCode: 'DE' },
      ]),
    );
    expect(stored.parcels[0]?.orderLines[0]?.countryOfOrigin).toBe('CN');
  });
});

test('order form: "Sweden" saves SE, not "SW"', async ({ page }) => {
  const channel = (await call('POST', '/order-channels', { name: 'Phone', type: 'manual', config: {} })) as { id: string };
  expect(channel.id).toBeTruthy();
  await page.goto('/#/orders');
  await page.getByRole('main').getByRole('button', { name: 'New order' }).click();
  const form = page.getByRole('form', { name: 'New order' });
  await form.getByLabel('Order number (required)').fill('SE-1');
  const address = form.getByRole('group', { name: 'Shipping address' });
  await address.getByLabel('Name (required)', { exact: true }).fill('Sven Svensson');
  await address.getByLabel('Address (required)', { exact: true }).fill('Storgatan 1');
  await address.getByLabel('Postal code (required)').fill('11122');
  await address.getByLabel('City (required)').fill('Stockholm');
  const country = address.getByRole('combobox', { name: 'Country (required)' });
  await country.fill('Sweden');
  // One country found: Tab chooses it.
  await country.press('Tab');
  await expect(country).toHaveValue('Sweden (SE)');
  await form.getByRole('group', { name: 'Line 1' }).getByLabel('Name (required)', { exact: true }).fill('Ropes');
  // Escape in the picker with a pending text gives back the choice and leaves the dialog open.
  await country.fill('Sverig');
  await country.press('Escape');
  await country.press('Escape');
  await expect(form).toBeVisible();
  await expect(country).toHaveValue('Sweden (SE)');
  await form.getByRole('button', { name: 'Create order' }).click();
  await expect(form).toBeHidden();
  const orders = (await call('GET', '/orders')) as { data: { id: string; orderNumber: string }[] };
  const created = orders.data.find((order) => order.orderNumber === 'SE-1');
  const detail = (await call('GET', `/orders/${created?.id}`)) as { shippingAddress?: { countryCode: string } };
  expect(detail.shippingAddress?.countryCode).toBe('SE');
});

test('shipping rule: receiving countries as chips, "Every country" stores *', async ({ page }) => {
  const main = page.getByRole('main');
  await page.goto('/#/settings/shipping-rules');
  await main.getByRole('button', { name: 'New shipping rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'New shipping rule' });
  await dialog.getByLabel('Name (required)').fill('Anywhere');
  await dialog.getByLabel('Carrier (required)').selectOption({ label: 'Fjord trucks' });
  await dialog.getByLabel('Product (required)').selectOption({ label: 'Own delivery, parcel' });
  const countries = dialog.getByRole('combobox', { name: 'Receiving countries (required)' });
  const chosen = dialog.getByRole('list', { name: 'Chosen countries' }).getByRole('listitem');

  await countries.fill('norge');
  await countries.press('Enter');
  await countries.fill('se');
  await countries.press('Enter');
  await expect(chosen).toHaveText([/Norway \(NO\)/, /Sweden \(SE\)/]);
  // Enter took the country; it did not save the rule.
  await expect(dialog).toBeVisible();

  // Text that names no country is refused, and the rule is not saved.
  await countries.fill('Narnia');
  await dialog.getByRole('button', { name: 'Create shipping rule' }).click();
  await expect(countries).toBeFocused();
  await expect(countries).toHaveAccessibleDescription(/No country is called “Narnia”/);
  await expect(dialog).toBeVisible();

  await countries.fill('Every');
  await dialog.getByRole('option', { name: 'Every country' }).click();
  await expect(chosen).toHaveText([/Every country/]);
  await dialog.getByRole('button', { name: 'Create shipping rule' }).click();
  await expect(dialog).toBeHidden();
  const rules = (await call('GET', '/shipping-rules')) as {
    data: { name: string; receivingCountries: string[]; senderAddressId: string; carrierId: string }[];
  };
  expect(rules.data.find((rule) => rule.name === 'Anywhere')).toMatchObject({ receivingCountries: ['*'], carrierId, senderAddressId });
});
