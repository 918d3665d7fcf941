import type { CarrierErrorItem } from '../../src-shared/errors';

/**
 * How a carrier call can fail, as the send must tell them apart (decisions §13). Adapters throw these
 * with the carrier's own words; booking.ts turns them into CARRIER_ERROR, CARRIER_AUTH_FAILED or
 * CARRIER_OUTCOME_UNKNOWN.
 */
export type CarrierFailureKind = 'refused' | 'auth' | 'outcome_unknown' | 'unavailable';

export class CarrierFailure extends Error {
  readonly kind: CarrierFailureKind;
  /** The carrier's own `[{code, message}]`. */
  readonly errors: CarrierErrorItem[];
  /** How long the carrier asked callers to wait (a 429's Retry-After), so background work waits at least that. */
  readonly retryAfterMs: number | null;
  constructor(kind: CarrierFailureKind, message: string, errors: CarrierErrorItem[] = [], retryAfterMs: number | null = null) {
    super(message);
    this.name = 'CarrierFailure';
    this.kind = kind;
    this.errors = errors.length ? errors : [{ code: kindCode[kind], message }];
    this.retryAfterMs = retryAfterMs;
  }
}

const kindCode: Record<CarrierFailureKind, string> = {
  refused: 'CARRIER_REFUSED',
  auth: 'CARRIER_AUTH_FAILED',
  outcome_unknown: 'CARRIER_OUTCOME_UNKNOWN',
  unavailable: 'CARRIER_UNAVAILABLE',
};

/** The carrier understood the request and said no (a 4xx with its reasons). */
export const carrierRefused = (errors: CarrierErrorItem[], message = errors.map((error) => error.message).join('; ')) =>
  new CarrierFailure('refused', message, errors);

/** The carrier refused the credentials (401/403 or its own word for it). */
export const carrierAuthFailed = (message: string, errors: CarrierErrorItem[] = []) => new CarrierFailure('auth', message, errors);
