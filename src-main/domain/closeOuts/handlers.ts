import { defineHandlers, type BinaryResult } from '../../app/kernel/handler';
import { carrierDocumentOf, closeOutContent, createCloseOut, getCloseOut, listCloseOuts, printHandoverList, waitingForCloseOut } from './closeOuts';

export const closeOutHandlers = defineHandlers({
  'closeOuts.create': ({ app }, { params, body }) => createCloseOut(app, params.orgId, body),
  'closeOuts.list': ({ app }, { params, query }) => listCloseOuts(app, params.orgId, query),
  'closeOuts.waiting': ({ app }, { params }) => waitingForCloseOut(app, params.orgId),
  'closeOuts.get': ({ app }, { params }) => getCloseOut(app, params.orgId, params.closeOutId),
  // Binary: the HTTP door sends the BinaryResult's bytes with its content type (the table types it as string).
  'closeOuts.content': async ({ app }, { params }) => (await closeOutContent(app, params.orgId, params.closeOutId)) satisfies BinaryResult as unknown as string,
  'closeOuts.carrierDocument': ({ app }, { params }) => carrierDocumentOf(app, params.orgId, params.closeOutId) satisfies BinaryResult as unknown as string,
  'closeOuts.print': ({ app }, { params, body }) => printHandoverList(app, params.orgId, params.closeOutId, body ?? {}),
});
