import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';
import { closedPort } from '../src-main/testing/printing';

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

  // A reload (F5 at the station) keeps the packer signed in; a new window does not share it.
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByText('Ann Packer')).toBeVisible();
  const other = await page.context().newPage();
  await other.goto('/');
  await expect(other.getByRole('heading', { name: 'Sign in to Shipdesk' })).toBeVisible();
  await other.close();
});

test('a settings row is deleted only after "Delete" in the confirm dialog; "Keep it" keeps it', async ({ page }) => {
  // The file's server is shared: set it up here too when this test runs on its own.
  const status = (await (await page.request.get('/setup')).json()) as { needsSetup: boolean };
  if (status.needsSetup) {
    await page.request.post('/setup', { data: { orgName: 'Acme Warehouse', name: 'Ann Packer', email: 'ann@acme.example', password: 'a long password' } });
  }
  await page.goto('/');
  await page.getByLabel('Email').fill('ann@acme.example');
  await page.getByLabel('Password').fill('a long password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const main = page.getByRole('main');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sender addresses' }).click();
  await main.getByRole('button', { name: 'New sender address' }).click();
  const form = page.getByRole('dialog', { name: 'New sender address' });
  await form.getByLabel('Name (required)').fill('Overflow store');
  await form.getByLabel('Address line 1 (required)').fill('Lagervej 3');
  await form.getByLabel('Postal code (required)').fill('8200');
  await form.getByLabel('City (required)').fill('Aarhus N');
  await form.getByRole('combobox', { name: 'Country (required)' }).fill('Denmark');
  await form.getByRole('combobox', { name: 'Country (required)' }).press('Enter');
  await form.getByRole('button', { name: 'Create sender address' }).click();
  const table = main.getByRole('table', { name: 'Sender addresses' });
  await expect(table).toContainText('Overflow store');

  const confirm = page.getByRole('dialog', { name: 'Delete sender address' });
  await table.getByRole('button', { name: 'Delete Overflow store' }).click();
  await expect(confirm).toContainText('Delete Overflow store? Carriers or rules that use it must be moved to another address first.');
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(confirm).toBeHidden();
  await expect(table).toContainText('Overflow store');
  // Focus is back on the button that opened the dialog, so the keyboard carries on from there.
  await expect(table.getByRole('button', { name: 'Delete Overflow store' })).toBeFocused();

  await table.getByRole('button', { name: 'Delete Overflow store' }).click();
  await confirm.getByRole('button', { name: 'Delete sender address' }).click();
  await expect(confirm).toBeHidden();
  await expect(table).not.toContainText('Overflow store');
  // Its row is gone: the page's main area takes focus rather than the top of the page.
  await expect(main).toBeFocused();
});

test('team members: the owner adds a packer, who signs in to the Pack screen; a role change and a removal show at once', async ({ page }) => {
  const status = (await (await page.request.get('/setup')).json()) as { needsSetup: boolean };
  if (status.needsSetup) {
    await page.request.post('/setup', { data: { orgName: 'Acme Warehouse', name: 'Ann Packer', email: 'ann@acme.example', password: 'a long password' } });
  }
  await signIn(page, 'ann@acme.example', 'a long password');
  const main = page.getByRole('main');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team members' }).click();
  await main.getByRole('button', { name: 'Add member' }).click();
  const form = page.getByRole('dialog', { name: 'Add a team member' });
  await form.getByLabel('Email (required)').fill('per@acme.example');
  await form.getByLabel('Name').fill('Per Packer');
  await form.getByLabel('Role').selectOption('packer');
  await form.getByLabel('Password').fill('packing all day');
  await form.getByRole('button', { name: 'Add member' }).click();
  const table = main.getByRole('table', { name: 'Team members' });
  await expect(table.getByRole('row').filter({ hasText: 'Per Packer' })).toContainText(/packer/i);

  // The packer signs in and lands on Pack; the team is not theirs to change.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, 'per@acme.example', 'packing all day');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pack');

  // Back as the owner: made a viewer, then removed.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, 'ann@acme.example', 'a long password');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team members' }).click();
  await table.getByRole('button', { name: 'Edit Per Packer' }).click();
  const editor = page.getByRole('dialog', { name: 'Edit Per Packer' });
  await editor.getByLabel('Role').selectOption('viewer');
  await editor.getByRole('button', { name: 'Save changes' }).click();
  await expect(table.getByRole('row').filter({ hasText: 'Per Packer' })).toContainText(/viewer/i);
  await table.getByRole('button', { name: 'Remove Per Packer' }).click();
  await page.getByRole('dialog', { name: 'Remove team member' }).getByRole('button', { name: 'Remove member' }).click();
  await expect(table).not.toContainText('Per Packer');
  // The organization's only owner is not offered for removal (the server would refuse it).
  await expect(table.getByRole('button', { name: 'Edit Ann Packer' })).toBeVisible();
  await expect(table.getByRole('button', { name: 'Remove Ann Packer' })).toHaveCount(0);
  const login = await page.request.post('/auth/login', { data: { email: 'per@acme.example', password: 'packing all day' } });
  expect(((await login.json()) as { orgs: unknown[] }).orgs).toEqual([]);
});

test('webhooks: a test call and the calls made, with why one failed', async ({ page }) => {
  // The file's server is shared: seeding sets it up when this test runs on its own, else signs in.
  const { call: api } = await seedOrganization(page.request, {
    orgName: 'Acme Warehouse',
    name: 'Ann Packer',
    email: 'ann@acme.example',
    password: 'a long password',
  });
  await api('POST', '/webhooks', { name: 'ERP', url: `http://127.0.0.1:${await closedPort()}/hook`, events: ['shipment.created'] });
  await signIn(page, 'ann@acme.example', 'a long password');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
  await page.getByRole('main').getByRole('button', { name: 'Calls to ERP' }).click();
  const dialog = page.getByRole('dialog', { name: 'Calls to ERP' });
  await expect(dialog).toContainText('No calls yet.');
  await dialog.getByRole('button', { name: 'Send a test call' }).click();
  await expect(dialog.getByRole('status')).toContainText('Failed: Request failed: ECONNREFUSED');
  const calls = dialog.getByRole('table', { name: 'Calls to ERP' });
  await expect(calls.getByRole('row').nth(1)).toContainText('ping');
  await expect(calls.getByRole('row').nth(1)).toContainText('ECONNREFUSED');
});
