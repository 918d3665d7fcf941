import { defineOperation } from '../operation';
import { crudOperations } from './crud';
import { senderAddressCreateBody, senderAddressSchema, senderAddressUpdateBody } from '../schemas/senderAddress';

/** Sender addresses: where parcels are sent from. */
export const senderAddressOperations = [
  // decisions §8 leaves the method of these updates open: both PUT (as the organization's, interface
  // §4.7) and PATCH (as every other resource's) update the fields given so clients of either kind work.
  ...crudOperations({
    key: 'senderAddresses',
    collection: 'sender-addresses',
    idParam: 'addressId',
    noun: 'sender address',
    resource: 'sender_addresses',
    item: senderAddressSchema,
    listItem: senderAddressSchema,
    created: senderAddressSchema,
    detail: senderAddressSchema,
    createBody: senderAddressCreateBody,
    updateBody: senderAddressUpdateBody,
    updateMethod: 'PUT',
  }),
  defineOperation({
    id: 'senderAddresses.patch',
    method: 'PATCH',
    path: '/orgs/{orgId}/sender-addresses/{addressId}',
    summary: 'Update a sender address (only the fields given), the same as its PUT',
    resource: 'sender_addresses',
    body: senderAddressUpdateBody,
    response: senderAddressSchema,
  }),
];
