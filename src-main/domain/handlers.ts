import type { HandlerMap } from '../app/kernel/handler';
import { systemHandlers } from './system/handlers';
import { setupHandlers } from './orgs/setupHandlers';
import { authHandlers } from './auth/handlers';
import { apiTokenHandlers } from './apiTokens/handlers';
import { orgHandlers } from './orgs/handlers';
import { onboardingHandlers } from './onboarding/handlers';
import { profileHandlers } from './profile/handlers';
import { memberHandlers } from './members/handlers';
import { senderAddressHandlers } from './senderAddresses/handlers';
import { carrierHandlers } from './carriers/handlers';
import { webhookHandlers } from './webhooks/handlers';
import { orderChannelHandlers } from './orderChannels/handlers';
import { shippingRuleHandlers } from './shippingRules/handlers';
import { orderHandlers } from './orders/handlers';
import { orderPaperHandlers } from './orders/paperHandlers';
import { shipmentHandlers } from './shipments/handlers';
import { printingHandlers } from './printing/handlers';
import { trackingHandlers } from './tracking/handlers';
import { bulkShipmentHandlers } from './shipments/bulkHandlers';
import { pickupHandlers } from './pickups/handlers';
import { closeOutHandlers } from './closeOuts/handlers';
import { emailSettingsHandlers } from './email/handlers';
import { shopFulfillmentHandlers } from './shopWriteBack/handlers';

/**
 * Every operation of the table has exactly one handler, beside its resource's rules
 * (`domain/<resource>/handlers.ts`); `satisfies` makes a missing one a compile error.
 */
export const handlers = {
  ...systemHandlers,
  ...setupHandlers,
  ...authHandlers,
  ...apiTokenHandlers,
  ...orgHandlers,
  ...onboardingHandlers,
  ...profileHandlers,
  ...memberHandlers,
  ...senderAddressHandlers,
  ...carrierHandlers,
  ...webhookHandlers,
  ...orderChannelHandlers,
  ...shippingRuleHandlers,
  ...orderHandlers,
  ...orderPaperHandlers,
  ...shipmentHandlers,
  ...printingHandlers,
  ...trackingHandlers,
  ...bulkShipmentHandlers,
  ...pickupHandlers,
  ...closeOutHandlers,
  ...emailSettingsHandlers,
  ...shopFulfillmentHandlers,
} satisfies HandlerMap;
