import { ApiError } from '../../../src-shared/errors';
import { actor } from '../../app/kernel/call';
import { createApiToken, describeCredential, getApiToken, listApiTokens, renameApiToken, revokeApiToken } from './apiTokens';
import { defineHandlers } from '../../app/kernel/handler';

export const apiTokenHandlers = defineHandlers({
  'apiTokens.create': (call, { params, body }) => createApiToken(call.app, actor(call), params.orgId, body),
  'apiTokens.list': ({ app }, { params, query }) => listApiTokens(app, params.orgId, query),
  'apiTokens.get': ({ app }, { params }) => getApiToken(app, params.orgId, params.tokenId),
  'apiTokens.update': ({ app }, { params, body }) => renameApiToken(app, params.orgId, params.tokenId, body.name),
  'apiTokens.delete': ({ app }, { params }) => revokeApiToken(app, params.orgId, params.tokenId),
  'apiTokens.verify': async ({ app, client, credential }, { body }) => {
    const token = body?.token ?? credential;
    if (!token) throw new ApiError('UNAUTHORIZED', 'Send the token as {"token": …} or as \'Authorization: Bearer <token>\'');
    try {
      return await describeCredential(app, token);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) throw app.failedAuth.failure(client, error);
      throw error;
    }
  },
});
