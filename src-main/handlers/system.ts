import { ApiError } from '../../src-shared/errors';
import { actor } from '../app/kernel/call';
import { appVersion } from '../app/kernel/version';
import { login } from '../domain/auth/login';
import { changeOwnPassword } from '../domain/auth/passwordChange';
import { describeCredential } from '../domain/apiTokens';
import { createOrgWithOwner, getOrganization, needsSetup, updateOrganization } from '../domain/orgs';
import { getUsage } from '../domain/usage';
import { defineHandlers } from './types';

export const systemHandlers = defineHandlers({
  'system.health': ({ app }) => ({ status: 'ok', version: appVersion, timestamp: app.now().toISOString() }),
  'setup.status': ({ app }) => ({ needsSetup: needsSetup(app.db) }),
  'setup.create': async ({ app, client }, { body }) => {
    await createOrgWithOwner(app, { orgName: body.orgName, userName: body.name, email: body.email, password: body.password, firstRunOnly: true });
    return login(app, client, body.email, body.password);
  },
  'auth.login': ({ app, client }, { body }) => login(app, client, body.email, body.password),
  'auth.changePassword': (call, { body }) => changeOwnPassword(call.app, call.client, actor(call), body),
  'apiTokens.verify': async ({ app, client, credential }, { body }) => {
    const token = body?.token ?? credential;
    if (!token) throw new ApiError('UNAUTHORIZED', "Send the token as {\"token\": …} or as 'Authorization: Bearer <token>'");
    try {
      return await describeCredential(app, token);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) throw app.failedAuth.failure(client, error);
      throw error;
    }
  },
  'orgs.get': ({ app }, { params }) => getOrganization(app, params.id),
  'orgs.update': ({ app }, { params, body }) => updateOrganization(app, params.id, body),
  'billing.usage': ({ app }, { params }) => getUsage(app, params.orgId),
});
