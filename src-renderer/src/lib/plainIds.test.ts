import { describe, expect, it } from 'vitest';
import { withoutIds } from './plainIds';

describe('messages without ids', () => {
  it('names a shipment by its reference, and one it does not know as "this shipment"', () => {
    const shipments = new Map([['shp_01jq8z9x0abc', 'SHP-000123']]);
    expect(withoutIds('Shipment shp_01jq8z9x0abc is cancelled; its labels are void', { shipments })).toBe(
      'Shipment SHP-000123 is cancelled; its labels are void',
    );
    expect(withoutIds('Shipment shp_01jq8z9x0zzz does not exist in this organization')).toBe('This shipment does not exist in this organization');
  });

  it('says a print job by its document and shipment: "print job for label 2 of SHP-000123"', () => {
    const printJobs = new Map([
      ['pjb_01jq8z9x0aaa', 'label 1 of SHP-000123'],
      ['pjb_01jq8z9x0bbb', 'label 2 of SHP-000123'],
    ]);
    expect(
      withoutIds("Rule R asks to print the labels, but label 2 of 2 did not print on 'Zebra': paper out (print job pjb_01jq8z9x0bbb)", { printJobs }),
    ).toBe("Rule R asks to print the labels, but label 2 of 2 did not print on 'Zebra': paper out (print job for label 2 of SHP-000123)");
    expect(withoutIds('nothing was printed (print jobs pjb_01jq8z9x0aaa, pjb_01jq8z9x0bbb, to retry once a printer is set up)', { printJobs })).toBe(
      'nothing was printed (print jobs for label 1 of SHP-000123 and label 2 of SHP-000123, to retry once a printer is set up)',
    );
  });

  it('takes the name a message gives in brackets, and says "this" for the thing a message is about', () => {
    expect(withoutIds('Shipping rule rul_01jq8z9x0aaa is the return rule of shipping rule rul_01jq8z9x0bbb (Havn parcels); change that rule first')).toBe(
      'This shipping rule is the return rule of shipping rule Havn parcels; change that rule first',
    );
    expect(withoutIds('Printer prn_01jq8z9x0aaa does not exist in this organization')).toBe('This printer does not exist in this organization');
    expect(withoutIds('This printer is used by shipping rule Havn parcels (rul_01jq8z9x0aaa); choose another printer in the rule first')).toBe(
      'This printer is used by shipping rule Havn parcels; choose another printer in the rule first',
    );
  });

  it('never leaves an id, even one it cannot name', () => {
    const plain = withoutIds('(print job pjb_01jq8z9x0ccc) on printer prn_01jq8z9x0ddd for doc_01jq8z9x0eee');
    expect(plain).toBe('(its print job) on this printer for a document');
    expect(plain).not.toMatch(/[a-z]{3}_[0-9a-z]{6,}/);
  });
});
