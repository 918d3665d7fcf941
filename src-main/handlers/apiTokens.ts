import { actor } from '../app/kernel/call';
import { createApiToken, getApiToken, listApiTokens, renameApiToken, revokeApiToken } from '../domain/apiTokens';
import { defineHandlers } from './types';

export const apiTokenHandlers = defineHandlers({
  'apiTokens.create': (call, { params, body }) => createApiToken(call.app, actor(call), params.orgId, body),
  'apiTokens.list': ({ app }, { params, query }) => listApiTokens(app, params.orgId, query),
  'apiTokens.get': ({ app }, { params }) => getApiToken(app, params.orgId, params.tokenId),
  'apiTokens.update': ({ app }, { params, body }) => renameApiToken(app, params.orgId, params.tokenId, body.name),
  'apiTokens.delete': ({ app }, { params }) => revokeApiToken(app, params.orgId, params.tokenId),
});
