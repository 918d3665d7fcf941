import { ApiError } from '../../../src-shared/errors';
import { databaseFailure } from '../../db/sqliteFailures';

/**
 * Any failure as the one error body every door answers with (decisions §2): our own errors as they
 * are, the database's mapped to what happened (db/sqliteFailures.ts), anything else a 500 that
 * says nothing of its message, stack or SQL. The HTTP door maps its framework's errors first.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return databaseFailure(error) ?? new ApiError('INTERNAL_ERROR', 'Something went wrong inside Shipdesk; the error has been logged');
}
