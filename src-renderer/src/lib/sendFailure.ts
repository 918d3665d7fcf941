import { ApiError } from '../../../src-shared/errors';

/**
 * What a failed send asks of the user (decisions §13). An unknown outcome (422) is sent again: the
 * next send asks the carrier first, so nothing is booked twice. Where the carrier cannot be asked,
 * the send is refused (409) until the user has checked with the carrier and confirms a new booking.
 */
export type SendFailureStep = 'send-again' | 'confirm-rebook' | null;

export const SEND_AGAIN_ADVICE = 'Send again: Shipdesk asks the carrier first, so nothing is booked twice.';
export const CONFIRM_REBOOK_ADVICE =
  'Shipdesk cannot ask this carrier whether the booking went through. Check with the carrier (its website or customer service); if it has no booking for this shipment, book it again.';

export function sendFailureStep(error: unknown): SendFailureStep {
  if (!(error instanceof ApiError) || error.code !== 'CARRIER_OUTCOME_UNKNOWN') return null;
  return error.status === 409 ? 'confirm-rebook' : 'send-again';
}

/** The advice for a failed send, or null when the message already says what to do. */
export function sendFailureAdvice(error: unknown): string | null {
  const step = sendFailureStep(error);
  if (step === 'send-again') return SEND_AGAIN_ADVICE;
  if (step === 'confirm-rebook') return CONFIRM_REBOOK_ADVICE;
  return null;
}

/**
 * A batch send answers a code and message per shipment, without the HTTP status; an unknown outcome
 * there may need the user's confirmation, which the server ignores for a carrier it can ask.
 */
export function batchOutcomeUnknown(code: string | undefined): boolean {
  return code === 'CARRIER_OUTCOME_UNKNOWN';
}
