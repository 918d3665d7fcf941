import { defineOperation } from '../operation';
import { crudOperations } from './crud';
import { pageOf } from '../schemas/common';
import {
  dailyPickupCreateBody,
  dailyPickupSchema,
  dailyPickupUpdateBody,
  pickupBookBody,
  pickupCancelBody,
  pickupListQuery,
  pickupSchema,
} from '../schemas/pickup';

/** Pickups and daily pickups (issue 21); the `shipments` scope, as a packer books the evening pickup (decisions §13). */
export const pickupOperations = [
  defineOperation({
    id: 'pickups.book',
    method: 'POST',
    path: '/orgs/{orgId}/carriers/{carrierId}/pickups',
    summary: 'Book a pickup (a collection by the carrier) at a sender address',
    resource: 'shipments',
    body: pickupBookBody,
    response: pickupSchema,
    asksCarrier: true,
  }),
  defineOperation({
    id: 'pickups.list',
    method: 'GET',
    path: '/orgs/{orgId}/pickups',
    summary: 'List pickups, latest date first',
    resource: 'shipments',
    query: pickupListQuery,
    response: pageOf(pickupSchema),
  }),
  defineOperation({
    id: 'pickups.get',
    method: 'GET',
    path: '/orgs/{orgId}/pickups/{pickupId}',
    summary: 'Read one pickup',
    resource: 'shipments',
    response: pickupSchema,
  }),
  defineOperation({
    id: 'pickups.cancel',
    method: 'POST',
    path: '/orgs/{orgId}/pickups/{pickupId}/cancel',
    summary: 'Cancel a pickup, with the carrier where its API allows',
    resource: 'shipments',
    body: pickupCancelBody,
    response: pickupSchema,
    successStatus: 200,
    asksCarrier: true,
  }),
  ...crudOperations({
    key: 'dailyPickups',
    collection: 'daily-pickups',
    idParam: 'dailyPickupId',
    noun: 'daily pickup',
    resource: 'shipments',
    item: dailyPickupSchema,
    listItem: dailyPickupSchema,
    created: dailyPickupSchema,
    detail: dailyPickupSchema,
    createBody: dailyPickupCreateBody,
    updateBody: dailyPickupUpdateBody,
    updateMethod: 'PATCH',
  }),
];
