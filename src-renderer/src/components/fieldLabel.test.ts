import { describe, expect, it } from 'vitest';
import { fieldLabel } from './ErrorNotice';

describe('field names in error lists', () => {
  it('says a field as its form labels it, and a list item by its number from 1', () => {
    expect(fieldLabel('body.zipcode')).toBe('postal code');
    expect(fieldLabel('body.parties.1.postalCode')).toBe('party 2 › postal code');
    expect(fieldLabel('body.parcels.0.orderLines.2.tarrifNumber')).toBe('parcel 1 › order line 3 › tariff number');
    expect(fieldLabel('body.shipments.0.orderLines.0.quantity')).toBe('shipment 1 › order line 1 › quantity');
    expect(fieldLabel('body.receivingCountries.3')).toBe('receiving country 4');
    expect(fieldLabel('body.parties')).toBe('parties');
    expect(fieldLabel('query.limit')).toBe('limit');
    expect(fieldLabel('body')).toBe('');
  });
});
