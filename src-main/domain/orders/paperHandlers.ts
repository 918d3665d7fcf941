import { defineHandlers, type BinaryResult } from '../../app/kernel/handler';
import { packingSlips, pickList, printPackingSlips, printPickList } from './orderPapers';

// Binary operations: the HTTP door sends the BinaryResult's bytes with its content type (the table types it as string).
export const orderPaperHandlers = defineHandlers({
  'orders.pickList': async ({ app }, { params, body }) => (await pickList(app, params.orgId, body)) satisfies BinaryResult as unknown as string,
  'orders.printPickList': ({ app }, { params, body }) => printPickList(app, params.orgId, body),
  'orders.packingSlips': async ({ app }, { params, body }) => (await packingSlips(app, params.orgId, body)) satisfies BinaryResult as unknown as string,
  'orders.printPackingSlips': ({ app }, { params, body }) => printPackingSlips(app, params.orgId, body),
});
