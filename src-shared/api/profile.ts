import { z } from 'zod';
import { defineOperation } from '../operation';
import { loginResponse } from '../schemas/system';

export const profileSchema = z.strictObject({
  /** The demo profile is open: sample data in its own database file; the real data is untouched. */
  demo: z.boolean(),
});

/** Demo mode (issue 20): a sample warehouse in a second database file, and the way back. */
export const profileOperations = [
  defineOperation({
    id: 'profile.get',
    method: 'GET',
    path: '/profile',
    summary: 'Whether the installation shows its demo profile; needs no credential, so every screen can say so',
    resource: null,
    auth: 'public',
    response: profileSchema,
  }),
  defineOperation({
    id: 'profile.startDemo',
    method: 'POST',
    path: '/orgs/{orgId}/demo',
    summary: 'Open demo mode: a fresh sample warehouse in its own database file, with a login for the same person there',
    resource: 'orgs',
    response: loginResponse,
    successStatus: 200,
  }),
  defineOperation({
    id: 'profile.leaveDemo',
    method: 'POST',
    path: '/orgs/{orgId}/demo/leave',
    summary: 'Leave demo mode: the real profile opens again as it was, with a login for the same person there',
    resource: 'orgs',
    response: loginResponse,
    successStatus: 200,
  }),
];
