import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cupsForTests } from './cups';
import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';

/**
 * USERS 1: a rule that prints on "the default printer" needs one. A printer added where the
 * organization has no default of its format starts as that default (the box ticked, which the user
 * may untick), whether it is found among the computer's printers or typed into New printer.
 */
const OWNER = { orgName: 'Default Hall', name: 'Dina Default', email: 'dina@defaults.example', password: 'a long password' };
const folder = mkdtempSync(join(tmpdir(), 'shipdesk-e2e-printer-defaults-'));
test.afterAll(() => rmSync(folder, { recursive: true, force: true }));

test('the first printer of a format starts as its default, from Find printers and from New printer', async ({ page }) => {
  const { call } = await seedOrganization(page.request, OWNER);
  await signIn(page, OWNER.email, OWNER.password);
  await page.goto('/#/settings/printers');
  const main = page.getByRole('main');
  const table = main.getByRole('table', { name: 'Printers' });
  const cups = cupsForTests();

  if (cups.state === 'ready') {
    // The machine's only printer, one click: it becomes the default for PDF.
    await main.getByRole('button', { name: 'Find printers' }).click();
    const found = page.getByRole('dialog', { name: 'Printers of this computer' });
    await expect(found.getByLabel('Make the printer added the default for PDF')).toBeChecked();
    await found.getByRole('button', { name: `Add ${cups.queue}` }).click();
    await expect(found.getByRole('status')).toHaveText(`Added 1 printer. ${cups.queue} is the default printer for PDF.`);
    // There is a default now: nothing more to offer.
    await expect(found.getByLabel('Make the printer added the default for PDF')).toHaveCount(0);
    await found.getByRole('button', { name: 'Close dialog' }).click();
    await expect(table.getByRole('row').filter({ hasText: cups.queue })).toContainText('Default for PDF');
  } else {
    // Without CUPS the same through the form.
    await main.getByRole('button', { name: 'New printer' }).click();
    const form = page.getByRole('dialog', { name: 'New printer' });
    await expect(form.getByLabel('Default printer for PDF')).toBeChecked();
    await form.getByLabel('Name (required)', { exact: true }).fill('Office PDF');
    await form.getByLabel('Connection').selectOption({ label: 'Hot folder' });
    await form.getByLabel('Folder (required)').fill(join(folder, 'office'));
    await form.getByRole('button', { name: 'Create printer' }).click();
    await expect(form).toBeHidden();
    await expect(table.getByRole('row').filter({ hasText: 'Office PDF' })).toContainText('Default for PDF');
  }
  const pdfDefault = (await call('GET', '/printers')).data.find((printer: { isDefault: boolean }) => printer.isDefault);
  expect(pdfDefault).toMatchObject({ format: 'pdf' });

  // A second PDF printer does not take the mark; the form's box follows the format: ZPL has no default yet.
  await main.getByRole('button', { name: 'New printer' }).click();
  const form = page.getByRole('dialog', { name: 'New printer' });
  await expect(form.getByLabel('Default printer for PDF')).not.toBeChecked();
  await form.getByLabel('Connection').selectOption({ label: 'Network label printer (9100)' });
  await expect(form.getByLabel('Format')).toHaveValue('zpl');
  await expect(form.getByLabel('Default printer for ZPL')).toBeChecked();
  // The user may untick it: the printer is added, and there is still no ZPL default.
  await form.getByLabel('Default printer for ZPL').uncheck();
  await form.getByLabel('Name (required)', { exact: true }).fill('Zebra dock');
  await form.getByLabel('Address (host:port) (required)').fill('192.0.2.7:9100');
  await form.getByRole('button', { name: 'Create printer' }).click();
  await expect(form).toBeHidden();
  await expect(table.getByRole('row').filter({ hasText: 'Zebra dock' })).not.toContainText('Default');
  const printers = (await call('GET', '/printers')).data as { name: string; isDefault: boolean }[];
  expect(printers.filter((printer) => printer.isDefault)).toEqual([expect.objectContaining({ id: pdfDefault.id })]);
});

test('a CUPS queue name the computer does not list is pointed out while typing, and can still be saved', async ({ page }) => {
  // The file's server has one organization: the first test's, with its printers.
  const { call } = await seedOrganization(page.request, OWNER);
  await signIn(page, OWNER.email, OWNER.password);
  await page.goto('/#/settings/printers');
  const main = page.getByRole('main');
  const cups = cupsForTests();

  await main.getByRole('button', { name: 'New printer' }).click();
  const form = page.getByRole('dialog', { name: 'New printer' });
  const queue = form.getByLabel('Queue name (required)');
  await form.getByLabel('Name (required)', { exact: true }).fill('Office');
  await queue.fill('Ofice-laser');
  if (cups.state === 'ready') {
    await expect(queue).toHaveAccessibleDescription(new RegExp(`lists no queue named “Ofice-laser” \\(it has [^)]*${cups.queue}`));
    // The queue it does list is taken without a word.
    await queue.fill(cups.queue);
    await expect(queue).not.toHaveAccessibleDescription(/lists no/);
    await queue.fill('Ofice-laser');
  } else {
    await expect(queue).toHaveAccessibleDescription(/lists no printer queues right now, so “Ofice-laser” cannot be checked/);
  }
  // A warning, not a refusal: the queue may be added to this computer later.
  await form.getByRole('button', { name: 'Create printer' }).click();
  await expect(form).toBeHidden();
  const saved = (await call('GET', '/printers')).data.filter((printer: { name: string }) => printer.name === 'Office');
  expect(saved).toMatchObject([{ driver: 'cups', target: 'Ofice-laser' }]);
});
