import { actor } from '../../app/kernel/call';
import { defineHandlers } from '../../app/kernel/handler';
import { login } from './login';
import { changeOwnPassword } from './passwordChange';

export const authHandlers = defineHandlers({
  'auth.login': ({ app, client }, { body }) => login(app, client, body.email, body.password),
  'auth.changePassword': (call, { body }) => changeOwnPassword(call.app, call.client, actor(call), body),
});
