import { ApiError } from '../../../src-shared/errors';
import { defineHandlers } from '../../app/kernel/handler';
import { actor, type CallContext } from '../../app/kernel/call';
import type { ProfileName } from '../../app/kernel/context';
import { loginAnswer } from '../auth/login';

/** Only a person signed in may switch: the answer is a login, which an API token must not turn into. */
function switchProfile({ app, ...call }: CallContext, target: ProfileName) {
  const principal = actor({ app, ...call });
  if (principal.kind !== 'user') throw new ApiError('FORBIDDEN', 'Demo mode is switched on and off by a person signed in to the app, not with an API token');
  if (!app.profiles) throw new ApiError('CONFLICT', 'This Shipdesk process has no demo mode (it is offered by the app and the headless server)');
  return app.profiles.switchTo(target, principal.user.id, (other) => loginAnswer(other, principal.user));
}

export const profileHandlers = defineHandlers({
  'profile.get': ({ app }) => ({ demo: app.profiles?.current === 'demo' }),
  'profile.startDemo': (call) => switchProfile(call, 'demo'),
  'profile.leaveDemo': (call) => switchProfile(call, 'real'),
});
