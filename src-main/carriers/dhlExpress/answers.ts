import type { z } from 'zod';
import type { CarrierErrorItem } from '../../../src-shared/errors';
import { CarrierFailure, carrierAuthFailed, carrierRefused } from '../errors';
import type { CarrierResponse } from '../platform/carrierHttp';
import { errorResponseSchema } from './contract';

/**
 * Reading MyDHL's answers. A refusal is a problem body `{instance, detail, title, message, status,
 * additionalDetails}` whose `detail` starts with DHL's own error number ("7008: The requested …");
 * each becomes the carrier's `[{code, message}]`.
 */
export function dhlErrors(response: CarrierResponse): CarrierErrorItem[] {
  const parsed = errorResponseSchema.safeParse(response.json);
  if (!parsed.success || !(parsed.data.detail || parsed.data.title || parsed.data.message)) {
    const text = response.text.trim();
    return [{ code: `HTTP_${response.status}`, message: text ? text.slice(0, 500) : `DHL Express answered HTTP ${response.status} without saying why` }];
  }
  const problem = parsed.data;
  const numbered = /^\s*(\d{2,6})\s*:\s*([\s\S]*)$/.exec(problem.detail ?? '');
  const first: CarrierErrorItem = numbered
    ? { code: numbered[1]!, message: numbered[2]!.trim() }
    : { code: `HTTP_${response.status}`, message: (problem.detail ?? problem.title ?? problem.message ?? '').trim() };
  const more = (problem.additionalDetails ?? []).map((detail) => {
    const each = /^\s*(\d{2,6})\s*:\s*([\s\S]*)$/.exec(detail);
    return each ? { code: each[1]!, message: each[2]!.trim() } : { code: first.code, message: detail.trim() };
  });
  return [first, ...more];
}

/** A refusal as the send must tell it apart: the credentials (401/403) or anything else DHL said no to. */
export function dhlFailure(response: CarrierResponse, what: string): CarrierFailure {
  const errors = dhlErrors(response);
  if (response.status === 401 || response.status === 403) {
    return carrierAuthFailed(`DHL Express refused the username and password while ${what}: ${errors.map((error) => error.message).join('; ')}`, errors);
  }
  return carrierRefused(errors);
}

/**
 * A 2xx body read with its schema. Unreadable after a call that changed something, DHL may have acted
 * on it while we cannot tell what it did: that is an unknown outcome, never a refusal.
 */
export function readAnswer<T extends z.ZodType>(response: CarrierResponse, schema: T, what: string, changedSomething: boolean): z.output<T> {
  const parsed = schema.safeParse(response.json);
  if (parsed.success) return parsed.data;
  const message = `DHL Express answered HTTP ${response.status} while ${what}, but the answer could not be read: ${parsed.error.issues[0]?.message ?? 'not JSON'}`;
  throw new CarrierFailure(changedSomething ? 'outcome_unknown' : 'unavailable', message, [{ code: 'DHL_ANSWER_UNREADABLE', message }]);
}
