import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext, Locator } from '@playwright/test';
import { expect, test } from './fixtures';
import { orgApi, seedOrganization, signIn } from './seed';

/**
 * Print jobs a packer can act on (USERS 1 and 4): a label printed automatically after Send to a hot
 * folder that is not there (an unmounted share) fails where everyone sees it — on the shipment right
 * after Send and on the Print jobs screen — and Retry prints it once the folder exists. The Print
 * dialog warns when the chosen printer has other media loaded than the label's size, the preview
 * starts on Print…, "Create return" asks first, and a cancelled shipment's labels are void: no Print.
 *
 * Two `file` printers stand in for the machines: a 100 × 150 mm station printer whose folder is
 * created only during the test, and an A4 office printer.
 */

const EMAIL = 'jo@jobs.example';
const PASSWORD = 'a long password';
const LABEL = 'Label · PDF · 100 × 150 mm';

const root = mkdtempSync(join(tmpdir(), 'shipdesk-e2e-print-jobs-'));
const stationDir = join(root, 'station'); // made during the first test
const officeDir = join(root, 'office');
mkdirSync(officeDir);
test.afterAll(() => rmSync(root, { recursive: true, force: true }));

interface World {
  orgId: string;
  token: string;
  carrierId: string;
  ruleId: string;
}
let world: World | null = null;

/** The organization, once per file: a local carrier (100 × 150 mm PDF labels), the two printers and a rule that prints labels after Send. */
async function setUp(request: APIRequestContext): Promise<World> {
  if (world) return world;
  const { orgId, token, call } = await seedOrganization(request, { orgName: 'Jobs Hall', name: 'Jo Packer', email: EMAIL, password: PASSWORD });
  const address = await call('POST', '/sender-addresses', { name: 'Hall 2', address1: 'Havnevej 4', zipcode: '8000', city: 'Aarhus', countryCode: 'DK' });
  const carrier = await call('POST', '/carriers', { name: 'Own vans', carrierSlug: 'local', config: {}, senderAddressId: address.id });
  const station = await call('POST', '/printers', {
    name: 'Station 1 labels',
    driver: 'file',
    target: stationDir,
    format: 'pdf',
    labelSize: '100X150',
    isDefault: true,
  });
  await call('POST', '/printers', { name: 'Office A4', driver: 'file', target: officeDir, format: 'pdf', labelSize: 'A4' });
  const rule = await call('POST', '/shipping-rules', {
    name: 'Print at station 1',
    carrierId: carrier.id,
    productId: 'local_parcel',
    services: [],
    senderAddressId: address.id,
    receivingCountries: ['DK'],
    conditions: [],
    autoPrintLabels: true,
    labelPrinterId: station.id,
  });
  world = { orgId, token, carrierId: carrier.id, ruleId: rule.id };
  return world;
}

/** Calls into the file's organization through this test's own request context. */
const apiFor = (request: APIRequestContext, w: World) => orgApi(request, w.orgId, w.token);

/** A pending shipment with the auto-print rule applied, ready for Send. */
async function pendingShipment(request: APIRequestContext, w: World, reference: string): Promise<{ id: string; reference: string }> {
  const call = apiFor(request, w);
  const shipment = await call('POST', '/shipments', {
    reference,
    type: 'outbound',
    carrierSettings: { carrierId: w.carrierId, productId: 'local_parcel' },
    parties: [{ type: 'receiver', name: 'Mette Hansen', address1: 'Strandvejen 7', postalCode: '2900', city: 'Hellerup', countryCode: 'DK' }],
    parcels: [{ weight: 1.5, weightUnit: 'kg', dimensions: { length: 30, width: 20, height: 10 } }],
  });
  await call('PATCH', `/shipments/${shipment.id}`, { shippingRuleId: w.ruleId });
  return { id: shipment.id, reference };
}

const row = (table: Locator, text: string | RegExp) => table.getByRole('row').filter({ hasText: text });

test('a failed automatic print after Send shows on the shipment and on the Print jobs screen; Retry prints it once the folder exists', async ({ page }) => {
  const w = await setUp(page.request);
  const shipment = await pendingShipment(page.request, w, 'JOB-1');
  await signIn(page, EMAIL, PASSWORD);
  const main = page.getByRole('main');
  await page.goto(`/#/shipments/${shipment.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Shipment JOB-1 Pending');

  await main.getByRole('group', { name: 'Shipment actions' }).getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Shipment JOB-1 Dispatched');

  // Right after Send, without reloading: the shipment's problems and its print jobs both say it.
  const reason = `Folder '${stationDir}' does not exist on this computer; create it or change the printer's folder`;
  const problems = main.getByRole('region', { name: 'Problems' });
  await expect(problems).toContainText('AUTO_PRINT_FAILED');
  await expect(problems).toContainText(`Rule Print at station 1 asks to print the labels, but the label did not print on 'Station 1 labels': ${reason}`);
  const card = main.getByRole('region', { name: 'Print jobs' });
  await expect(card.getByRole('alert')).toContainText(`A document did not print.${LABEL} did not print on Station 1 labels.`);
  const cardJobs = card.getByRole('table', { name: 'Print jobs of this shipment' });
  await expect(row(cardJobs, LABEL)).toContainText('Failed');
  await expect(row(cardJobs, LABEL)).toContainText(reason);
  await expect(row(cardJobs, LABEL)).toContainText('Station 1 labels');
  await expect(row(cardJobs, LABEL).getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(row(cardJobs, LABEL).getByRole('button', { name: 'Print on another printer…' })).toBeVisible();

  // The packer walks away; later the Print jobs screen (failed first) still has it.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Print jobs' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Print jobs');
  await expect(main.getByLabel('Show', { exact: true })).toHaveValue('failed');
  const screenJobs = main.getByRole('table', { name: 'Print jobs', exact: true });
  const failedRow = row(screenJobs, 'JOB-1');
  await expect(failedRow).toContainText(LABEL);
  await expect(failedRow).toContainText('Failed');
  await expect(failedRow).toContainText(reason);
  await expect(failedRow.getByRole('cell').nth(4)).toHaveText('1');

  // The share is back: Retry prints the label, a new file in the folder.
  mkdirSync(stationDir);
  await failedRow.getByRole('button', { name: 'Retry' }).click();
  await expect(failedRow).toContainText('Done');
  await expect(failedRow.getByRole('cell').nth(4)).toHaveText('2');
  await expect(failedRow.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  const jobs = await apiFor(page.request, w)('GET', `/print-jobs?shipmentId=${shipment.id}`);
  expect(jobs.data).toMatchObject([{ status: 'done', attempts: 2, error: null }]);
  expect(readdirSync(stationDir)).toEqual([expect.stringMatching(new RegExp(`^JOB-1-doc_\\w+-${jobs.data[0].id}-2\\.pdf$`))]);

  // Back on the shipment the job is done; the send's problem stays in its history.
  await failedRow.getByRole('link', { name: 'JOB-1' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Shipment JOB-1 Dispatched');
  await expect(row(cardJobs, LABEL)).toContainText('Done');
  await expect(card.getByRole('alert')).toHaveCount(0);
});

test('Print on another printer, with a warning when its media is not the label size; the preview starts on Print…', async ({ page }) => {
  const w = await setUp(page.request);
  rmSync(stationDir, { recursive: true, force: true }); // the station's share is gone again
  const shipment = await pendingShipment(page.request, w, 'JOB-2');
  const sent = await apiFor(page.request, w)('POST', `/shipments/${shipment.id}/send`);
  expect(sent.errors.map((error: { code: string }) => error.code)).toEqual(['AUTO_PRINT_FAILED']);
  await signIn(page, EMAIL, PASSWORD);
  const main = page.getByRole('main');
  await page.goto(`/#/shipments/${shipment.id}`);

  // Preview: focus on Print…, not on ×.
  await main.getByRole('button', { name: `Preview ${LABEL}` }).click();
  const preview = page.getByRole('dialog', { name: LABEL });
  await expect(preview.getByRole('button', { name: 'Print…' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(preview).toBeHidden();

  // From the failed job: the dialog offers another printer than the one that failed — here the A4
  // office printer — and warns about its media without blocking.
  const cardJobs = main.getByRole('region', { name: 'Print jobs' }).getByRole('table', { name: 'Print jobs of this shipment' });
  await row(cardJobs, LABEL).getByRole('button', { name: 'Print on another printer…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Print' });
  const printer = dialog.getByLabel('Printer for PDF');
  await expect(printer.locator('option:checked')).toHaveText('Office A4 · A4');
  const warning = dialog.getByRole('status').filter({ hasText: 'Check the media' });
  await expect(warning).toContainText('Office A4 has A4 paper loaded; this label is 100 × 150 mm.');
  await printer.selectOption({ label: 'Station 1 labels · 100X150 (default)' });
  await expect(warning).toHaveCount(0);
  await printer.selectOption({ label: 'Office A4 · A4' });
  await expect(warning).toBeVisible();
  await dialog.getByRole('button', { name: 'Print', exact: true }).click();
  await expect(row(dialog.getByRole('table', { name: 'Print jobs' }), LABEL)).toContainText('Done');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Both jobs stay on the shipment: the failed automatic one, settled by the reprint on the office
  // printer, so it is no longer a problem and offers no Retry (that would print a second label).
  await expect(cardJobs.getByRole('row').filter({ hasText: 'Done' })).toContainText('Office A4');
  const settled = row(cardJobs, 'Station 1 labels');
  await expect(settled).toContainText('Failed');
  await expect(settled).toContainText('printed since on Office A4');
  await expect(settled.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await expect(main.getByRole('region', { name: 'Print jobs' }).getByRole('alert')).toHaveCount(0);
  expect(readdirSync(officeDir).filter((name) => name.startsWith('JOB-2-'))).toHaveLength(1);

  // The Print jobs screen agrees: Failed lists open problems only, so the settled job (and its Retry,
  // which the server would refuse) is not there; All shows it as the card does.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Print jobs' }).click();
  await expect(main.getByLabel('Show', { exact: true })).toHaveValue('failed');
  await expect(main.getByText('No failed print jobs.')).toBeVisible();
  await expect(main.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await main.getByLabel('Show', { exact: true }).selectOption('all');
  const screenJobs = main.getByRole('table', { name: 'Print jobs', exact: true });
  const settledOnScreen = row(screenJobs, 'JOB-2').filter({ hasText: 'Station 1 labels' });
  await expect(settledOnScreen).toContainText('printed since on Office A4');
  await expect(settledOnScreen.getByRole('button', { name: 'Retry' })).toHaveCount(0);
});

test('"Create return" asks first; a cancelled shipment offers its void labels for the record, never for printing', async ({ page }) => {
  const w = await setUp(page.request);
  mkdirSync(stationDir, { recursive: true });
  const shipment = await pendingShipment(page.request, w, 'JOB-3');
  await apiFor(page.request, w)('POST', `/shipments/${shipment.id}/send`);
  await signIn(page, EMAIL, PASSWORD);
  const main = page.getByRole('main');
  const actions = main.getByRole('group', { name: 'Shipment actions' });
  await page.goto(`/#/shipments/${shipment.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Shipment JOB-3 Dispatched');

  // A misclick on "Create return" books nothing.
  await actions.getByRole('button', { name: 'Create return' }).click();
  const confirmReturn = page.getByRole('dialog', { name: 'Create a return for JOB-3?' });
  await expect(confirmReturn).toContainText('booked with the carrier right away');
  await expect(confirmReturn.getByRole('button', { name: 'Keep it' })).toBeFocused();
  await confirmReturn.getByRole('button', { name: 'Keep it' }).click();
  await expect(confirmReturn).toBeHidden();
  const returns = await apiFor(page.request, w)('GET', `/shipments?search=RET-JOB-3`);
  expect(returns.total).toBe(0);

  const documents = main.getByRole('table', { name: 'Documents' });
  await expect(main.getByRole('button', { name: 'Print label', exact: true })).toBeVisible();
  await expect(documents.getByRole('button', { name: `Print ${LABEL}` })).toBeVisible();

  await actions.getByRole('button', { name: 'Cancel shipment' }).click();
  await page.getByRole('dialog', { name: 'Cancel JOB-3?' }).getByRole('button', { name: 'Cancel shipment' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Shipment JOB-3 Cancelled');

  await expect(main.getByRole('button', { name: 'Print label', exact: true })).toHaveCount(0);
  await expect(main.getByRole('button', { name: 'Print all' })).toHaveCount(0);
  await expect(documents.getByRole('button', { name: `Print ${LABEL}` })).toHaveCount(0);
  await expect(row(documents, LABEL)).toContainText('Void');
  await expect(main.getByRole('note').filter({ hasText: 'its label is void' })).toBeVisible();
  // Kept for the record: the file can still be looked at and saved, marked VOID in its name.
  const download = page.waitForEvent('download');
  await documents.getByRole('button', { name: `Download ${LABEL}` }).click();
  expect((await download).suggestedFilename()).toMatch(/^JOB-3-label-doc_\w+-VOID\.pdf$/);
  await documents.getByRole('button', { name: `Preview ${LABEL}` }).click();
  const preview = page.getByRole('dialog', { name: LABEL });
  await expect(preview.getByRole('note')).toContainText('Void.');
  await expect(preview.getByRole('button', { name: 'Print…' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  // The automatic print of its label (done before the cancel) offers no Retry either.
  const cardJobs = main.getByRole('region', { name: 'Print jobs' }).getByRole('table', { name: 'Print jobs of this shipment' });
  await expect(row(cardJobs, LABEL)).toContainText('Done');
  await expect(cardJobs.getByRole('button')).toHaveCount(0);
  expect(existsSync(stationDir)).toBe(true);
});

/**
 * USERS 1, "chosen by station": the rule prints on station 1's printer, but a packer at station 2,
 * whose Print dialog has remembered its own label printer, gets the label from that one on Send.
 */
test("Send prints the rule's label on this station's remembered label printer", async ({ page }) => {
  const w = await setUp(page.request);
  const station2Dir = join(root, 'station-2');
  mkdirSync(station2Dir);
  const call = apiFor(page.request, w);
  const station2 = await call('POST', '/printers', { name: 'Station 2 labels', driver: 'file', target: station2Dir, format: 'pdf', labelSize: '100X150' });
  const shipment = await pendingShipment(page.request, w, 'JOB-STATION-2');
  await signIn(page, EMAIL, PASSWORD);
  // What the Print dialog keeps after a print on this station (printerChoice.ts rememberPrinter).
  await page.evaluate(([key, id]) => localStorage.setItem(key as string, id as string), [`shipdesk.printer.${w.orgId}.pdf`, station2.id]);
  const main = page.getByRole('main');
  await page.goto(`/#/shipments/${shipment.id}`);
  await main.getByRole('group', { name: 'Shipment actions' }).getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Shipment JOB-STATION-2 Dispatched');

  const cardJobs = main.getByRole('region', { name: 'Print jobs' }).getByRole('table', { name: 'Print jobs of this shipment' });
  await expect(row(cardJobs, LABEL)).toContainText('Station 2 labels');
  await expect(row(cardJobs, LABEL)).toContainText('Done');
  expect(readdirSync(station2Dir)).toEqual([expect.stringMatching(/^JOB-STATION-2-doc_\w+-pjb_\w+-1\.pdf$/)]);
});
