import { eq } from 'drizzle-orm';
import { orgMembers, orgs, users } from '../../db/schema';
import { newId } from '../../db/ids';
import { inWriteTransaction } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { operationById, type OperationById, type OperationId } from '../../../src-shared/operations';
import type { ParsedInput } from '../../../src-shared/operation';
import { createSenderAddress } from '../senderAddresses/senderAddresses';
import { createCarrier } from '../carriers/carriers';
import { createShippingRule } from '../shippingRules/rules';
import { createOrderChannel } from '../orderChannels/orderChannels';
import { createOrder, updateOrder } from '../orders/orders';
import { createShipmentFromOrder } from '../shipments/orderShipment';
import { sendShipment } from '../shipments/send';
import { updateShipment } from '../shipments/update';

/** The user who asked for the demo: copied with the same id and password, so their login works in both files. */
export type DemoOwner = typeof users.$inferSelect;

const customers: readonly [string, string, string, string, string][] = [
  ['Mette Jensen', 'Vestergade 12', '8000', 'Aarhus C', 'DK'],
  ['Lars Nielsen', 'Nørregade 7', '1165', 'København K', 'DK'],
  ['Sofie Hansen', 'Algade 31', '9000', 'Aalborg', 'DK'],
  ['Anders Pedersen', 'Torvet 4', '6700', 'Esbjerg', 'DK'],
  ['Ida Christensen', 'Kongensgade 58', '5000', 'Odense C', 'DK'],
  ['Jonas Larsen', 'Søndergade 19', '8700', 'Horsens', 'DK'],
  ['Freja Sørensen', 'Strandvejen 102', '2900', 'Hellerup', 'DK'],
  ['Mikkel Rasmussen', 'Bredgade 3', '7400', 'Herning', 'DK'],
  ['Anna Svensson', 'Karlavägen 100', '11526', 'Stockholm', 'SE'],
  ['Erik Johansson', 'Kungsgatan 44', '41119', 'Göteborg', 'SE'],
  ['Ingrid Berg', 'Karl Johans gate 22', '0159', 'Oslo', 'NO'],
  ['Lukas Schmidt', 'Holstenstraße 88', '22767', 'Hamburg', 'DE'],
];

const products: readonly { sku: string; name: string; weight: number; unitPrice: number }[] = [
  { sku: 'MUG-01', name: 'Stoneware mug, sand', weight: 0.4, unitPrice: 89 },
  { sku: 'MUG-02', name: 'Stoneware mug, moss', weight: 0.4, unitPrice: 89 },
  { sku: 'TEA-10', name: 'Nordic herbal tea, 100 g', weight: 0.15, unitPrice: 65 },
  { sku: 'CND-03', name: 'Beeswax candle, set of 3', weight: 0.6, unitPrice: 129 },
  { sku: 'BLK-20', name: 'Wool blanket, grey', weight: 1.4, unitPrice: 549 },
  { sku: 'BWL-05', name: 'Serving bowl, large', weight: 1.1, unitPrice: 249 },
];

/** How many demo orders end in each state: most wait to be packed, some are on their way. */
const ORDER_COUNT = 36;
const SENT = 8;
const IN_PROGRESS = 5;
const ON_HOLD = 2;
const CANCELLED = 2;

/**
 * A realistic sample warehouse in a fresh demo database: the asking user as its owner, a sender
 * address, the local carrier, three shipping rules, a web shop channel with 36 orders (waiting,
 * being packed, on hold, sent, cancelled) and eight parcels sent. Each body is checked by its
 * operation's schema and written by the same domain functions as a request, so the demo holds
 * only what the app itself could have made.
 */
export async function seedDemoWarehouse(app: AppContext, owner: DemoOwner): Promise<{ orgId: string }> {
  const now = app.now();
  const orgId = newId('org');
  inWriteTransaction(app.db, (tx) => {
    const stamp = now.toISOString();
    tx.insert(orgs)
      .values({
        id: orgId,
        name: 'Nordlys Demo Warehouse',
        slug: 'nordlys-demo',
        companyName: 'Nordlys Home ApS',
        addressLine1: 'Industrivej 12',
        city: 'Aarhus',
        postalCode: '8200',
        country: 'DK',
        // Every step of the first-day checklist is there already; the demo is for looking around.
        onboarding: { skipped: ['printer'], closed: false },
        createdAt: stamp,
        updatedAt: stamp,
      })
      .run();
    if (!tx.select({ id: users.id }).from(users).where(eq(users.id, owner.id)).get()) tx.insert(users).values(owner).run();
    tx.insert(orgMembers).values({ orgId, userId: owner.id, role: 'owner', createdAt: stamp, updatedAt: stamp }).run();
  });
  // Each body goes through its operation's schema, as a request's would (defaults filled in, checked).
  const body = <Id extends OperationId>(id: Id, raw: unknown) => operationById(id).body.parse(raw) as ParsedInput<OperationById<Id>>['body'];

  const address = createSenderAddress(
    app,
    orgId,
    body('senderAddresses.create', {
      name: 'Nordlys warehouse',
      attContact: 'Dispatch',
      address1: 'Industrivej 12',
      zipcode: '8200',
      city: 'Aarhus N',
      countryCode: 'DK',
      phone: '+4586123456',
      email: 'lager@nordlys.example',
    }),
  );
  const carrier = await createCarrier(
    app,
    orgId,
    body('carriers.create', { name: 'Own van and pallets', carrierSlug: 'local', config: { trackingPrefix: 'NLY' }, senderAddressId: address.id }),
  );
  const rule = (name: string, countries: string[], conditions: unknown[]) =>
    createShippingRule(
      app,
      orgId,
      body('shippingRules.create', {
        name,
        carrierId: carrier.id,
        productId: 'local_parcel',
        services: [],
        senderAddressId: address.id,
        receivingCountries: countries,
        conditions,
      }),
    );
  await rule('Denmark, up to 5 kg', ['DK'], [{ type: 'weight', min: 0, max: 5, shippingPrice: 49, currency: 'DKK' }]);
  await rule('Denmark, heavy', ['DK'], [{ type: 'weight', min: 5, max: 30, shippingPrice: 89, currency: 'DKK' }]);
  await rule('Nordics and Germany', ['SE', 'NO', 'DE'], [{ type: 'flatRate', shippingPrice: 129, currency: 'DKK' }]);
  const channel = createOrderChannel(app, orgId, body('orderChannels.create', { name: 'Nordlys web shop', type: 'manual' }));

  const orderIds: string[] = [];
  for (let n = 0; n < ORDER_COUNT; n++) {
    const [name, address1, postalCode, city, countryCode] = customers[n % customers.length] as (typeof customers)[number];
    const first = products[n % products.length] as (typeof products)[number];
    const second = products[(n * 5 + 2) % products.length] as (typeof products)[number];
    const lines = [{ ...first, quantity: 1 + (n % 3) }, ...(n % 2 === 0 ? [{ ...second, quantity: 1 }] : [])];
    const order = createOrder(
      app,
      orgId,
      body('orders.create', {
        orderNumber: String(1001 + n),
        orderChannelId: channel.id,
        customerName: name,
        customerEmail: `${name.split(' ')[0]?.toLowerCase()}@example.com`,
        currency: 'DKK',
        totalAmount: lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0),
        shippingAddress: { name, address1, postalCode, city, countryCode },
        orderLines: lines.map((line) => ({ ...line, currency: 'DKK', weightUnit: 'kg' })),
      }),
    );
    orderIds.push(order.id);
  }
  // The oldest orders have moved on: sent, being packed, on hold, cancelled; the rest wait.
  let next = 0;
  for (const orderId of orderIds.slice(next, (next += SENT))) {
    const shipment = await createShipmentFromOrder(app, orgId, orderId, undefined);
    await sendShipment(app, orgId, shipment.id, { confirmRebook: false });
  }
  for (const orderId of orderIds.slice(next, (next += IN_PROGRESS))) await createShipmentFromOrder(app, orgId, orderId, undefined);
  for (const orderId of orderIds.slice(next, (next += ON_HOLD))) {
    const shipment = await createShipmentFromOrder(app, orgId, orderId, undefined);
    await updateShipment(app, orgId, shipment.id, body('shipments.update', { status: 'on_hold' }));
  }
  for (const orderId of orderIds.slice(next, (next += CANCELLED))) await updateOrder(app, orgId, orderId, body('orders.update', { status: 'cancelled' }));
  return { orgId };
}
