import { defineOperation } from '../operation';
import { loginResponse, setupBody, setupStatusSchema } from '../schemas/system';

/** First run: whether the installation needs its first organization, and making it. */
export const setupOperations = [
  defineOperation({
    id: 'setup.status',
    method: 'GET',
    path: '/setup',
    summary: 'Whether this installation still needs its first organization and owner',
    resource: null,
    auth: 'public',
    response: setupStatusSchema,
  }),
  defineOperation({
    id: 'setup.create',
    method: 'POST',
    path: '/setup',
    summary: 'First run only: create the organization and its owner, and log in as the owner',
    resource: null,
    auth: 'public',
    body: setupBody,
    response: loginResponse,
  }),
];
