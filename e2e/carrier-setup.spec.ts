import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';

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
