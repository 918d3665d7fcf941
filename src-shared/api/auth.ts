import { defineOperation } from '../operation';
import { loginBody, loginResponse, passwordChangeBody } from '../schemas/system';

/** Signing in, changing one's password. */
export const authOperations = [
  defineOperation({
    id: 'auth.login',
    method: 'POST',
    path: '/auth/login',
    summary: 'Exchange email and password for a 12-hour JWT access token',
    resource: null,
    auth: 'public',
    body: loginBody,
    response: loginResponse,
    successStatus: 200,
  }),
  defineOperation({
    id: 'auth.changePassword',
    method: 'POST',
    path: '/auth/password',
    summary: 'Change your own password (the current one is asked for). Logins made before it stop working; the answer is a new login',
    resource: null,
    body: passwordChangeBody,
    response: loginResponse,
    successStatus: 200,
  }),
];
