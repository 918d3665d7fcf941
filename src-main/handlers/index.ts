import type { HandlerMap } from './types';
import { systemHandlers } from './system';
import { apiTokenHandlers } from './apiTokens';
import { senderAddressHandlers } from './senderAddresses';
import { carrierHandlers } from './carriers';
import { webhookHandlers } from './webhooks';
import { orderChannelHandlers } from './orderChannels';
import { shippingRuleHandlers } from './shippingRules';
import { orderHandlers } from './orders';
import { shipmentHandlers } from './shipments';
import { shipmentActionHandlers } from './shipmentActions';
import { splitHandlers } from './splits';
import { printingHandlers } from './printing';
import { memberHandlers } from './members';

/** Every operation of the table has exactly one handler; `satisfies` makes a missing one a compile error. */
export const handlers = {
  ...systemHandlers,
  ...apiTokenHandlers,
  ...memberHandlers,
  ...senderAddressHandlers,
  ...carrierHandlers,
  ...webhookHandlers,
  ...orderChannelHandlers,
  ...shippingRuleHandlers,
  ...orderHandlers,
  ...shipmentHandlers,
  ...shipmentActionHandlers,
  ...splitHandlers,
  ...printingHandlers,
} satisfies HandlerMap;
