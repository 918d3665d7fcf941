import { ApiError } from '../../src-shared/errors';
import { defineHandlers } from './types';

const todo = (): never => {
  throw new ApiError('INTERNAL_ERROR', 'Not built yet');
};

export const carrierHandlers = defineHandlers({
  'availableCarriers.list': todo,
  'carriers.create': todo,
  'carriers.list': todo,
  'carriers.get': todo,
  'carriers.update': todo,
  'carriers.delete': todo,
  'carriers.products': todo,
});
