import { defineOperation } from '../operation';
import { crudOperations } from './crud';
import { webhookCreateBody, webhookDeliverySchema, webhookSchema, webhookUpdateBody, webhookWithSecretSchema } from '../schemas/webhook';
import { noBody, pageOf, pageQuery } from '../schemas/common';

/** Webhooks (decisions §10): receivers of events, their deliveries and a test ping. */
export const webhookOperations = [
  ...crudOperations({
    key: 'webhooks',
    collection: 'webhooks',
    idParam: 'webhookId',
    noun: 'webhook',
    resource: 'webhooks',
    item: webhookWithSecretSchema,
    listItem: webhookSchema,
    created: webhookWithSecretSchema,
    detail: webhookWithSecretSchema,
    createBody: webhookCreateBody,
    updateBody: webhookUpdateBody,
    updateMethod: 'PATCH',
  }),
  defineOperation({
    id: 'webhooks.deliveries',
    method: 'GET',
    path: '/orgs/{orgId}/webhooks/{webhookId}/deliveries',
    summary: 'Delivery attempts of the webhook, newest first (each retry is its own record)',
    resource: 'webhooks',
    query: pageQuery,
    response: pageOf(webhookDeliverySchema),
  }),
  defineOperation({
    id: 'webhooks.test',
    method: 'POST',
    path: '/orgs/{orgId}/webhooks/{webhookId}/test',
    summary: 'Sends a `ping` event to the webhook now and answers the delivery record (a ping is not retried)',
    resource: 'webhooks',
    body: noBody,
    response: webhookDeliverySchema,
    successStatus: 200,
  }),
];
