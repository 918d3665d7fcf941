import type { z } from 'zod';
import type { CarrierErrorItem } from '../../../src-shared/errors';
import { CarrierFailure, carrierAuthFailed, carrierRefused } from '../errors';
import type { CarrierResponse } from '../platform/carrierHttp';
import { errorResponseSchema } from './contract';

/**
 * Reading UPS's answers. Every UPS API says what is wrong in one shape, `{response: {errors: [{code,
 * message}]}}`; anything else (a proxy's page, an empty body) is kept as text.
 */
export function upsErrors(response: CarrierResponse): CarrierErrorItem[] {
  const parsed = errorResponseSchema.safeParse(response.json);
  if (parsed.success && parsed.data.response.errors.length) {
    return parsed.data.response.errors.map((error) => ({ code: error.code ?? `HTTP_${response.status}`, message: error.message ?? '' }));
  }
  const text = response.text.trim();
  return [{ code: `HTTP_${response.status}`, message: text ? text.slice(0, 500) : `UPS answered HTTP ${response.status} without saying why` }];
}

/** A refusal as the send must tell it apart: credentials (401/403) or anything else UPS said no to. */
export function upsFailure(response: CarrierResponse, what: string): CarrierFailure {
  const errors = upsErrors(response);
  if (response.status === 401 || response.status === 403) {
    return carrierAuthFailed(`UPS refused the credentials while ${what}: ${errors.map((error) => error.message).join('; ')}`, errors);
  }
  return carrierRefused(errors);
}

/**
 * A 2xx body read with its schema. Unreadable after a call that changed something, UPS may have acted
 * on it while we cannot tell what it did: an unknown outcome, never a refusal.
 */
export function readAnswer<T extends z.ZodType>(response: CarrierResponse, schema: T, what: string, changedSomething: boolean): z.output<T> {
  const parsed = schema.safeParse(response.json);
  if (parsed.success) return parsed.data;
  const message = `UPS answered HTTP ${response.status} while ${what}, but the answer could not be read: ${parsed.error.issues[0]?.message ?? 'not JSON'}`;
  throw new CarrierFailure(changedSomething ? 'outcome_unknown' : 'unavailable', message, [{ code: 'UPS_ANSWER_UNREADABLE', message }]);
}
