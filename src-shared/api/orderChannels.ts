import { defineOperation } from '../operation';
import { crudOperations } from './crud';
import { orderChannelCreateBody, orderChannelSchema, orderChannelSyncResultSchema, orderChannelUpdateBody } from '../schemas/orderChannel';
import { noBody } from '../schemas/common';

/** Order channels: where orders come from (manual, CSV, shops), and a shop's sync. */
export const orderChannelOperations = [
  ...crudOperations({
    key: 'orderChannels',
    collection: 'order-channels',
    idParam: 'channelId',
    noun: 'order channel',
    resource: 'order_channels',
    item: orderChannelSchema,
    listItem: orderChannelSchema,
    created: orderChannelSchema,
    detail: orderChannelSchema,
    createBody: orderChannelCreateBody,
    updateBody: orderChannelUpdateBody,
    updateMethod: 'PATCH',
  }),
  defineOperation({
    id: 'orderChannels.sync',
    method: 'POST',
    path: '/orgs/{orgId}/order-channels/{channelId}/sync',
    summary: 'Pulls new orders from the Shopify or WooCommerce shop; an order already imported is skipped',
    resource: 'order_channels',
    body: noBody,
    response: orderChannelSyncResultSchema,
    successStatus: 200,
  }),
];
