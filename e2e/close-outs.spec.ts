import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';

/**
 * The end of the day (issue 21): the Shipments screen's End of day shows what waits per carrier, one
 * click closes a carrier and prints its handover list (here on a hot-folder PDF printer, read back),
 * and the list of close-outs opens the PDF again. With SHIPDESK_SCREENSHOTS=1 the dialog is saved to
 * docs/screenshots/close-outs.png.
 */
const SCREENSHOTS = process.env.SHIPDESK_SCREENSHOTS === '1';
const screenshotDir = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));

async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: `${screenshotDir}${name}.png`, animations: 'disabled', caret: 'hide' });
}

const pdfText = (file: string) => execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/[ \t]+/g, ' ');

test('End of day: close a carrier, its handover list printed, and opened again from the close-outs', async ({ page }) => {
  const owner = { orgName: 'Harbour Goods', name: 'Dora Dispatch', email: 'dora@harbour.example', password: 'end of the day' };
  const { call: api } = await seedOrganization(page.request, owner);
  const address = await api('POST', '/sender-addresses', {
    name: 'Harbour Goods',
    address1: 'Kajgade 4',
    zipcode: '8000',
    city: 'Aarhus C',
    countryCode: 'DK',
    phone: '+4512345678',
  });
  const vans = await api('POST', '/carriers', { name: 'Own vans', carrierSlug: 'local', config: {}, senderAddressId: address.id });
  const night = await api('POST', '/carriers', { name: 'Night courier', carrierSlug: 'local', config: {}, senderAddressId: address.id });
  const receiver = { type: 'receiver', name: 'Jens Hansen', address1: 'Nørregade 1', postalCode: '1165', city: 'København K', countryCode: 'DK' };
  const parcel = (weight: number) => ({ weight, weightUnit: 'kg', dimensions: { length: 30, width: 20, height: 10 }, orderLines: [] });
  const dispatched = async (reference: string, carrierId: string, weights: number[]) => {
    const shipment = await api('POST', '/shipments', {
      type: 'outbound',
      reference,
      carrierSettings: { carrierId, productId: 'local_parcel' },
      parties: [receiver],
      parcels: weights.map(parcel),
    });
    return api('POST', `/shipments/${shipment.id}/send`);
  };
  const first = await dispatched('EOD-1001', vans.id, [2, 1.5]);
  const second = await dispatched('EOD-1002', vans.id, [4]);
  await dispatched('EOD-2001', night.id, [1]);
  const folder = mkdtempSync(join(tmpdir(), 'shipdesk-e2e-handover-'));
  try {
    await api('POST', '/printers', { name: 'Office A4', driver: 'file', target: folder, format: 'pdf', labelSize: 'A4', isDefault: true });

    await signIn(page, owner.email, owner.password);
    await page.goto('/#/shipments');
    await page.getByRole('main').getByRole('button', { name: 'End of day…' }).click();
    const dialog = page.getByRole('dialog', { name: 'End of day' });
    const waiting = dialog.getByRole('table', { name: 'Waiting to be handed over' });
    await expect(waiting.getByRole('row', { name: /Own vans/ })).toContainText('7.5 kg');
    await expect(
      waiting
        .getByRole('row', { name: /Own vans/ })
        .getByRole('cell')
        .nth(0),
    ).toHaveText('2');
    await expect(waiting.getByRole('row', { name: /Night courier/ })).toBeVisible();
    await expect(dialog.getByLabel('Printer for the handover list').locator('option:checked')).toHaveText('Office A4 (default)');

    await dialog.getByRole('button', { name: 'Close and print handover list for Own vans' }).click();
    await expect(dialog.getByRole('status')).toHaveText(
      "Closed 2 shipments, 3 parcels, 7.5 kg for Own vans. The handover list for Own vans (2 shipments, 1 page) went to 'Office A4'.",
    );
    // Only the other carrier waits now; the close-out is listed with its totals.
    await expect(waiting.getByRole('row', { name: /Own vans/ })).toHaveCount(0);
    await expect(waiting.getByRole('row', { name: /Night courier/ })).toBeVisible();
    const handedOver = dialog.getByRole('table', { name: 'Handed over' });
    await expect(handedOver.getByRole('row').filter({ hasText: 'Own vans' })).toContainText('2 shipments, 3 parcels, 7.5 kg');

    const printed = readdirSync(folder).filter((name) => name.endsWith('.pdf'));
    expect(printed).toHaveLength(1);
    const text = pdfText(join(folder, printed[0] as string));
    expect(text).toContain('Handover list');
    expect(text).toContain('Own vans');
    for (const shipment of [first, second]) {
      expect(text).toContain(shipment.reference);
      expect(text).toContain(shipment.tracking.number);
    }
    expect(text).toContain('Total: 2 shipments, 3 parcels, 7.5 kg');
    expect(text).toContain("Driver's name");

    const { violations } = await new AxeBuilder({ page }).include('dialog[open]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
    await screenshot(page, 'close-outs');

    // The list opens again from the close-outs, by keyboard.
    const downloading = page.waitForEvent('download');
    await handedOver.getByRole('button', { name: /^Open PDF: the handover list of Own vans/ }).focus();
    await page.keyboard.press('Enter');
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^handover-list-\d{4}-\d\d-\d\d-clo_.+\.pdf$/);
    expect(pdfText(await download.path())).toContain('EOD-1002');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(dialog).toBeHidden();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
