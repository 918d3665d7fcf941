import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
    const { call: api } = await seedOrganization(page.request, {
      orgName: 'Print Hall',
      name: 'Per Printer',
      email: 'per@print.example',
      password: 'a long password',
    });
    // Oslo is an export: the exporter's EORI number and each line's customs data (issue 21).
    await api('PUT', '', { eoriNumber: 'DK12345678' });
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
      parcels: [
        {
          weight: 2,
          weightUnit: 'kg',
          dimensions: { length: 30, width: 20, height: 10 },
          orderLines: [
            { sku: 'MUG-01', quantity: 2, description: 'Mug', unitPrice: 50, currency: 'DKK', tarrifNumber: '6912.00', countryOfOrigin: 'DK', weight: 0.4 },
          ],
        },
      ],
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

/**
 * A ZPL label where the thermal printer is missing (USERS 1 and 3): the preview shows the label as
 * Shipdesk draws it in PDF, with its code folded away, and the print dialog offers the office PDF
 * printer for it, which receives the label drawn as PDF.
 */
test('a ZPL label: previewed as a drawing, printed on the office PDF printer', async ({ page }) => {
  const officeDir = mkdtempSync(join(tmpdir(), 'shipdesk-e2e-office-'));
  try {
    // The file's server is set up once: the same owner as the test above (its printers may be there too).
    const { call: api } = await seedOrganization(page.request, {
      orgName: 'Print Hall',
      name: 'Per Printer',
      email: 'per@print.example',
      password: 'a long password',
    });
    const address = await api('POST', '/sender-addresses', { name: 'Hall 2', address1: 'Havnevej 4', zipcode: '8000', city: 'Aarhus', countryCode: 'DK' });
    const carrier = await api('POST', '/carriers', { name: 'Own vans', carrierSlug: 'local', config: { labelFormat: 'zpl' }, senderAddressId: address.id });
    await api('POST', '/printers', { name: 'Office laser', driver: 'file', target: officeDir, format: 'pdf', labelSize: 'A4' });
    const shipment = await api('POST', '/shipments', {
      type: 'outbound',
      reference: 'THERMAL-1',
      carrierSettings: { carrierId: carrier.id, productId: 'local_parcel' },
      parties: [{ type: 'receiver', name: 'Jens Hansen', address1: 'Nørregade 1', postalCode: '1165', city: 'København K', countryCode: 'DK' }],
      parcels: [{ weight: 1.5, weightUnit: 'kg', dimensions: { length: 30, width: 20, height: 10 }, orderLines: [] }],
    });
    const sent = await api('POST', `/shipments/${shipment.id}/send`);
    expect(sent.documents.map((document: { format: string }) => document.format)).toEqual(['zpl']);

    await signIn(page, 'per@print.example', 'a long password');
    await page.goto(`/#/shipments/${shipment.id}`);
    await page.getByRole('button', { name: 'Preview Label · ZPL · 100 × 150 mm' }).click();
    const preview = page.getByRole('dialog', { name: 'Label · ZPL · 100 × 150 mm' });
    await expect(preview.getByTitle('Label · ZPL · 100 × 150 mm, shown at its real size')).toHaveAttribute('src', /^blob:.*#zoom=100/);
    await expect(preview.getByText('A ZPL label, shown as Shipdesk draws it for the screen.')).toBeVisible();
    const code = preview.getByLabel('ZPL code');
    await expect(code).toBeHidden();
    await preview.getByText('ZPL code').click();
    await expect(code).toContainText('^XA');

    await preview.getByRole('button', { name: 'Print…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Print' });
    // No ZPL printer: the PDF printers are offered, in a group saying the label is drawn for them.
    const choice = dialog.getByLabel('Label printer (ZPL)');
    await expect(choice.locator('optgroup[label="Other printers (the label is drawn in their format)"] option', { hasText: 'Office laser' })).toHaveCount(1);
    await choice.selectOption({ label: 'Office laser · A4' });
    await expect(dialog.getByText('Office laser prints PDF: Shipdesk draws this label as PDF for it.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Print', exact: true }).click();
    await expect(dialog.getByRole('table', { name: 'Print jobs' }).getByRole('row').filter({ hasText: 'Label · ZPL' })).toContainText('Done');
    const files = readdirSync(officeDir);
    expect(files).toHaveLength(1);
    expect(
      readFileSync(join(officeDir, files[0] as string))
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  } finally {
    rmSync(officeDir, { recursive: true, force: true });
  }
});

/**
 * Setting up a printer (USERS 1, 2): "Test label" prints the printer's test label at its media size,
 * and a printer that is not there says why while setting up rather than at the first parcel.
 */
test('a new printer is tested from the Printers screen: the test label lands, an unreachable printer says why', async ({ page }) => {
  const hotFolder = mkdtempSync(join(tmpdir(), 'shipdesk-e2e-test-label-'));
  try {
    const { call: api } = await seedOrganization(page.request, {
      orgName: 'Print Hall',
      name: 'Per Printer',
      email: 'per@print.example',
      password: 'a long password',
    });
    await api('POST', '/printers', { name: 'Dock A6 folder', driver: 'file', target: hotFolder, format: 'pdf', labelSize: 'A6' });
    await api('POST', '/printers', { name: 'Unplugged share', driver: 'file', target: join(hotFolder, 'not-mounted'), format: 'pdf', labelSize: 'A6' });

    await signIn(page, 'per@print.example', 'a long password');
    await page.goto('/#/settings/printers');
    await page.getByRole('button', { name: 'Print a test label on Dock A6 folder' }).click();
    await expect(page.getByRole('status')).toContainText("Test label sent to 'Dock A6 folder'");
    const files = readdirSync(hotFolder).filter((name) => name.endsWith('.pdf'));
    expect(files).toHaveLength(1);
    expect(
      readFileSync(join(hotFolder, files[0] as string))
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    await page.getByRole('button', { name: 'Print a test label on Unplugged share' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('The test label did not print on Unplugged share');
    await expect(alert).toContainText('does not exist on this computer');
    await expect(page.getByRole('status')).toHaveCount(0);
  } finally {
    rmSync(hotFolder, { recursive: true, force: true });
  }
});
