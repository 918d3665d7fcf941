import { z } from 'zod';
import { defineOperation } from '../operation';
import { orderPaperPrintResult, packingSlipsBody, packingSlipsPrintBody, pickListBody, pickListPrintBody } from '../schemas/orderPapers';

/**
 * Papers for the packing floor made from orders (issue 20): the pick list and the customer's packing
 * slips, as an A4 PDF or printed on a PDF printer (see docs/decisions.md "Pick lists and packing slips").
 */
export const orderPaperOperations = [
  defineOperation({
    id: 'orders.pickList',
    method: 'POST',
    path: '/orgs/{orgId}/orders/pick-list',
    summary: 'A4 PDF pick list of the chosen orders (or every pending one): by bin location, then SKU, with quantities and order numbers',
    resource: 'orders',
    onlyReads: true,
    body: pickListBody,
    response: z.string().describe('binary'),
    responseKind: 'binary',
    successStatus: 200,
  }),
  defineOperation({
    id: 'orders.printPickList',
    method: 'POST',
    path: '/orgs/{orgId}/orders/pick-list/print',
    summary: 'Print the pick list on a PDF printer; answers once the printer or spooler has it, 422 PRINTER_OFFLINE saying why when it does not',
    resource: 'orders',
    body: pickListPrintBody,
    response: orderPaperPrintResult,
    successStatus: 200,
  }),
  defineOperation({
    id: 'orders.packingSlips',
    method: 'POST',
    path: '/orgs/{orgId}/orders/packing-slips',
    summary: "A4 PDF of packing slips, one order per page: the customer's copy of what is in the box, with the organization's return instructions",
    resource: 'orders',
    onlyReads: true,
    body: packingSlipsBody,
    response: z.string().describe('binary'),
    responseKind: 'binary',
    successStatus: 200,
  }),
  defineOperation({
    id: 'orders.printPackingSlips',
    method: 'POST',
    path: '/orgs/{orgId}/orders/packing-slips/print',
    summary: 'Print the packing slips on a PDF printer; answers once the printer or spooler has them, 422 PRINTER_OFFLINE saying why when it does not',
    resource: 'orders',
    body: packingSlipsPrintBody,
    response: orderPaperPrintResult,
    successStatus: 200,
  }),
];
