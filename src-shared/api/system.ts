import { defineOperation } from '../operation';
import { healthSchema, loginBody, loginResponse } from '../schemas/system';
import { apiTokenVerifyBody, apiTokenVerifyResponse } from '../schemas/apiToken';
import { organizationSchema, organizationUpdateBody, usageSchema } from '../schemas/org';

export const systemOperations = [
  defineOperation({
    id: 'system.health',
    method: 'GET',
    path: '/health',
    summary: 'Liveness and version; needs no credential',
    resource: null,
    auth: 'public',
    response: healthSchema,
  }),
  defineOperation({
    id: 'auth.login',
    method: 'POST',
    path: '/auth/login',
    summary: 'Exchange email and password for a 12-hour JWT access token',
    resource: null,
    auth: 'public',
    body: loginBody,
    response: loginResponse,
    successStatus: 200,
  }),
  defineOperation({
    id: 'apiTokens.verify',
    method: 'POST',
    path: '/api-tokens/verify',
    summary: 'Check a credential: the token in the body, else the request’s own Authorization header',
    resource: null,
    auth: 'public',
    body: apiTokenVerifyBody,
    response: apiTokenVerifyResponse,
    successStatus: 200,
  }),
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
