import { defineHandlers } from '../../app/kernel/handler';
import { getOrganization, updateOrganization } from './orgs';
import { getUsage } from './usage';

export const orgHandlers = defineHandlers({
  'orgs.get': ({ app }, { params }) => getOrganization(app, params.id),
  'orgs.update': ({ app }, { params, body }) => updateOrganization(app, params.id, body),
  'billing.usage': ({ app }, { params }) => getUsage(app, params.orgId),
});
