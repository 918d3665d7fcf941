import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { cupsForTests, pdfFilesIn, waitForPrintedPdf } from './cups';
import { expect, test } from './fixtures';
import { scan } from './scanner';
import { seedOrganization, signIn, type Seeded } from './seed';

/**
 * Scan-to-verify on Pack (issue 20), driven by the keyboard alone, as a packing table has only a
 * barcode scanner, a USB scale that types its reading, and a keyboard: the order is scanned, each item
 * ticks one unit (right, wrong, too many, with their cues), a tick is taken back, a second box is
 * started, the scale weighs the boxes, and the last item sends the shipment, whose labels the rule
 * prints on the CUPS PDF queue. A short pack splits the rest into a new shipment; a label's barcode
 * finds its shipment; a weight without checking weighs the shown parcel. One server for the file.
 */

const EMAIL = 'vera@verify.example';
const PASSWORD = 'a long password';
const MUG_EAN = '5701234567899';
const OTHER_EAN = '4006381333931'; // a real product's EAN, not in any order here
const filePrinterDir = mkdtempSync(join(tmpdir(), 'shipdesk-e2e-verify-'));
test.afterAll(() => rmSync(filePrinterDir, { recursive: true, force: true }));

/** What a USB scale types: its reading and Enter, nothing around it. */
async function scale(page: Page, reading: string): Promise<void> {
  await page.keyboard.type(reading);
  await page.keyboard.press('Enter');
}

/** The same code again is a new scan only after the repeat window (500 ms: one scan read twice). */
const pastRepeatWindow = (page: Page) => page.waitForTimeout(600);

async function snap(page: Page, name: string): Promise<void> {
  if (process.env.SHIPDESK_SCREENSHOTS !== '1') return;
  const dir = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}${name}.png`, animations: 'disabled', caret: 'hide' });
}

test.describe.configure({ mode: 'serial' });

let api: Seeded['call'];
const cups = cupsForTests();
/** The organization (set up by the first test, logged into by the others) through this test's own request context. */
test.beforeEach(async ({ page }) => {
  ({ call: api } = await seedOrganization(page.request, { orgName: 'Verify Hall', name: 'Vera Packer', email: EMAIL, password: PASSWORD }));
});

async function openPack(page: Page) {
  await signIn(page, EMAIL, PASSWORD);
  // Alt+P: the navigation's key for Pack; no mouse at the packing table.
  await page.keyboard.press('Alt+P');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pack');
  const box = page.getByLabel('Scan an order or a shipment');
  await expect(box).toBeFocused();
  const main = page.getByRole('main');
  const result = main.locator('.pack-result');
  return { box, main, result, cue: result.locator('.pack-cue'), items: result.getByRole('table', { name: 'Items to pack' }) };
}

const orderWith = (orderNumber: string, channelId: string, orderLines: unknown[]) =>
  api('POST', '/orders', {
    orderNumber,
    orderChannelId: channelId,
    customerName: `Customer ${orderNumber}`,
    shippingAddress: { name: `Customer ${orderNumber}`, address1: 'Storgade 5', postalCode: '2100', city: 'København Ø', countryCode: 'DK' },
    orderLines,
  });

test('check every item into two boxes, weigh them on the scale, and the last item sends and prints', async ({ page }) => {
  test.setTimeout(120_000);
  if (cups.state === 'broken') throw new Error(cups.reason);
  const address = await api('POST', '/sender-addresses', { name: 'Hall 1', address1: 'Havnevej 2', zipcode: '8000', city: 'Aarhus', countryCode: 'DK' });
  const carrier = await api('POST', '/carriers', {
    name: 'Own trucks',
    carrierSlug: 'local',
    config: { labelFormat: 'pdf', labelSize: '100X150' },
    senderAddressId: address.id,
  });
  // The label printer: the CUPS PDF queue where there is one (never absent on CI), else a hot folder.
  const printer =
    cups.state === 'ready'
      ? await api('POST', '/printers', { name: 'Label printer', driver: 'cups', target: cups.queue, format: 'pdf', labelSize: '100X150' })
      : await api('POST', '/printers', { name: 'Label printer', driver: 'file', target: filePrinterDir, format: 'pdf', labelSize: '100X150' });
  await api('POST', '/shipping-rules', {
    name: 'Denmark parcels',
    carrierId: carrier.id,
    productId: 'local_parcel',
    services: [],
    senderAddressId: address.id,
    receivingCountries: ['DK'],
    conditions: [],
    autoPrintLabels: true,
    labelPrinterId: printer.id,
  });
  const channel = await api('POST', '/order-channels', { name: 'Web shop', type: 'manual' });
  const order = await orderWith('V-1001', channel.id, [
    { name: 'Stoneware mug', sku: 'MUG-01', barcode: MUG_EAN, quantity: 2, weight: 0.4 },
    { name: 'Teapot', sku: 'POT-01', quantity: 1, weight: 1.2 },
  ]);
  const printedBefore = cups.state === 'ready' ? pdfFilesIn(cups.outputDir) : new Set<string>();

  // The beeps, as the page's Web Audio plays them: each oscillator's pitch when it starts.
  // (Page code as text: the e2e files are compiled without the DOM's types.)
  await page.addInitScript({
    content: `
      window.beeps = [];
      const create = AudioContext.prototype.createOscillator;
      AudioContext.prototype.createOscillator = function () {
        const oscillator = create.call(this);
        const start = oscillator.start.bind(oscillator);
        oscillator.start = (when) => {
          window.beeps.push(oscillator.frequency.value);
          start(when);
        };
        return oscillator;
      };`,
  });
  /** The pitches played since the last call. */
  const beeps = async () => page.evaluate(() => (globalThis as unknown as { beeps: number[] }).beeps.splice(0));

  const { box, main, result, cue, items } = await openPack(page);
  await expect(main.getByRole('checkbox', { name: /Check items by scanning/ })).toBeChecked(); // on by default

  await test.step('the order’s scan shows its items, nothing sent yet', async () => {
    await scan(page, 'V-1001');
    await expect(result.getByRole('heading', { level: 2 })).toHaveText('SHP-000001 Pending');
    await expect(result.getByRole('heading', { level: 3 })).toHaveText('Items: 0 of 3 packed');
    await expect(items.getByRole('row')).toHaveCount(3);
    await expect(items.getByRole('row').filter({ hasText: 'MUG-01' }).getByRole('cell')).toHaveText(['Stoneware mug', 'MUG-01', MUG_EAN, '—', '0 of 2']);
    await expect(box).toBeFocused();
  });

  await test.step('a wrong item: a buzz, nothing counted', async () => {
    await scan(page, OTHER_EAN);
    await expect(cue).toHaveText(`“${OTHER_EAN}” is not in SHP-000001: put it back. Nothing was counted.`);
    await expect(cue).toHaveClass(/pack-cue-wrong/);
    expect(await beeps()).toEqual([180]); // one long low buzz
    await expect(result.getByRole('heading', { level: 3 })).toHaveText('Items: 0 of 3 packed');
    await expect(result.getByRole('heading', { level: 2 })).toHaveText('SHP-000001 Pending'); // still this shipment
  });

  await test.step('right items by barcode and by SKU; one too many is refused', async () => {
    await scan(page, MUG_EAN);
    await expect(cue).toHaveText('MUG-01 Stoneware mug: 1 of 2, box 1. 1 of 3 units packed.');
    await expect(cue).toHaveClass(/pack-cue-right/);
    expect(await beeps()).toEqual([1320]); // one short high beep
    await scan(page, 'MUG-01');
    await expect(cue).toHaveText('MUG-01 Stoneware mug: 2 of 2, box 1. 2 of 3 units packed.');
    await pastRepeatWindow(page);
    await scan(page, 'MUG-01');
    await expect(cue).toHaveText('Too many: MUG-01 Stoneware mug is packed already (2 of 2). Take it out; it was not counted.');
    await expect(cue).toHaveClass(/pack-cue-too-many/);
    expect(await beeps()).toEqual([1320, 660, 660]); // the second mug's beep, then two middle beeps
    await expect(result.getByRole('heading', { level: 3 })).toHaveText('Items: 2 of 3 packed');
  });

  await test.step('Backspace takes the last tick back: that mug goes into the second box instead', async () => {
    await page.keyboard.press('Backspace');
    await expect(cue).toHaveText('Taken back: one MUG-01, 1 of 2 now. 1 of 3 units packed.');
    await expect(items.getByRole('row').filter({ hasText: 'MUG-01' })).toContainText('1 of 2');
    await scale(page, '0,55 kg'); // box 1 on the scale
    await expect(cue).toHaveText('Box 1 weighs 0.55 kg.');
    await page.keyboard.press('F2');
    await expect(cue).toHaveText('Box 2 started: the next items go into it.');
    await scan(page, 'POT-01');
    await scale(page, '1650 g'); // box 2 on the scale before its last item goes in
    await expect(cue).toHaveText('Box 2 weighs 1650 g.');
    const boxes = result.getByRole('list', { name: 'Boxes' });
    await expect(boxes.getByRole('listitem')).toHaveText(['Box 1: 1 unit, 0.55 kg from the scale', 'Box 2 (open): 1 unit, 1650 g from the scale']);
    await expect(box).toBeFocused();
    await snap(page, 'pack-verify');
    const { violations } = await new AxeBuilder({ page }).include('.pack-result').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  });

  await test.step('the last item sends the shipment, one parcel per box, and its labels print', async () => {
    await scan(page, 'MUG-01');
    await expect(result.getByRole('heading', { level: 2 })).toHaveText('SHP-000001 Dispatched');
    await expect(result).toContainText('Label sent to Label printer');
    await expect(result.getByRole('table', { name: 'Items to pack' })).toHaveCount(0);
    await expect(box).toBeFocused();
    const [listed] = (await api('GET', `/shipments?orderId=${order.id}`)).data;
    const sent = await api('GET', `/shipments/${listed.id}`);
    expect(sent.parcels.map((parcel: { weight: number; weightUnit: string; orderLines: { sku: string; quantity: number }[] }) => parcel)).toMatchObject([
      { weight: 0.55, weightUnit: 'kg', orderLines: [{ sku: 'MUG-01', quantity: 1 }] },
      {
        weight: 1650,
        weightUnit: 'g',
        orderLines: [
          { sku: 'MUG-01', quantity: 1 },
          { sku: 'POT-01', quantity: 1 },
        ],
      },
    ]);
    const labels = sent.documents.filter((document: { documentType: string }) => document.documentType === 'label');
    expect(labels).toHaveLength(2);
    expect((await api('GET', `/orders/${order.id}`)).status).toBe('fulfilled');
    if (cups.state === 'ready') {
      for (const label of labels) {
        const printed = await waitForPrintedPdf(cups.outputDir, label.id, printedBefore);
        rmSync(printed.file, { force: true });
      }
    } else {
      test.info().annotations.push({ type: 'printed to a folder, not CUPS', description: cups.reason });
    }
  });
});

test('a short pack sends what is packed and splits the rest into a new shipment', async ({ page }) => {
  const channel = (await api('GET', '/order-channels')).data[0];
  const order = await orderWith('V-1002', channel.id, [
    { name: 'Stoneware mug', sku: 'MUG-01', barcode: MUG_EAN, quantity: 3, weight: 0.4 },
    { name: 'Tea towel', sku: 'TWL-01', barcode: '96385074', quantity: 1, weight: 0.1 },
  ]);
  const { box, result, cue } = await openPack(page);
  await scan(page, 'V-1002');
  await expect(result.getByRole('heading', { level: 3 })).toHaveText('Items: 0 of 4 packed');

  await test.step('Enter before any item sends nothing', async () => {
    await page.keyboard.press('Enter');
    await expect(cue).toHaveText('Nothing is packed yet: scan the items of SHP-000002 first.');
  });

  const dialog = page.getByRole('dialog', { name: 'Send SHP-000002 with 2 of 4 units?' });
  await test.step('two mugs in; Enter asks, and its first Enter goes on packing', async () => {
    await scan(page, MUG_EAN);
    await scan(page, 'MUG-01');
    await expect(result.getByRole('heading', { level: 3 })).toHaveText('Items: 2 of 4 packed');
    // Ctrl+Z takes a tick back as Backspace does; the mug is scanned again.
    await page.keyboard.press('Control+z');
    await expect(cue).toHaveText('Taken back: one MUG-01, 1 of 3 now. 1 of 4 units packed.');
    await pastRepeatWindow(page);
    await scan(page, 'MUG-01');
    await expect(result.getByRole('heading', { level: 3 })).toHaveText('Items: 2 of 4 packed');
    // The numpad's + starts a box; left empty, it makes no parcel.
    await page.keyboard.press('NumpadAdd');
    await expect(cue).toHaveText('Box 2 started: the next items go into it.');
    await expect(box).toHaveValue('');
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('listitem')).toHaveText(['1 × MUG-01 Stoneware mug', '1 × TWL-01 Tea towel']);
    await expect(dialog.getByRole('button', { name: 'Go on packing' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(box).toBeFocused();
    await expect(result.getByRole('heading', { level: 2 })).toHaveText('SHP-000002 Pending');
  });

  await test.step('Enter, Tab, Enter: the packed part is sent, the rest waits in SHP-000002-2', async () => {
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Send the packed part' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(result.getByRole('heading', { level: 2 })).toHaveText('SHP-000002 Dispatched');
    await expect(page.getByRole('table', { name: 'Scans this session, newest first' }).getByRole('row').nth(1)).toContainText('The rest waits in SHP-000002-2');
    await expect(box).toBeFocused();
    const shipments = (await api('GET', `/shipments?orderId=${order.id}&sort=reference`)).data;
    const [sent, rest] = await Promise.all(shipments.map((item: { id: string }) => api('GET', `/shipments/${item.id}`)));
    expect(sent).toMatchObject({ reference: 'SHP-000002', status: 'dispatched', parcels: [{ orderLines: [{ sku: 'MUG-01', quantity: 2 }] }] });
    expect(rest).toMatchObject({
      reference: 'SHP-000002-2',
      status: 'pending',
      parcels: [
        {
          orderLines: [
            { sku: 'MUG-01', quantity: 1 },
            { sku: 'TWL-01', quantity: 1 },
          ],
        },
      ],
    });
    expect((await api('GET', `/orders/${order.id}`)).status).toBe('partially_fulfilled');
  });

  await test.step('the order scanned again shows the rest, to be checked in its turn', async () => {
    await scan(page, 'V-1002');
    await expect(result.getByRole('heading', { level: 2 })).toHaveText('SHP-000002-2 Pending');
    await expect(result.getByRole('heading', { level: 3 })).toHaveText('Items: 0 of 2 packed');
  });
});

test('a label’s barcode finds its shipment; without checking, the scale weighs the shown parcel', async ({ page }) => {
  const [first] = (await api('GET', '/shipments?reference=SHP-000001')).data;
  const tracking = (await api('GET', `/shipments/${first.id}`)).tracking.number as string;
  const channel = (await api('GET', '/order-channels')).data[0];
  await orderWith('V-1003', channel.id, [{ name: 'Stoneware mug', sku: 'MUG-01', quantity: 1, weight: 0.4 }]);
  const { box, main, result } = await openPack(page);

  await test.step('the tracking number on SHP-000001’s label opens it, ready for a reprint', async () => {
    await scan(page, tracking);
    await expect(result).toContainText(`Shipment found by the barcode “${tracking}” on its label, of order V-1001`);
    await expect(result.getByRole('heading', { level: 2 })).toHaveText('SHP-000001 Dispatched');
    await expect(result.getByRole('button', { name: 'Print label' })).toBeVisible();
  });

  await test.step('checking off at this station: the order is shown as before, the scale sets its weight, Enter sends', async () => {
    // Space toggles the focused checkbox: Tab to it from the scan box's header, no mouse.
    const setting = main.getByRole('checkbox', { name: /Check items by scanning/ });
    await setting.focus();
    await page.keyboard.press('Space');
    await expect(setting).not.toBeChecked();
    await expect(box).toBeFocused();
    await scan(page, 'V-1003');
    await expect(result.getByRole('heading', { level: 2 })).toHaveText('SHP-000003 Pending');
    await expect(result.getByRole('table', { name: 'Items to pack' })).toHaveCount(0);
    await scale(page, '2.5 kg');
    await expect(page.getByRole('table', { name: 'Scans this session, newest first' }).getByRole('row').nth(1)).toContainText('SHP-000003 weighs 2.5 kg');
    await page.keyboard.press('Enter');
    await expect(result.getByRole('heading', { level: 2 })).toHaveText('SHP-000003 Dispatched');
    const [listed] = (await api('GET', '/shipments?reference=SHP-000003')).data;
    expect((await api('GET', `/shipments/${listed.id}`)).parcels).toMatchObject([{ weight: 2.5, weightUnit: 'kg' }]);
  });
});
