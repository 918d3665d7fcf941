import { defineOperation } from '../operation';
import { onboardingSchema, onboardingUpdateBody } from '../schemas/onboarding';

/** The first-day checklist (issue 20): what is done is read from the data, what is skipped or closed is kept. */
export const onboardingOperations = [
  defineOperation({
    id: 'onboarding.get',
    method: 'GET',
    path: '/orgs/{orgId}/onboarding',
    summary: 'The first-day checklist: each step done (from the data) or skipped, and whether it is closed',
    resource: 'orgs',
    response: onboardingSchema,
  }),
  defineOperation({
    id: 'onboarding.update',
    method: 'PATCH',
    path: '/orgs/{orgId}/onboarding',
    summary: 'Skip or unskip a step of the first-day checklist, or close or reopen it',
    resource: 'orgs',
    body: onboardingUpdateBody,
    response: onboardingSchema,
  }),
];
