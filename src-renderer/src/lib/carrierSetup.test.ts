import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors';
import type { AvailableCarrier, CarrierField } from '../../../src-shared/schemas/carrier';
import { hasTestMode, inTestMode } from './carrierTestMode';
import { CONFIRM_REBOOK_ADVICE, SEND_AGAIN_ADVICE, sendFailureAdvice, sendFailureStep } from './sendFailure';

const field = (key: string, type: CarrierField['type']): CarrierField => ({ key, name: key, type, description: '', options: [], required: false });
const entry = (slug: string, fields: CarrierField[]): AvailableCarrier => ({
  slug,
  name: slug,
  group: '',
  description: '',
  logo: '',
  learnMoreUrl: '',
  requiredFields: [],
  optionalFields: fields,
});
const catalogue = [entry('local', [field('labelFormat', 'select')]), entry('postnord', [field('apiKey', 'password'), field('testMode', 'boolean')])];

describe('test mode of a carrier', () => {
  it('is on for a remote carrier unless switched off, never for local', () => {
    expect(hasTestMode(catalogue[0])).toBe(false);
    expect(hasTestMode(catalogue[1])).toBe(true);
    expect(inTestMode({ carrierSlug: 'postnord', config: {} }, catalogue)).toBe(true);
    expect(inTestMode({ carrierSlug: 'postnord', config: { testMode: true } }, catalogue)).toBe(true);
    expect(inTestMode({ carrierSlug: 'postnord', config: { testMode: false } }, catalogue)).toBe(false);
    expect(inTestMode({ carrierSlug: 'local', config: { testMode: true } }, catalogue)).toBe(false);
    // Before the catalogue is read nothing is claimed.
    expect(inTestMode({ carrierSlug: 'postnord', config: {} }, undefined)).toBe(false);
  });
});

describe('what a failed send asks of the user', () => {
  it('sends again after an unknown outcome (422), and confirms a rebook after a 409', () => {
    const unknown = new ApiError('CARRIER_OUTCOME_UNKNOWN', 'no answer');
    const refused = new ApiError('CARRIER_OUTCOME_UNKNOWN', 'cannot be asked', { status: 409 });
    expect(sendFailureStep(unknown)).toBe('send-again');
    expect(sendFailureAdvice(unknown)).toBe(SEND_AGAIN_ADVICE);
    expect(sendFailureStep(refused)).toBe('confirm-rebook');
    expect(sendFailureAdvice(refused)).toBe(CONFIRM_REBOOK_ADVICE);
    expect(sendFailureStep(new ApiError('CARRIER_ERROR', 'refused'))).toBeNull();
    expect(sendFailureAdvice(new Error('offline'))).toBeNull();
  });
});
