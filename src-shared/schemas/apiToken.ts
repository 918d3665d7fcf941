import { z } from 'zod';
import { MAX_TEXT, timestamp } from './common';
import { scopeValues, type Scope } from '../scopes';
import { userSummarySchema } from './system';

export const TOKEN_PREFIX = 'shpd_';
export const scopeSchema = z.enum(scopeValues as [Scope, ...Scope[]]);

export const apiTokenSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  tokenPrefix: z.string(),
  scopes: z.array(z.string()),
  lastUsedAt: timestamp().nullable(),
  expiresAt: timestamp().nullable(),
  createdAt: timestamp(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const apiTokenCreatedSchema = apiTokenSchema.extend({
  token: z.string().describe('The full token. Shown once, in this response only.'),
});
export const apiTokenDetailSchema = apiTokenSchema.extend({ createdBy: userSummarySchema });

export const apiTokenCreateBody = z.strictObject({
  name: z.string().min(1).max(100),
  scopes: z.array(scopeSchema).min(1).max(scopeValues.length),
  expiresInDays: z.number().int().min(1).max(365).optional(),
});
export const apiTokenUpdateBody = z.strictObject({ name: z.string().min(1).max(100) });

/** Verifies the given token, or the request's own credential when no body is sent. */
export const apiTokenVerifyBody = z.strictObject({ token: z.string().min(1).max(MAX_TEXT).optional() }).optional();

export const apiTokenVerifyResponse = z.strictObject({
  valid: z.literal(true),
  type: z.enum(['api_token', 'jwt']),
  tokenId: z.string().nullable(),
  tokenPrefix: z.string().nullable(),
  orgId: z.string().nullable(),
  scopes: z.array(z.string()),
  expiresAt: timestamp().nullable(),
  user: userSummarySchema,
});
