import { ApiError } from '../../../src-shared/errors';
import { CarrierFailure } from '../../carriers/errors';
import { plainSentence } from '../../carriers/platform/plainWords';

/**
 * A failed carrier call (other than a shipment booking, which keeps its own outcome states) as the API
 * answers it: 422 CARRIER_AUTH_FAILED when the credentials were refused, else 422 CARRIER_ERROR, with
 * the carrier's words in `errors[]` and what to do in a sentence (decisions §13).
 * `afterAuth` ends "refused the credentials, so …"; `failed` follows the carrier's name.
 */
export function carrierCallError(carrierName: string, error: unknown, words: { afterAuth: string; failed: string }): ApiError {
  const failure = error instanceof CarrierFailure ? error : new CarrierFailure('refused', error instanceof Error ? error.message : String(error));
  if (failure.kind === 'auth') {
    return new ApiError('CARRIER_AUTH_FAILED', `${carrierName} refused the credentials, so ${words.afterAuth}. ${plainSentence('auth', carrierName)}`, {
      errors: failure.errors,
    });
  }
  const advice = plainSentence(failure.errors, carrierName);
  return new ApiError('CARRIER_ERROR', `${carrierName} ${words.failed}: ${failure.message}.${advice ? ` ${advice}` : ''}`, { errors: failure.errors });
}
