import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';

/**
 * A script's token from the API tokens screen: access ticked per kind of record, the token shown
 * once, what it may do said in the form's words in the list, and Revoke stopping it at once.
 */
test('a token made on the API tokens screen reads everything and writes shipments only, until revoked', async ({ page }) => {
  const owner = { orgName: 'Token Hall', name: 'Tove Owner', email: 'tove@tokens.example', password: 'tokens all day' };
  const { orgId } = await seedOrganization(page.request, owner);
  await signIn(page, owner.email, owner.password);
  await page.goto('/#/settings/api-tokens');

  await page.getByRole('button', { name: 'New API token' }).click();
  const form = page.getByRole('dialog', { name: 'New API token' });
  await form.getByLabel('Name (required)').fill('Scanner script');
  await form.getByRole('button', { name: 'Create token' }).click();
  await expect(form.getByText('Tick at least one kind of access').first()).toBeVisible();
  await form.getByRole('checkbox', { name: 'Read All records' }).check();
  await form.getByRole('checkbox', { name: 'Write Shipments' }).check();
  await form.getByRole('button', { name: 'Create token' }).click();

  const shown = page.getByRole('dialog', { name: 'Your new API token' });
  const token = await shown.getByLabel('Token “Scanner script”').inputValue();
  expect(token).toMatch(/^shpd_/);
  // The token is never shown again, so neither Escape (pressed again and again) nor a × closes the
  // dialog by accident: only the button that says it was copied.
  await expect(shown.getByRole('button', { name: 'Copy' })).toBeVisible();
  await expect(shown.getByRole('button', { name: 'Close dialog' })).toHaveCount(0);
  for (let press = 0; press < 3; press++) await page.keyboard.press('Escape');
  await shown.getByLabel('Token “Scanner script”').press('Escape');
  await expect(shown).toBeVisible();
  await expect(shown.getByLabel('Token “Scanner script”')).toHaveValue(token);
  await shown.getByRole('button', { name: 'I have copied it' }).click();
  await expect(shown).toBeHidden();

  const row = page.getByRole('row', { name: /Scanner script/ });
  await expect(row).toContainText('Read everything; write Shipments');
  await expect(row).toContainText(token.slice(0, 12));
  await expect(row).not.toContainText(token);

  const as = { authorization: `Bearer ${token}` };
  expect((await page.request.get(`/orgs/${orgId}/carriers`, { headers: as })).status()).toBe(200);
  const refused = await page.request.post(`/orgs/${orgId}/sender-addresses`, {
    headers: as,
    data: { name: 'Hall', address1: 'Havnevej 2', zipcode: '8000', city: 'Aarhus', countryCode: 'DK' },
  });
  expect([refused.status(), (await refused.json()).message]).toEqual([403, 'This operation needs the scope write:sender_addresses']);

  await row.getByRole('button', { name: 'Revoke Scanner script' }).click();
  await page.getByRole('dialog', { name: 'Revoke API token' }).getByRole('button', { name: 'Revoke token' }).click();
  await expect(page.getByRole('row', { name: /Scanner script/ })).toHaveCount(0);
  expect((await page.request.get(`/orgs/${orgId}/carriers`, { headers: as })).status()).toBe(401);
});
