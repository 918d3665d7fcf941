import { defineHandlers } from '../../app/kernel/handler';
import { getOnboarding, updateOnboarding } from './onboarding';

export const onboardingHandlers = defineHandlers({
  'onboarding.get': ({ app }, { params }) => getOnboarding(app, params.orgId),
  'onboarding.update': ({ app }, { params, body }) => updateOnboarding(app, params.orgId, body),
});
