import { defineOperation } from '../operation';
import {
  apiTokenCreateBody,
  apiTokenCreatedSchema,
  apiTokenDetailSchema,
  apiTokenSchema,
  apiTokenUpdateBody,
  apiTokenVerifyBody,
  apiTokenVerifyResponse,
} from '../schemas/apiToken';
import { crudOperations } from './crud';

/** API tokens for scripts (decisions §3): created once with their secret shown, verified, revoked. */
export const apiTokenOperations = [
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
  ...crudOperations({
    key: 'apiTokens',
    collection: 'api-tokens',
    idParam: 'tokenId',
    noun: 'API token',
    resource: 'api_tokens',
    item: apiTokenSchema,
    listItem: apiTokenSchema,
    created: apiTokenCreatedSchema,
    detail: apiTokenDetailSchema,
    createBody: apiTokenCreateBody,
    updateBody: apiTokenUpdateBody,
    updateMethod: 'PATCH',
  }),
];
