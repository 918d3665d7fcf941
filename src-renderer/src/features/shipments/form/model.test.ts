import { describe, expect, it } from 'vitest';
import { orderLine, parcel, shipment } from '../../../testing/shipmentFixtures';
import { emptyOrderLine, emptyParcel, formOf, updateBody, type ShipmentForm } from './model';

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
