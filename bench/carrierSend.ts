/**
 * Issue 19's send benchmark: a batch send of 100 shipments through the fake PostNord answering every
 * call after 150 ms, over the real HTTP server (operation table → dispatcher → booking → carrier
 * HTTP client → fake). The carrier's call slots (4 at a time by default) bound how many bookings
 * run at once, so the floor is 100 × 150 ms / 4 = 3.75 s plus Shipdesk's own work.
 *
 * Run: npx tsx bench/carrierSend.ts [shipments=100] [delay=150] [slots=4]
 * Prints figures, asserts nothing.
 */
import { buildServer, listen } from '../src-main/http/server';
import { fakePostnordApiKey, fakePostnordCustomerNumber, startFakePostnord } from '../src-main/carriers/postnord/fake';
import { machineLine, numberArg } from './lib/stats';
import { openBenchWarehouse } from './lib/warehouse';

const shipmentCount = numberArg('shipments', 100);
const delayMs = numberArg('delay', 150);
const slots = numberArg('slots', 4);

console.log(`bench/carrierSend: ${machineLine()}`);
console.log(`${shipmentCount} shipments, fake PostNord answering after ${delayMs} ms, ${slots} calls at a time`);

const fake = await startFakePostnord();
const warehouse = openBenchWarehouse();
try {
  const org = await warehouse.addOrg('Bench Sender');
  const server = buildServer(warehouse.app);
  const url = await listen(server, '127.0.0.1', 0);
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}/orgs/${org.orgId}${path}`, {
      method,
      headers: { authorization: `Bearer ${org.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await response.json()) as Record<string, unknown>;
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };

  const address = await call('POST', '/sender-addresses', {
    name: 'Lager Nord',
    address1: 'Sandhamnsgatan 61',
    zipcode: '11528',
    city: 'Stockholm',
    countryCode: 'SE',
    phone: '+46701234567',
  });
  const carrier = await call('POST', '/carriers', {
    name: 'PostNord',
    carrierSlug: 'postnord',
    config: { apiKey: fakePostnordApiKey, customerNumber: fakePostnordCustomerNumber, apiBaseUrl: fake.url, callsAtATime: slots },
    senderAddressId: address.id,
  });
  const ids: string[] = [];
  for (let index = 0; index < shipmentCount; index++) {
    const shipment = await call('POST', '/shipments', {
      type: 'outbound',
      carrierSettings: { carrierId: carrier.id, productId: 'postnord_parcel', services: [] },
      parties: [
        {
          type: 'receiver',
          name: `Kund ${index}`,
          address1: 'Karlavägen 100',
          postalCode: '11526',
          city: 'Stockholm',
          countryCode: 'SE',
          phone: '+46709876543',
        },
      ],
      parcels: [{ weight: 1.5, weightUnit: 'kg', dimensions: { length: 30, width: 20, height: 10 }, orderLines: [{ sku: 'MUG-01', quantity: 1 }] }],
    });
    ids.push(shipment.id as string);
  }

  fake.switches.delayMs = delayMs;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const result = (await call('POST', '/shipments/batch-send', { shipmentIds: ids })) as { summary: { sent: number; failed: number } };
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const floor = (shipmentCount * delayMs) / slots / 1000;
  console.log(`batch send: ${result.summary.sent} sent, ${result.summary.failed} failed in ${seconds.toFixed(2)} s (target < 5 s)`);
  console.log(`floor (${shipmentCount} calls × ${delayMs} ms / ${slots} at a time): ${floor.toFixed(2)} s; Shipdesk's share ${(seconds - floor).toFixed(2)} s`);
  console.log(
    `CPU of this process during the send: ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms (${((cpu.user + cpu.system) / 1000 / shipmentCount).toFixed(1)} ms per shipment)`,
  );
  console.log(`fake PostNord booking calls: ${fake.state.bookingCalls}`);
  await server.close();
} finally {
  warehouse.dispose();
  await fake.close();
}
