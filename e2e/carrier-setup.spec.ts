import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';
import { startFakeKarrio } from '../src-main/carriers/karrio/fake';
import { fakePostnordApiKey, fakePostnordCustomerNumber, startFakePostnord } from '../src-main/carriers/postnord/fake';

const owner = { orgName: 'Havnens Lager', name: 'Ann Packer', email: 'ann@havn.example', password: 'a long password' };
const row = (table: Locator, text: string) => table.getByRole('row').filter({ hasText: text });

test('the carrier form: fields drawn from the catalogue, "Test connection" before and after saving, the products', async ({ page }) => {
  const { call } = await seedOrganization(page.request, owner);
  await call('POST', '/sender-addresses', {
    name: 'Main warehouse',
    attContact: 'Dispatch',
    address1: 'Havnegade 12',
    zipcode: '8000',
    city: 'Aarhus C',
    phone: '+4570123456',
    countryCode: 'DK',
    email: 'dispatch@havn.example',
  });
  await signIn(page, owner.email, owner.password);
  await page.goto('/settings/carriers');
  const main = page.getByRole('main');
  await main.getByRole('button', { name: 'New carrier' }).click();

  const dialog = page.getByRole('dialog', { name: 'New carrier' });
  await dialog.getByRole('radio', { name: /Local delivery/ }).check();
  await dialog.getByLabel('Name (required)').fill('Havnens vogne');
  // A select from the catalogue, a text field, and no password: the local carrier has no secret.
  await dialog.getByLabel(/^Label size/).selectOption('A6');
  await dialog.getByLabel(/^Tracking number prefix/).fill('HAVN');
  await expect(dialog.locator('input[type="password"]')).toHaveCount(0);

  // Not saved yet: the unsaved test answers in words.
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Connection works.' })).toContainText('nothing to check');

  // A value the server refuses comes back at its field, and the test says so too.
  await dialog.getByLabel(/^Tracking number prefix/).fill('havn 1');
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect(dialog.getByRole('alert').first()).toContainText(/tracking number prefix/i);
  await dialog.getByLabel(/^Tracking number prefix/).fill('HAVN');

  await dialog.getByRole('button', { name: 'Create carrier' }).click();
  await expect(dialog).toBeHidden();
  const carriers = main.getByRole('table', { name: 'Carriers' });
  // The local carrier books for real: no TEST beside it.
  await expect(row(carriers, 'Havnens vogne')).not.toContainText('TEST');
  const saved = (await call('GET', '/carriers')) as { data: { config: Record<string, unknown> }[] };
  expect(saved.data[0]?.config).toMatchObject({ labelSize: 'A6', trackingPrefix: 'HAVN' });

  // Saved: the test goes through the carrier's own operation.
  await main.getByRole('button', { name: 'Edit Havnens vogne' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Havnens vogne' });
  await edit.getByRole('button', { name: 'Test connection' }).click();
  await expect(edit.getByRole('status').filter({ hasText: 'Connection works.' })).toContainText('Havnens vogne books here in Shipdesk');
  await edit.getByRole('button', { name: 'Cancel' }).click();

  await main.getByRole('button', { name: 'Products of Havnens vogne' }).click();
  const products = page.getByRole('dialog', { name: 'Products of Havnens vogne' });
  await expect(products.getByRole('table', { name: 'Products of Havnens vogne' })).toBeVisible();
  // Its products are its own, not read from anywhere: nothing to refresh.
  await expect(products.getByRole('button', { name: 'Refresh products' })).toHaveCount(0);
});

test('a Karrio carrier: connections listed with the typed address and key, test mode on with TEST shown, products refreshed', async ({ page }) => {
  const karrio = await startFakeKarrio({ prefix: '/karrio' });
  try {
    const { call } = await seedOrganization(page.request, owner);
    const addresses = (await call('GET', '/sender-addresses')) as { data: unknown[] };
    if (addresses.data.length === 0) {
      await call('POST', '/sender-addresses', {
        name: 'Main warehouse',
        address1: 'Havnegade 12',
        zipcode: '8000',
        city: 'Aarhus C',
        phone: '+4570123456',
        countryCode: 'DK',
        email: 'dispatch@havn.example',
      });
    }
    await signIn(page, owner.email, owner.password);
    await page.goto('/settings/carriers');
    const main = page.getByRole('main');
    await main.getByRole('button', { name: 'New carrier' }).click();
    const dialog = page.getByRole('dialog', { name: 'New carrier' });
    await dialog.getByRole('radio', { name: /Karrio/ }).check();
    await dialog.getByLabel('Name (required)').fill('Karrio PostNord');
    await dialog.getByLabel('Sender address (required)').selectOption({ label: 'Main warehouse (Aarhus C, DK)' });
    await dialog.getByLabel(/^API base URL/).fill(karrio.url);
    const apiKey = dialog.getByLabel(/^API key/);
    // A credential is typed into a masked field.
    await expect(apiKey).toHaveAttribute('type', 'password');
    await apiKey.fill('key_wrong_000000');
    // Test mode is a switch, on for a new carrier; the calls at a time a number.
    await expect(dialog.getByRole('checkbox', { name: 'Test mode' })).toBeChecked();
    await dialog.getByLabel(/^Calls at a time/).fill('2');

    // A wrong key: the connections cannot be listed, and the carrier's refusal says why.
    await dialog.getByRole('button', { name: /^Load carrier connection choices/ }).click();
    await expect(dialog.getByRole('alert').filter({ hasText: 'could not be read' })).toContainText('CARRIER_AUTH_FAILED');
    await apiKey.fill(karrio.apiKey);
    await dialog.getByRole('button', { name: /^Load carrier connection choices/ }).click();
    const connection = dialog.getByLabel(/^Carrier connection/);
    await expect(connection.getByRole('option', { name: /PostNord · postnord-main \(test\)/ })).toHaveCount(1);
    await connection.selectOption({ label: 'PostNord · postnord-main (test)' });

    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await expect(dialog.getByRole('status').filter({ hasText: 'Connection works.' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Create carrier' }).click();
    await expect(dialog).toBeHidden();

    const carriers = main.getByRole('table', { name: 'Carriers' });
    await expect(row(carriers, 'Karrio PostNord')).toContainText('TEST');
    const saved = (await call('GET', '/carriers')) as { data: { name: string; config: Record<string, unknown> }[] };
    const config = saved.data.find((carrier) => carrier.name === 'Karrio PostNord')?.config;
    expect(config).toMatchObject({ testMode: true, callsAtATime: 2, apiBaseUrl: karrio.url });
    expect(JSON.stringify(saved)).not.toContain(karrio.apiKey);

    // Saved: the test goes through the carrier, with the stored key.
    await main.getByRole('button', { name: 'Edit Karrio PostNord' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Karrio PostNord' });
    await edit.getByRole('button', { name: 'Test connection' }).click();
    await expect(edit.getByRole('status').filter({ hasText: 'Connection works.' })).toBeVisible();
    await edit.getByRole('button', { name: 'Cancel' }).click();

    await main.getByRole('button', { name: 'Products of Karrio PostNord' }).click();
    const products = page.getByRole('dialog', { name: 'Products of Karrio PostNord' });
    await products.getByRole('button', { name: 'Refresh products' }).click();
    await expect(products.getByRole('status')).toContainText(/\d+ products? read from Karrio PostNord/);
    await expect(products.getByRole('table', { name: 'Products of Karrio PostNord' }).getByRole('row')).not.toHaveCount(1);
  } finally {
    await karrio.close();
  }
});

test('a send whose outcome is unknown: TEST on the page and its label, the carrier’s words and what to do, and the second send takes the booking', async ({
  page,
}) => {
  const postnord = await startFakePostnord();
  try {
    const { call } = await seedOrganization(page.request, owner);
    const addresses = (await call('GET', '/sender-addresses')) as { data: { id: string }[] };
    const senderAddressId =
      addresses.data[0]?.id ??
      (
        (await call('POST', '/sender-addresses', {
          name: 'Main warehouse',
          address1: 'Havnegade 12',
          zipcode: '8000',
          city: 'Aarhus C',
          phone: '+4570123456',
          countryCode: 'DK',
          email: 'dispatch@havn.example',
        })) as { id: string }
      ).id;
    // Saved without testMode: it books in PostNord's sandbox until switched off.
    const carrier = (await call('POST', '/carriers', {
      name: 'PostNord sandbox',
      carrierSlug: 'postnord',
      config: { apiKey: fakePostnordApiKey, customerNumber: fakePostnordCustomerNumber, apiBaseUrl: postnord.url },
      senderAddressId,
    })) as { id: string };
    const shipment = (await call('POST', '/shipments', {
      type: 'outbound',
      carrierSettings: { carrierId: carrier.id, productId: 'postnord_parcel' },
      parties: [
        {
          type: 'receiver',
          name: 'Jens Hansen',
          address1: 'Nørregade 1',
          postalCode: '1165',
          city: 'København K',
          countryCode: 'DK',
          email: 'jens@example.dk',
          phone: '+4520202020',
        },
      ],
      parcels: [{ weight: 2.5, weightUnit: 'kg', dimensions: { length: 30, width: 20, height: 10 }, orderLines: [{ sku: 'MUG-01', quantity: 1 }] }],
    })) as { id: string; reference: string };

    await signIn(page, owner.email, owner.password);
    await page.goto(`/shipments/${shipment.id}`);
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toContainText('TEST');

    // PostNord books, then the connection drops before its answer arrives.
    postnord.switches.dropAfterBookingNext();
    await page.getByRole('group', { name: 'Shipment actions' }).getByRole('button', { name: 'Send', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'CARRIER_OUTCOME_UNKNOWN' });
    await expect(alert).toContainText('The carrier did not say whether it booked the shipment.');
    await expect(alert).toContainText('What to do: Send again: Shipdesk asks the carrier first');

    await page.getByRole('group', { name: 'Shipment actions' }).getByRole('button', { name: 'Send again' }).click();
    await expect(heading).toContainText('Dispatched');
    // One booking at PostNord: the second send found the first by its reference.
    expect(postnord.state.bookings).toHaveLength(1);

    await page
      .getByRole('button', { name: /^Preview / })
      .first()
      .click();
    const preview = page.getByRole('dialog', { name: /^TEST / });
    await expect(preview.getByRole('note')).toContainText('not valid for shipping');
  } finally {
    await postnord.close();
  }
});
