import { z } from 'zod';
import { email, timestamp } from './common';
import { roles } from '../scopes';

export const healthSchema = z.strictObject({
  status: z.literal('ok'),
  version: z.string(),
  timestamp: timestamp(),
});

export const loginBody = z.strictObject({
  email: email(),
  password: z.string().min(1).max(1000),
});

export const userSummarySchema = z.strictObject({ id: z.string(), name: z.string(), email: z.string() });

export const loginResponse = z.strictObject({
  accessToken: z.string(),
  tokenType: z.literal('Bearer'),
  expiresIn: z.number().int().describe('seconds'),
  user: userSummarySchema,
  orgs: z.array(z.strictObject({ id: z.string(), name: z.string(), role: z.enum(roles) })),
});

export const setupStatusSchema = z.strictObject({ needsSetup: z.boolean() });

/** A password a person chooses: the setup screen, `shipdesk init`, a new team member (docs/decisions.md). */
export const newPassword = () =>
  z
    .string()
    .min(8, 'At least 8 characters')
    .max(1000)
    // Eight spaces pass the length and are guessed first; spaces inside a passphrase are welcome.
    .refine((value) => value.trim() !== '', 'Not only spaces');

/** A user changes their own password; the answer is a new login, as the ones before stop working. */
export const passwordChangeBody = z.strictObject({
  currentPassword: z.string().min(1).max(1000),
  newPassword: newPassword(),
});
export type PasswordChangeInput = z.output<typeof passwordChangeBody>;

/** First run: the organization and its owner (decisions §3: the setup screen does what `shipdesk init` does). */
export const setupBody = z.strictObject({
  orgName: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  email: email(),
  password: newPassword(),
});
