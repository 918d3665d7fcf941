import { describe, expect, it } from 'vitest';
import type { Party } from '../../../../../src-shared/schemas/shipment';
import { orderLine, parcel, shipment } from '../../../testing/shipmentFixtures';
import type { ServicePoint } from '../../../../../src-shared/schemas/carrier';
import {
  choosePoint,
  createBody,
  emptyForm,
  emptyOrderLine,
  emptyParcel,
  emptyParty,
  formOf,
  receiverAddress,
  servicePointUpdate,
  updateBody,
  weightProblem,
  type ShipmentForm,
} from './model';

/** A shipment as read: two parcels, the first with two order lines. */
const read = shipment({
  parcels: [
    parcel('prc_1', [orderLine('pol_1', 'MUG', 2, { unitPrice: 12.5, currency: 'EUR' }), orderLine('pol_2', 'PLATE', 1)], { weight: 2.5 }),
    parcel('prc_2', [orderLine('pol_3', 'BOWL', 3)]),
  ],
});

const editParcel = (form: ShipmentForm, index: number, change: Partial<ShipmentForm['parcels'][number]>): ShipmentForm => ({
  ...form,
  parcels: form.parcels.map((old, i) => (i === index ? { ...old, ...change } : old)),
});

describe('editing the parcels of a stored shipment', () => {
  it('sends its parcels and lines back under their ids, so a new weight does not make them new ones', () => {
    const baseline = formOf(read);
    const { body, errors } = updateBody(editParcel(baseline, 0, { weight: '3,2' }), baseline);
    expect(errors).toEqual({});
    expect(body.parcels?.map((sent) => sent.id)).toEqual(['prc_1', 'prc_2']);
    expect(body.parcels?.map((sent) => (sent.orderLines ?? []).map((line) => line.id))).toEqual([['pol_1', 'pol_2'], ['pol_3']]);
    expect(body.parcels?.[0]?.weight).toBe(3.2);
  });

  it('gives a parcel or line added in the form no id: the server makes one', () => {
    const baseline = formOf(read);
    const added = { ...emptyParcel(), weight: '1', length: '1', width: '1', height: '1', orderLines: [{ ...emptyOrderLine(), sku: 'LID' }] };
    const form = { ...baseline, parcels: [...baseline.parcels, added] };
    const { body } = updateBody(form, baseline);
    expect(body.parcels?.[2]).not.toHaveProperty('id');
    expect(body.parcels?.[2]?.orderLines?.[0]).not.toHaveProperty('id');
    expect(body.parcels?.[1]?.id).toBe('prc_2');
  });
});

const receiver: Party = {
  type: 'receiver',
  name: 'Ana Jensen',
  attention: '',
  address1: 'Havnegade 1',
  address2: '',
  postalCode: '1058',
  city: 'København',
  countryCode: 'DK',
  phone: '',
  attributes: [{ name: 'company', value: 'Jensen ApS' }],
};

describe('a stored shipment as a form', () => {
  it('shows numbers as text and what the read leaves out as ""', () => {
    const form = formOf(shipment({ parties: [receiver], servicePointId: null }));
    expect(form.parties[0]).toMatchObject({ email: '', attributes: [{ name: 'company', value: 'Jensen ApS' }] });
    expect(form.parcels[0]).toMatchObject({ weight: '1', length: '30', orderLines: [{ quantity: '2', unitPrice: '0', vatPercent: '0' }] });
    expect(form.servicePointId).toBe('');
    expect(form.pickup).toEqual({ date: '', from: '', to: '', instruction: '' });
    expect(form.shippingRuleId).toBe('');
  });

  it('falls back to what the form offers for values it has no choice for', () => {
    const odd = shipment({ parties: [{ ...receiver, type: 'notify' }], termOfTrade: 'XYZ', parcels: [parcel('prc_1', [], { weightUnit: 'stone' })] });
    const form = formOf(odd);
    expect(form.parties[0]?.type).toBe('receiver');
    expect(form.termOfTrade).toBe('DAP');
    expect(form.parcels[0]?.weightUnit).toBe('kg');
  });
});

/** A form that passes: a carrier and product, one receiver, one parcel with one line. */
function filledForm(): ShipmentForm {
  const form = emptyForm();
  return {
    ...form,
    carrierId: 'car_1',
    productId: 'parcel',
    parties: [{ ...emptyParty('receiver'), name: ' Ana Jensen ', address1: 'Havnegade 1', postalCode: '1058', city: 'København', countryCode: 'dk ' }],
    parcels: [
      { ...emptyParcel(), weight: '0,75', length: '30', width: '20', height: '10', orderLines: [{ ...emptyOrderLine(), sku: ' MUG ', quantity: '2' }] },
    ],
  };
}

describe('a new shipment’s body', () => {
  it('reads decimal commas, trims text, upper-cases codes and leaves "" out', () => {
    const form = filledForm();
    const line = { ...form.parcels[0]!.orderLines[0]!, unitPrice: '12,50', currency: 'eur', countryOfOrigin: '', description: '  ' };
    const { body, errors } = createBody({ ...form, parcels: [{ ...form.parcels[0]!, orderLines: [line] }] });
    expect(errors).toEqual({});
    expect(body.parties?.[0]).toEqual({
      type: 'receiver',
      name: 'Ana Jensen',
      address1: 'Havnegade 1',
      postalCode: '1058',
      city: 'København',
      countryCode: 'DK',
    });
    expect(body.parcels?.[0]).toEqual({
      weight: 0.75,
      weightUnit: 'kg',
      dimensions: { length: 30, width: 20, height: 10 },
      orderLines: [{ sku: 'MUG', quantity: 2, unitPrice: 12.5, currency: 'EUR' }],
    });
    expect(body.carrierSettings).toEqual({ carrierId: 'car_1', productId: 'parcel', services: [] });
    expect(body).not.toHaveProperty('senderAddressId');
    expect(body).not.toHaveProperty('reference');
    expect(body).not.toHaveProperty('pickupDetails');
    expect(body.servicePointId).toBeNull();
  });

  it('names each number that is missing or not a number at the path the server uses', () => {
    const form = filledForm();
    const line = { ...form.parcels[0]!.orderLines[0]!, quantity: '1.5', unitPrice: 'twelve' };
    const { errors } = createBody({ ...form, parcels: [{ ...form.parcels[0]!, weight: '', height: '1,2,3', orderLines: [line] }] });
    expect(errors).toEqual({
      'parcels.0.weight': 'Required',
      'parcels.0.dimensions.height': 'Enter a number, e.g. 1.5',
      'parcels.0.orderLines.0.quantity': 'Enter a whole number',
      'parcels.0.orderLines.0.unitPrice': 'Enter a number, e.g. 12.50',
    });
  });

  it('refuses a parcel weight of 0 (or less) before saving: send would refuse it only at the packing station', () => {
    const form = filledForm();
    for (const weight of ['0', '0,0', '-1']) {
      expect(createBody({ ...form, parcels: [{ ...form.parcels[0]!, weight }] }).errors).toEqual({
        'parcels.0.weight': 'Must be more than 0: a parcel without weight cannot be sent',
      });
    }
    expect(weightProblem('0')).toBe('Must be more than 0: a parcel without weight cannot be sent');
    expect(weightProblem('0,2')).toBeNull();
    expect(weightProblem('')).toBeNull();
    expect(createBody({ ...form, parcels: [{ ...form.parcels[0]!, weight: '0,01' }] }).errors).toEqual({});
  });

  it('asks for a carrier, then for its product', () => {
    expect(createBody({ ...filledForm(), carrierId: '' }).errors).toEqual({ 'carrierSettings.carrierId': 'Choose a carrier' });
    expect(createBody({ ...filledForm(), productId: '' }).errors).toEqual({ 'carrierSettings.productId': 'Choose a product' });
  });

  it('sends pickup details once any part is given, and the chosen sender address', () => {
    const { body } = createBody({
      ...filledForm(),
      senderAddressId: 'sad_2',
      pickup: { date: '2025-03-04', from: '09:00', to: '12:00', instruction: ' Gate 3 ' },
    });
    expect(body.pickupDetails).toEqual({ date: '2025-03-04', from: '09:00', to: '12:00', instruction: 'Gate 3' });
    expect(body.senderAddressId).toBe('sad_2');
  });
});

describe('an edit’s PATCH', () => {
  const stored = shipment({ reference: 'SHP-000001', parties: [receiver], pickupDetails: { date: '2025-03-04', from: '09:00', to: '12:00', instruction: '' } });

  it('is empty when nothing was changed', () => {
    const baseline = formOf(stored);
    expect(updateBody(structuredClone(baseline), baseline)).toEqual({ body: {}, errors: {} });
  });

  it('carries only what changed: a new reference does not rewrite the parcels', () => {
    const baseline = formOf(stored);
    expect(updateBody({ ...baseline, reference: ' SHP-000001-B ' }, baseline).body).toEqual({ reference: 'SHP-000001-B' });
  });

  it('clears pickup details emptied in the form, and a cleared service point is null', () => {
    const baseline = { ...formOf(stored), servicePointId: 'sp_9' };
    const { body } = updateBody({ ...baseline, pickup: { date: '', from: '', to: '', instruction: '' }, servicePointId: ' ' }, baseline);
    expect(body).toEqual({ pickupDetails: null, servicePointId: null });
  });

  it('sends a new sender address and a shipping rule to apply, never carrier settings', () => {
    const baseline = formOf(stored);
    const { body } = updateBody({ ...baseline, senderAddressId: 'sad_2', shippingRuleId: 'rul_1', carrierId: 'car_9' }, baseline);
    expect(body).toEqual({ senderAddressId: 'sad_2', shippingRuleId: 'rul_1' });
  });
});

const kiosk: ServicePoint = {
  id: 'PN-4711',
  name: 'Netto Nørreport',
  address1: 'Frederiksborggade 5',
  postalCode: '1360',
  city: 'København K',
  countryCode: 'DK',
  distanceMeters: 420,
  latitude: null,
  longitude: null,
  openingHours: [],
};

describe('a service point chosen in the picker', () => {
  it('sets the id and a service_point party with its name and address, in place of an earlier one', () => {
    const form = { ...emptyForm(), parties: [{ ...emptyParty('receiver'), ...receiver, type: 'receiver' as const, email: '' }] };
    const chosen = choosePoint(form, kiosk);
    expect(chosen.servicePointId).toBe('PN-4711');
    expect(chosen.parties.map((party) => party.type)).toEqual(['receiver', 'service_point']);
    expect(chosen.parties[1]).toEqual({
      ...emptyParty('service_point'),
      name: 'Netto Nørreport',
      address1: 'Frederiksborggade 5',
      postalCode: '1360',
      city: 'København K',
      countryCode: 'DK',
      attributes: [{ name: 'servicePointId', value: 'PN-4711' }],
    });
    const again = choosePoint({ ...form, ...chosen }, { ...kiosk, id: 'PN-2', name: 'Kiosk 2' });
    expect(again.parties.filter((party) => party.type === 'service_point').map((party) => party.name)).toEqual(['Kiosk 2']);
    expect(choosePoint({ ...form, ...again }, null)).toEqual({ servicePointId: '', parties: form.parties });
  });

  it("finds the points near the receiver's address", () => {
    const form = { ...emptyForm(), parties: [{ ...emptyParty('receiver'), ...receiver, type: 'receiver' as const, email: '' }] };
    expect(receiverAddress(form)).toEqual({ countryCode: 'DK', postalCode: '1058', address1: 'Havnegade 1', city: 'København' });
    expect(receiverAddress({ ...form, parties: [] })).toEqual({ countryCode: '', postalCode: '', address1: '', city: '' });
  });

  it('is saved on the Pack screen as a PATCH of the id and the parties alone', () => {
    const stored = shipment({ parties: [receiver], servicePointId: null });
    const body = servicePointUpdate(stored, kiosk);
    expect(Object.keys(body).sort()).toEqual(['parties', 'servicePointId']);
    expect(body.servicePointId).toBe('PN-4711');
    expect(body.parties?.map((party) => party.type)).toEqual(['receiver', 'service_point']);
    expect(body.parties?.[1]).toEqual({
      type: 'service_point',
      name: 'Netto Nørreport',
      address1: 'Frederiksborggade 5',
      postalCode: '1360',
      city: 'København K',
      countryCode: 'DK',
      attributes: [{ name: 'servicePointId', value: 'PN-4711' }],
    });
    expect(servicePointUpdate(shipment({ parties: [receiver], servicePointId: 'PN-4711' }), kiosk)).toEqual({
      parties: expect.any(Array),
    });
  });
});
