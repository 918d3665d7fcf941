import type { OnboardingStepId } from '../../../../src-shared/schemas/onboarding';

/** The checklist's step names, as the strip and the Getting started screen show them. */
export const stepTitles: Record<OnboardingStepId, string> = {
  sender_address: 'Sender address',
  carrier: 'Carrier',
  order_channel: 'Order channel',
  shipping_rule: 'Shipping rule',
  printer: 'Printer',
  first_shipment: 'First shipment',
};
