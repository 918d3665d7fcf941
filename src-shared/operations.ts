import { systemOperations } from './api/system';
import { setupOperations } from './api/setup';
import { authOperations } from './api/auth';
import { apiTokenOperations } from './api/apiTokens';
import { orgOperations } from './api/orgs';
import { onboardingOperations } from './api/onboarding';
import { profileOperations } from './api/profile';
import { senderAddressOperations } from './api/senderAddresses';
import { carrierOperations } from './api/carriers';
import { webhookOperations } from './api/webhooks';
import { orderChannelOperations } from './api/orderChannels';
import { memberOperations } from './api/members';
import { shippingRuleOperations } from './api/shippingRules';
import { orderOperations } from './api/orders';
import { orderPaperOperations } from './api/orderPapers';
import { shipmentOperations } from './api/shipments';
import { printingOperations } from './api/printing';
import { bulkShipmentOperations } from './api/bulkShipments';
import { pickupOperations } from './api/pickups';
import { closeOutOperations } from './api/closeOuts';
import { emailSettingsOperations } from './api/emailSettings';
import { shopFulfillmentOperations } from './api/shopFulfillments';
import type { AnyOperation } from './operation';

/** The operation table: every door (HTTP, IPC, OpenAPI, typed client) is produced from it. */
export const operations = [
  ...systemOperations,
  ...setupOperations,
  ...authOperations,
  ...apiTokenOperations,
  ...orgOperations,
  ...onboardingOperations,
  ...profileOperations,
  ...senderAddressOperations,
  ...carrierOperations,
  ...webhookOperations,
  ...orderChannelOperations,
  ...memberOperations,
  ...shippingRuleOperations,
  ...orderOperations,
  ...orderPaperOperations,
  ...shipmentOperations,
  ...printingOperations,
  ...bulkShipmentOperations,
  ...pickupOperations,
  ...closeOutOperations,
  ...emailSettingsOperations,
  ...shopFulfillmentOperations,
];

export type Operations = typeof operations;
export type OperationId = Operations[number]['id'];
export type OperationById<Id extends OperationId> = Extract<Operations[number], { id: Id }>;

function indexById(list: readonly AnyOperation[]): ReadonlyMap<string, AnyOperation> {
  const byId = new Map<string, AnyOperation>();
  for (const op of list) {
    if (byId.has(op.id)) throw new Error(`Operation id ${op.id} is defined twice`);
    byId.set(op.id, op);
  }
  return byId;
}

export const operationsById = indexById(operations as readonly AnyOperation[]);

export function operationById<Id extends OperationId>(id: Id): OperationById<Id> {
  const op = operationsById.get(id);
  if (!op) throw new Error(`Unknown operation ${id}`);
  return op as OperationById<Id>;
}
