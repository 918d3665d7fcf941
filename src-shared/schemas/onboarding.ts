import { z } from 'zod';

/** The first-day checklist's steps, in the order they are shown (issue 20). */
export const onboardingStepIds = ['sender_address', 'carrier', 'order_channel', 'shipping_rule', 'printer', 'first_shipment'] as const;
export type OnboardingStepId = (typeof onboardingStepIds)[number];

export const onboardingSchema = z.strictObject({
  steps: z.array(
    z.strictObject({
      id: z.enum(onboardingStepIds),
      /** Computed from the data: a sender address exists, a carrier is ready, … */
      done: z.boolean(),
      skipped: z.boolean(),
    }),
  ),
  /** Every step is done or skipped. */
  complete: z.boolean(),
  /** Closed by the user before it was complete; reopened by `closed: false`. */
  closed: z.boolean(),
  /** Real carriers whose connection test has not passed yet (the carrier step waits for one). */
  carriersToTest: z.array(z.strictObject({ id: z.string(), name: z.string() })),
});
export type Onboarding = z.infer<typeof onboardingSchema>;

export const onboardingUpdateBody = z
  .strictObject({
    skip: z.enum(onboardingStepIds).optional(),
    unskip: z.enum(onboardingStepIds).optional(),
    closed: z.boolean().optional(),
  })
  .refine((body) => body.skip !== undefined || body.unskip !== undefined || body.closed !== undefined, {
    message: 'Give skip, unskip or closed',
  });
export type OnboardingUpdate = z.infer<typeof onboardingUpdateBody>;
