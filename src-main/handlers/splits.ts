import { batchSplitParcel, splitParcel } from '../domain/shipments/split';
import { defineHandlers } from './types';

export const splitHandlers = defineHandlers({
  'shipments.split': ({ app }, { params, body }) => splitParcel(app, params.orgId, params.shipmentId, params.parcelId, body ?? {}),
  'shipments.batchSplit': ({ app }, { params, body }) => batchSplitParcel(app, params.orgId, params.shipmentId, params.parcelId, body),
});
