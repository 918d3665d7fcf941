import { randomBytes } from 'node:crypto';
import type { CarrierCallContext } from '../adapter';
import type { CarrierRequest, CarrierResponse } from '../platform/carrierHttp';
import { clientCredentialsOf, clientCredentialsTokens } from '../platform/clientCredentials';
import { carrierUrl } from '../platform/origin';
import { readAnswer, upsErrors } from './answers';
import { tokenResponseSchema, upsOrigins, upsPaths } from './contract';

/**
 * UPS's OAuth client credentials (platform/clientCredentials.ts): the kept token until shortly before
 * UPS says it expires.
 */

/** Named on every call (`transactionSrc`), so UPS can tell whose calls these are. */
export const TRANSACTION_SOURCE = 'shipdesk';

const tokens = clientCredentialsTokens({
  carrierName: 'UPS',
  tokenUrl: (context) => carrierUrl(context.config, upsOrigins, upsPaths.token),
  errorsOf: upsErrors,
  readToken: (response) => readAnswer(response, tokenResponseSchema, 'asking for a token', false),
});

export const upsCredentials = clientCredentialsOf;
export const upsToken = tokens.token;

/** UPS asks for an identifier unique to each request, 32 characters at most. */
const transId = () => randomBytes(16).toString('hex');

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
  tokens.forget(context);
  return send(await upsToken(context, true));
}
