import { ApiError } from '../../src-shared/errors';
import { defineHandlers } from './types';

const todo = (): never => {
  throw new ApiError('INTERNAL_ERROR', 'Not built yet');
};

export const orderChannelHandlers = defineHandlers({
  'orderChannels.create': todo,
  'orderChannels.list': todo,
  'orderChannels.get': todo,
  'orderChannels.update': todo,
  'orderChannels.delete': todo,
});
