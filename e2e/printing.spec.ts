import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';

/**
 * Labels and papers go to different printers (USERS 1: chosen by document type): a shipment whose
 * rule asks for a packing list and a commercial invoice is sent; "Print all" offers the station's
 * 100 × 150 label printer for the label and the A4 printer for the papers, although both take PDF,
 * and each job lands on its own printer. Two `file` printers stand in for the machines.
 */
test('print all: the label to the label printer, the A4 papers to the A4 printer', async ({ page }) => {
  const labelsDir = mkdtempSync(join(tmpdir(), 'shipdesk-e2e-labels-'));
  const papersDir = mkdtempSync(join(tmpdir(), 'shipdesk-e2e-papers-'));
  try {
    const { call: api } = await seedOrganization(page.request, { orgName: 'Print Hall', name: 'Per Printer', email: 'per@print.example', password: 'a long password' });
    const address = await api('POST', '/sender-addresses', { name: 'Hall 1', address1: 'Havnevej 2', zipcode: '8000', city: 'Aarhus', countryCode: 'DK' });
    const carrier = await api('POST', '/carriers', { name: 'Own trucks', carrierSlug: 'local', config: {}, senderAddressId: address.id });
    await api('POST', '/printers', { name: 'Zebra desk 1', driver: 'file', target: labelsDir, format: 'pdf', labelSize: '100X150', isDefault: true });
    await api('POST', '/printers', { name: 'Office A4', driver: 'file', target: papersDir, format: 'pdf', labelSize: 'A4' });
    const rule = await api('POST', '/shipping-rules', {
      name: 'Norway with papers',
      carrierId: carrier.id,
      productId: 'local_parcel',
      services: [],
      senderAddressId: address.id,
      receivingCountries: ['NO'],
      conditions: [],
      generatePackingList: true,
      generateCommercialInvoice: true,
    });
    const shipment = await api('POST', '/shipments', {
      type: 'outbound',
      carrierSettings: { carrierId: carrier.id, productId: 'local_parcel' },
      parties: [{ type: 'receiver', name: 'Kari Nordmann', address1: 'Karl Johans gate 1', postalCode: '0154', city: 'Oslo', countryCode: 'NO' }],
      parcels: [{ weight: 2, weightUnit: 'kg', dimensions: { length: 30, width: 20, height: 10 }, orderLines: [{ sku: 'MUG-01', quantity: 2, description: 'Mug', unitPrice: 50, currency: 'DKK' }] }],
    });
    await api('PATCH', `/shipments/${shipment.id}`, { shippingRuleId: rule.id });
    const sent = await api('POST', `/shipments/${shipment.id}/send`);
    expect(sent.documents.map((document: { documentType: string }) => document.documentType)).toEqual(['label', 'packing_list', 'commercial_invoice']);

    await signIn(page, 'per@print.example', 'a long password');
    await page.goto(`/#/shipments/${shipment.id}`);
    await page.getByRole('button', { name: 'Print all' }).click();

    const dialog = page.getByRole('dialog', { name: 'Print' });
    await expect(dialog.getByLabel('Printer for PDF').locator('option:checked')).toHaveText('Zebra desk 1 · 100X150 (default)');
    await expect(dialog.getByLabel('Printer for documents (PDF)').locator('option:checked')).toHaveText('Office A4 · A4');
    await dialog.getByRole('button', { name: 'Print', exact: true }).click();
    const jobs = dialog.getByRole('table', { name: 'Print jobs' });
    for (const [title, printer] of [
      ['Label · PDF · 100 × 150 mm', 'Zebra desk 1'],
      ['Packing list · PDF', 'Office A4'],
      ['Commercial invoice · PDF', 'Office A4'],
    ]) {
      const row = jobs.getByRole('row').filter({ hasText: title as string });
      await expect(row).toContainText(printer as string);
      await expect(row).toContainText('Done');
    }
    expect(readdirSync(labelsDir)).toHaveLength(1);
    expect(readdirSync(papersDir)).toHaveLength(2);
  } finally {
    rmSync(labelsDir, { recursive: true, force: true });
    rmSync(papersDir, { recursive: true, force: true });
  }
});
