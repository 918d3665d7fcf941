import { availableCarriers } from '../../carriers/catalogue';
import { carrierProducts, createCarrier, deleteCarrier, getCarrier, listCarriers, updateCarrier } from './carriers';
import { carrierFieldOptions, refreshCarrierProducts, testCarrier, testUnsavedCarrier, unsavedFieldOptions } from './carrierSetup';
import { defineHandlers } from '../../app/kernel/handler';
import { carrierServicePoints } from './servicePoints';
import { noteCarrierTestPassed } from '../onboarding/onboarding';

export const carrierHandlers = defineHandlers({
  'availableCarriers.list': () => availableCarriers(),
  'availableCarriers.test': ({ app }, { params, body }) => testUnsavedCarrier(app, params.orgId, params.slug, body.config),
  'availableCarriers.fieldOptions': ({ app }, { params, body }) => unsavedFieldOptions(app, params.orgId, params.slug, body.config, body.field),
  'carriers.create': ({ app }, { params, body }) => createCarrier(app, params.orgId, body),
  'carriers.list': ({ app }, { params, query }) => listCarriers(app, params.orgId, query),
  'carriers.get': ({ app }, { params }) => getCarrier(app, params.orgId, params.carrierId),
  'carriers.update': ({ app }, { params, body }) => updateCarrier(app, params.orgId, params.carrierId, body),
  'carriers.patch': ({ app }, { params, body }) => updateCarrier(app, params.orgId, params.carrierId, body),
  'carriers.delete': ({ app }, { params }) => deleteCarrier(app, params.orgId, params.carrierId),
  'carriers.products': ({ app }, { params }) => carrierProducts(app, params.orgId, params.carrierId),
  'carriers.servicePoints': ({ app }, { params, query }) => carrierServicePoints(app, params.orgId, params.carrierId, query),
  'carriers.test': async ({ app }, { params, body }) => {
    const result = await testCarrier(app, params.orgId, params.carrierId, body?.config);
    if (result.ok) noteCarrierTestPassed(app, params.orgId, params.carrierId);
    return result;
  },
  'carriers.fieldOptions': ({ app }, { params, body }) => carrierFieldOptions(app, params.orgId, params.carrierId, body.config, body.field),
  'carriers.refreshProducts': ({ app }, { params }) => refreshCarrierProducts(app, params.orgId, params.carrierId),
});
