import { mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { APIResponse, Locator, Page } from '@playwright/test';
import { cupsForTests, pdfFilesIn, waitForPrintedPdf } from './cups';
import { expect, test } from './fixtures';

/**
 * One packing station's day, through the UI as a warehouse user works it, on a fresh server: first
 * run, settings (sender address, local carrier with 100 × 150 mm PDF labels, the CUPS PDF printer, a
 * shipping rule), an order with three lines, a shipment from it with a hand-picked carrier, a split and
 * a batch split, send, the label preview at true size, printing to the real CUPS queue (the printed
 * PDF's page is measured with pdfinfo), and a return. What the user sees is asserted at each step;
 * where cheap, also what the server says (page.request with the session's own JWT).
 *
 * With SHIPDESK_SCREENSHOTS=1 the main screens are saved to docs/screenshots/ along the way.
 */

const SCREENSHOTS = process.env.SHIPDESK_SCREENSHOTS === '1';
const screenshotDir = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));

/** 100 × 150 mm in PostScript points (1 pt = 1/72 in). */
const LABEL_PT = { width: (100 / 25.4) * 72, height: (150 / 25.4) * 72 };
/** 1 CSS mm at 96 dpi; the preview frame is the page plus 24 px of viewer margin (LabelPreviewDialog). */
const CSS_PX_PER_MM = 96 / 25.4;

async function snap(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: `${screenshotDir}${name}.png`, animations: 'disabled', caret: 'hide' });
}

/**
 * Chromium's PDF viewer paints the page a moment after the frame appears, first as a plain dark
 * box. Waits until the frame's picture holds detail (a plain box compresses to a few kB of PNG)
 * and has stopped changing.
 */
async function waitUntilPainted(frame: Locator): Promise<void> {
  let previous: Buffer | null = null;
  await expect
    .poll(
      async () => {
        const shot = await frame.screenshot({ animations: 'disabled' });
        const steady = previous !== null && shot.length > 12_000 && shot.equals(previous);
        previous = shot;
        return steady;
      },
      { message: 'the label PDF was never painted in the preview frame', timeout: 20_000, intervals: [250] },
    )
    .toBe(true);
}

/** The body of an answer the test or the page got, after checking it succeeded. */
async function json<T = any>(response: Pick<APIResponse, 'ok' | 'url' | 'status' | 'text' | 'json'>): Promise<T> {
  expect(response.ok(), `${response.url()} answered ${response.status()}: ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

/** A table row by text in it (the app's tables are native <table>s). */
const row = (table: Locator, text: string | RegExp) => table.getByRole('row').filter({ hasText: text });

test('packing flow: set up, order, split, batch split, send, preview, print to CUPS, return', async ({ page }) => {
  test.setTimeout(120_000);
  const cups = cupsForTests();
  const nav = page.getByRole('navigation', { name: 'Main' });
  const main = page.getByRole('main');
  const heading = page.getByRole('heading', { level: 1 });

  // ── First run ────────────────────────────────────────────────────────────────────────────────
  const session = await test.step('first run: set up the organization and its owner', async () => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Set up Shipdesk' })).toBeVisible();
    await page.getByLabel('Organization name').fill('Nordlys Warehouse');
    await page.getByLabel('Your name').fill('Pia Packer');
    await page.getByLabel('Email').fill('pia@nordlys.example');
    await page.getByLabel('Password').fill('packing station 1');
    const answer = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/setup');
    await page.getByRole('button', { name: 'Create organization' }).click();
    // The app keeps the JWT in memory only; the test reads it from the same answer the app got.
    const login = await json<{ accessToken: string; orgs: { id: string }[] }>(await answer);
    await expect(nav).toBeVisible();
    await expect(nav.getByText('Pia Packer')).toBeVisible();
    await expect(nav).toContainText('Nordlys Warehouse · owner · HTTP');
    await expect(heading).toHaveText('Shipments');
    return { token: login.accessToken, orgId: login.orgs[0]?.id ?? '' };
  });
  const auth = { authorization: `Bearer ${session.token}` };
  const api = {
    get: async <T = any>(path: string) => json<T>(await page.request.get(`/orgs/${session.orgId}${path}`, { headers: auth })),
    post: async <T = any>(path: string, data: unknown) => json<T>(await page.request.post(`/orgs/${session.orgId}${path}`, { headers: auth, data })),
  };

  // ── Settings ─────────────────────────────────────────────────────────────────────────────────
  await test.step('settings: the warehouse as sender address', async () => {
    await nav.getByRole('link', { name: 'Sender addresses' }).click();
    await expect(heading).toHaveText('Sender addresses');
    await main.getByRole('button', { name: 'New sender address' }).click();
    const dialog = page.getByRole('dialog', { name: 'New sender address' });
    await dialog.getByLabel('Name (required)').fill('Main warehouse');
    await dialog.getByLabel('Contact person').fill('Pia Packer');
    await dialog.getByLabel('Address line 1 (required)').fill('Havnegade 12');
    await dialog.getByLabel('Postal code (required)').fill('8000');
    await dialog.getByLabel('City (required)').fill('Aarhus C');
    await dialog.getByRole('combobox', { name: 'Country (required)' }).fill('Denmark');
    await dialog.getByRole('option', { name: 'Denmark (DK)' }).click();
    await dialog.getByLabel('Phone').fill('+45 70 12 34 56');
    await dialog.getByRole('button', { name: 'Create sender address' }).click();
    await expect(dialog).toBeHidden();
    await expect(row(main.getByRole('table', { name: 'Sender addresses' }), 'Main warehouse')).toContainText('Havnegade 12, 8000 Aarhus C');
  });

  await test.step('settings: a local carrier printing 100 × 150 mm PDF labels', async () => {
    await nav.getByRole('link', { name: 'Carriers' }).click();
    await expect(heading).toHaveText('Carriers');
    await main.getByRole('button', { name: 'New carrier' }).click();
    const dialog = page.getByRole('dialog', { name: 'New carrier' });
    await dialog.getByRole('radio', { name: /Local delivery/ }).check();
    await dialog.getByLabel('Name (required)').fill('Nordlys delivery');
    await expect(dialog.getByLabel('Sender address (required)')).toHaveValue(/.+/); // the only address, chosen already
    await dialog.getByLabel(/^Label format/).selectOption('pdf');
    await dialog.getByLabel(/^Label size/).selectOption('100X150');
    await dialog.getByLabel(/^Tracking number prefix/).fill('NORD');
    await dialog.getByRole('button', { name: 'Create carrier' }).click();
    await expect(dialog).toBeHidden();
    await expect(row(main.getByRole('table', { name: 'Carriers' }), 'Nordlys delivery')).toContainText('Main warehouse (Aarhus C, DK)');
    const carriers = await api.get('/carriers');
    expect(carriers.data[0].config).toMatchObject({ labelFormat: 'pdf', labelSize: '100X150', trackingPrefix: 'NORD' });
  });

  await test.step('settings: the CUPS PDF queue as the default PDF printer', async () => {
    await nav.getByRole('link', { name: 'Printers' }).click();
    await expect(heading).toHaveText('Printers');
    if (cups.state === 'ready') {
      // As a user finds it: the operating system's queues, one click to add; the first PDF printer
      // becomes the default.
      await main.getByRole('button', { name: 'Find printers' }).click();
      const found = page.getByRole('dialog', { name: 'Printers of this computer' });
      await found.getByRole('button', { name: `Add ${cups.queue}` }).click();
      await expect(found.getByRole('status')).toHaveText(`Added 1 printer. ${cups.queue} is the default printer for PDF.`);
      await found.getByRole('button', { name: 'Close dialog' }).click();
      await expect(found).toBeHidden();
      await main.getByRole('button', { name: `Edit ${cups.queue}` }).click();
      const edit = page.getByRole('dialog', { name: `Edit ${cups.queue}` });
      await expect(edit.getByLabel('Queue name (required)')).toHaveValue(cups.queue);
      await expect(edit.getByLabel('Default printer for PDF')).toBeChecked();
      await edit.getByRole('button', { name: 'Cancel', exact: true }).click();
      await expect(edit).toBeHidden();
    } else {
      // No CUPS here: the same printer through the form (the print step below says why it is left out).
      await main.getByRole('button', { name: 'New printer' }).click();
      const form = page.getByRole('dialog', { name: 'New printer' });
      await form.getByLabel('Name (required)', { exact: true }).fill('ShipdeskPDF');
      await form.getByLabel('Queue name (required)').fill('ShipdeskPDF');
      await expect(form.getByLabel('Default printer for PDF')).toBeChecked();
      await form.getByRole('button', { name: 'Create printer' }).click();
      await expect(form).toBeHidden();
    }
    const printerRow = row(main.getByRole('table', { name: 'Printers' }), 'ShipdeskPDF');
    await expect(printerRow).toContainText('CUPS');
    await expect(printerRow).toContainText('100X150');
    await expect(printerRow).toContainText('Default for PDF');
  });

  await test.step('settings: a shipping rule for Denmark', async () => {
    await nav.getByRole('link', { name: 'Shipping rules' }).click();
    await expect(heading).toHaveText('Shipping rules');
    await main.getByRole('button', { name: 'New shipping rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New shipping rule' });
    await dialog.getByLabel('Name (required)').fill('Parcels in Denmark');
    await dialog.getByLabel('Carrier (required)').selectOption({ label: 'Nordlys delivery' });
    await dialog.getByLabel('Product (required)').selectOption({ label: 'Own delivery, parcel' });
    await dialog.getByLabel('Sender address (required)').selectOption({ label: 'Main warehouse (Aarhus C, DK)' });
    await dialog.getByRole('combobox', { name: 'Receiving countries (required)' }).fill('DK');
    await dialog.getByRole('combobox', { name: 'Receiving countries (required)' }).press('Enter');
    await dialog.getByRole('button', { name: 'Add condition' }).click();
    await dialog.getByLabel('Kind').selectOption('weight');
    await dialog.getByLabel('From (kg)').fill('0');
    await dialog.getByLabel('To (kg)').fill('20');
    await dialog.getByLabel('Shipping price').fill('49');
    await dialog.getByLabel('Currency').fill('DKK');
    await dialog.getByRole('button', { name: 'Create shipping rule' }).click();
    await expect(dialog).toBeHidden();
    await expect(row(main.getByRole('table', { name: 'Shipping rules' }), 'Parcels in Denmark')).toContainText('Weight 0–20 kg');
    // "Why this rule?": a 3 kg parcel to Denmark.
    const why = main.getByRole('region', { name: 'Why this rule?' });
    await why.getByRole('combobox', { name: 'Country (required)' }).fill('danmark');
    await why.getByRole('combobox', { name: 'Country (required)' }).press('Enter');
    await why.getByLabel('Weight (required)').fill('3');
    await why.getByRole('button', { name: 'Find matching rules' }).click();
    await expect(why.getByRole('listitem')).toHaveCount(1);
    await expect(why.getByRole('listitem')).toContainText('Parcels in Denmark');
    await expect(why.getByRole('listitem')).toContainText('Chosen');
    await snap(page, 'settings-rules');
  });

  // ── Order ────────────────────────────────────────────────────────────────────────────────────
  await test.step('settings: an order channel for orders typed in by hand', async () => {
    await nav.getByRole('link', { name: 'Order channels' }).click();
    await expect(heading).toHaveText('Order channels');
    await main.getByRole('button', { name: 'New order channel' }).click();
    const dialog = page.getByRole('dialog', { name: 'New order channel' });
    await dialog.getByLabel('Name (required)').fill('Phone orders');
    await dialog.getByRole('button', { name: 'Create order channel' }).click();
    await expect(dialog).toBeHidden();
    await expect(row(main.getByRole('table', { name: 'Order channels' }), 'Phone orders')).toContainText('Manual');
    const channels = await api.get<{ data: { name: string; type: string }[] }>('/order-channels');
    expect(channels.data).toEqual([expect.objectContaining({ name: 'Phone orders', type: 'manual' })]);
  });

  const order = await test.step('orders: "New order" with three lines', async () => {
    await nav.getByRole('link', { name: 'Orders' }).click();
    await expect(heading).toHaveText('Orders');
    await main.getByRole('button', { name: 'New order', exact: true }).click();
    const form = page.getByRole('form', { name: 'New order' });
    await expect(form.getByLabel('Order channel')).toHaveValue(/.+/);
    await expect(form.getByLabel('Order channel').locator('option:checked')).toHaveText('Phone orders (manual)');
    await form.getByLabel('Order number').fill('1001');
    await form.getByLabel('Customer name').fill('Jane Doe');
    await form.getByLabel('Customer email').fill('jane@example.com');
    const address = form.getByRole('group', { name: 'Shipping address' });
    await address.getByLabel('Name (required)', { exact: true }).fill('Jane Doe');
    await address.getByLabel('Address (required)', { exact: true }).fill('Storgade 5');
    await address.getByLabel('Postal code').fill('2100');
    await address.getByLabel('City').fill('København Ø');
    await address.getByRole('combobox', { name: 'Country (required)' }).fill('dk');
    await address.getByRole('combobox', { name: 'Country (required)' }).press('Tab');
    await expect(address.getByRole('combobox', { name: 'Country (required)' })).toHaveValue('Denmark (DK)');
    const lines = [
      { name: 'Stoneware mug', sku: 'MUG-01', quantity: '4', weight: '0.4', price: '49' },
      { name: 'Teapot', sku: 'POT-01', quantity: '1', weight: '1.2', price: '53' },
      { name: 'Tea towel', sku: 'TWL-01', quantity: '2', weight: '0.1', price: '25' },
    ];
    for (const [index, line] of lines.entries()) {
      if (index > 0) await form.getByRole('button', { name: 'Add line' }).click();
      const group = form.getByRole('group', { name: `Line ${index + 1}` });
      await group.getByLabel('Name (required)', { exact: true }).fill(line.name);
      await group.getByLabel('SKU').fill(line.sku);
      await group.getByLabel('Quantity').fill(line.quantity);
      await group.getByLabel('Weight per unit').fill(line.weight);
      await group.getByLabel('Unit price').fill(line.price);
      if (index === 0) await group.getByLabel('Currency (e.g. DKK)').fill('DKK');
      // Each new line starts in the currency of the one before.
      else await expect(group.getByLabel('Currency (e.g. DKK)')).toHaveValue('DKK');
    }
    // 4 × 49 + 53 + 2 × 25 = 299
    await expect(form.getByText(/3 lines · total/)).toContainText('299');
    await form.getByRole('button', { name: 'Create order' }).click();
    await expect(heading).toHaveText('Order 1001 Pending');
    const orderId = decodeURIComponent(new URL(page.url()).hash.replace('#/orders/', ''));
    const linesTable = main.getByRole('table', { name: 'Order lines' });
    await expect(linesTable.getByRole('row')).toHaveCount(4);
    await expect(row(linesTable, 'MUG-01')).toContainText('4');
    const stored = await api.get(`/orders/${orderId}`);
    expect(stored).toMatchObject({ orderNumber: '1001', status: 'pending', totalAmount: 299, currency: 'DKK' });
    expect(stored.orderLines.map((line: { sku: string; quantity: number }) => [line.sku, line.quantity])).toEqual([
      ['MUG-01', 4],
      ['POT-01', 1],
      ['TWL-01', 2],
    ]);
    return { id: orderId };
  });

  // ── Shipment ─────────────────────────────────────────────────────────────────────────────────
  const shipment = await test.step('a shipment from the order, carrier and product picked by hand', async () => {
    await main.getByRole('button', { name: 'Create shipment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create shipment for order 1001' });
    await dialog.getByRole('radio', { name: 'Choose carrier and product' }).check();
    // The organization's only carrier is chosen already.
    await expect(dialog.getByLabel('Carrier', { exact: true }).locator('option:checked')).toHaveText('Nordlys delivery');
    await dialog.getByLabel('Product', { exact: true }).selectOption({ label: 'Own delivery, parcel' });
    await dialog.getByRole('button', { name: 'Create shipment' }).click();
    await expect(heading).toHaveText(/^Shipment SHP-\d+ Pending$/);
    const reference = /SHP-\d+/.exec((await heading.textContent()) ?? '')?.[0] ?? '';
    const id = decodeURIComponent(new URL(page.url()).hash.replace('#/shipments/', ''));
    const parcel = main.getByRole('table', { name: 'Order lines of parcel 1' });
    await expect(parcel.getByRole('row')).toHaveCount(4);
    await expect(main.getByRole('heading', { name: /^Parcel 1 · 3 kg/ })).toBeVisible(); // 4 × 0.4 + 1.2 + 2 × 0.1
    const stored = await api.get(`/shipments/${id}`);
    expect(stored).toMatchObject({ reference, status: 'pending', orderId: order.id, shippingRuleId: null, carrierSettings: { productId: 'local_parcel' } });
    return { id, reference };
  });
  const ref = shipment.reference;

  await test.step('edit: a service point and the Denmark rule applied; the parcel and its order lines stay', async () => {
    const before = await api.get(`/shipments/${shipment.id}`);
    await main.getByRole('button', { name: 'Edit', exact: true }).click();
    await expect(heading).toHaveText(`Edit shipment ${ref}`);
    // The carrier settings and the rules to re-apply are named, not given by id.
    await expect(main.getByText(/^Now: /)).toHaveText('Now: Nordlys delivery, product Own delivery, parcel.');
    const rule = main.getByLabel('Shipping rule');
    await expect(rule.locator('option', { hasText: 'Parcels in Denmark' })).toHaveText('Parcels in Denmark · Nordlys delivery · Own delivery, parcel');
    await main.getByLabel('Service point (optional)').fill('SP-4711');
    await rule.selectOption({ label: 'Parcels in Denmark · Nordlys delivery · Own delivery, parcel' });
    await main.getByRole('button', { name: 'Save changes' }).click();
    await expect(heading).toHaveText(`Shipment ${ref} Pending`);
    await expect(main.getByRole('region', { name: 'Shipment' })).toContainText('Parcels in Denmark');
    const after = await api.get(`/shipments/${shipment.id}`);
    expect(after).toMatchObject({ servicePointId: 'SP-4711', shippingRule: { name: 'Parcels in Denmark' }, carrierSettings: { productId: 'local_parcel' } });
    expect(after.parcels).toEqual(before.parcels);
    expect(after.parties).toEqual(before.parties);
  });

  await test.step('split: the teapot into a new shipment (-2)', async () => {
    await main.getByRole('button', { name: 'Split parcel 1…', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Split parcel 1 of ${ref}`, exact: true });
    await dialog.getByRole('checkbox', { name: /POT-01/ }).check();
    await expect(dialog.getByRole('region', { name: 'Moves to the new shipment' })).toContainText('1 line, 1 unit');
    await expect(dialog.getByRole('region', { name: `Stays in ${ref}` })).toContainText('2 lines, 6 units');
    await dialog.getByRole('button', { name: 'Move 1 line' }).click();
    await expect(dialog).toBeHidden();
    await expect(main.getByRole('status').filter({ hasText: 'Split done' })).toHaveText(`Split done. New shipment: ${ref}-2`);
    const parcel = main.getByRole('table', { name: 'Order lines of parcel 1' });
    await expect(parcel.getByRole('row')).toHaveCount(3);
    await expect(row(parcel, 'POT-01')).toHaveCount(0);
  });

  await test.step('batch split: quantities of the parcel into two new shipments (-3, -4)', async () => {
    await main.getByRole('button', { name: 'Batch split parcel 1…' }).click();
    const dialog = page.getByRole('dialog', { name: `Split parcel 1 of ${ref} into several shipments` });
    // More than a line holds: the summary counts what the parcel has, moved and staying adding up.
    await dialog.getByLabel('MUG-01: units into new shipment 1').fill('5');
    await dialog.getByLabel('TWL-01: units into new shipment 2').fill('1');
    await expect(dialog.getByText(/units into 2 new shipments/)).toHaveText(`5 of 6 units into 2 new shipments; 1 stays in ${ref}.`);
    const problems = dialog.getByRole('status').filter({ hasText: 'Before this can be split:' });
    await expect(problems).toContainText('MUG-01: 5 of 4 would move, 1 more than the parcel holds.');
    await dialog.getByLabel('TWL-01: units into new shipment 2').fill('');
    await dialog.getByLabel('MUG-01: units into new shipment 1').fill('1');
    await dialog.getByLabel('MUG-01: units into new shipment 2').fill('1');
    await dialog.getByLabel('TWL-01: units into new shipment 2').fill('1');
    await expect(dialog.getByText(/units into 2 new shipments/)).toHaveText(`3 of 6 units into 2 new shipments; 3 stay in ${ref}.`);
    const grid = dialog.getByRole('table', { name: 'Units per order line and new shipment' });
    await expect(row(grid, 'MUG-01')).toContainText('2 of 4');
    await snap(page, 'batch-split');
    await dialog.getByRole('button', { name: 'Confirm: make 2 shipments' }).click();
    await expect(dialog).toBeHidden();
    await expect(main.getByRole('status').filter({ hasText: 'Split done' })).toHaveText(`Split done. New shipments: ${ref}-3, ${ref}-4`);
    const parcel = main.getByRole('table', { name: 'Order lines of parcel 1' });
    await expect(row(parcel, 'MUG-01').getByRole('cell').nth(2)).toHaveText('2');
    await expect(row(parcel, 'TWL-01').getByRole('cell').nth(2)).toHaveText('1');

    const list = await api.get(`/shipments?orderId=${order.id}&limit=100`);
    const byReference = Object.fromEntries(list.data.map((item: { reference: string; status: string }) => [item.reference, item.status]));
    expect(byReference).toEqual({ [ref]: 'pending', [`${ref}-2`]: 'pending', [`${ref}-3`]: 'pending', [`${ref}-4`]: 'pending' });
  });

  await test.step('send: booked, dispatched, a 100 × 150 mm PDF label', async () => {
    await main.getByRole('group', { name: 'Shipment actions' }).getByRole('button', { name: 'Send' }).click();
    await expect(heading).toHaveText(`Shipment ${ref} Dispatched`);
    await expect(main.getByRole('region', { name: 'Tracking' }).locator('.tracking-number')).toHaveText(/^NORD\d+$/);
    await expect(main.getByRole('button', { name: 'Split parcel 1…', exact: true })).toHaveCount(0); // no splits once there is a label
    const documents = main.getByRole('table', { name: 'Documents' });
    await expect(documents.getByRole('row')).toHaveCount(2);
    await expect(documents).toContainText('Label · PDF · 100 × 150 mm');
    const stored = await api.get(`/shipments/${shipment.id}`);
    expect(stored.status).toBe('dispatched');
    expect(stored.documents).toMatchObject([{ documentType: 'label', format: 'pdf', size: '100X150' }]);
    await snap(page, 'shipment-detail');
  });

  const labelId = await test.step('preview: the label in a frame at its true size', async () => {
    await main.getByRole('button', { name: 'Preview Label · PDF · 100 × 150 mm' }).click();
    const dialog = page.getByRole('dialog', { name: 'Label · PDF · 100 × 150 mm' });
    const frame = dialog.getByTitle('Label · PDF · 100 × 150 mm, shown at its real size');
    await expect(frame).toBeVisible();
    await expect(frame).toHaveAttribute('src', /^blob:.*#zoom=100/);
    const box = await frame.boundingBox();
    expect(box?.width).toBeCloseTo(100 * CSS_PX_PER_MM + 24, 0);
    expect(box?.height).toBeCloseTo(150 * CSS_PX_PER_MM + 24, 0);
    await expect(dialog.getByText('Shown at 100 × 150 mm.')).toBeVisible();
    await waitUntilPainted(frame);
    await snap(page, 'label-preview');
    const stored = await api.get(`/shipments/${shipment.id}`);
    return stored.documents[0].id as string;
  });

  await test.step('print: to the CUPS PDF queue; the printed page is 100 × 150 mm', async () => {
    const preview = page.getByRole('dialog', { name: 'Label · PDF · 100 × 150 mm' });
    await preview.getByRole('button', { name: 'Print…' }).click();
    await expect(preview).toBeHidden();
    const dialog = page.getByRole('dialog', { name: 'Print' });
    await expect(dialog.getByLabel('Printer for PDF').locator('option:checked')).toHaveText('ShipdeskPDF · 100X150 (default)');

    if (cups.state === 'broken') throw new Error(cups.reason);
    if (cups.state === 'absent') {
      // Only on a machine without CUPS (never on CI, where globalSetup reports it as broken).
      test.info().annotations.push({ type: 'print step skipped', description: cups.reason });
      console.warn(cups.reason);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      return;
    }

    const before = pdfFilesIn(cups.outputDir);
    await dialog.getByRole('button', { name: 'Print', exact: true }).click();
    const jobs = dialog.getByRole('table', { name: 'Print jobs' });
    await expect(row(jobs, 'Label · PDF · 100 × 150 mm')).toContainText('Done');
    await expect(row(jobs, 'Label · PDF · 100 × 150 mm')).toContainText('ShipdeskPDF');
    await expect(dialog.getByRole('button', { name: 'Print again' })).toBeEnabled();

    const printed = await waitForPrintedPdf(cups.outputDir, labelId, before);
    try {
      // 283.46 × 425.2 pt, not A4 (595 × 842) and not turned sideways.
      expect(Math.abs(printed.widthPt - LABEL_PT.width), `printed width ${printed.widthPt} pt`).toBeLessThanOrEqual(1);
      expect(Math.abs(printed.heightPt - LABEL_PT.height), `printed height ${printed.heightPt} pt`).toBeLessThanOrEqual(1);
    } finally {
      rmSync(printed.file, { force: true });
    }
    const jobsOnServer = await api.get(`/print-jobs?shipmentId=${shipment.id}`);
    expect(jobsOnServer.data).toMatchObject([{ status: 'done', documentId: labelId, error: null, attempts: 1 }]);

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  await test.step('return: an inbound shipment back to the warehouse', async () => {
    await main.getByRole('group', { name: 'Shipment actions' }).getByRole('button', { name: 'Create return' }).click();
    // A return is a paid booking: it is asked for once more.
    await page
      .getByRole('dialog', { name: `Create a return for ${ref}?` })
      .getByRole('button', { name: 'Create return' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Return made' });
    await expect(dialog).toContainText(`Return RET-${ref} Dispatched`);
    await expect(dialog.getByText(/Tracking number/)).toContainText(/NORD\d+/);
    await dialog.getByRole('button', { name: 'Open the return' }).click();
    await expect(heading).toHaveText(`Shipment RET-${ref} Dispatched`);
    await expect(main.getByText('Return of the outbound shipment.')).toBeVisible();
    const facts = main.getByRole('region', { name: 'Shipment' });
    await expect(facts).toContainText('TypeInbound');
    await expect(facts).toContainText('Return to the warehouse');
    const parties = main.getByRole('region', { name: 'Parties' });
    await expect(parties).toContainText(/Sender\s*Jane Doe/);
    await expect(parties).toContainText(/Receiver\s*Main warehouse/);
    const returnId = decodeURIComponent(new URL(page.url()).hash.replace('#/shipments/', ''));
    const stored = await api.get(`/shipments/${returnId}`);
    expect(stored).toMatchObject({
      type: 'inbound',
      status: 'dispatched',
      reference: `RET-${ref}`,
      returnForShipmentId: shipment.id,
      carrierSettings: { productId: 'local_return' },
    });
  });

  // ── The lists afterwards ─────────────────────────────────────────────────────────────────────
  await test.step('shipments list: the original, its splits and the return', async () => {
    await nav.getByRole('link', { name: 'Shipments' }).click();
    await expect(heading).toHaveText('Shipments');
    const table = main.getByRole('table', { name: 'Shipments' });
    await expect(row(table, new RegExp(`^RET-${ref}`))).toContainText('Inbound');
    for (const suffix of ['-2', '-3', '-4']) await expect(row(table, `${ref}${suffix}`)).toContainText('Pending');
    await expect(row(table, new RegExp(`^${ref}Dispatched`))).toBeVisible();
    await snap(page, 'shipments');
  });

  await test.step('orders: 1001 is partially fulfilled, with its shipments', async () => {
    await nav.getByRole('link', { name: 'Orders' }).click();
    const table = main.getByRole('table', { name: 'Orders' });
    await expect(row(table, '1001')).toContainText('Partially fulfilled');
    await snap(page, 'orders');
    await row(table, '1001').getByRole('link', { name: '1001' }).click();
    await expect(heading).toHaveText('Order 1001 Partially fulfilled');
    const shipments = main.getByRole('table', { name: 'Shipments of this order' });
    await expect(row(shipments, `${ref}-4`)).toContainText('Pending');
    await expect(row(shipments, new RegExp(`^${ref}Outbound`))).toContainText('Dispatched');
    // Products by name, as on the shipment's own page, not by their ids.
    await expect(row(shipments, new RegExp(`^${ref}Outbound`))).toContainText('Nordlys delivery · Own delivery, parcel');
    await expect(row(shipments, new RegExp(`^RET-${ref}`))).toContainText('Return to the warehouse');
    expect((await api.get(`/orders/${order.id}`)).status).toBe('partially_fulfilled');
    await snap(page, 'order-detail');
  });

  await test.step('usage: the month’s shipments counted', async () => {
    await nav.getByRole('link', { name: 'Usage' }).click();
    await expect(heading).toHaveText('Usage');
    await expect(main.getByRole('region', { name: 'Shipments this month' })).toBeVisible();
    const usage = await json(await page.request.get(`/orgs/${session.orgId}/billing/usage`, { headers: auth }));
    expect(usage.shipments.used).toBe(5); // the shipment, three splits and the return
    await snap(page, 'usage');
  });
});
