import { defineHandlers } from '../../app/kernel/handler';
import { deleteEmailSettings, getEmailSettings, putEmailSettings, sendTestEmail } from './settings';

export const emailSettingsHandlers = defineHandlers({
  'emailSettings.get': ({ app }, { params }) => getEmailSettings(app, params.orgId),
  'emailSettings.put': ({ app }, { params, body }) => putEmailSettings(app, params.orgId, body),
  'emailSettings.delete': ({ app }, { params }) => deleteEmailSettings(app, params.orgId),
  'emailSettings.test': ({ app }, { params, body }) => sendTestEmail(app, params.orgId, body.to),
});
