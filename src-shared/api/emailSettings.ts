import { defineOperation } from '../operation';
import { messageResponse } from '../schemas/common';
import { emailSettingsBody, emailSettingsSchema, emailTestBody, emailTestResultSchema } from '../schemas/emailSettings';

/** The organization's SMTP server for customer e-mails (issue 22); guarded by the org settings scope. */
export const emailSettingsOperations = [
  defineOperation({
    id: 'emailSettings.get',
    method: 'GET',
    path: '/orgs/{orgId}/email-settings',
    summary: 'Read the e-mail (SMTP) settings, password masked; null when none are saved',
    resource: 'orgs',
    response: emailSettingsSchema.nullable(),
  }),
  defineOperation({
    id: 'emailSettings.put',
    method: 'PUT',
    path: '/orgs/{orgId}/email-settings',
    summary: 'Save the e-mail (SMTP) settings; without `password` the stored one is kept',
    resource: 'orgs',
    body: emailSettingsBody,
    response: emailSettingsSchema,
  }),
  defineOperation({
    id: 'emailSettings.delete',
    method: 'DELETE',
    path: '/orgs/{orgId}/email-settings',
    summary: 'Remove the e-mail settings: no more customer e-mails are sent',
    resource: 'orgs',
    response: messageResponse,
  }),
  defineOperation({
    id: 'emailSettings.test',
    method: 'POST',
    path: '/orgs/{orgId}/email-settings/test',
    summary: 'Sends a test e-mail now with the saved settings and says in plain words how it went',
    resource: 'orgs',
    body: emailTestBody,
    response: emailTestResultSchema,
    successStatus: 200,
  }),
];
