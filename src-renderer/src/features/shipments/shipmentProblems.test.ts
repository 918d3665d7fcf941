import { describe, expect, it } from 'vitest';
import type { PrintJob } from '../../../../src-shared/schemas/printing';
import { document, shipment } from '../../testing/shipmentFixtures';
import { openProblems, problemText } from './shipmentProblems';

const at = (minute: number) => `2025-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`;

function job(id: string, documentId: string, status: PrintJob['status'], minute: number): PrintJob {
  return {
    id,
    printerId: 'prn_zebra001',
    documentId,
    shipmentId: 'shp_1',
    status,
    error: status === 'failed' ? 'paper out' : null,
    attempts: 1,
    copies: 1,
    createdAt: at(0),
    updatedAt: at(minute),
  };
}

const sent = shipment({
  status: 'dispatched',
  reference: 'SHP-000123',
  documents: [document('doc_label00001'), document('doc_label00002')],
  errors: [
    {
      id: 'err_1',
      code: 'AUTO_PRINT_FAILED',
      message: "Rule Denmark asks to print the labels, but label 2 of 2 did not print on 'Zebra': paper out (print job pjb_second00001)",
      createdAt: at(1),
    },
    {
      id: 'err_2',
      code: 'AUTO_RETURN_FAILED',
      message: 'Rule Denmark asks for a return shipment, but it was not created: no return product',
      createdAt: at(1),
    },
  ],
});

describe('problems of a shipment', () => {
  it('an automatic print that failed is a problem while its job is failed', () => {
    const jobs = [job('pjb_first000001', 'doc_label00001', 'done', 1), job('pjb_second00001', 'doc_label00002', 'failed', 1)];
    expect(openProblems(sent.errors, jobs).map((error) => error.id)).toEqual(['err_1', 'err_2']);
  });

  it('is over once the job printed on a retry, or its label printed since on another job; other problems stay', () => {
    const retried = [job('pjb_first000001', 'doc_label00001', 'done', 1), job('pjb_second00001', 'doc_label00002', 'done', 5)];
    expect(openProblems(sent.errors, retried).map((error) => error.id)).toEqual(['err_2']);
    const elsewhere = [job('pjb_second00001', 'doc_label00002', 'failed', 1), job('pjb_third000001', 'doc_label00002', 'done', 4)];
    expect(openProblems(sent.errors, elsewhere).map((error) => error.id)).toEqual(['err_2']);
  });

  it('stays until the jobs are read, and when it names no job at all', () => {
    expect(openProblems(sent.errors, undefined)).toHaveLength(2);
    const none = [{ id: 'err_3', code: 'AUTO_PRINT_FAILED', message: 'Rule R asks to print the labels, but nothing was printed: boom', createdAt: at(1) }];
    expect(openProblems(none, [])).toHaveLength(1);
  });

  it('says the print job by its label and shipment, never by its id', () => {
    const jobs = [job('pjb_second00001', 'doc_label00002', 'failed', 1)];
    expect(problemText(sent.errors[0]!, sent, jobs)).toBe(
      "Rule Denmark asks to print the labels, but label 2 of 2 did not print on 'Zebra': paper out (print job for label 2 of SHP-000123)",
    );
  });
});
