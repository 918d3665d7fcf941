import { login } from '../auth/login';
import { createOrgWithOwner, needsSetup } from './orgs';
import { defineHandlers } from '../../app/kernel/handler';

/** The first run: the installation's first organization and its owner, made by the setup screen. */
export const setupHandlers = defineHandlers({
  'setup.status': ({ app }) => ({ needsSetup: needsSetup(app.db) }),
  'setup.create': async ({ app, client }, { body }) => {
    await createOrgWithOwner(app, { orgName: body.orgName, userName: body.name, email: body.email, password: body.password, firstRunOnly: true });
    return login(app, client, body.email, body.password);
  },
});
