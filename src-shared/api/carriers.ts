import { z } from 'zod';
import { defineOperation } from '../operation';
import { crudOperations } from './crud';
import {
  availableCarrierSchema,
  carrierCreateBody,
  carrierProductSchema,
  carrierSchema,
  carrierUpdateBody,
  servicePointListSchema,
  servicePointQuerySchema,
} from '../schemas/carrier';

/** Configured carriers, their products, and the catalogue of carriers that can be configured. */
export const carrierOperations = [
  defineOperation({
    id: 'availableCarriers.list',
    method: 'GET',
    path: '/orgs/{orgId}/available-carriers',
    summary: 'The catalogue of carriers that can be configured (not paginated)',
    resource: 'carriers',
    response: z.array(availableCarrierSchema),
  }),
  ...crudOperations({
    key: 'carriers',
    collection: 'carriers',
    idParam: 'carrierId',
    noun: 'carrier',
    resource: 'carriers',
    item: carrierSchema,
    listItem: carrierSchema,
    created: carrierSchema,
    detail: carrierSchema,
    createBody: carrierCreateBody,
    updateBody: carrierUpdateBody,
    updateMethod: 'PUT',
  }),
  defineOperation({
    id: 'carriers.patch',
    method: 'PATCH',
    path: '/orgs/{orgId}/carriers/{carrierId}',
    summary: 'Update a carrier (only the fields given), the same as its PUT',
    resource: 'carriers',
    body: carrierUpdateBody,
    response: carrierSchema,
  }),
  defineOperation({
    id: 'carriers.products',
    method: 'GET',
    path: '/orgs/{orgId}/carriers/{carrierId}/products',
    summary: 'Products (outbound and return) the configured carrier offers, as a bare array',
    resource: 'carriers',
    response: z.array(carrierProductSchema),
  }),
  defineOperation({
    id: 'carriers.servicePoints',
    method: 'GET',
    path: '/orgs/{orgId}/carriers/{carrierId}/service-points',
    summary: "Service points near an address, nearest first, from the carrier's own lookup (decisions §13); [] for a carrier without one",
    resource: 'carriers',
    asksCarrier: true,
    query: servicePointQuerySchema,
    response: servicePointListSchema,
  }),
];
