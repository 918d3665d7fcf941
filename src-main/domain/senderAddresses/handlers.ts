import { createSenderAddress, deleteSenderAddress, getSenderAddress, listSenderAddresses, updateSenderAddress } from './senderAddresses';
import { defineHandlers } from '../../app/kernel/handler';

export const senderAddressHandlers = defineHandlers({
  'senderAddresses.create': ({ app }, { params, body }) => createSenderAddress(app, params.orgId, body),
  'senderAddresses.list': ({ app }, { params, query }) => listSenderAddresses(app, params.orgId, query),
  'senderAddresses.get': ({ app }, { params }) => getSenderAddress(app, params.orgId, params.addressId),
  'senderAddresses.update': ({ app }, { params, body }) => updateSenderAddress(app, params.orgId, params.addressId, body),
  'senderAddresses.patch': ({ app }, { params, body }) => updateSenderAddress(app, params.orgId, params.addressId, body),
  'senderAddresses.delete': ({ app }, { params }) => deleteSenderAddress(app, params.orgId, params.addressId),
});
