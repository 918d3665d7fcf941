import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';

/**
 * Pickups (issue 21), from the Shipments screen: a local pickup booked on the form and cancelled,
 * and a daily pickup set for the working week, checked on the screen and against the API. With
 * SHIPDESK_SCREENSHOTS=1 the screen is saved to docs/screenshots/pickups.png.
 */
const SCREENSHOTS = process.env.SHIPDESK_SCREENSHOTS === '1';
const screenshotDir = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));

async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(screenshotDir, { recursive: true });
  // Tall enough for the whole screen, so the picture shows it as a window would.
  await page.setViewportSize({ width: 1360, height: 1300 });
  await page.screenshot({ path: `${screenshotDir}${name}.png`, animations: 'disabled', caret: 'hide' });
}

const two = (n: number) => String(n).padStart(2, '0');
/** Tomorrow on this computer's calendar: bookable whatever the hour the test runs at. */
function tomorrow(): string {
  const now = new Date();
  const next = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return `${next.getFullYear()}-${two(next.getMonth() + 1)}-${two(next.getDate())}`;
}

test('a local pickup booked and cancelled, and a daily pickup set, from the Shipments screen', async ({ page }) => {
  const owner = { orgName: 'Dock Nine', name: 'Pia Packer', email: 'pia@docknine.example', password: 'a long password' };
  const { call: api } = await seedOrganization(page.request, owner);
  const address = await api('POST', '/sender-addresses', {
    name: 'Dock Nine warehouse',
    address1: 'Havnevej 9',
    zipcode: '8000',
    city: 'Aarhus C',
    countryCode: 'DK',
    phone: '+4512345678',
  });
  const carrier = await api('POST', '/carriers', { name: 'Own trucks', carrierSlug: 'local', config: {}, senderAddressId: address.id });

  await signIn(page, owner.email, owner.password);
  const main = page.getByRole('main');
  await page.goto('/#/shipments');
  await main.getByRole('link', { name: 'Pickups' }).click();
  await expect(main.getByRole('heading', { level: 1, name: 'Pickups' })).toBeVisible();

  // The only carrier and its address are chosen already.
  const book = main.getByRole('form', { name: 'Book a pickup' });
  await expect(book.getByLabel('Carrier').locator('option:checked')).toHaveText('Own trucks');
  await expect(book.getByLabel('Collect from').locator('option:checked')).toHaveText('Dock Nine warehouse, Havnevej 9, Aarhus C');
  const day = tomorrow();
  await book.getByLabel('Day').fill(day);
  await book.getByLabel('Parcels').fill('4');
  await book.getByLabel('Note for the driver').fill('Ring at gate 2');
  await book.getByRole('button', { name: 'Book pickup' }).click();
  await expect(main.getByRole('status')).toContainText(/Pickup booked with Own trucks for .*, confirmation PU\d{9}\./);

  const upcoming = main.getByRole('table', { name: 'Upcoming pickups' });
  const row = upcoming.getByRole('row').filter({ hasText: 'Own trucks' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('15:00–17:00');
  await expect(row).toContainText('Booked');
  const [booked] = (await api('GET', '/pickups')).data as { id: string; date: string; parcelCount: number; instruction: string; status: string }[];
  expect(booked).toMatchObject({ date: day, parcelCount: 4, instruction: 'Ring at gate 2', status: 'booked' });

  // A daily pickup for the working week, with the same carrier.
  const daily = main.getByRole('form', { name: 'Set a daily pickup' });
  await daily.getByLabel('Carrier').selectOption({ label: 'Own trucks' });
  await daily.getByLabel('Ready from').fill('16:00');
  await daily.getByLabel('Collect by').fill('18:00');
  for (const weekday of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) await expect(daily.getByRole('checkbox', { name: weekday })).toBeChecked();
  await expect(daily.getByRole('checkbox', { name: 'Saturday' })).not.toBeChecked();
  await daily.getByRole('button', { name: 'Set daily pickup' }).click();
  const dailyRow = main.getByRole('table', { name: 'Daily pickups' }).getByRole('row').filter({ hasText: 'Own trucks' });
  await expect(dailyRow).toContainText('16:00–18:00');
  await expect(dailyRow).toContainText('Monday to Friday');
  await expect(dailyRow.getByRole('checkbox', { name: 'Own trucks daily pickup books itself' })).toBeChecked();
  const dailies = (await api('GET', '/daily-pickups')).data as { carrierId: string; weekdays: number[]; enabled: boolean }[];
  expect(dailies).toEqual([expect.objectContaining({ carrierId: carrier.id, weekdays: [1, 2, 3, 4, 5], enabled: true, from: '16:00', to: '18:00' })]);

  await screenshot(page, 'pickups');
  // The screen with its forms and tables as a screen reader meets it: no WCAG 2.1 AA violations.
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);

  // Cancel from the keyboard: the row's button, then the dialog's confirm.
  await row.getByRole('button', { name: /^Cancel the Own trucks pickup on / }).focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Cancel pickup' });
  await confirm.getByRole('button', { name: 'Cancel pickup' }).click();
  await expect(confirm).toBeHidden();
  await expect(main.getByRole('status')).toContainText('cancelled');
  await expect(upcoming.getByRole('row').filter({ hasText: 'Own trucks' }).filter({ hasText: '15:00' })).toContainText('Cancelled');
  expect((await api('GET', `/pickups/${booked?.id}`)).status).toBe('cancelled');
});
