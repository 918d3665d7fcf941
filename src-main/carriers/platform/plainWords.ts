import type { CarrierErrorItem } from '../../../src-shared/errors';

/**
 * A plain sentence beside the carrier's own words for the failures a packer meets most (decisions
 * §13), so the screen says what to do and not only what the carrier's system called it.
 */
const commonFailures: readonly { test: RegExp; sentence: (carrier: string) => string }[] = [
  {
    test: /postal ?code|post ?code|zip|postcode/i,
    sentence: (carrier) => `${carrier} does not know the receiver's postal code: check it against the address, correct it and send again.`,
  },
  {
    test: /service ?point|parcel ?shop|pick-?up point|servicepoint|droppoint/i,
    sentence: () => `The chosen service point cannot take the parcel (closed or full): pick another service point and send again.`,
  },
  {
    test: /countr|destination not (allowed|served|supported)|not available for/i,
    sentence: (carrier) => `${carrier} does not offer this product to the receiver's country: choose another product or carrier.`,
  },
  {
    test: /weight|too heavy|dimension/i,
    sentence: () => `The parcel is outside what this product takes: check its weight and size, or choose another product.`,
  },
  {
    test: /phone|mobile|e-?mail/i,
    sentence: (carrier) => `${carrier} needs the receiver's phone number or e-mail for this service: add it and send again.`,
  },
];

export function plainSentence(errors: readonly CarrierErrorItem[] | 'auth', carrier: string): string {
  if (errors === 'auth') {
    return `Check the API key or password in the carrier's settings (test and production keys differ), use "Test connection", then send again.`;
  }
  const text = errors.map((error) => `${error.code} ${error.message}`).join(' ');
  return commonFailures.find((failure) => failure.test.test(text))?.sentence(carrier) ?? '';
}
