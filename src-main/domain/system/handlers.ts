import { appVersion } from '../../app/kernel/version';
import { defineHandlers } from '../../app/kernel/handler';

export const systemHandlers = defineHandlers({
  'system.health': ({ app }) => ({ status: 'ok', version: appVersion, timestamp: app.now().toISOString() }),
});
