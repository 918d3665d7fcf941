import { defineOperation } from '../operation';
import { healthSchema } from '../schemas/system';

/** The installation itself: liveness and version. */
export const systemOperations = [
  defineOperation({
    id: 'system.health',
    method: 'GET',
    path: '/health',
    summary: 'Liveness and version; needs no credential',
    resource: null,
    auth: 'public',
    response: healthSchema,
  }),
];
