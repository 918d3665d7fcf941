import { expect, test } from './fixtures';

test('first start offers setup, then the app; a second visit asks to sign in', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Set up Shipdesk' })).toBeVisible();
  await page.getByLabel('Organization name').fill('Acme Warehouse');
  await page.getByLabel('Your name').fill('Ann Packer');
  await page.getByLabel('Email').fill('ann@acme.example');
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create organization' }).click();
  // The server's field message appears at the field, and what was typed is still there.
  await expect(page.getByText('At least 8 characters').last()).toBeVisible();
  await expect(page.getByLabel('Organization name')).toHaveValue('Acme Warehouse');
  await page.getByLabel('Password').fill('a long password');
  await page.getByRole('button', { name: 'Create organization' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByText('Ann Packer')).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Shipdesk' })).toBeVisible();
  await page.getByLabel('Email').fill('ann@acme.example');
  await page.getByLabel('Password').fill('wrong password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('AUTH_INVALID_CREDENTIALS');
  await page.getByLabel('Password').fill('a long password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});
