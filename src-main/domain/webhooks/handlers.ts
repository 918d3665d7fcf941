import { createWebhook, deleteWebhook, getWebhook, listWebhooks, updateWebhook } from './webhooks';
import { listDeliveries, sendTestPing } from './delivery';
import { defineHandlers } from '../../app/kernel/handler';

export const webhookHandlers = defineHandlers({
  'webhooks.create': ({ app }, { params, body }) => createWebhook(app, params.orgId, body),
  'webhooks.list': ({ app }, { params, query }) => listWebhooks(app, params.orgId, query),
  'webhooks.get': ({ app }, { params }) => getWebhook(app, params.orgId, params.webhookId),
  'webhooks.update': ({ app }, { params, body }) => updateWebhook(app, params.orgId, params.webhookId, body),
  'webhooks.delete': ({ app }, { params }) => deleteWebhook(app, params.orgId, params.webhookId),
  'webhooks.deliveries': ({ app }, { params, query }) => listDeliveries(app, params.orgId, params.webhookId, query),
  'webhooks.test': ({ app }, { params }) => sendTestPing(app, params.orgId, params.webhookId),
});
