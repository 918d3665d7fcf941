import { fakePostnordApiKey, fakePostnordCustomerNumber, startFakePostnord } from '../src-main/carriers/postnord/fake';
import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';

/** The first-day checklist's carrier step with a real carrier (issue 20): ready once its connection test passes. */
test('a real carrier is ready once its connection test passes, tested from the checklist in one click', async ({ page }) => {
  const fake = await startFakePostnord();
  try {
    const { call } = await seedOrganization(page.request, { orgName: 'Nord Lager', name: 'Nils Nord', email: 'nils@nord.example', password: 'nord nord nord' });
    const address = (await call('POST', '/sender-addresses', {
      name: 'Nord dock',
      address1: 'Sandhamnsgatan 61',
      zipcode: '11528',
      city: 'Stockholm',
      countryCode: 'SE',
    })) as {
      id: string;
    };
    await call('POST', '/carriers', {
      name: 'PostNord Sverige',
      carrierSlug: 'postnord',
      config: { apiKey: fakePostnordApiKey, customerNumber: fakePostnordCustomerNumber, apiBaseUrl: fake.url },
      senderAddressId: address.id,
    });
    await signIn(page, 'nils@nord.example', 'nord nord nord');
    await expect(page.getByRole('region', { name: 'Getting started' })).toContainText('1 of 6 done or skipped');
    await page.getByRole('region', { name: 'Getting started' }).getByRole('link', { name: 'Next: carrier' }).click();
    const carrier = page.getByRole('list', { name: 'First-day checklist' }).getByRole('listitem').filter({ hasText: 'Carrier' });
    await expect(page.getByRole('listitem', { name: 'Carrier: To do' })).toBeVisible();
    await carrier.getByRole('button', { name: 'Test connection to PostNord Sverige' }).click();
    await expect(page.getByRole('listitem', { name: 'Carrier: Done' })).toBeVisible();
    expect(((await call('GET', '/onboarding')) as { carriersToTest: unknown[] }).carriersToTest).toEqual([]);
    // Remembered by the server: a reload still shows it done.
    await page.reload();
    await expect(page.getByRole('listitem', { name: 'Carrier: Done' })).toBeVisible();
  } finally {
    await fake.close();
  }
});
