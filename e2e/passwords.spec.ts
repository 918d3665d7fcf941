import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';

/**
 * Forgotten and changed passwords: the owner sets a packer's new password from Team members, and
 * changes their own under their name without being signed out; logins made before end.
 */
test('an owner sets a packer’s forgotten password, then changes their own and stays signed in', async ({ page }) => {
  const owner = { orgName: 'Pass Hall', name: 'Olga Owner', email: 'olga@pass.example', password: 'the first password' };
  const { call: api, token: oldLogin, orgId } = await seedOrganization(page.request, owner);
  await api('POST', '/members', { email: 'pia@pass.example', name: 'Pia Packer', role: 'packer', password: 'pia forgot this' });

  await signIn(page, owner.email, owner.password);
  await page.goto('/#/settings/team-members');
  await expect(page.getByRole('button', { name: 'Set a new password for Olga Owner' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Set a new password for Pia Packer' }).click();
  const setDialog = page.getByRole('dialog', { name: 'Set a new password for Pia Packer' });
  await setDialog.getByLabel('New password', { exact: true }).fill('pia has a new one');
  await setDialog.getByLabel('New password again').fill('pia has a new one!');
  await setDialog.getByRole('button', { name: 'Set password' }).click();
  await expect(setDialog.getByText('The two new passwords differ').first()).toBeVisible();
  await setDialog.getByLabel('New password again').fill('pia has a new one');
  await setDialog.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByRole('status')).toContainText('New password set for Pia Packer');
  expect((await page.request.post('/auth/login', { data: { email: 'pia@pass.example', password: 'pia forgot this' } })).status()).toBe(401);
  expect((await page.request.post('/auth/login', { data: { email: 'pia@pass.example', password: 'pia has a new one' } })).status()).toBe(200);

  await page.getByRole('button', { name: 'Password…' }).click();
  const own = page.getByRole('dialog', { name: 'Change your password' });
  await own.getByLabel('Current password').fill('not the password');
  await own.getByLabel('New password', { exact: true }).fill('the second password');
  await own.getByLabel('New password again').fill('the second password');
  await own.getByRole('button', { name: 'Change password' }).click();
  await expect(own.getByText('This is not your current password').first()).toBeVisible();
  await own.getByLabel('Current password').fill(owner.password);
  await own.getByRole('button', { name: 'Change password' }).click();
  await expect(own).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('status')).toHaveText('Password changed.');

  // Still signed in, with the new login: the screens keep loading, also after a reload.
  await page.getByRole('link', { name: 'Team members' }).click();
  await expect(page.getByRole('cell', { name: 'Pia Packer', exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('cell', { name: 'Pia Packer', exact: true })).toBeVisible();
  const before = await page.request.get(`/orgs/${orgId}`, { headers: { authorization: `Bearer ${oldLogin}` } });
  expect(before.status()).toBe(401);
  expect((await page.request.post('/auth/login', { data: { email: owner.email, password: 'the second password' } })).status()).toBe(200);
});
