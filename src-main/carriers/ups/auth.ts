import { createHash, randomBytes } from 'node:crypto';
import type { CarrierCallContext } from '../adapter';
import { carrierAuthFailed } from '../errors';
import type { CarrierRequest, CarrierResponse } from '../platform/carrierHttp';
import { carrierUrl } from '../platform/origin';
import { readAnswer, upsErrors } from './answers';
import { tokenResponseSchema, upsOrigins, upsPaths } from './contract';

/**
 * UPS's OAuth client credentials: the client ID and secret in a Basic header, `grant_type` in the
 * form, a bearer token back. One token is kept per credentials and endpoint until shortly before UPS
 * says it expires, and concurrent calls share the request that fetches it.
 */

/** Renewed this long before it expires, so no call leaves with a token about to lapse. */
const RENEW_BEFORE_MS = 5 * 60_000;
/** Named on every call (`transactionSrc`), so UPS can tell whose calls these are. */
export const TRANSACTION_SOURCE = 'shipdesk';

interface CachedToken {
  accessToken: string;
  expiresAt: number;
}

const tokens = new Map<string, CachedToken>();
const fetching = new Map<string, Promise<CachedToken>>();

export function upsCredentials(context: CarrierCallContext): { clientId: string; clientSecret: string } {
  const clientId = typeof context.config.clientId === 'string' ? context.config.clientId : '';
  const clientSecret = typeof context.config.clientSecret === 'string' ? context.config.clientSecret : '';
  return { clientId, clientSecret };
}

function cacheKey(context: CarrierCallContext): string {
  const { clientId, clientSecret } = upsCredentials(context);
  const secretHash = createHash('sha256').update(clientSecret).digest('hex');
  return `${carrierUrl(context.config, upsOrigins, upsPaths.token)}|${clientId}|${secretHash}`;
}

/** UPS asks for an identifier unique to each request, 32 characters at most. */
const transId = () => randomBytes(16).toString('hex');

async function requestToken(context: CarrierCallContext): Promise<CachedToken> {
  const { clientId, clientSecret } = upsCredentials(context);
  const response = await context.http.request({
    operation: 'token',
    method: 'POST',
    url: carrierUrl(context.config, upsOrigins, upsPaths.token),
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64')}` },
    form: { grant_type: 'client_credentials' },
    idempotent: true,
  });
  if (response.status >= 400) {
    // The token request carries nothing but the credentials: any refusal of it is a refusal of them.
    const errors = upsErrors(response);
    throw carrierAuthFailed(`UPS refused the client ID and secret: ${errors.map((error) => error.message).join('; ')}`, errors);
  }
  const answer = readAnswer(response, tokenResponseSchema, 'asking for a token', false);
  return { accessToken: answer.access_token, expiresAt: Date.now() + answer.expires_in * 1000 };
}

/** A token that is good for a while yet: the kept one, or a new one (`fresh`: never the kept one). */
export async function upsToken(context: CarrierCallContext, fresh = false): Promise<string> {
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
 * A call with the bearer token and UPS's request headers. A 401 means the gateway turned the token
 * away before UPS acted on the call (revoked, or expired early), so it is sent once more with a new one.
 */
export async function upsCall(
  context: CarrierCallContext,
  request: Omit<CarrierRequest, 'headers' | 'url'> & { path: string; headers?: Record<string, string> },
): Promise<CarrierResponse> {
  const { path, ...rest } = request;
  const send = async (token: string) =>
    context.http.request({
      ...rest,
      url: carrierUrl(context.config, upsOrigins, path),
      headers: { ...request.headers, authorization: `Bearer ${token}`, transid: transId(), transactionsrc: TRANSACTION_SOURCE },
    });
  const response = await send(await upsToken(context));
  if (response.status !== 401) return response;
  tokens.delete(cacheKey(context));
  return send(await upsToken(context, true));
}
