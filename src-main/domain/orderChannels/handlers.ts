import { createOrderChannel, deleteOrderChannel, getOrderChannel, listOrderChannels, updateOrderChannel } from './orderChannels';
import { syncOrderChannel } from '../orders/sync';
import { defineHandlers } from '../../app/kernel/handler';

export const orderChannelHandlers = defineHandlers({
  'orderChannels.create': ({ app }, { params, body }) => createOrderChannel(app, params.orgId, body),
  'orderChannels.list': ({ app }, { params, query }) => listOrderChannels(app, params.orgId, query),
  'orderChannels.get': ({ app }, { params }) => getOrderChannel(app, params.orgId, params.channelId),
  'orderChannels.update': ({ app }, { params, body }) => updateOrderChannel(app, params.orgId, params.channelId, body),
  'orderChannels.delete': ({ app }, { params }) => deleteOrderChannel(app, params.orgId, params.channelId),
  'orderChannels.sync': ({ app }, { params }) => syncOrderChannel(app, params.orgId, params.channelId),
});
