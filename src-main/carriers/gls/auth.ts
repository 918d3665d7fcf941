import type { CarrierCallContext } from '../adapter';
import type { CarrierRequest, CarrierResponse } from '../platform/carrierHttp';
import { clientCredentialsOf, clientCredentialsTokens } from '../platform/clientCredentials';
import { carrierUrl } from '../platform/origin';
import { glsErrors, readAnswer } from './answers';
import { glsOrigins, glsPaths, tokenResponseSchema } from './contract';

/**
 * GLS's Authentication API v2: OAuth 2 client credentials (platform/clientCredentials.ts). A token
 * lives up to four hours and GLS caps token requests per app and day, so the kept one is used.
 */

const tokens = clientCredentialsTokens({
  carrierName: 'GLS',
  tokenUrl: (context) => carrierUrl(context.config, glsOrigins, glsPaths.token),
  errorsOf: glsErrors,
  readToken: (response) => readAnswer(response, tokenResponseSchema, 'asking for a token', false),
});

export const glsCredentials = clientCredentialsOf;
export const glsToken = tokens.token;

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
  tokens.forget(context);
  return send(await glsToken(context, true));
}
