import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors';
import { describeError, fieldLabel, fieldProblem } from './ErrorNotice';

describe('field names in error lists', () => {
  it('says a field as its form labels it, and a list item by its number from 1', () => {
    expect(fieldLabel('body.zipcode')).toBe('Postal code');
    expect(fieldLabel('body.parties.1.postalCode')).toBe("Party 2's postal code");
    expect(fieldLabel('body.parcels.0.weight')).toBe("Parcel 1's weight");
    expect(fieldLabel('body.parcels.0.dimensions.length')).toBe("Parcel 1's length");
    expect(fieldLabel('body.parcels.0.orderLines.2.tarrifNumber')).toBe('Tariff number of order line 3 in parcel 1');
    expect(fieldLabel('body.shipments.0.orderLines.0.quantity')).toBe('Quantity of order line 1 in shipment 1');
    expect(fieldLabel('body.receivingCountries.3')).toBe('Receiving country 4');
    expect(fieldLabel('body.parties')).toBe('Parties');
    expect(fieldLabel('query.limit')).toBe('Limit');
    expect(fieldLabel('body')).toBe('');
  });

  it('names a party by its type when the form says which party is which: never "party 2 › email"', () => {
    const context = { partyTypes: ['sender', 'receiver', 'service_point'] };
    expect(fieldLabel('body.parties.1.email', context)).toBe("Receiver's e-mail");
    expect(fieldLabel('body.parties.2.name', context)).toBe("Service point's name");
    expect(fieldLabel('body.parties.7.name', context)).toBe("Party 8's name");
  });

  it('says a problem as a sentence: "Name is required", not "name: Required"', () => {
    expect(fieldProblem('Name', 'Required')).toBe('Name is required');
    expect(fieldProblem("Receiver's e-mail", 'Not a valid email address')).toBe("Receiver's e-mail: Not a valid email address");
    expect(fieldProblem('', 'The file is empty')).toBe('The file is empty');
  });

  it('a refusal lists its problems in those words and names nothing by its id', () => {
    const refusal = new ApiError('VALIDATION_FAILED', 'Invalid body', {
      details: [
        { path: 'body.parties.1.email', message: 'Not a valid email address' },
        { path: 'body.name', message: 'Required' },
      ],
    });
    expect(describeError(refusal, { partyTypes: ['sender', 'receiver'] }).fieldProblems).toEqual([
      "Receiver's e-mail: Not a valid email address",
      'Name is required',
    ]);
    const missing = describeError(new ApiError('PRINTER_NOT_FOUND', 'Printer prn_01jqaaaaaaaa does not exist in this organization'));
    expect(missing.detail).toBe('This printer does not exist in this organization');
  });
});
