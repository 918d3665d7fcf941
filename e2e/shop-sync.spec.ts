import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';

/** Issue 22: a shop channel's sync interval on its form, and its sync state in the channels list. */
test('a shop channel shows its sync interval and its last / next sync, and 0 turns the schedule off', async ({ page }) => {
  const owner = { orgName: 'Sync Hall', name: 'Sia Owner', email: 'sia@sync.example', password: 'sync all day long' };
  await seedOrganization(page.request, owner);
  await signIn(page, owner.email, owner.password);
  await page.goto('/#/settings/order-channels');

  await page.getByRole('button', { name: 'New order channel' }).click();
  const form = page.getByRole('dialog', { name: 'New order channel' });
  await form.getByLabel('Name (required)').fill('Web shop');
  await form.getByText('Shopify', { exact: true }).click();
  await form.getByLabel('Shop domain (required)').fill('sync-hall.myshopify.com');
  await form.getByLabel('Admin API access token (required)').fill('shpat_e2e_token_0001');
  const interval = form.getByLabel('Sync every (minutes)');
  await expect(interval).toHaveValue('10');
  await interval.fill('2000');
  await form.getByRole('button', { name: 'Create order channel' }).click();
  await expect(form.getByText('Must be a whole number of minutes from 0 to 1440').first()).toBeVisible();
  await interval.fill('0');
  await form.getByRole('button', { name: 'Create order channel' }).click();
  await expect(form).toBeHidden();

  const row = page.getByRole('row', { name: /Web shop/ });
  await expect(row).toContainText('Not synced yet · no scheduled sync');

  await row.getByRole('button', { name: 'Edit Web shop' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Web shop' });
  await edit.getByLabel('Sync every (minutes)').fill('15');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText(/Not synced yet · next sync /);
});
