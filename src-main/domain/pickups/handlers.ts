import { defineHandlers } from '../../app/kernel/handler';
import { createDailyPickup, deleteDailyPickup, getDailyPickup, listDailyPickups, updateDailyPickup } from './dailyPickups';
import { bookPickup, cancelPickup, getPickup, listPickups } from './pickups';

export const pickupHandlers = defineHandlers({
  'pickups.book': ({ app }, { params, body }) => bookPickup(app, params.orgId, params.carrierId, body),
  'pickups.list': ({ app }, { params, query }) => listPickups(app, params.orgId, query),
  'pickups.get': ({ app }, { params }) => getPickup(app, params.orgId, params.pickupId),
  'pickups.cancel': ({ app }, { params }) => cancelPickup(app, params.orgId, params.pickupId),
  'dailyPickups.create': ({ app }, { params, body }) => createDailyPickup(app, params.orgId, body),
  'dailyPickups.list': ({ app }, { params, query }) => listDailyPickups(app, params.orgId, query),
  'dailyPickups.get': ({ app }, { params }) => getDailyPickup(app, params.orgId, params.dailyPickupId),
  'dailyPickups.update': ({ app }, { params, body }) => updateDailyPickup(app, params.orgId, params.dailyPickupId, body),
  'dailyPickups.delete': ({ app }, { params }) => deleteDailyPickup(app, params.orgId, params.dailyPickupId),
});
