import { createHash } from 'node:crypto';
import type { CarrierCallContext } from '../adapter';
import { carrierAuthFailed } from '../errors';
import type { CarrierRequest, CarrierResponse } from '../platform/carrierHttp';
import { carrierUrl } from '../platform/origin';
import { glsErrors, readAnswer } from './answers';
import { glsOrigins, glsPaths, tokenResponseSchema } from './contract';

/**
 * GLS's Authentication API v2: OAuth 2 client credentials, the client ID and secret in a Basic header
 * and `grant_type` in the form. A token lives up to four hours and GLS caps token requests per app and
 * day, so one is kept per credentials and endpoint until shortly before it expires, and concurrent
 * calls share the request that fetches it.
 */

/** Renewed this long before GLS says it expires, so a call never leaves with a token about to lapse. */
const RENEW_BEFORE_MS = 5 * 60_000;

interface CachedToken {
  accessToken: string;
  expiresAt: number;
}

const tokens = new Map<string, CachedToken>();
const fetching = new Map<string, Promise<CachedToken>>();

export function glsCredentials(context: CarrierCallContext): { clientId: string; clientSecret: string } {
  const clientId = typeof context.config.clientId === 'string' ? context.config.clientId : '';
  const clientSecret = typeof context.config.clientSecret === 'string' ? context.config.clientSecret : '';
  return { clientId, clientSecret };
}

function cacheKey(context: CarrierCallContext): string {
  const { clientId, clientSecret } = glsCredentials(context);
  const secretHash = createHash('sha256').update(clientSecret).digest('hex');
  return `${carrierUrl(context.config, glsOrigins, glsPaths.token)}|${clientId}|${secretHash}`;
}

/** Asks GLS for a token; idempotent, so the platform may send it again after a lost answer. */
async function requestToken(context: CarrierCallContext): Promise<CachedToken> {
  const { clientId, clientSecret } = glsCredentials(context);
  const response = await context.http.request({
    operation: 'token',
    method: 'POST',
    url: carrierUrl(context.config, glsOrigins, glsPaths.token),
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64')}` },
    form: { grant_type: 'client_credentials' },
    idempotent: true,
  });
  if (response.status >= 400) {
    // The token request carries nothing but the credentials: any refusal of it is a refusal of them.
    const errors = glsErrors(response);
    throw carrierAuthFailed(`GLS refused the client ID and secret: ${errors.map((error) => error.message).join('; ')}`, errors);
  }
  const answer = readAnswer(response, tokenResponseSchema, 'asking for a token', false);
  return { accessToken: answer.access_token, expiresAt: Date.now() + answer.expires_in * 1000 };
}

/** A token that is good for a while yet: the kept one, or a new one (`fresh`: never the kept one). */
export async function glsToken(context: CarrierCallContext, fresh = false): Promise<string> {
  const key = cacheKey(context);
  const kept = tokens.get(key);
  if (!fresh && kept && kept.expiresAt - RENEW_BEFORE_MS > Date.now()) return kept.accessToken;
  let pending = fetching.get(key);
  if (!pending) {
    pending = requestToken(context).finally(() => fetching.delete(key));
    fetching.set(key, pending);
  }
  const token = await pending;
  tokens.set(key, token);
  return token.accessToken;
}

/**
 * A call with the bearer token. A 401 means the gateway turned the token away before GLS saw the call
 * (revoked, or expired early), so the call is sent once more with a new token, booking included.
 */
export async function glsCall(
  context: CarrierCallContext,
  request: Omit<CarrierRequest, 'headers'> & { headers?: Record<string, string> },
): Promise<CarrierResponse> {
  const send = async (token: string) => context.http.request({ ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } });
  const response = await send(await glsToken(context));
  if (response.status !== 401) return response;
  tokens.delete(cacheKey(context));
  return send(await glsToken(context, true));
}
