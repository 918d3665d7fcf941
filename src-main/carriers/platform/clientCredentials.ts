import { createHash } from 'node:crypto';
import type { CarrierErrorItem } from '../../../src-shared/errors';
import type { CarrierCallContext } from '../adapter';
import { carrierAuthFailed } from '../errors';
import type { CarrierResponse } from './carrierHttp';

/**
 * OAuth 2 client credentials as carriers use them (GLS, UPS): the client ID and secret in a Basic
 * header, `grant_type` in the form, a bearer token back. One token is kept per credentials and token
 * endpoint until shortly before it expires (carriers cap token requests), and concurrent calls share
 * the request that fetches it.
 */

/** Renewed this long before the carrier says it expires, so a call never leaves with a token about to lapse. */
const RENEW_BEFORE_MS = 5 * 60_000;

interface CachedToken {
  accessToken: string;
  expiresAt: number;
}

export interface ClientCredentialsGrant {
  /** The carrier's name, for the sentence when it refuses the credentials. */
  carrierName: string;
  tokenUrl: (context: CarrierCallContext) => string;
  /** The carrier's errors in a refusal, in its own words. */
  errorsOf: (response: CarrierResponse) => CarrierErrorItem[];
  /** The token answer, read with the carrier's own schema. */
  readToken: (response: CarrierResponse) => { access_token: string; expires_in: number };
}

export function clientCredentialsOf(context: CarrierCallContext): { clientId: string; clientSecret: string } {
  const clientId = typeof context.config.clientId === 'string' ? context.config.clientId : '';
  const clientSecret = typeof context.config.clientSecret === 'string' ? context.config.clientSecret : '';
  return { clientId, clientSecret };
}

export interface TokenKeeper {
  /** A token that is good for a while yet: the kept one, or a new one (`fresh`: never the kept one). */
  token: (context: CarrierCallContext, fresh?: boolean) => Promise<string>;
  /** Drops the kept token, after the carrier turned it away. */
  forget: (context: CarrierCallContext) => void;
}

export function clientCredentialsTokens(grant: ClientCredentialsGrant): TokenKeeper {
  const tokens = new Map<string, CachedToken>();
  const fetching = new Map<string, Promise<CachedToken>>();

  const cacheKey = (context: CarrierCallContext) => {
    const { clientId, clientSecret } = clientCredentialsOf(context);
    // The secret is keyed by its hash, so it is never held as a map key in the clear.
    const secretHash = createHash('sha256').update(clientSecret).digest('hex');
    return `${grant.tokenUrl(context)}|${clientId}|${secretHash}`;
  };

  /** Idempotent, so the platform may send it again after a lost answer. */
  async function requestToken(context: CarrierCallContext): Promise<CachedToken> {
    const { clientId, clientSecret } = clientCredentialsOf(context);
    const response = await context.http.request({
      operation: 'token',
      method: 'POST',
      url: grant.tokenUrl(context),
      headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64')}` },
      form: { grant_type: 'client_credentials' },
      idempotent: true,
    });
    if (response.status >= 400) {
      // The token request carries nothing but the credentials: any refusal of it is a refusal of them.
      const errors = grant.errorsOf(response);
      throw carrierAuthFailed(`${grant.carrierName} refused the client ID and secret: ${errors.map((error) => error.message).join('; ')}`, errors);
    }
    const answer = grant.readToken(response);
    return { accessToken: answer.access_token, expiresAt: Date.now() + answer.expires_in * 1000 };
  }

  return {
    async token(context, fresh = false) {
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
    },
    forget(context) {
      tokens.delete(cacheKey(context));
    },
  };
}
