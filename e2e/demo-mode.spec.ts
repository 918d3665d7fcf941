import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';

/**
 * Demo mode from the browser (issue 20): a sample warehouse in its own profile, a banner on every
 * screen while it is open, and one click back to the real data as it was.
 */
const owner = { orgName: 'Real Lager', name: 'Rune Real', email: 'rune@real.example', password: 'real real real' };

test('demo mode: the sample warehouse with a banner on every screen, and one click back to the real data', async ({ page }) => {
  const { call } = await seedOrganization(page.request, owner);
  await call('POST', '/sender-addresses', { name: 'The real dock', address1: 'Kajen 1', zipcode: '8000', city: 'Aarhus C', countryCode: 'DK' });
  await signIn(page, owner.email, owner.password);
  const main = page.getByRole('main');
  const nav = page.getByRole('navigation', { name: 'Main' });
  const banner = page.getByRole('region', { name: 'Demo mode' });
  await expect(banner).toHaveCount(0);

  await nav.getByRole('link', { name: 'Organization' }).click();
  await main.getByRole('button', { name: 'Try the demo warehouse' }).click();
  await expect(banner).toBeVisible({ timeout: 30_000 });
  await expect(banner).toContainText('sample warehouse in a separate profile; your real data is untouched');
  await expect(nav).toContainText('Nordlys Demo Warehouse');

  // On every screen: the lists hold the sample's orders, shipments and settings.
  await nav.getByRole('link', { name: 'Orders' }).click();
  await expect(main.getByRole('heading', { level: 1 })).toHaveText('Orders');
  await expect(banner).toBeVisible();
  await expect(main.getByRole('table')).toContainText('1036');
  await nav.getByRole('link', { name: 'Shipments' }).click();
  await expect(main.getByRole('heading', { level: 1 })).toHaveText('Shipments');
  await expect(banner).toBeVisible();
  await expect(main.getByRole('table')).toContainText(/Dispatched/i);
  await nav.getByRole('link', { name: 'Sender addresses' }).click();
  await expect(banner).toBeVisible();
  await expect(main.getByRole('table', { name: 'Sender addresses' })).toContainText('Nordlys warehouse');
  await expect(main.getByRole('table', { name: 'Sender addresses' })).not.toContainText('The real dock');
  await nav.getByRole('link', { name: 'Pack' }).click();
  await expect(banner).toBeVisible();
  // The banner does not take the packer's scan box's focus.
  await expect(main.getByRole('textbox').first()).toBeFocused();
  // A reload keeps the demo and its banner.
  await page.reload();
  await expect(banner).toBeVisible();

  await banner.getByRole('button', { name: 'Back to my real data' }).click();
  await expect(banner).toHaveCount(0, { timeout: 30_000 });
  await expect(nav).toContainText('Real Lager');
  await nav.getByRole('link', { name: 'Sender addresses' }).click();
  await expect(main.getByRole('table', { name: 'Sender addresses' })).toContainText('The real dock');
  await expect(main.getByRole('table', { name: 'Sender addresses' })).not.toContainText('Nordlys warehouse');
});
