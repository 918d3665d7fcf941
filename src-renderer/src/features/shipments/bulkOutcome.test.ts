import { describe, expect, it } from 'vitest';
import { outcomeOf } from './bulkOutcome';

const references = new Map([['shp_01jqaaaaaaaa', 'SHP-000123']]);

describe('a bulk result in words', () => {
  it('a failure: plain words for the code, then the reason with the reference for the id', () => {
    expect(
      outcomeOf(
        {
          shipmentId: 'shp_01jqaaaaaaaa',
          status: 'failed',
          code: 'SHIPMENT_NOT_FOUND',
          message: 'Shipment shp_01jqaaaaaaaa does not exist in this organization',
        },
        references,
      ),
    ).toEqual({
      shipmentId: 'shp_01jqaaaaaaaa',
      reference: 'SHP-000123',
      status: 'failed',
      code: 'SHIPMENT_NOT_FOUND',
      summary: 'That shipment no longer exists.',
      message: 'Shipment SHP-000123 does not exist in this organization',
    });
  });

  it('a print that failed names the label, not the job', () => {
    const outcome = outcomeOf(
      {
        shipmentId: 'shp_01jqaaaaaaaa',
        status: 'failed',
        code: 'PRINTER_OFFLINE',
        message: "Label 2 of 2 did not print on 'Zebra' (print job pjb_01jqbbbbbbbb)",
      },
      references,
    );
    expect(outcome.summary).toBe('The printer cannot be reached.');
    expect(outcome.message).toBe("Label 2 of 2 did not print on 'Zebra' (its print job)");
  });

  it('done, with the note of one that needed nothing', () => {
    expect(outcomeOf({ shipmentId: 'shp_01jqaaaaaaaa', status: 'done', message: 'Already on hold; nothing changed' }, references)).toEqual({
      shipmentId: 'shp_01jqaaaaaaaa',
      reference: 'SHP-000123',
      status: 'done',
      summary: 'Already on hold; nothing changed',
    });
  });
});
