import { ApiError } from '../../src-shared/errors';
import { defineHandlers } from './types';

const todo = (): never => {
  throw new ApiError('INTERNAL_ERROR', 'Not built yet');
};

export const webhookHandlers = defineHandlers({
  'webhooks.create': todo,
  'webhooks.list': todo,
  'webhooks.get': todo,
  'webhooks.update': todo,
  'webhooks.delete': todo,
});
