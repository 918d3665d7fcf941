import { defineOperation } from '../operation';
import { organizationSchema, organizationUpdateBody, usageSchema } from '../schemas/org';

/** The organization record and its usage against the plan (decisions §11). */
export const orgOperations = [
  defineOperation({
    id: 'orgs.get',
    method: 'GET',
    path: '/orgs/{id}',
    summary: 'Read the organization record, with its plan and overage setting',
    resource: 'orgs',
    response: organizationSchema,
  }),
  defineOperation({
    id: 'orgs.update',
    method: 'PUT',
    path: '/orgs/{id}',
    summary: 'Update the organization record (only the fields given)',
    resource: 'orgs',
    body: organizationUpdateBody,
    response: organizationSchema,
  }),
  defineOperation({
    id: 'billing.usage',
    method: 'GET',
    path: '/orgs/{orgId}/billing/usage',
    summary: 'Shipments this month and resource counts against the plan limits',
    resource: 'orgs',
    response: usageSchema,
  }),
];
