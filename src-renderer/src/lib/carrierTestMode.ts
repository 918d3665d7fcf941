import type { AvailableCarrier, Carrier } from '../../../src-shared/schemas/carrier';

/**
 * decisions §13: a carrier reached over the network books in its sandbox until `testMode` is switched
 * off, and every screen and label preview of it says TEST. Which carriers have the switch is in the
 * catalogue (the platform adds `testMode` to every remote carrier), so `local` is never in test mode.
 */
export function hasTestMode(entry: Pick<AvailableCarrier, 'requiredFields' | 'optionalFields'> | undefined): boolean {
  return !!entry && [...entry.requiredFields, ...entry.optionalFields].some((field) => field.key === 'testMode' && field.type === 'boolean');
}

/** On unless it was switched off: a carrier saved without the field books in its sandbox. */
export function inTestMode(carrier: Pick<Carrier, 'config' | 'carrierSlug'>, catalogue: readonly AvailableCarrier[] | undefined): boolean {
  const entry = catalogue?.find((item) => item.slug === carrier.carrierSlug);
  return hasTestMode(entry) && carrier.config.testMode !== false;
}
