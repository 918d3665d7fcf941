import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';

/**
 * "The server says what it did": a shipment sent from somewhere else — another station, a script —
 * shows as dispatched on an open Shipments list and shipment page without a reload or a click. The
 * browser reads the pushes from `GET /orgs/{orgId}/events` with fetch and the bearer header.
 */
test('the shipments list and a shipment page follow a send made by another client', async ({ page }) => {
  const owner = { orgName: 'Live Hall', name: 'Lis Live', email: 'lis@live.example', password: 'watching the list' };
  const { call } = await seedOrganization(page.request, owner);
  const address = await call('POST', '/sender-addresses', {
    name: 'Live warehouse',
    address1: 'Kajvej 3',
    zipcode: '8000',
    city: 'Aarhus C',
    countryCode: 'DK',
  });
  const carrier = await call('POST', '/carriers', { name: 'Live trucks', carrierSlug: 'local', config: {}, senderAddressId: address.id });
  const newShipment = (reference: string) =>
    call('POST', '/shipments', {
      type: 'outbound',
      reference,
      carrierSettings: { carrierId: carrier.id, productId: 'local_parcel' },
      parties: [{ type: 'receiver', name: 'Jens Hansen', address1: 'Nørregade 1', postalCode: '1165', city: 'København K', countryCode: 'DK' }],
      parcels: [{ weight: 1, weightUnit: 'kg', dimensions: { length: 30, width: 20, height: 10 }, orderLines: [] }],
    });
  const first = await newShipment('LIVE-1');

  // The stream carries the credential in its header, never in the URL.
  const streams: { url: string; authorization: string | undefined }[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/events')) streams.push({ url: request.url(), authorization: request.headers().authorization });
  });

  await signIn(page, owner.email, owner.password);
  await page.goto('/#/shipments');
  const main = page.getByRole('main');
  const table = main.getByRole('table').first();
  const rowOf = (reference: string) => table.getByRole('row').filter({ hasText: reference });
  await expect(rowOf('LIVE-1')).toContainText('Pending');
  await expect.poll(() => streams.length).toBeGreaterThan(0);
  expect(streams[0]?.url).not.toContain('token');
  expect(streams[0]?.authorization).toMatch(/^Bearer /);

  await test.step('a send through the API shows on the open list by itself', async () => {
    const sent = await call('POST', `/shipments/${first.id}/send`);
    expect(sent.status).toBe('dispatched');
    expect(sent.printJobs).toEqual([]);
    await expect(rowOf('LIVE-1')).toContainText('Dispatched');
  });

  await test.step('a shipment made elsewhere appears on the list', async () => {
    await newShipment('LIVE-2');
    await expect(rowOf('LIVE-2')).toContainText('Pending');
  });

  await test.step('an open shipment page follows a cancel made elsewhere', async () => {
    await rowOf('LIVE-2').getByRole('link', { name: 'LIVE-2' }).click();
    const heading = main.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText('Shipment LIVE-2 Pending');
    const second = (await call('GET', '/shipments?reference=LIVE-2')).data[0];
    await call('POST', `/shipments/${second.id}/cancel`);
    await expect(heading).toHaveText('Shipment LIVE-2 Cancelled');
  });
});
