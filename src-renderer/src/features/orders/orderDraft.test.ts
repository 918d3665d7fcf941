import { describe, expect, it } from 'vitest';
import type { OrderDetail, OrderLine } from '../../../../src-shared/schemas/order';
import { draftOfOrder, emptyLine, missingFields, orderBody, orderTotal, orderUpdateBody, type LineDraft, type OrderDraft } from './orderDraft';

const line = (more: Partial<LineDraft>): LineDraft => ({ ...emptyLine(), name: 'Mug', ...more });
const noAddress = { name: '', company: '', attention: '', address1: '', address2: '', postalCode: '', city: '', countryCode: '', phone: '', email: '' };
const draft = (more: Partial<OrderDraft> = {}): OrderDraft => ({
  orderChannelId: '',
  orderNumber: '1001',
  customerName: '',
  customerEmail: '',
  notes: '',
  servicePointId: '',
  address: noAddress,
  lines: [line({})],
  ...more,
});

function storedLine(more: Partial<OrderLine> = {}): OrderLine {
  return {
    id: 'orl_1',
    name: 'Mug',
    quantity: 2,
    sku: 'MUG',
    unitPrice: 12.5,
    totalPrice: 25,
    currency: 'EUR',
    weight: 0.4,
    weightUnit: 'kg',
    variantId: 'var_9',
    productId: null,
    imageUrl: null,
    hsCode: null,
    countryOfOrigin: null,
    provinceOfOrigin: null,
    barcode: '5701234',
    vendor: null,
    location: null,
    requiresShipping: true,
    taxable: true,
    giftCard: false,
    ...more,
  };
}
function storedOrder(more: Partial<OrderDetail> = {}): OrderDetail {
  return {
    id: 'ord_1',
    orderNumber: '1001',
    status: 'pending',
    shipmentCount: 0,
    orderChannel: { id: 'och_1', name: 'Manual', type: 'manual' },
    createdAt: '2025-03-01T10:00:00.000Z',
    updatedAt: '2025-03-01T10:00:00.000Z',
    customerName: 'Ana',
    customerEmail: null,
    totalAmount: 25,
    currency: 'EUR',
    shopChange: null,
    orderLines: [storedLine()],
    orderChannelId: 'och_1',
    orgId: 'org_1',
    shipments: [],
    externalId: null,
    shippingRuleId: null,
    notes: null,
    servicePointId: null,
    shippingAddress: {
      name: 'Ana',
      address1: 'Havnegade 1',
      city: 'København',
      postalCode: '1058',
      countryCode: 'DK',
      attention: null,
      company: null,
      address2: null,
      province: 'Hovedstaden',
      provinceCode: '84',
      country: 'Denmark',
      phone: null,
      email: null,
    },
    externalData: {},
    ...more,
  };
}

describe('the order total', () => {
  it('is Σ quantity × price, with decimal commas, rounded to cents', () => {
    expect(orderTotal([line({ quantity: '3', unitPrice: '0,1', currency: 'EUR' }), line({ quantity: '1', unitPrice: '12.5', currency: 'EUR' })])).toEqual({
      amount: 12.8,
      currency: 'EUR',
    });
  });

  it('is none when a price is missing or not a number, or the currencies differ', () => {
    expect(orderTotal([line({ unitPrice: '2', currency: 'EUR' }), line({ unitPrice: '', currency: 'EUR' })])).toBeNull();
    expect(orderTotal([line({ unitPrice: 'abc', currency: 'EUR' })])).toBeNull();
    expect(orderTotal([line({ unitPrice: '2', currency: 'EUR' }), line({ unitPrice: '2', currency: 'DKK' })])).toBeNull();
    expect(orderTotal([line({ unitPrice: '2', currency: '' })])).toBeNull();
  });
});

describe('a new order’s body', () => {
  it('leaves empty optional fields and an untouched address out, and gives the total of priced lines', () => {
    const body = orderBody(
      draft({ orderNumber: ' 1001 ', lines: [line({ quantity: '2', unitPrice: '12,50', currency: 'EUR', weight: '', sku: ' ' })] }),
      'och_1',
    );
    expect(body).toEqual({
      orderChannelId: 'och_1',
      orderNumber: '1001',
      customerName: undefined,
      customerEmail: undefined,
      notes: undefined,
      shippingAddress: undefined,
      totalAmount: 25,
      currency: 'EUR',
      orderLines: [
        {
          name: 'Mug',
          quantity: 2,
          sku: undefined,
          weight: undefined,
          weightUnit: undefined,
          unitPrice: 12.5,
          currency: 'EUR',
          hsCode: undefined,
          countryOfOrigin: undefined,
          requiresShipping: true,
        },
      ],
    });
  });

  it('sends a weight with its unit, and an address once any part of it is typed', () => {
    const body = orderBody(draft({ address: { ...noAddress, city: ' Aarhus ' }, lines: [line({ weight: '0,4', weightUnit: 'g' })] }), 'och_1');
    expect(body.orderLines[0]).toMatchObject({ weight: 0.4, weightUnit: 'g' });
    expect(body.shippingAddress).toMatchObject({ name: '', city: 'Aarhus', company: undefined });
  });
});

describe('what the order form still needs', () => {
  it('is nothing for a complete order', () => {
    expect(missingFields(draft())).toEqual({});
  });

  it('names empty required fields, a quantity below 1 and numbers that are not numbers, at the server’s paths', () => {
    const missing = missingFields(
      draft({ orderNumber: ' ', lines: [line({ name: '', quantity: '0', weight: '0,5', unitPrice: '1.2.3' }), line({ quantity: '1.5' })] }),
    );
    expect(missing).toEqual({
      orderNumber: 'Required.',
      'orderLines.0.name': 'Required.',
      'orderLines.0.quantity': 'A whole number, 1 or more.',
      'orderLines.0.unitPrice': 'A number, e.g. 0.5 or 0,5.',
      'orderLines.1.quantity': 'A whole number, 1 or more.',
    });
  });

  it('asks for the rest of an address only once part of it is typed', () => {
    expect(missingFields(draft({ address: { ...noAddress, phone: '+45 1234' } }))).toEqual({
      'shippingAddress.name': 'Required when an address is given.',
      'shippingAddress.address1': 'Required when an address is given.',
      'shippingAddress.postalCode': 'Required when an address is given.',
      'shippingAddress.city': 'Required when an address is given.',
      'shippingAddress.countryCode': 'Required when an address is given.',
    });
  });
});

describe('editing an order', () => {
  it('shows a stored order as text, with "" for what it does not have', () => {
    const shown = draftOfOrder(storedOrder({ orderLines: [storedLine({ weight: null, weightUnit: 'stone', unitPrice: null, sku: null })] }));
    expect(shown.address).toMatchObject({ name: 'Ana', company: '', email: '' });
    expect(shown.lines[0]).toMatchObject({ id: 'orl_1', sku: '', quantity: '2', weight: '', weightUnit: 'kg', unitPrice: '' });
    expect(shown.customerEmail).toBe('');
  });

  it('sends each line back with its id and the fields the form does not show', () => {
    const original = storedOrder();
    const form = draftOfOrder(original);
    const body = orderUpdateBody({ ...form, lines: [...form.lines, line({ name: 'Lid', sku: 'LID' })] }, original);
    expect(body.orderLines?.[0]).toMatchObject({
      id: 'orl_1',
      variantId: 'var_9',
      barcode: '5701234',
      taxable: true,
      name: 'Mug',
      quantity: 2,
      weight: 0.4,
      unitPrice: 12.5,
    });
    expect(body.orderLines?.[1]).not.toHaveProperty('id');
  });

  it('shows and sends a line’s bin location; emptied, it is left out, which clears it', () => {
    const original = storedOrder({ orderLines: [storedLine({ location: 'A-03-2' })] });
    const form = draftOfOrder(original);
    expect(form.lines[0]?.location).toBe('A-03-2');
    const moved = form.lines.map((shown) => ({ ...shown, location: ' B-1 ' }));
    expect(orderUpdateBody({ ...form, lines: moved }, original).orderLines?.[0]?.location).toBe('B-1');
    const emptied = form.lines.map((shown) => ({ ...shown, location: '' }));
    expect(orderUpdateBody({ ...form, lines: emptied }, original).orderLines?.[0]?.location).toBeUndefined();
    expect(orderBody(draft({ lines: [line({ location: 'C-7' })] }), 'chn_1').orderLines[0]?.location).toBe('C-7');
  });

  it('shows and sends the service point chosen at checkout; emptied, it is cleared', () => {
    const original = storedOrder({ servicePointId: '2345678' });
    const form = draftOfOrder(original);
    expect(form.servicePointId).toBe('2345678');
    expect(orderUpdateBody({ ...form, servicePointId: ' 3456789 ' }, original).servicePointId).toBe('3456789');
    expect(orderUpdateBody({ ...form, servicePointId: '' }, original).servicePointId).toBeNull();
    expect(orderBody(draft({ servicePointId: '2345678' }), 'och_1').servicePointId).toBe('2345678');
    expect(orderBody(draft(), 'och_1')).not.toHaveProperty('servicePointId', expect.anything());
  });

  it('clears emptied fields with null and keeps the address parts the form does not show', () => {
    const original = storedOrder();
    const form = draftOfOrder(original);
    const body = orderUpdateBody({ ...form, customerName: ' ', address: { ...form.address, city: 'Aarhus' } }, original);
    expect(body.customerName).toBeNull();
    expect(body.shippingAddress).toMatchObject({ city: 'Aarhus', province: 'Hovedstaden', provinceCode: '84', country: 'Denmark' });
    expect(orderUpdateBody({ ...form, address: noAddress }, original).shippingAddress).toBeNull();
    // An order that had none is not told to remove one.
    expect(
      orderUpdateBody(draftOfOrder(storedOrder({ shippingAddress: undefined })), storedOrder({ shippingAddress: undefined })).shippingAddress,
    ).toBeUndefined();
  });

  it('moves the total with the lines only where it was their sum, never a shop’s total', () => {
    const typedHere = storedOrder();
    const moreMugs = (order: OrderDetail) => {
      const form = draftOfOrder(order);
      return { ...form, lines: form.lines.map((each) => ({ ...each, quantity: '3' })) };
    };
    expect(orderUpdateBody(moreMugs(typedHere), typedHere)).toMatchObject({ totalAmount: 37.5, currency: 'EUR' });
    const fromShop = storedOrder({ totalAmount: 29.95 });
    const body = orderUpdateBody(moreMugs(fromShop), fromShop);
    expect(body).not.toHaveProperty('totalAmount');
    expect(body).not.toHaveProperty('currency');
  });
});
