import type { z } from 'zod';
import type { CarrierErrorItem } from '../../../src-shared/errors';
import { CarrierFailure, carrierAuthFailed, carrierRefused } from '../errors';
import type { CarrierResponse } from '../platform/carrierHttp';
import { faultResponseSchema, gatewayFaultSchema, problemSchema } from './contract';

/**
 * Reading GLS's answers. ShipIT says what is wrong in two response headers (`error`, `message`) over
 * an empty body, or, for JSON it cannot bind, in a plain-text body; the API gateway answers a JSON
 * `fault`; the token endpoint `{errors: [{message, type}]}`; Track and Trace a problem body. Each
 * becomes the carrier's own `[{code, message}]`.
 */
export function glsErrors(response: CarrierResponse): CarrierErrorItem[] {
  const code = response.headers.get('error');
  const message = response.headers.get('message');
  if (code || message) return [{ code: code ?? `HTTP_${response.status}`, message: message ?? code ?? '' }];
  const fault = gatewayFaultSchema.safeParse(response.json);
  if (fault.success) {
    return [{ code: fault.data.fault.detail?.errorcode ?? `HTTP_${response.status}`, message: fault.data.fault.faultstring ?? `HTTP ${response.status}` }];
  }
  const tokenFault = faultResponseSchema.safeParse(response.json);
  if (tokenFault.success && tokenFault.data.errors.length) {
    return tokenFault.data.errors.map((error) => ({ code: error.type ? `HTTP_${error.type}` : `HTTP_${response.status}`, message: error.message ?? '' }));
  }
  const problem = problemSchema.safeParse(response.json);
  if (problem.success && (problem.data.detail || problem.data.title)) {
    return [{ code: `HTTP_${response.status}`, message: problem.data.detail ?? problem.data.title ?? '' }];
  }
  const text = response.text.trim();
  return [{ code: `HTTP_${response.status}`, message: text ? text.slice(0, 500) : mediaHint(response.status) }];
}

function mediaHint(status: number): string {
  if (status === 415) return 'GLS did not accept the content type of the request (ShipIT wants application/glsVersion1+json)';
  if (status === 406) return 'GLS cannot answer in the media type asked for';
  return `GLS answered HTTP ${status} without saying why`;
}

/** A refusal as the send must tell it apart: credentials (401/403) or anything else the carrier said no to. */
export function glsFailure(response: CarrierResponse, what: string): CarrierFailure {
  const errors = glsErrors(response);
  if (response.status === 401 || response.status === 403) {
    return carrierAuthFailed(`GLS refused the credentials while ${what}: ${errors.map((error) => error.message).join('; ')}`, errors);
  }
  return carrierRefused(errors);
}

/**
 * A 2xx body read with its schema. Unreadable after a call that changed something, GLS may have acted
 * on it while we cannot tell what it did: that is an unknown outcome, never a refusal.
 */
export function readAnswer<T extends z.ZodType>(response: CarrierResponse, schema: T, what: string, changedSomething: boolean): z.output<T> {
  const parsed = schema.safeParse(response.json);
  if (parsed.success) return parsed.data;
  const message = `GLS answered HTTP ${response.status} while ${what}, but the answer could not be read: ${parsed.error.issues[0]?.message ?? 'not JSON'}`;
  throw new CarrierFailure(changedSomething ? 'outcome_unknown' : 'unavailable', message, [{ code: 'GLS_ANSWER_UNREADABLE', message }]);
}
